import LimelightModel

/// Plain text and source code in any common encoding (detected, never binary
/// garbage), and Markdown, whose first heading is its title.
struct TextImporter: ContentImporter {
  var contentTypes: [String] { ["text/plain"] }
  let magic: Magic

  func importContent(_ request: ImportRequest, into attributes: inout AttributeSet) throws {
    let max = request.limits.maxTextBytes
    let wholeFileInHead = request.head.count < FileImporter.headSize
    let bytes =
      wholeFileInHead ? request.head : try FileSystem.readPrefix(request.path, limit: max + 1)
    let truncated = bytes.count > max
    let body = truncated ? Array(bytes.prefix(max)) : bytes
    let needsCharset = String(validating: body.prefix(65_536), as: UTF8.self) == nil
    let charset = needsCharset ? magic.encoding(of: body.prefix(65_536)) : nil
    guard let text = TextDecoder.decode(body, truncated: truncated, charset: charset) else {
      return
    }
    attributes.textContent = text
    attributes.contentDescription = AttributeSet.summary(of: text)
    if request.contentTypeTree.first == "text/markdown" {
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
