import Foundation

/// The text a manual page shows, read from its roff source (man or mdoc
/// macros): requests that only lay the page out are left out, the words of
/// those that carry text (`.SH`, `.B`, `.IR`, `.Nm`, `.Nd`, …) kept, and
/// escapes turned into the characters they stand for or dropped.
public struct ManPageText: Equatable, Sendable {
  /// The page's text, one line per source line that has any.
  public var text: String
  /// The first section's first paragraph: the NAME line, "ls - list
  /// directory contents", in the page's own language.
  public var name: String?

  /// The text of a page, or nil when the source holds no page header or
  /// section heading (a rotated log named `syslog.1` is not a manual page).
  public init?(source: String) {
    var source = source
    guard let page = source.withUTF8(Self.read) else { return nil }
    self = page
  }

  private init(lines: [String], name: [String]) {
    text = lines.joined(separator: "\n")
    let joined = Self.words(name.joined(separator: " "), droppingQuotes: false)
    self.name = joined.isEmpty ? nil : joined
  }

  /// Reads a page line by line, byte by byte: a page is mostly ASCII, and
  /// reading it by characters took more time than the rest of its import.
  private static func read(_ source: UnsafeBufferPointer<UInt8>) -> ManPageText? {
    var lines: [String] = []
    var name: [String] = []
    var sections = 0
    var inName = false
    var sawHeader = false
    var lineStart = 0
    /// The request that ends the macro definition or ignored block being
    /// read (`..`, or the name `.de xx yy` gave): its lines are no text.
    var definitionEnd: String?
    while lineStart <= source.count {
      var lineEnd = source[lineStart...].firstIndex(of: newline) ?? source.count
      defer { lineStart = lineEnd + 1 }
      if lineEnd > lineStart && source[lineEnd - 1] == carriageReturn { lineEnd -= 1 }
      let line = UnsafeBufferPointer(rebasing: source[lineStart..<lineEnd])
      if let first = line.first, first == UInt8(ascii: ".") || first == UInt8(ascii: "'") {
        var at = 1
        while at < line.count, isBlank(line[at]) { at += 1 }
        let requestStart = at
        while at < line.count, !isBlank(line[at]) { at += 1 }
        let request = String(decoding: line[requestStart..<at], as: UTF8.self)
        let arguments = UnsafeBufferPointer(rebasing: line[at...])
        if let end = definitionEnd {
          if request == end || (end == "." && request.isEmpty) { definitionEnd = nil }
          continue
        }
        if request.hasPrefix("\\\"") { continue }  // a comment
        if definitions.contains(request) {
          // Its names, not an inline comment after them (`.de Sp \" space`).
          let names = String(decoding: arguments, as: UTF8.self)
            .components(separatedBy: "\\\"")[0].split(whereSeparator: \.isWhitespace)
          let ender = request == "ig" ? names.first : names.dropFirst().first
          definitionEnd = ender.map { String($0) } ?? "."
          continue
        }
        switch request {
        case "TH", "Dd", "Dt": sawHeader = true
        case "SH", "Sh":
          sawHeader = true
          sections += 1
          inName = sections == 1
          if let heading = words(of: arguments) { lines.append(heading) }
          continue
        case "PP", "LP", "P", "Pp", "sp":
          if inName && !name.isEmpty { inName = false }
        default: break
        }
        guard !layoutRequests.contains(request), var words = words(of: arguments) else {
          continue
        }
        if request == "Nd" { words = "- " + words }
        lines.append(words)
        if inName { name.append(words) }
        continue
      }
      if definitionEnd != nil { continue }
      let text = trimmed(plain(line))
      guard !text.isEmpty else {
        if inName && !name.isEmpty { inName = false }
        continue
      }
      lines.append(text)
      if inName { name.append(text) }
    }
    guard sawHeader else { return nil }
    return ManPageText(lines: lines, name: name)
  }

