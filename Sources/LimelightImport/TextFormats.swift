import Foundation
import LimelightModel

/// Formats written as text whose markup is no text of theirs: manual pages,
/// subtitles, RTF, Jupyter notebooks and FictionBook e-books. Each gives what a reader
/// of the file sees, and what it says of itself.
enum TextFormats {
  /// What a format's text says: the words, and a title and authors when it
  /// names them.
  struct Reading {
    var text: String
    var title: String?
    var authors: [String] = []
    /// What describes it, when not the text's beginning.
    var description: String?
    /// The words it is filed under, when it names them.
    var keywords: [String] = []
  }

  /// The reading of a text of these types, or nil when none of these
  /// formats is among them (or the text is not one after all).
  static func read(_ text: String, types: [String]) -> Reading? {
    // Manual pages by name (`ls.1`), or roff that is one (`Test.3perl`).
    if types.contains("application/x-troff-man") || types.contains("text/troff") {
      guard let page = ManPageText(source: text) else { return nil }
      return Reading(text: page.text, title: page.name, description: page.name)
    }
    if types.contains("application/x-subrip") || types.contains("text/vtt") {
      return Reading(text: subtitles(text))
    }
    if types.contains("application/rtf") {
      let (body, info) = rtfWithInfo(text)
      let authors = DocumentProperties.meaningful(info["author"]).map { [$0] } ?? []
      let keywords = DocumentProperties.keywords(in: info["keywords"] ?? "")
      return Reading(
        text: body, title: DocumentProperties.meaningful(info["title"]), authors: authors,
        description: DocumentProperties.meaningful(info["subject"]), keywords: keywords)
    }
    if types.contains("application/x-ipynb+json") { return notebook(text) }
    if types.contains("application/x-fictionbook+xml") { return fictionBook(text) }
    if types.contains("image/svg+xml") { return svg(text) }
    return nil
  }

