import Foundation
import LimelightModel

/// E-mail: one message (`.eml`, message/rfc822) or a mailbox (mbox) of many.
/// Subject, sender, recipients, date and the text of the body (the plain part
/// of a multipart message, or its HTML made text), in any transfer encoding
/// and character set.
public struct MailImporter: ContentImporter {
  public var contentTypes: [String] { ["message/rfc822", "application/mbox"] }

  public init() {}

  public func importContent(_ request: ImportRequest, into attributes: inout AttributeSet) throws {
    let bytes = try request.contents(limit: request.limits.maxDocumentBytes)
    let messages =
      request.contentTypeTree.contains("application/mbox") ? Self.mailbox(bytes) : [bytes[...]]
    var text = ""
    var authors: [String] = []
    var recipients: [String] = []
    var attachments: [String] = []
    for (index, raw) in messages.enumerated() {
      let message = Message(raw)
      let subject = message.header("subject")
      if index == 0 {
        attributes.title = subject.map { String($0.prefix(AttributeSet.descriptionLimit)) }
        if let date = message.header("date").flatMap(Self.date) { attributes.created = date }
      }
      if let from = message.header("from"), !authors.contains(from), authors.count < 20 {
        authors.append(from)
      }
      for field in ["to", "cc"] {
        for address in message.header(field)?.split(separator: ",") ?? []
        where recipients.count < 50 {
          recipients.append(address.trimmingCharacters(in: .whitespaces))
        }
      }
      if messages.count > 1, let subject { text += subject + "\n" }
      text += message.bodyText(limits: request.limits) + "\n"
      // What is attached is found by its name, as Mail's own search finds it.
      let attached = message.attachmentNames()
      if !attached.isEmpty {
        text += attached.joined(separator: "\n") + "\n"
        for name in attached where attachments.count < 100 { attachments.append(name) }
      }
      if text.utf8.count > request.limits.maxTextBytes { break }
    }
    attributes.authors = authors
    if !recipients.isEmpty { attributes.extra["recipients"] = .strings(recipients) }
    if !attachments.isEmpty { attributes.extra["attachmentNames"] = .strings(attachments) }
    if messages.count > 1 { attributes.extra["messageCount"] = .number(Double(messages.count)) }
    attributes.textContent = text
    attributes.contentDescription = AttributeSet.summary(of: text)
  }

  /// The messages of an mbox file: each starts with a "From " line.
  static func mailbox(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var starts: [Int] = []
    var lineStart = 0
    for i in bytes.indices where i == lineStart {
      if bytes[i...].starts(with: Array("From ".utf8)) { starts.append(i) }
      lineStart = (bytes[i...].firstIndex(of: 10) ?? bytes.count - 1) + 1
    }
    if starts.isEmpty { return [bytes[...]] }
    var messages: [ArraySlice<UInt8>] = []
    for (n, start) in starts.enumerated() {
      let end = n + 1 < starts.count ? starts[n + 1] : bytes.count
      // Skip the "From " separator line itself.
      let body = (bytes[start..<end].firstIndex(of: 10) ?? end - 1) + 1
      messages.append(bytes[min(body, end)..<end])
    }
    return messages
  }

  static func date(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    let cleaned = text.replacingOccurrences(
      of: #"\s*\(.*\)$"#, with: "", options: .regularExpression)
    for format in [
      "EEE, d MMM yyyy HH:mm:ss Z", "d MMM yyyy HH:mm:ss Z", "EEE, d MMM yyyy HH:mm Z",
    ] {
      formatter.dateFormat = format
      if let date = formatter.date(from: cleaned) { return date }
    }
    return nil
  }
}

/// One MIME message or part: unfolded headers and a body.
struct Message {
  var headers: [(name: String, value: String)] = []
  var body: ArraySlice<UInt8>

  init(_ raw: ArraySlice<UInt8>) {
    // Headers end at the first empty line.
    var i = raw.startIndex
    var lines: [String] = []
    while i < raw.endIndex {
      let end = raw[i...].firstIndex(of: 10) ?? raw.endIndex
      var line = raw[i..<end]
      if line.last == 13 { line = line.dropLast() }
      i = min(end + 1, raw.endIndex)
      if line.isEmpty { break }
      let text = String(decoding: line, as: UTF8.self)
      if let first = text.first, first == " " || first == "\t", !lines.isEmpty {
        lines[lines.count - 1] += " " + text.trimmingCharacters(in: .whitespaces)
      } else {
        lines.append(text)
      }
      if lines.count > 1000 { break }
    }
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers.append(
        (
          line[..<colon].lowercased(),
          Self.decodeWords(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        ))
    }
    body = raw[i...]
  }

  func header(_ name: String) -> String? {
    headers.first { $0.name == name }?.value
  }

  /// A parameter of a structured header: `charset` of "text/plain; charset=utf-8".
  func parameter(_ name: String, of header: String) -> String? {
    guard let value = self.header(header) else { return nil }
    for part in value.split(separator: ";").dropFirst() {
      let pair = part.split(separator: "=", maxSplits: 1)
      if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == name {
        return pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(
          in: CharacterSet(charactersIn: "\""))
      }
    }
    return nil
  }

  var mediaType: String {
    (header("content-type")?.split(separator: ";").first.map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }) ?? "text/plain"
  }

