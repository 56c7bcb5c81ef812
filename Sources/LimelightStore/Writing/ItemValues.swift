import Foundation
import GRDB
import LimelightModel
import LimelightPlatform
import Synchronization

/// Values an item's row is written with: ids, and lists as the row keeps
/// them (spaced words, JSON).
extension IndexWriter {
  /// A new item's id: `f` and 16 hex digits, in the order ids are made,
  /// so that the index of ids grows at its end as the rows do (a random id
  /// sent each new row to a random page of it: 4 GB more of log in a
  /// million entries' first pass). Microseconds, never the same twice in a
  /// process, above ten bits drawn once a process, so that two processes
  /// writing in the same microsecond make different ids.
  static func newFileID() -> String {
    let now = UInt64(max(0, Date().timeIntervalSince1970) * 1_000_000)
    let time = lastIDTime.withLock { last in
      last = max(last + 1, now)
      return last
    }
    let hex = String(time << 10 | idSalt, radix: 16)
    return "f" + String(repeating: "0", count: max(0, 16 - hex.count)) + hex
  }

  /// The time of the last id this process made (``newFileID()``).
  private static let lastIDTime = Mutex<UInt64>(0)
  private static let idSalt = UInt64.random(in: 0..<1024)

  static func spaced(_ words: [String]) -> String {
    words.isEmpty ? "" : " " + words.joined(separator: " ") + " "
  }

  /// The strings of a stored JSON array or object (authors, custom attributes).
  static func strings(inJSON text: String?) -> [String] {
    guard text != "[]", let data = text?.data(using: .utf8),
      let value = try? JSONSerialization.jsonObject(with: data)
    else { return [] }
    func collect(_ value: Any) -> [String] {
      switch value {
      case let text as String: return [text]
      case let array as [Any]: return array.flatMap(collect)
      case let object as [String: Any]: return object.keys.sorted().flatMap { collect(object[$0]!) }
      default: return []
      }
    }
    return collect(value)
  }

  /// The words of stored custom attributes, as ``AttributeValue/searchableText``
  /// has them: dates (stored as ISO 8601 text) are not words anyone searches for.
  static func searchableStrings(inCustomAttributes text: String?) -> [String] {
    strings(inJSON: text).filter { $0.wholeMatch(of: /\d{4}-\d\d-\d\dT.*/) == nil }
  }

  /// Type-specific attributes as a JSON object, its keys sorted; nil when
  /// there are none, or a number is not finite (JSON has no such numbers).
  /// Written here rather than by Foundation's encoder, which took a
  /// thirteenth of a first crawl's writing for 30,000 small objects.
  static func json(_ extra: [String: AttributeValue]) -> String? {
    if extra.isEmpty { return nil }
    var out = "{"
    for (index, key) in extra.keys.sorted().enumerated() {
      if index > 0 { out += "," }
      appendJSON(key, to: &out)
      out += ":"
      switch extra[key]! {
      case .string(let text): appendJSON(text, to: &out)
      case .strings(let texts): appendJSON(texts, to: &out)
      case .number(let number):
        guard number.isFinite else { return nil }
        out += AttributeValue.wholeNumber(number).map(String.init) ?? "\(number)"
      case .date(let date): appendJSON(AttributeValue.jsonDate(date), to: &out)
      }
    }
    return out + "}"
  }

  /// `texts` as a JSON array of strings.
  private static func appendJSON(_ texts: [String], to out: inout String) {
    out += "["
    for (index, text) in texts.enumerated() {
      if index > 0 { out += "," }
      appendJSON(text, to: &out)
    }
    out += "]"
  }

  /// `text` as a JSON string, escaped as Foundation's encoder escapes it.
  private static func appendJSON(_ text: String, to out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "/": out += "\\/"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case _ where scalar.value < 0x20:
        out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }

  /// Keywords or authors as a JSON array (Foundation's encoder cost a
  /// burst's writing thread a twentieth of its time, for "[]" mostly).
  static func json(_ strings: [String]) -> String {
    var out = ""
    appendJSON(strings, to: &out)
    return out
  }
}