  /// The lines a subtitle file shows: no cue numbers, times, `WEBVTT`
  /// header, notes, styles or tags.
  static func subtitles(_ text: String) -> String {
    var lines: [String] = []
    var skippingBlock = false
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      if line.isEmpty {
        skippingBlock = false
        continue
      }
      if skippingBlock { continue }
      if line.hasPrefix("WEBVTT") || line.hasPrefix("NOTE") || line == "STYLE"
        || line == "REGION"
      {
        skippingBlock = true
        continue
      }
      if line.contains("-->") || line.allSatisfy(\.isNumber) { continue }
      let shown = line.replacingOccurrences(
        of: "<[^>]*>|\\{\\\\[^}]*\\}", with: "", options: .regularExpression)
      if !shown.isEmpty { lines.append(shown) }
    }
    return lines.joined(separator: "\n")
  }

  /// Destinations whose text is no text of the document (fonts, colours,
  /// styles, pictures, document information read apart).
  static let rtfHiddenGroups: Set<String> = [
    "fonttbl", "colortbl", "stylesheet", "info", "pict", "header", "footer", "listtable",
    "listoverridetable", "rsidtbl", "generator", "xmlnstbl", "themedata", "colorschememapping",
    "latentstyles", "datastore", "object", "fldinst",
  ]

  /// The document information an RTF `\info` group names, read apart
  /// from the body.
  static let rtfInfoFields: Set<String> = ["title", "author", "subject", "keywords"]

  /// The text of an RTF document: control words and hidden groups out,
  /// `\par` a line, `\'hh` a Windows-1252 character, `\uN` a Unicode one.
  static func rtf(_ source: String) -> String { rtfWithInfo(source).text }

  /// The text of an RTF document and the fields of its `\info` group
  /// (`{\info{\title …}{\author …}}`), trimmed.
  static func rtfWithInfo(_ source: String) -> (text: String, info: [String: String]) {
    var out = String.UnicodeScalarView()
    // Per open group: whether its text is hidden, and the information
    // field it holds, if any.
    var hidden: [Bool] = [false]
    var field: [String?] = [nil]
    var info: [String: String.UnicodeScalarView] = [:]
    var skipAfterUnicode = 0
    let scalars = Array(source.unicodeScalars)
    var i = 0
    func emit(_ scalar: Unicode.Scalar) {
      if skipAfterUnicode > 0 {
        skipAfterUnicode -= 1
        return
      }
      if let name = field.last ?? nil {
        info[name, default: String.UnicodeScalarView()].append(scalar)
      } else if !(hidden.last ?? false) {
        out.append(scalar)
      }
    }
    while i < scalars.count {
      let c = scalars[i]
      switch c {
      case "{":
        hidden.append(hidden.last ?? false)
        field.append(field.last ?? nil)
        i += 1
      case "}":
        if hidden.count > 1 {
          hidden.removeLast()
          field.removeLast()
        }
        i += 1
      case "\\":
        i += 1
        guard i < scalars.count else { break }
        let next = scalars[i]
        if next == "'", i + 2 < scalars.count {
          let hex = String(String.UnicodeScalarView(scalars[(i + 1)...(i + 2)]))
          if let byte = UInt8(hex, radix: 16) { emit(windows1252(byte)) }
          i += 3
        } else if next == "*" {
          // An optional destination this reader does not know: hidden.
          hidden[hidden.count - 1] = true
          i += 1
        } else if next.properties.isAlphabetic && next.isASCII {
          var word = ""
          while i < scalars.count, scalars[i].isASCII, scalars[i].properties.isAlphabetic {
            word.unicodeScalars.append(scalars[i])
            i += 1
          }
          var number = ""
          if i < scalars.count, scalars[i] == "-" {
            number = "-"
            i += 1
          }
          while i < scalars.count, scalars[i].isASCII, scalars[i].properties.numericType != nil {
            number.unicodeScalars.append(scalars[i])
            i += 1
          }
          if i < scalars.count, scalars[i] == " " { i += 1 }  // the delimiter
          switch word {
          case "par", "line", "sect", "page", "row": emit("\n")
          case "tab", "cell": emit("\t")
          case "u":
            if let value = Int(number) {
              let code = value < 0 ? value + 65_536 : value
              if let scalar = Unicode.Scalar(UInt32(code)) { emit(scalar) }
              skipAfterUnicode = 1
            }
          default:
            if rtfHiddenGroups.contains(word) { hidden[hidden.count - 1] = true }
            if rtfInfoFields.contains(word), hidden.count > 2 { field[field.count - 1] = word }
          }
        } else {
          // An escaped character: `\\`, `\{`, `\}`, `\~` (a space).
          emit(next == "~" ? " " : next)
          i += 1
        }
      case "\r", "\n":
        i += 1
      default:
        emit(c)
        i += 1
      }
    }
    var fields: [String: String] = [:]
    for (name, value) in info {
      let text = String(value).trimmingCharacters(in: .whitespacesAndNewlines)
      if !text.isEmpty { fields[name] = text }
    }
    return (String(out), fields)
  }

  /// A byte of Windows-1252, the code page RTF's `\'hh` escapes are
  /// written in: Latin-1 but for 0x80 to 0x9F.
  static func windows1252(_ byte: UInt8) -> Unicode.Scalar {
    let high: [UInt32] = [
      0x20AC, 0x3F, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
      0x2039, 0x0152, 0x3F, 0x017D, 0x3F, 0x3F, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013,
      0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x3F, 0x017E, 0x0178,
    ]
    guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
    return Unicode.Scalar(high[Int(byte - 0x80)]) ?? "?"
  }

  /// A notebook's cells, code and Markdown, in order (not their outputs);
  /// its title the first Markdown heading.
  static func notebook(_ source: String) -> Reading? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(source.utf8)),
      let notebook = object as? [String: Any], let cells = notebook["cells"] as? [[String: Any]]
    else { return nil }
    var parts: [String] = []
    var title: String?
    for cell in cells {
      let text =
        (cell["source"] as? [String])?.joined() ?? (cell["source"] as? String) ?? ""
      if text.isEmpty { continue }
      if title == nil && cell["cell_type"] as? String == "markdown" {
        title = FileImporter.markdownTitle(text)
      }
      parts.append(text)
    }
    return Reading(text: parts.joined(separator: "\n"), title: title)
  }

  /// A FictionBook e-book: its title, authors and the text of its bodies
  /// (not its embedded pictures).
  static func fictionBook(_ source: String) -> Reading? {
    let markup = MarkupText(source, keep: ["book-title", "first-name", "middle-name", "last-name"])
    guard !markup.text.isEmpty else { return nil }
    // The text of the bodies alone: the description's names run together.
    var text = markup.text
    if let open = source.range(of: "<body"),
      let close = source.range(of: "</body>", options: .backwards),
      open.lowerBound < close.lowerBound
    {
      text = MarkupText(String(source[open.lowerBound..<close.upperBound])).text
    }
    let first = markup.elements["first-name"] ?? []
    let last = markup.elements["last-name"] ?? []
    // The title-info's author comes first; later names may be translators'.
    let authors = zip(first, last).prefix(1).map { "\($0) \($1)" }
    return Reading(text: text, title: markup.elements["book-title"]?.first, authors: authors)
  }

  /// The Dublin Core fields an agent's name is the title of, not the work's.
  static let svgAgents = ["creator", "publisher", "rights", "contributor"]

  /// What a drawing says of itself: its title, description and keywords
  /// (the Dublin Core metadata Inkscape writes, or SVG's own `<title>` and
  /// `<desc>`), its author, and the words it shows. Its path data and
  /// styles are no text of it: read as text, they made a clip-art
  /// collection's index several times larger and answered searches for
  /// numbers.
  static func svg(_ source: String) -> Reading {
    let markup = MarkupText(
      source, keep: Set(["title", "description", "desc", "li", "text"] + svgAgents))
    let agents = Set(svgAgents.flatMap { markup.elements[$0] ?? [] })
    let title = markup.elements["title"]?.first { !agents.contains($0) }
    let descriptions = (markup.elements["description"] ?? []) + (markup.elements["desc"] ?? [])
    let shown = markup.elements["text"] ?? []
    return Reading(
      text: (descriptions + shown).joined(separator: "\n"), title: title,
      authors: Array((markup.elements["creator"] ?? []).prefix(1)),
      description: descriptions.first, keywords: markup.elements["li"] ?? [])
  }
}
