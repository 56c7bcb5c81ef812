/// The expression as one string bound into the SQL, and read back.
extension PhraseCheck {
  /// A compact form that ``init(encoded:)`` reads back: `&` and `|` groups in
  /// parentheses; a phrase as `"` words separated by U+001F, a `*` when the
  /// last word is a prefix, and the column's index after `@`.
  public var encoded: String {
    switch self {
    case .and(let parts): return "&(" + parts.map(\.encoded).joined(separator: "\u{1E}") + ")"
    case .or(let parts): return "|(" + parts.map(\.encoded).joined(separator: "\u{1E}") + ")"
    case .phrase(let words, let prefix, let column):
      return "\"" + words.joined(separator: "\u{1F}") + (prefix ? "*" : "")
        + (column.map { "@\($0)" } ?? "") + "\u{1D}"
    }
  }

  public init?(encoded text: String) {
    var scalars = Substring(text)
    guard let check = Self.parse(&scalars), scalars.isEmpty else { return nil }
    self = check
  }

  private static func parse(_ text: inout Substring) -> PhraseCheck? {
    if text.hasPrefix("&(") || text.hasPrefix("|(") {
      let isAnd = text.first == "&"
      text = text.dropFirst(2)
      var parts: [PhraseCheck] = []
      while !text.hasPrefix(")") {
        guard let part = parse(&text) else { return nil }
        parts.append(part)
        if text.hasPrefix("\u{1E}") { text = text.dropFirst() }
      }
      text = text.dropFirst()
      return isAnd ? .and(parts) : .or(parts)
    }
    guard text.hasPrefix("\""), let end = text.firstIndex(of: "\u{1D}") else { return nil }
    var body = text[text.index(after: text.startIndex)..<end]
    text = text[text.index(after: end)...]
    var column: Int?
    if let at = body.lastIndex(of: "@") {
      column = Int(body[body.index(after: at)...])
      body = body[..<at]
    }
    let prefix = body.hasSuffix("*")
    if prefix { body = body.dropLast() }
    return .phrase(
      body.split(separator: "\u{1F}", omittingEmptySubsequences: true).map(String.init),
      prefix: prefix, column: column)
  }
}
