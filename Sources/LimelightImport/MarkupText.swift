/// Reads the text out of HTML and XML without building a tree: tags are
/// skipped, entities decoded, and block-level elements end a line. Script and
/// style bodies are left out. Malformed markup costs nothing worse than odd
/// spacing: the scanner never fails.
public struct MarkupText {
  /// The visible text.
  public var text: String
  /// The `<title>` (HTML), if any.
  public var title: String?
  /// `<meta name=... content=...>` pairs (HTML), names lower-cased.
  public var meta: [String: String]
  /// The text of every element by local name (XML): `dc:title` → "title".
  public var elements: [String: [String]]
  /// The attributes of the tags asked for, by local name, in document order.
  public var tags: [String: [[String: String]]]

  /// Scans `markup`; `keep` lists the local names whose text is collected in
  /// `elements` (an empty set collects none).
  public init(
    _ markup: String, keep: Set<String> = [], attributesOf: Set<String> = [], limit: Int = 1 << 20
  ) {
    var out = ""
    var title: String?
    var meta: [String: String] = [:]
    var elements: [String: [String]] = [:]
    var tags: [String: [[String: String]]] = [:]
    var open: [(name: String, start: String.Index)] = []
    // Tags, entities and their ends are ASCII: they are found in the
    // UTF-8 bytes (looking for them a Character at a time took a quarter of
    // the reading of a web page or drawing).
    let chars = markup
    let bytes = markup.utf8
    let less = UInt8(ascii: "<")
    let greater = UInt8(ascii: ">")
    var i = chars.startIndex
    var skipUntil: String?  // "script" or "style": skip to its end tag
    var inTitle = false
    var titleText = ""
    out.reserveCapacity(min(markup.utf8.count, limit))
    while i < chars.endIndex && out.utf8.count < limit {
      if bytes[i] == less {
        guard let close = bytes[i...].firstIndex(of: greater) else { break }
        let tag = chars[bytes.index(after: i)..<close]
        i = bytes.index(after: close)
        if tag.hasPrefix("!--") {
          // A comment may hold ">": skip to its real end.
          if !tag.hasSuffix("--"), let end = chars[close...].range(of: "-->") {
            i = end.upperBound
          }
          continue
        }
        if tag.hasPrefix("!") || tag.hasPrefix("?") { continue }
        let closing = tag.hasPrefix("/")
        let body = closing ? tag.dropFirst() : tag
        let rawName = body.prefix { !$0.isWhitespace && $0 != "/" && $0 != ">" }
        let name = Self.localName(rawName)
        if let skip = skipUntil {
          if closing && name == skip { skipUntil = nil }
          continue
        }
        // FictionBook's `binary` holds a picture, in Base64.
        if !closing && (name == "script" || name == "style" || name == "binary")
          && !tag.hasSuffix("/")
        {
          skipUntil = name
          continue
        }
        if name == "title" && keep.isEmpty {
          inTitle = !closing
          if closing { title = Self.collapse(titleText) }
          continue
        }
        if !closing && attributesOf.contains(name) {
          tags[name, default: []].append(Self.attributes(body))
        }
        if !closing && name == "meta" {
          let attributes = Self.attributes(body)
          if let key = (attributes["name"] ?? attributes["property"])?.lowercased(),
            let content = attributes["content"]
          {
            meta[key] = content
          }
        }
        if Self.blocks.contains(name) && out.last != "\n" && !out.isEmpty { out.append("\n") }
        if !keep.isEmpty && keep.contains(name) {
          if closing {
            if let at = open.lastIndex(where: { $0.name == name }) {
              let value = Self.collapse(String(out[open[at].start...]))
              if !value.isEmpty { elements[name, default: []].append(value) }
              open.remove(at: at)
            }
          } else if !tag.hasSuffix("/") {
            open.append((name, out.endIndex))
          }
        }
        continue
      }
      // Text up to the next tag (skipped in a script or style), entities decoded.
      let next = bytes[i...].firstIndex(of: less) ?? chars.endIndex
      if skipUntil != nil {
        i = next
        continue
      }
      let decoded = Self.decodeEntities(chars[i..<next])
      if inTitle {
        titleText += decoded
      } else if decoded.allSatisfy(\.isWhitespace) {
        // Indentation between tags (LibreOffice's OOXML, pretty-printed
        // XML) is layout, not text: at most one space keeps words apart.
        if let last = out.last, !last.isWhitespace { out.append(" ") }
      } else {
        out += decoded
      }
      i = next
    }
    self.text = out
    self.title = title.flatMap { $0.isEmpty ? nil : $0 }
    self.meta = meta
    self.elements = elements
    self.tags = tags
  }

  static let blocks: Set<String> = [
    "p", "div", "br", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "section",
    "article", "header", "footer", "blockquote", "pre", "table", "ul", "ol", "dt", "dd", "hr",
    // OpenDocument and Office Open XML paragraphs, cells and line breaks.
    "h", "tab", "line-break", "table-cell", "tc", "si",
  ]

  static func localName(_ raw: Substring) -> String {
    let name = raw.lowercased()
    if let colon = name.lastIndex(of: ":") { return String(name[name.index(after: colon)...]) }
    return name
  }

  /// `name="value"` pairs of a tag body (after its name).
  static func attributes(_ body: Substring) -> [String: String] {
    var result: [String: String] = [:]
    var rest = body.drop { !$0.isWhitespace }
    while let eq = rest.firstIndex(of: "=") {
      let key = rest[..<eq].lowercased()
      var value = rest[rest.index(after: eq)...].drop(while: \.isWhitespace)
      guard let quote = value.first else { break }
      if quote == "\"" || quote == "'" {
        value = value.dropFirst()
        let end = value.firstIndex(of: quote) ?? value.endIndex
        result[localName(key.split(whereSeparator: \.isWhitespace).last ?? "")] =
          decodeEntities(value[..<end])
        rest = end < value.endIndex ? value[value.index(after: end)...] : value[end...]
      } else {
        let end = value.firstIndex(where: \.isWhitespace) ?? value.endIndex
        result[localName(key.split(whereSeparator: \.isWhitespace).last ?? "")] =
          decodeEntities(value[..<end])
        rest = value[end...]
      }
    }
    return result
  }

  static let named: [Substring: Character] = [
    "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "copy": "©",
    "reg": "®", "eacute": "é", "egrave": "è", "agrave": "à", "ccedil": "ç", "uuml": "ü",
    "ouml": "ö", "auml": "ä", "szlig": "ß", "mdash": "—", "ndash": "–", "hellip": "…",
    "laquo": "«", "raquo": "»", "rsquo": "’", "lsquo": "‘", "ldquo": "“", "rdquo": "”",
  ]

  static func decodeEntities(_ text: Substring) -> String {
    guard text.contains("&") else { return String(text) }
    var out = ""
    var rest = text[...]
    while let amp = rest.firstIndex(of: "&") {
      out += rest[..<amp]
      let after = rest[rest.index(after: amp)...]
      if let semi = after.prefix(10).firstIndex(of: ";") {
        let entity = after[..<semi]
        var replacement: Character?
        if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
          replacement = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map(
            Character.init)
        } else if entity.hasPrefix("#") {
          replacement = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map(Character.init)
        } else {
          replacement = named[entity]
        }
        if let replacement {
          out.append(replacement)
          rest = after[after.index(after: semi)...]
          continue
        }
      }
      out.append("&")
      rest = after
    }
    return out + rest
  }

  /// Runs of white space as one space, trimmed.
  static func collapse(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}