  private static let newline = UInt8(ascii: "\n")
  private static let carriageReturn = UInt8(ascii: "\r")
  private static let backslash = UInt8(ascii: "\\")

  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
  }

  /// A line without the spaces at its ends (tabs, and every space
  /// separator of Unicode: no-break, ideographic).
  static func trimmed(_ text: String) -> String {
    let isSpace = { (scalar: Unicode.Scalar) in
      scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
    }
    let scalars = text.unicodeScalars
    guard let first = scalars.firstIndex(where: { !isSpace($0) }),
      let last = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) {
      return text
    }
    return String(scalars[first...last])
  }

  /// Requests whose lines up to `..` (or the name they give) define a
  /// macro or are ignored: none is text of the page.
  static let definitions: Set<String> = ["de", "de1", "dei", "am", "am1", "ami", "ig"]

  /// Requests and macros whose arguments are no text of the page (those
  /// of ``definitions`` are passed over with their lines before).
  static let layoutRequests: Set<String> = [
    "TH", "Dd", "Dt", "Os", "if", "ie", "el", "nr", "ds", "so", "ft", "in",
    "ti", "ta", "ne", "hy", "nh", "ad", "na", "fi", "nf", "br", "sp", "bp", "ll", "ps", "vs",
    "PD", "RS", "RE", "TP", "TQ", "PP", "LP", "P", "HP", "Pp", "Bl", "El", "Bd", "Ed", "Bk", "Ek",
    "EX", "EE", "UE", "ME", "YS", "cs", "ss", "tr", "mk", "rt", "rm", "rn", "..", "\\}",
    "Dl", "Lk", "als", "mso", "LINKSTYLE", "hw", "do", "ev", "cc", "c2", "char", "ds1", "pso",
    "nroff", "troff", "hc", "lf", "ab", "tm", "fam", "fcolor", "gcolor", "UC", "AT", "DT", "IX",
    "Sp", "Vb", "Ve", "ns", "rs", "po", "pl", "ul", "wh", "ch", "it", "lt", "pc", "em", "nx", "fl",
    "rr", "rnn", "aln", "af", "shc", "sy", "pi", "cf", "trf", "ecs", "eo", "ec", "lc", "fc", "mc",
    "nm", "nn", "ls", "ce", "rj",
  ]

  /// A request's arguments as words: quotes and escapes gone.
  static func words(of arguments: UnsafeBufferPointer<UInt8>) -> String? {
    let text = words(plain(arguments), droppingQuotes: true)
    return text.isEmpty ? nil : text
  }

  /// A text's words, one space between (and its quotes gone, when asked).
  static func words(_ text: String, droppingQuotes: Bool) -> String {
    guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
      return (droppingQuotes ? text.filter { $0 != "\"" } : text)
        .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
    // ASCII: by bytes, not by characters.
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    var space = false
    for byte in text.utf8 {
      if byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte) {
        space = !out.isEmpty
      } else if !(droppingQuotes && byte == UInt8(ascii: "\"")) {
        if space { out.append(UInt8(ascii: " ")) }
        space = false
        out.append(byte)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Named characters a page commonly writes as escapes.
  static let namedCharacters: [String: String] = [
    "em": "—", "en": "–", "hy": "-", "aq": "'", "dq": "\"", "lq": "“", "rq": "”", "oq": "‘",
    "cq": "’", "bu": "•", "co": "©", "rg": "®", "tm": "™", "mi": "-", "pl": "+", "mu": "×",
    "di": "÷", "<=": "≤", ">=": "≥", "->": "→", "<-": "←", "de": "°", "ti": "~", "ha": "^",
    "rs": "\\", "ba": "|", "or": "|", "sl": "/", "at": "@", "sh": "#", "Do": "$", "ga": "`",
    "aa": "´", "lB": "[", "rB": "]", "lC": "{", "rC": "}", "la": "⟨", "ra": "⟩",
  ]

  /// A line with its escapes resolved and an inline comment (`\"`) cut.
  static func plain(_ line: UnsafeBufferPointer<UInt8>) -> String {
    guard line.contains(backslash) else { return String(decoding: line, as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(line.count)
    var at = 0
    /// Past `count` characters from `at`.
    func skip(_ count: Int) {
      for _ in 0..<count where at < line.count {
        at += 1
        while at < line.count, line[at] & 0xC0 == 0x80 { at += 1 }
      }
    }
    /// The bytes up to the next `close` (past it), or to the end.
    func through(_ close: UInt8) -> UnsafeBufferPointer<UInt8> {
      let end = line[at...].firstIndex(of: close) ?? line.count
      defer { at = min(end + 1, line.count) }
      return UnsafeBufferPointer(rebasing: line[at..<end])
    }
    /// A named character's text: `(xx` read, or `[name]`.
    func named(_ name: UnsafeBufferPointer<UInt8>) {
      out.append(contentsOf: (namedCharacters[String(decoding: name, as: UTF8.self)] ?? "").utf8)
    }
    /// An escape's name dropped: a two-letter `(xx`, a `[name]`, or else
    /// what `other` skips.
    func dropName(other: () -> Void) {
      if at < line.count && line[at] == UInt8(ascii: "(") {
        skip(3)
      } else if at < line.count && line[at] == UInt8(ascii: "[") {
        _ = through(UInt8(ascii: "]"))
      } else {
        other()
      }
    }
    while at < line.count {
      let byte = line[at]
      at += 1
      guard byte == backslash else {
        out.append(byte)
        continue
      }
      guard at < line.count else { break }
      let escape = Unicode.Scalar(line[at])
      at += 1
      switch escape {
      case "\"", "#": return String(decoding: out, as: UTF8.self)  // the rest is a comment
      case "-": out.append(UInt8(ascii: "-"))
      case "e", "\\": out.append(backslash)
      case " ", "~", "0": out.append(UInt8(ascii: " "))
      case "&", "|", "^", "%", ":", "c", "d", "u", "/", ",", "{", "}", "a", "t", "p", "r":
        break
      case "(":
        let start = at
        skip(2)
        named(UnsafeBufferPointer(rebasing: line[start..<at]))
      case "[":
        named(through(UInt8(ascii: "]")))
      case "f", "*", "n", "F", "m", "M", "g", "k", "V", "Y":
        // A font, string or register by a one-letter, (xx or [name] name.
        dropName { skip(1) }
      case "s":
        // A size change: \s0, \s-1, \s+2, \s(12, \s[12].
        if at < line.count && (line[at] == UInt8(ascii: "+") || line[at] == UInt8(ascii: "-")) {
          at += 1
        }
        dropName {
          while at < line.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[at]) {
            at += 1
          }
        }
      case "h", "v", "w", "o", "l", "L", "D", "X", "b", "x", "N", "Z", "A", "B", "R", "C", "S", "H":
        // A quoted argument that draws or moves rather than writes.
        if at < line.count && line[at] == UInt8(ascii: "'") {
          at += 1
          _ = through(UInt8(ascii: "'"))
        }
      default:
        // Any other character stands for itself (the rest of its bytes
        // follow in the loop).
        out.append(line[at - 1])
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
