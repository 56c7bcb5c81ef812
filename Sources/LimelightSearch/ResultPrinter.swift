import Foundation
import LimelightModel
import LimelightPlatform
import LimelightQuery
import LimelightStore

/// How `find-in` prints results: the output contract of scripts and people.
public enum ResultFormat {
  /// One URI per line (stdout is not a terminal).
  case uris
  /// URIs separated by NUL bytes (`-0`).
  case nullSeparated
  /// JSON Lines (`--json`).
  case json
  /// Name, kind, date, path and snippet, for a person at a terminal.
  case human(Terminal)
}

/// Writes search results in one ``ResultFormat``: what `find-in` prints,
/// whether it searched itself or the watcher's query service did.
public struct ResultPrinter {
  let format: ResultFormat
  /// A result's snippet, its matches between "\u{1}" and "\u{2}" (nil:
  /// none shown); only the terminal view asks.
  let snippet: (SearchResult) -> String?
  let home: RawPath
  let output: OutputBuffer
  let isoDates = ISO8601DateFormatter()
  let shortDates = ShortDateFormatter()

  /// Snippets from the local index, which `engine` reads, for `query` as it
  /// ran.
  public init(
    format: ResultFormat, engine: SearchEngine, query: QueryNode, home: RawPath,
    output: OutputBuffer = OutputBuffer()
  ) {
    self.init(format: format, home: home, output: output) {
      engine.snippet(for: $0, query: query, open: "\u{1}", close: "\u{2}")
    }
  }

  public init(
    format: ResultFormat, home: RawPath, output: OutputBuffer = OutputBuffer(),
    snippet: @escaping (SearchResult) -> String?
  ) {
    self.format = format
    self.snippet = snippet
    self.home = home
    self.output = output
  }

  public func print(_ results: [SearchResult]) {
    for result in results { print(result) }
    output.flush()
  }

  func print(_ result: SearchResult) {
    switch format {
    case .uris:
      output.write(result.uri + "\n")
    case .nullSeparated:
      output.write(bytes: Array(result.uri.utf8) + [0])
    case .json:
      output.write(json(result) + "\n")
    case .human(let terminal):
      var line = terminal.bold(Self.printable(result.displayName))
      let details = [
        result.kind ?? result.contentType ?? "", shortDates.string(result.modified),
        result.byMeaning ? "about it" : "",
      ].filter { !$0.isEmpty }.joined(separator: " · ")
      if !details.isEmpty { line += "  " + terminal.dim(details) }
      output.write(line + "\n")
      let location = result.path.map(displayPath) ?? result.uri
      output.write("  " + terminal.dim(location) + "\n")
      if let snippet = snippet(result) {
        output.write("  " + Self.highlight(snippet, terminal) + "\n")
      }
    }
  }

  func displayPath(_ path: RawPath) -> String { Self.printable(path.shown(home: home)) }

  /// Text with control characters (a newline in a name) shown as "?", so that
  /// one result keeps to its lines and no escape sequence reaches the terminal.
  public static func printable(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
  }

  /// A snippet with the matches between "\u{1}" and "\u{2}" highlighted, and
  /// control characters as spaces.
  public static func highlight(_ snippet: String, _ terminal: Terminal) -> String {
    var out = ""
    var marked = ""
    var inside = false
    for ch in snippet {
      if ch == "\u{1}" {
        inside = true
      } else if ch == "\u{2}" {
        out += terminal.highlight(marked)
        marked = ""
        inside = false
      } else if ch.unicodeScalars.first!.value < 0x20 {
        if inside { marked.append(" ") } else { out.append(" ") }
      } else if inside {
        marked.append(ch)
      } else {
        out.append(ch)
      }
    }
    return out + marked
  }

  func json(_ result: SearchResult) -> String {
    var object: [String: Any] = [
      "uri": result.uri, "id": result.localID ?? result.id, "domain": result.domain,
      "displayName": result.displayName, "score": (-result.score * 1000).rounded() / 1000,
      "contentType": result.contentType ?? NSNull(), "kind": result.kind ?? NSNull(),
    ]
    if let path = result.path { object["path"] = path.string }
    if let host = result.host { object["host"] = host }
    if !result.unmatched.isEmpty { object["unmatched"] = result.unmatched }
    if result.byMeaning { object["match"] = "meaning" }
    if let size = result.size { object["size"] = size }
    if let modified = result.modified {
      object["modified"] = isoDates.string(from: modified)
    }
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }
}
