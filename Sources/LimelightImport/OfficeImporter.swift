import CInflate
import Foundation
import LimelightModel

/// OpenDocument (odt, ods, odp), Office Open XML (docx, xlsx, pptx) and EPUB:
/// ZIP containers of XML. Reads the document properties and the text, never
/// writing to disk, and never expanding more than the limits allow (a
/// compression bomb stops at the cap). The container is read by a bounded
/// reader of its own: every member must lie inside the file, and a damaged
/// stream ends in an error, never a loop (ZIPFoundation's reader loops forever
/// on a deflate stream that does not end).
public struct OfficeImporter: ContentImporter {
  public var contentTypes: [String] {
    [
      "application/vnd.oasis.opendocument.text", "application/vnd.oasis.opendocument.spreadsheet",
      "application/vnd.oasis.opendocument.presentation",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "application/vnd.openxmlformats-officedocument.presentationml.presentation",
      "application/epub+zip",
    ]
  }

  public init() {}

  public func importContent(_ request: ImportRequest, into attributes: inout AttributeSet) throws {
    let archive = try ZipArchive(
      try request.contents(limit: request.limits.maxDocumentBytes),
      maxMembers: request.limits.maxMembers)
    var reader = MemberReader(archive: archive, limits: request.limits)
    let tree = request.contentTypeTree
    if tree.contains("application/epub+zip") {
      try readEPUB(&reader, into: &attributes)
    } else if tree.contains(where: { $0.hasPrefix("application/vnd.oasis.opendocument.") }) {
      try readOpenDocument(&reader, into: &attributes)
    } else {
      try readOfficeOpenXML(&reader, into: &attributes)
    }
    if let text = attributes.textContent {
      attributes.textContent = String(text.utf8.prefix(request.limits.maxTextBytes)) ?? text
      if attributes.contentDescription == nil {
        attributes.contentDescription = AttributeSet.summary(of: text)
      }
    }
  }

  // MARK: - The three families

  func readOpenDocument(_ reader: inout MemberReader, into attributes: inout AttributeSet) throws {
    if let meta = try reader.text("meta.xml") {
      let parsed = MarkupText(
        meta,
        keep: [
          "title", "creator", "initial-creator", "keyword", "subject", "description",
          "creation-date",
        ],
        attributesOf: ["document-statistic"])
      Self.applyDublinCore(parsed, to: &attributes)
      Self.applyCreationDate(parsed.elements["creation-date"], to: &attributes)
      attributes.keywords += parsed.elements["keyword"] ?? []
      if let pages = parsed.tags["document-statistic"]?.first?["page-count"].flatMap(Int.init) {
        attributes.extra["pageCount"] = .number(Double(pages))
      }
    }
    guard let content = try reader.text("content.xml") else {
      throw ImportFailure.malformed("no content.xml")
    }
    attributes.textContent = MarkupText(content).text
  }

