import LimelightModel

/// Web pages: the title, the keywords and description of their `<meta>` tags,
/// and the visible text (scripts and styles left out).
public struct HTMLImporter: ContentImporter {
  public var contentTypes: [String] { ["text/html", "application/xhtml+xml"] }

  public init() {}

  public func importContent(_ request: ImportRequest, into attributes: inout AttributeSet) throws {
    let bytes = try request.contents(limit: request.limits.maxDocumentBytes)
    guard let source = TextDecoder.decode(bytes, truncated: false, charset: Self.charset(bytes))
    else { throw ImportFailure.malformed("not text") }
    let page = MarkupText(source, limit: request.limits.maxTextBytes)
    attributes.title = page.title.map { String($0.prefix(AttributeSet.descriptionLimit)) }
    if let keywords = page.meta["keywords"] {
      attributes.keywords += keywords.split(separator: ",")
        .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.prefix(100)
    }
    if let author = page.meta["author"] { attributes.authors = [author] }
    attributes.textContent = page.text
    attributes.contentDescription =
      (page.meta["description"] ?? page.meta["og:description"]).flatMap(AttributeSet.summary)
      ?? AttributeSet.summary(of: page.text)
  }

  /// The charset a page declares in its first kilobytes (`<meta charset=…>` or
  /// `content="text/html; charset=…"`), for pages not in UTF-8.
  static func charset(_ bytes: [UInt8]) -> String? {
    let head = String(decoding: bytes.prefix(4096), as: UTF8.self).lowercased()
    guard let range = head.range(of: "charset=") else { return nil }
    let value = head[range.upperBound...].drop { $0 == "\"" || $0 == "'" }
      .prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    return value.isEmpty ? nil : String(value)
  }
}