  /// The readable text: a plain part first, else an HTML part made text.
  func bodyText(limits: ImportLimits, depth: Int = 0) -> String {
    let type = mediaType
    if type.hasPrefix("multipart/"), depth < 8,
      let boundary = parameter("boundary", of: "content-type")
    {
      let parts = Self.split(body, boundary: boundary).prefix(100).map(Message.init)
      if let plain = parts.first(where: { $0.mediaType == "text/plain" }) {
        return plain.bodyText(limits: limits, depth: depth + 1)
      }
      return parts.map { $0.bodyText(limits: limits, depth: depth + 1) }.filter { !$0.isEmpty }
        .joined(separator: "\n")
    }
    guard type.hasPrefix("text/") else { return "" }
    let decoded = decodedBody()
    let charset = parameter("charset", of: "content-type")
    let text = TextDecoder.decode(Array(decoded), truncated: false, charset: charset) ?? ""
    return type == "text/html" ? MarkupText(text, limit: limits.maxTextBytes).text : text
  }

  /// The file names of the parts that carry one (`Content-Disposition`'s
  /// `filename`, or `Content-Type`'s `name`), in order, at any depth.
  func attachmentNames(depth: Int = 0) -> [String] {
    if mediaType.hasPrefix("multipart/"), depth < 8,
      let boundary = parameter("boundary", of: "content-type")
    {
      return Self.split(body, boundary: boundary).prefix(100).map(Message.init)
        .flatMap { $0.attachmentNames(depth: depth + 1) }
    }
    guard depth > 0 else { return [] }
    if let extended = parameter("filename*", of: "content-disposition") {
      // RFC 2231: charset'language'percent-encoded bytes.
      let encoded = extended.split(separator: "'", omittingEmptySubsequences: false).last ?? ""
      if let name = String(encoded).removingPercentEncoding, !name.isEmpty { return [name] }
    }
    let name =
      parameter("filename", of: "content-disposition") ?? parameter("name", of: "content-type")
    return name.map { [Self.decodeWords($0)] } ?? []
  }

  func decodedBody() -> [UInt8] {
    switch header("content-transfer-encoding")?.lowercased() {
    case "base64":
      return Data(base64Encoded: Data(body), options: .ignoreUnknownCharacters).map { Array($0) }
        ?? []
    case "quoted-printable":
      return Self.quotedPrintable(body)
    default:
      return Array(body)
    }
  }

  static func quotedPrintable(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = bytes.startIndex
    func hex(_ b: UInt8) -> UInt8? {
      switch b {
      case 48...57: return b - 48
      case 65...70: return b - 55
      case 97...102: return b - 87
      default: return nil
      }
    }
    while i < bytes.endIndex {
      let b = bytes[i]
      if b == 61, i + 1 < bytes.endIndex {  // "="
        if bytes[i + 1] == 10 {
          i += 2
          continue
        }
        if bytes[i + 1] == 13, i + 2 < bytes.endIndex, bytes[i + 2] == 10 {
          i += 3
          continue
        }
        if i + 2 < bytes.endIndex, let high = hex(bytes[i + 1]), let low = hex(bytes[i + 2]) {
          out.append(high << 4 | low)
          i += 3
          continue
        }
      }
      out.append(b)
      i += 1
    }
    return out
  }

  /// The parts between `--boundary` lines.
  static func split(_ body: ArraySlice<UInt8>, boundary: String) -> [ArraySlice<UInt8>] {
    let marker = Array(("--" + boundary).utf8)
    var parts: [ArraySlice<UInt8>] = []
    var start: Int?
    var i = body.startIndex
    while i < body.endIndex {
      let end = body[i...].firstIndex(of: 10) ?? body.endIndex
      if body[i..<end].starts(with: marker) {
        if let start { parts.append(body[start..<max(start, i - 1)]) }
        if body[i..<end].dropFirst(marker.count).starts(with: Array("--".utf8)) { return parts }
        start = min(end + 1, body.endIndex)
      }
      i = min(end + 1, body.endIndex)
      if end == body.endIndex { break }
    }
    if let start, start < body.endIndex { parts.append(body[start...]) }
    return parts
  }

  /// RFC 2047 encoded words ("=?utf-8?B?…?=") decoded.
  static func decodeWords(_ text: String) -> String {
    guard text.contains("=?") else { return text }
    let pattern = #"=\?([^?]+)\?([bBqQ])\?([^?]*)\?="#
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return text }
    var out = ""
    var last = text.startIndex
    let matches = regex.matches(in: text, range: NSRange(text.startIndex..., in: text))
    for match in matches {
      guard let whole = Range(match.range, in: text), let cs = Range(match.range(at: 1), in: text),
        let enc = Range(match.range(at: 2), in: text),
        let data = Range(match.range(at: 3), in: text)
      else { continue }
      let between = text[last..<whole.lowerBound]
      // White space between two encoded words is not part of the text.
      if !(last != text.startIndex && between.allSatisfy(\.isWhitespace)) { out += between }
      let payload = String(text[data])
      let bytes: [UInt8]
      if text[enc].lowercased() == "b" {
        bytes =
          Data(base64Encoded: payload, options: .ignoreUnknownCharacters).map { Array($0) } ?? []
      } else {
        bytes = quotedPrintable(
          ArraySlice(Array(payload.replacingOccurrences(of: "_", with: " ").utf8)))
      }
      out += TextDecoder.decode(bytes, truncated: false, charset: String(text[cs])) ?? ""
      last = whole.upperBound
    }
    return out + text[last...]
  }
}