  func readOfficeOpenXML(_ reader: inout MemberReader, into attributes: inout AttributeSet) throws {
    if let core = try reader.text("docProps/core.xml") {
      let parsed = MarkupText(
        core,
        keep: [
          "title", "creator", "keywords", "subject", "description", "lastmodifiedby", "created",
        ])
      Self.applyDublinCore(parsed, to: &attributes)
      Self.applyCreationDate(parsed.elements["created"], to: &attributes)
      for list in parsed.elements["keywords"] ?? [] {
        attributes.keywords += DocumentProperties.keywords(in: list)
      }
    }
    if let app = try reader.text("docProps/app.xml") {
      let parsed = MarkupText(app, keep: ["pages", "slides"])
      if let pages = (parsed.elements["pages"] ?? parsed.elements["slides"])?.first.flatMap({
        Int($0)
      }) {
        attributes.extra["pageCount"] = .number(Double(pages))
      }
    }
    // The text parts, in reading order: the document body, shared strings of a
    // workbook, then its sheets' own strings (openpyxl, and pandas through
    // it, write every cell's text inline and no shared strings), slides by
    // number.
    let names = reader.memberNames
    var parts = ["word/document.xml", "xl/sharedStrings.xml"].filter(names.contains)
    let sheets = names.filter { $0.hasPrefix("xl/worksheets/sheet") && $0.hasSuffix(".xml") }
      .sorted { $0.slideNumber < $1.slideNumber }
    parts += sheets
    parts += names.filter { $0.hasPrefix("ppt/slides/slide") && $0.hasSuffix(".xml") }
      .sorted { $0.slideNumber < $1.slideNumber }
    // A presentation with no slides, a workbook with no cells: valid, and
    // without text. A package without its main part is not one.
    let mainParts = ["word/document.xml", "xl/workbook.xml", "ppt/presentation.xml"]
    guard !parts.isEmpty || mainParts.contains(where: names.contains) else {
      throw ImportFailure.malformed("no document part")
    }
    // A presentation counts its slides in its list of them: the count in
    // the properties is the producer's (python-pptx's template says 0 slides
    // whatever is added).
    if names.contains("ppt/presentation.xml"), let xml = try reader.text("ppt/presentation.xml") {
      let slides = MarkupText(xml, attributesOf: ["sldid"]).tags["sldid"]?.count ?? 0
      attributes.extra["pageCount"] = .number(Double(slides))
    }
    var text = ""
    for part in parts {
      guard let xml = try reader.text(part) else { continue }
      if sheets.contains(part) {
        // A sheet's inline strings (`<is><t>`) and its numbers (an order's
        // number, a phone number), as OpenDocument and Excel 97 files give
        // theirs; not the indexes into the shared strings.
        let strings = MarkupText(xml, keep: ["t"]).elements["t"] ?? []
        let cells = strings + Self.sheetNumbers(xml)
        if !cells.isEmpty { text += cells.joined(separator: " ") + "\n" }
      } else {
        text += MarkupText(xml).text + "\n"
      }
      if text.utf8.count > reader.limits.maxTextBytes { break }
    }
    attributes.textContent = text
  }

  /// The values of a sheet's cells that hold a number or a formula's text
  /// (`<c r="B2"><v>4711</v></c>`, `<c t="str"><f>…</f><v>…</v></c>`); a
  /// shared string's index (`t="s"`), a truth value and an error are none.
  static func sheetNumbers(_ xml: String) -> [String] {
    let bytes = Array(xml.utf8)
    var values: [String] = []
    var at = 0
    func find(_ pattern: String, from start: Int) -> Int? {
      start < bytes.count ? bytes[start...].firstRange(of: Array(pattern.utf8))?.lowerBound : nil
    }
    while let open = find("<c", from: at) {
      at = open + 2
      guard at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x3E,
        let tagEnd = find(">", from: at)
      else { continue }
      let tag = String(decoding: bytes[at..<tagEnd], as: UTF8.self)
      at = tagEnd + 1
      guard bytes[tagEnd - 1] != 0x2F else { continue }  // `<c r="A1"/>`: empty
      let type = tag.range(of: " t=\"").map { tag[$0.upperBound...].prefix { $0 != "\"" } }
      guard type == nil || type == "n" || type == "str" else { continue }
      guard let close = find("</c>", from: at) else { break }
      if let value = find("<v>", from: at), value < close, let end = find("</v>", from: value),
        end < close
      {
        let number = String(decoding: bytes[value + 3..<end], as: UTF8.self)
        if !number.isEmpty { values.append(number) }
      }
      at = close + 4
    }
    return values
  }

