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
  ///
  /// The scan reads UTF-8 bytes, not Characters: tags, entities and the
  /// white space between tags are ASCII, and a scan a Character at a time
  /// (grapheme breaking, Unicode properties for each) was a sixth of the
  /// content pass's reading on a home of manuals and web pages.
  public init(
    _ markup: String, keep: Set<String> = [], attributesOf: Set<String> = [], limit: Int = 1 << 20
  ) {
    let bytes = Array(markup.utf8)
    var out: [UInt8] = []
    var title: String?
    var meta: [String: String] = [:]
    var elements: [String: [String]] = [:]
    var tags: [String: [[String: String]]] = [:]
    var open: [(name: String, start: Int)] = []
    var i = 0
    var skipUntil: String?  // "script" or "style": skip to its end tag
    var inTitle = false
    var titleText = ""
    out.reserveCapacity(min(bytes.count, limit))
    while i < bytes.count && out.count < limit {
      if bytes[i] == Byte.less {
        guard let close = bytes[i...].firstIndex(of: Byte.greater) else { break }
        let tag = bytes[(i + 1)..<close]
        i = close + 1
        if tag.starts(with: Byte.commentOpen) {
          // A comment may hold ">": skip to its real end.
          if !tag.reversed().starts(with: Byte.commentDashes),
            let end = Self.firstRange(of: Byte.commentClose, in: bytes, from: close)
          {
            i = end
          }
          continue
        }
        if tag.first == Byte.bang || tag.first == Byte.question { continue }
        let closing = tag.first == Byte.slash
        let body = closing ? tag.dropFirst() : tag
        let rawName = body.prefix { !Byte.isSpace($0) && $0 != Byte.slash && $0 != Byte.greater }
        let name = Self.localName(rawName)
        if let skip = skipUntil {
          if closing && name == skip { skipUntil = nil }
          continue
        }
        let selfClosing = tag.last == Byte.slash
        // FictionBook's `binary` holds a picture, in Base64.
        if !closing && (name == "script" || name == "style" || name == "binary") && !selfClosing {
          skipUntil = name
          continue
        }
        if name == "title" && keep.isEmpty {
          inTitle = !closing
          if closing { title = Self.collapse(titleText) }
          continue
        }
        if !closing && (name == "meta" || attributesOf.contains(name)) {
          let attributes = Self.attributes(Substring(String(decoding: body, as: UTF8.self)))
          if attributesOf.contains(name) { tags[name, default: []].append(attributes) }
          if name == "meta", let key = (attributes["name"] ?? attributes["property"])?.lowercased(),
            let content = attributes["content"]
          {
            meta[key] = content
          }
        }
        if Self.blocks.contains(name) && !out.isEmpty && !Self.endsWithNewline(out) {
          out.append(Byte.newline)
        }
        if !keep.isEmpty && keep.contains(name) {
          if closing {
            if let at = open.lastIndex(where: { $0.name == name }) {
              let value = Self.collapse(String(decoding: out[open[at].start...], as: UTF8.self))
              if !value.isEmpty { elements[name, default: []].append(value) }
              open.remove(at: at)
            }
          } else if !selfClosing {
            open.append((name, out.count))
          }
        }
        continue
      }
      // Text up to the next tag (skipped in a script or style), entities decoded.
      let next = bytes[i...].firstIndex(of: Byte.less) ?? bytes.count
      if skipUntil != nil {
        i = next
        continue
      }
      let decoded = Self.decodeEntities(bytes[i..<next])
      if inTitle {
        titleText += String(decoding: decoded, as: UTF8.self)
      } else if Self.isAllWhitespace(decoded) {
        // Indentation between tags (LibreOffice's OOXML, pretty-printed
        // XML) is layout, not text: at most one space keeps words apart.
        if !out.isEmpty && !Self.endsWithWhitespace(out) { out.append(Byte.space) }
      } else {
        out += decoded
      }
      i = next
    }
    self.text = String(decoding: out, as: UTF8.self)
    self.title = title.flatMap { $0.isEmpty ? nil : $0 }
    self.meta = meta
    self.elements = elements
    self.tags = tags
  }

  /// The ASCII bytes the scan looks for.
  private enum Byte {
    static let less = UInt8(ascii: "<")
    static let greater = UInt8(ascii: ">")
    static let slash = UInt8(ascii: "/")
    static let bang = UInt8(ascii: "!")
    static let question = UInt8(ascii: "?")
    static let ampersand = UInt8(ascii: "&")
    static let semicolon = UInt8(ascii: ";")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let commentOpen = Array("!--".utf8)
    static let commentDashes = Array("--".utf8)
    static let commentClose = Array("-->".utf8)

    /// ASCII white space (tab, line feed, vertical tab, form feed,
    /// carriage return, space): what `Character.isWhitespace` says of ASCII.
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
  }

  /// Where the first `pattern` in `bytes` from `start` ends.
  private static func firstRange(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
    var at = start
    while at <= bytes.count - pattern.count {
      guard let found = bytes[at...(bytes.count - pattern.count)].firstIndex(of: first) else {
        return nil
      }
      if bytes[found..<(found + pattern.count)].elementsEqual(pattern) {
        return found + pattern.count
      }
      at = found + 1
    }
    return nil
  }

  /// Whether every character of `text` is white space.
  private static func isAllWhitespace(_ text: [UInt8]) -> Bool {
    var ascii = true
    for byte in text where !Byte.isSpace(byte) {
      if byte < 0x80 { return false }
      ascii = false
    }
    return ascii || String(decoding: text, as: UTF8.self).allSatisfy(\.isWhitespace)
  }

  /// Whether the last character of `out` is white space.
  private static func endsWithWhitespace(_ out: [UInt8]) -> Bool {
    guard let last = out.last else { return false }
    if last < 0x80 { return Byte.isSpace(last) }
    return String(decoding: out.suffix(32), as: UTF8.self).last?.isWhitespace ?? false
  }

  /// Whether the last character of `out` is a line feed (not a CR LF pair,
  /// which is a character of its own).
  private static func endsWithNewline(_ out: [UInt8]) -> Bool {
    out.last == Byte.newline && (out.count < 2 || out[out.count - 2] != Byte.carriageReturn)
  }

  static let blocks: Set<String> = [
    "p", "div", "br", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "section",
    "article", "header", "footer", "blockquote", "pre", "table", "ul", "ol", "dt", "dd", "hr",
    // OpenDocument and Office Open XML paragraphs, cells and line breaks.
    "h", "tab", "line-break", "table-cell", "tc", "si",
  ]

  static func localName(_ raw: ArraySlice<UInt8>) -> String {
    guard raw.allSatisfy({ $0 < 0x80 }) else {
      return localName(Substring(String(decoding: raw, as: UTF8.self)))
    }
    let colon = raw.lastIndex(of: UInt8(ascii: ":")).map { $0 + 1 } ?? raw.startIndex
    return String(
      decoding: raw[colon...].map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
  }

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

  /// `text` with its entities decoded.
  static func decodeEntities(_ text: ArraySlice<UInt8>) -> [UInt8] {
    guard let firstAmpersand = text.firstIndex(of: Byte.ampersand) else { return Array(text) }
    var out = Array(text[..<firstAmpersand])
    var rest = text[firstAmpersand...]
    while let amp = rest.firstIndex(of: Byte.ampersand) {
      out += rest[..<amp]
      let after = rest[(amp + 1)...]
      if let semi = after.prefix(10).firstIndex(of: Byte.semicolon),
        let replacement = entity(Substring(String(decoding: after[..<semi], as: UTF8.self)))
      {
        out += Array(String(replacement).utf8)
        rest = after[(semi + 1)...]
        continue
      }
      out.append(Byte.ampersand)
      rest = after
    }
    return out + rest
  }

  /// The character an entity's name (between `&` and `;`) stands for.
  static func entity(_ entity: Substring) -> Character? {
    if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
      return UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map(
        Character.init)
    } else if entity.hasPrefix("#") {
      return UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map(Character.init)
    }
    return named[entity]
  }

  /// `text` (an attribute's value) with its entities decoded.
  static func decodeEntities(_ text: Substring) -> String {
    String(decoding: decodeEntities(ArraySlice(text.utf8)), as: UTF8.self)
  }

  /// Runs of white space as one space, trimmed.
  static func collapse(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}
