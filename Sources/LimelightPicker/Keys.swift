/// A key the picker acts on, decoded from the bytes a terminal sends.
public enum PickerKey: Equatable, Sendable {
  /// Text typed into the query (one or more characters).
  case text(String)
  case backspace
  /// Ctrl-U: clear the query.
  case clearLine
  /// Ctrl-W: delete the word before the cursor.
  case deleteWord
  case up, down, pageUp, pageDown
  /// Enter: open the selected result.
  case open
  /// Alt-Enter or Ctrl-O: open the folder that holds it.
  case openFolder
  /// Tab: print the selected URIs and leave.
  case print
  /// Ctrl-T: mark or unmark the selected result for printing.
  case mark
  /// Esc, Ctrl-C, or Ctrl-D on an empty query: leave without choosing.
  case quit
  /// Ctrl-D, when the query is not empty: nothing.
  case endOfInput
}

extension PickerKey {
  /// Whether the key changes the query (and the results with it).
  var editsQuery: Bool {
    switch self {
    case .text, .backspace, .clearLine, .deleteWord: return true
    default: return false
    }
  }
}

/// Turns terminal input into keys. Escape sequences may arrive split across
/// reads: an incomplete one is kept until more bytes come, or taken as a lone
/// Esc when `flush` says no more are coming.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  public init() {}

  /// Whether bytes of an unfinished escape sequence wait for more.
  public var isWaiting: Bool { !pending.isEmpty }

  /// The keys these bytes complete.
  public mutating func decode(_ bytes: [UInt8]) -> [PickerKey] {
    pending += bytes
    var keys: [PickerKey] = []
    var index = 0
    var text: [UInt8] = []
    func flushText() {
      if !text.isEmpty {
        keys.append(.text(String(decoding: text, as: UTF8.self)))
        text.removeAll()
      }
    }
    while index < pending.count {
      let byte = pending[index]
      if byte == 0x1B {
        guard let (key, length) = Self.escape(pending[index...]) else { break }
        flushText()
        if let key { keys.append(key) }
        index += length
        continue
      }
      if byte >= 0x80 {
        // A UTF-8 character: wait for all of its bytes.
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        guard index + length <= pending.count else { break }
        text += pending[index..<index + length]
        index += length
        continue
      }
      index += 1
      if byte >= 0x20 && byte != 0x7F {
        text.append(byte)
        continue
      }
      flushText()
      switch byte {
      case 0x7F, 0x08: keys.append(.backspace)
      case 0x0D, 0x0A: keys.append(.open)
      case 0x09: keys.append(.print)
      case 0x0F: keys.append(.openFolder)
      case 0x0E: keys.append(.down)
      case 0x10: keys.append(.up)
      case 0x15: keys.append(.clearLine)
      case 0x17: keys.append(.deleteWord)
      case 0x14: keys.append(.mark)
      case 0x03: keys.append(.quit)
      case 0x04: keys.append(.endOfInput)
      default: break  // Other control characters do nothing.
      }
    }
    flushText()
    pending.removeFirst(index)
    return keys
  }

  /// No more bytes are coming soon: an unfinished sequence was a lone Esc
  /// (or Alt with a key).
  public mutating func flush() -> [PickerKey] {
    guard !pending.isEmpty else { return [] }
    let rest = pending.dropFirst()
    pending.removeAll()
    return rest.isEmpty ? [.quit] : decode(Array(rest))
  }

  /// The key an escape sequence at the start of `bytes` means (nil for one the
  /// picker ignores) and its length; nil when the sequence is not complete.
  static func escape(_ bytes: ArraySlice<UInt8>) -> (PickerKey?, Int)? {
    let start = bytes.startIndex
    guard bytes.count >= 2 else { return nil }
    let second = bytes[start + 1]
    switch second {
    case 0x0D, 0x0A: return (.openFolder, 2)  // Alt-Enter
    case 0x1B: return (.quit, 1)  // Esc, then another sequence
    case UInt8(ascii: "["), UInt8(ascii: "O"):
      // CSI or SS3: parameters, then a final byte from @ to ~.
      var index = start + 2
      while index < bytes.endIndex {
        let byte = bytes[index]
        if byte >= 0x40 && byte <= 0x7E {
          let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
          let length = index - start + 1
          switch (byte, parameters) {
          case (UInt8(ascii: "A"), _): return (.up, length)
          case (UInt8(ascii: "B"), _): return (.down, length)
          case (UInt8(ascii: "~"), "5"): return (.pageUp, length)
          case (UInt8(ascii: "~"), "6"): return (.pageDown, length)
          case (UInt8(ascii: "M"), _) where second == UInt8(ascii: "O"): return (.open, length)
          default: return (nil, length)
          }
        }
        index += 1
      }
      return nil
    default:
      return (nil, 2)  // Alt with another key: ignored.
    }
  }
}