  func readEPUB(_ reader: inout MemberReader, into attributes: inout AttributeSet) throws {
    guard let container = try reader.text("META-INF/container.xml"),
      let opfPath = MarkupText(container, attributesOf: ["rootfile"]).tags["rootfile"]?.first?[
        "full-path"],
      let opf = try reader.text(opfPath)
    else { throw ImportFailure.malformed("no package document") }
    let package = MarkupText(
      opf, keep: ["title", "creator", "subject", "description", "date"],
      attributesOf: ["item", "itemref"])
    Self.applyDublinCore(package, to: &attributes)
    Self.applyCreationDate(package.elements["date"], to: &attributes)
    attributes.keywords += package.elements["subject"] ?? []
    let base = opfPath.contains("/") ? String(opfPath[...opfPath.lastIndex(of: "/")!]) : ""
    var hrefs: [String: String] = [:]
    for item in package.tags["item"] ?? [] {
      if let id = item["id"], let href = item["href"] { hrefs[id] = href }
    }
    var text = ""
    for ref in package.tags["itemref"] ?? [] {
      guard let id = ref["idref"], let href = hrefs[id],
        let chapter = try reader.text(base + (href.removingPercentEncoding ?? href))
      else { continue }
      text += MarkupText(chapter).text + "\n"
      if text.utf8.count > reader.limits.maxTextBytes { break }
    }
    attributes.textContent = text
  }

  /// The document's own creation date, when its properties hold a readable
  /// one: it becomes the item's creation date, as a photo's date taken does.
  static func applyCreationDate(_ values: [String]?, to attributes: inout AttributeSet) {
    if let text = values?.first, let date = documentDate(text) { attributes.created = date }
  }

  /// A date as document properties write it: ISO 8601 with or without a zone
  /// (without one, taken as UTC), a day, a month or a year alone.
  static func documentDate(_ text: String) -> Date? {
    let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    let parts = text.split(separator: "T", maxSplits: 1)
    if parts.count == 2 {
      // A day alone would read the start of a time without a zone as midnight.
      guard parts[1].contains(where: { $0 == "Z" || $0 == "+" || $0 == "-" }) else {
        let seconds = parts[1].split(separator: ".").first.map(String.init) ?? ""
        return AttributeJSON.parseDate("\(parts[0])T\(seconds)Z")
      }
      return AttributeJSON.parseDate(text)
    }
    if let date = AttributeJSON.parseDate(text) { return date }
    let fields = text.split(separator: "-").map { Int($0) }
    guard (1...2).contains(fields.count), let year = fields[0], (1000...9999).contains(year)
    else { return nil }
    let month = fields.count == 2 ? fields[1] : 1
    guard let month, (1...12).contains(month) else { return nil }
    return AttributeJSON.parseDate(String(format: "%04d-%02d-01", year, month))
  }

  /// Title, authors, subject and description from Dublin Core elements.
  static func applyDublinCore(_ parsed: MarkupText, to attributes: inout AttributeSet) {
    if let title = DocumentProperties.meaningful(parsed.elements["title"]?.first) {
      attributes.title = String(title.prefix(AttributeSet.descriptionLimit))
    }
    var authors: [String] = []
    for name in (parsed.elements["creator"] ?? []) + (parsed.elements["initial-creator"] ?? [])
    where !authors.contains(name) && DocumentProperties.meaningful(name) != nil {
      authors.append(name)
    }
    attributes.authors = Array(authors.prefix(20))
    if let subject = DocumentProperties.meaningful(parsed.elements["subject"]?.first) {
      attributes.extra["subject"] = .string(subject)
    }
    if let description = DocumentProperties.meaningful(parsed.elements["description"]?.first) {
      attributes.contentDescription = AttributeSet.summary(of: description)
    }
  }
}

/// Reads members of a ZIP archive as text, within the limits: at most
/// `maxExpandedBytes` in all, whatever the archive's directory claims.
struct MemberReader {
  let archive: ZipArchive
  let limits: ImportLimits
  var expanded = 0

  var memberNames: [String] { archive.members.map(\.name) }

