import LimelightModel
import LimelightPlatform

/// Plain text and source code in any common encoding (detected, never binary
/// garbage); Markdown, whose first heading is its title; manual pages, as
/// they read (``ManPageText``).
public struct TextImporter: ContentImporter {
  public var contentTypes: [String] { ["text/plain"] }
  let magic: Magic

  public init(magic: Magic) { self.magic = magic }

  public func importContent(_ request: ImportRequest, into attributes: inout AttributeSet) throws {
    let max = request.limits.maxTextBytes
    let wholeFileInHead = request.head.count < FileImporter.headSize
    let bytes =
      wholeFileInHead ? request.head : try FileSystem.readPrefix(request.path, limit: max + 1)
    describe(bytes, limit: max, types: request.contentTypeTree, into: &attributes)
  }

  /// Sets what text `bytes` hold (at most `limit` of them are read) says of
  /// itself, as a file of these types: its text, summary and title.
  public func describe(
    _ bytes: [UInt8], limit: Int, types: [String], into attributes: inout AttributeSet
  ) {
    let truncated = bytes.count > limit
    let body = truncated ? Array(bytes.prefix(limit)) : bytes
    let needsCharset = String(validating: body.prefix(65_536), as: UTF8.self) == nil
    let charset = needsCharset ? magic.encoding(of: body.prefix(65_536)) : nil
    guard let text = TextDecoder.decode(body, truncated: truncated, charset: charset) else {
      return
    }
    if let reading = TextFormats.read(text, types: types) {
      attributes.textContent = reading.text
      attributes.contentDescription = reading.description ?? AttributeSet.summary(of: reading.text)
      attributes.title = reading.title
      attributes.authors = reading.authors
      attributes.keywords += reading.keywords
      return
    }
    attributes.textContent = text
    attributes.contentDescription = AttributeSet.summary(of: text)
    if types.first == "text/markdown" {
      attributes.title = FileImporter.markdownTitle(text)
    }
  }
}

/// The importers, and which one reads a content type: the one registered for
/// the most specific type in its ancestry.
struct ImporterRegistry {
  let importers: [any ContentImporter]
  private let byType: [String: Int]

  init(_ importers: [any ContentImporter]) {
    self.importers = importers
    var byType: [String: Int] = [:]
    // For a type claimed twice, the later importer wins.
    for (index, importer) in importers.enumerated() {
      for type in importer.contentTypes { byType[type] = index }
    }
    self.byType = byType
  }

  func importer(for tree: [String]) -> (any ContentImporter)? {
    for type in tree { if let index = byType[type] { return importers[index] } }
    return nil
  }
}