  /// The member's text (UTF-8), nil when there is no such member.
  mutating func text(_ path: String) throws -> String? {
    guard let member = archive.members.first(where: { $0.name == path }) else { return nil }
    let bytes = try archive.contents(of: member, limit: limits.maxExpandedBytes - expanded)
    expanded += bytes.count
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// A ZIP file read from memory: its central directory, checked so that every
/// member lies inside the file, and members expanded with a cap.
struct ZipArchive {
  struct Member {
    var name: String
    var method: Int
    var compressedSize: Int
    var dataOffset: Int
  }

  let bytes: [UInt8]
  let members: [Member]

  init(_ bytes: [UInt8], maxMembers: Int) throws {
    self.bytes = bytes
    let reader = ByteReader(bytes)
    // The end-of-central-directory record: within the last 64 KiB + 22 bytes.
    var end: Int?
    var at = bytes.count - 22
    while at >= max(0, bytes.count - 65_557) {
      if reader.u32(at, little: true) == 0x0605_4B50 {
        end = at
        break
      }
      at -= 1
    }
    guard let end, let count = reader.u16(end + 10, little: true),
      let directory = reader.u32(end + 16, little: true)
    else { throw ImportFailure.malformed("no ZIP directory") }
    var members: [Member] = []
    var entry = directory
    for _ in 0..<min(count, maxMembers) {
      guard reader.u32(entry, little: true) == 0x0201_4B50,
        let method = reader.u16(entry + 10, little: true),
        let compressed = reader.u32(entry + 20, little: true),
        let nameLength = reader.u16(entry + 28, little: true),
        let extraLength = reader.u16(entry + 30, little: true),
        let commentLength = reader.u16(entry + 32, little: true),
        let local = reader.u32(entry + 42, little: true),
        compressed != 0xFFFF_FFFF, local != 0xFFFF_FFFF,
        entry + 46 + nameLength <= bytes.count,
        reader.u32(local, little: true) == 0x0403_4B50,
        let localName = reader.u16(local + 26, little: true),
        let localExtra = reader.u16(local + 28, little: true),
        local + 30 + localName + localExtra + compressed <= bytes.count
      else { throw ImportFailure.malformed("a ZIP member lies outside the file") }
      let name = String(decoding: bytes[(entry + 46)..<(entry + 46 + nameLength)], as: UTF8.self)
      members.append(
        Member(
          name: name, method: method, compressedSize: compressed,
          dataOffset: local + 30 + localName + localExtra))
      entry += 46 + nameLength + extraLength + commentLength
    }
    self.members = members
  }

  /// A member's bytes, expanded; more than `limit` bytes is an error.
  func contents(of member: Member, limit: Int) throws -> [UInt8] {
    let data = bytes[member.dataOffset..<(member.dataOffset + member.compressedSize)]
    switch member.method {
    case 0:
      guard data.count <= limit else {
        throw ImportFailure.tooLarge(Int64(data.count), limit: limit)
      }
      return Array(data)
    case 8:
      return try Self.inflate(data, limit: limit)
    default:
      throw ImportFailure.malformed("\(member.name) uses compression method \(member.method)")
    }
  }

  /// Raw deflate data expanded, at most `limit` bytes; a stream that is damaged
  /// or ends early is an error.
  static func inflate(_ input: ArraySlice<UInt8>, limit: Int) throws -> [UInt8] {
    var stream = z_stream()
    guard
      inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { throw ImportFailure.malformed("zlib would not start") }
    defer { inflateEnd(&stream) }
    var source = Array(input)
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    return try source.withUnsafeMutableBufferPointer { from in
      stream.next_in = from.baseAddress
      stream.avail_in = UInt32(from.count)
      while true {
        let status = buffer.withUnsafeMutableBufferPointer { to in
          stream.next_out = to.baseAddress
          stream.avail_out = UInt32(to.count)
          return CInflate.inflate(&stream, Z_NO_FLUSH)
        }
        let produced = buffer.count - Int(stream.avail_out)
        guard output.count + produced <= limit else {
          throw ImportFailure.tooLarge(Int64(output.count + produced), limit: limit)
        }
        output += buffer[0..<produced]
        if status == Z_STREAM_END { return output }
        // Z_BUF_ERROR: no progress is possible, the stream ends early.
        guard status == Z_OK, produced > 0 || stream.avail_in > 0 else {
          throw ImportFailure.malformed("a damaged compressed member")
        }
      }
    }
  }
}

extension String {
  /// The number in "ppt/slides/slide12.xml".
  fileprivate var slideNumber: Int {
    Int(self.filter(\.isNumber)) ?? 0
  }
}
