import Foundation

/// The text a manual page shows, read from its roff source (man or mdoc
/// macros): requests that only lay the page out are left out, the words of
/// those that carry text (`.SH`, `.B`, `.IR`, `.Nm`, `.Nd`, …) kept, and
/// escapes turned into the characters they stand for or dropped.
public struct ManPageText: Equatable, Sendable {
  /// The page's text, one line per source line that has any.
  public var text: String
  /// The first section's first paragraph: the NAME line, "ls - list
  /// directory contents", in the page's own language.
  public var name: String?

  /// The text of a page, or nil when the source holds no page header or
  /// section heading (a rotated log named `syslog.1` is not a manual page).
  public init?(source: String) {
    var lines: [String] = []
    var name: [String] = []
    var sections = 0
    var inName = false
    var sawHeader = false
    for raw in source.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = Substring(raw)
      if let first = line.first, first == "." || first == "'" {
        line = line.dropFirst().drop { $0 == " " || $0 == "\t" }
        let request = line.prefix { $0 != " " && $0 != "\t" }
        let arguments = line.dropFirst(request.count)
        if request.hasPrefix("\\\"") { continue }  // a comment
        switch request {
        case "TH", "Dd", "Dt": sawHeader = true
        case "SH", "Sh":
          sawHeader = true
          sections += 1
          inName = sections == 1
          if let heading = Self.words(of: arguments) { lines.append(heading) }
          continue
        case "PP", "LP", "P", "Pp", "sp":
          if inName && !name.isEmpty { inName = false }
        default: break
        }
        guard !Self.layoutRequests.contains(String(request)),
          var words = Self.words(of: arguments)
        else { continue }
        if request == "Nd" { words = "- " + words }
        lines.append(words)
        if inName { name.append(words) }
        continue
      }
      let text = Self.plain(line).trimmingCharacters(in: .whitespaces)
      guard !text.isEmpty else {
        if inName && !name.isEmpty { inName = false }
        continue
      }
      lines.append(text)
      if inName { name.append(text) }
    }
    guard sawHeader else { return nil }
    self.text = lines.joined(separator: "\n")
    let joined = name.joined(separator: " ").split(whereSeparator: \.isWhitespace)
      .joined(separator: " ")
    self.name = joined.isEmpty ? nil : joined
  }

  /// Requests and macros whose arguments are no text of the page.
  static let layoutRequests: Set<String> = [
    "TH", "Dd", "Dt", "Os", "de", "de1", "am", "if", "ie", "el", "nr", "ds", "so", "ft", "in",
    "ti", "ta", "ne", "hy", "nh", "ad", "na", "fi", "nf", "br", "sp", "bp", "ll", "ps", "vs",
    "PD", "RS", "RE", "TP", "TQ", "PP", "LP", "P", "HP", "Pp", "Bl", "El", "Bd", "Ed", "Bk", "Ek",
    "EX", "EE", "UE", "ME", "YS", "cs", "ss", "tr", "mk", "rt", "rm", "rn", "ig", "..", "\\}",
    "Dl", "Lk",
  ]

  /// A request's arguments as words: quotes and escapes gone.
  static func words(of arguments: Substring) -> String? {
    let text = plain(arguments).replacingOccurrences(of: "\"", with: "")
      .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return text.isEmpty ? nil : text
  }

  /// Named characters a page commonly writes as escapes.
  static let namedCharacters: [String: String] = [
    "em": "—", "en": "–", "hy": "-", "aq": "'", "dq": "\"", "lq": "“", "rq": "”", "oq": "‘",
    "cq": "’", "bu": "•", "co": "©", "rg": "®", "tm": "™", "mi": "-", "pl": "+", "mu": "×",
    "di": "÷", "<=": "≤", ">=": "≥", "->": "→", "<-": "←", "de": "°", "ti": "~", "ha": "^",
    "rs": "\\", "ba": "|", "or": "|", "sl": "/", "at": "@", "sh": "#", "Do": "$", "ga": "`",
    "aa": "´", "lB": "[", "rB": "]", "lC": "{", "rC": "}", "la": "⟨", "ra": "⟩",
  ]

  /// Drops an escape's argument: a two-letter `(xx`, a `[name]`, or else
  /// what `other` drops.
  static func dropName(_ rest: inout Substring, other: (Substring) -> Substring) {
    if rest.first == "(" {
      rest = rest.dropFirst(3)
    } else if rest.first == "[" {
      let end = rest.firstIndex(of: "]") ?? rest.endIndex
      rest = end < rest.endIndex ? rest[rest.index(after: end)...] : rest[end...]
    } else {
      rest = other(rest)
    }
  }

  /// A line with its escapes resolved and an inline comment (`\"`) cut.
  static func plain(_ line: Substring) -> String {
    guard line.contains("\\") else { return String(line) }
    var out = ""
    var rest = line[...]
    while let slash = rest.firstIndex(of: "\\") {
      out += rest[..<slash]
      rest = rest[rest.index(after: slash)...]
      guard let escape = rest.first else { break }
      rest = rest.dropFirst()
      switch escape {
      case "\"", "#": return out  // the rest of the line is a comment
      case "-", "e", "\\": out += escape == "-" ? "-" : "\\"
      case " ", "~", "0": out += " "
      case "&", "|", "^", "%", ":", "c", "d", "u", "/", ",", "{", "}", "a", "t", "p", "r":
        break
      case "(":
        out += namedCharacters[String(rest.prefix(2))] ?? ""
        rest = rest.dropFirst(2)
      case "[":
        let end = rest.firstIndex(of: "]") ?? rest.endIndex
        out += namedCharacters[String(rest[..<end])] ?? ""
        rest = end < rest.endIndex ? rest[rest.index(after: end)...] : rest[end...]
      case "f", "*", "n", "F", "m", "M", "g", "k", "V", "Y":
        // A font, string or register by a one-letter, (xx or [name] name.
        dropName(&rest) { $0.dropFirst() }
      case "s":
        // A size change: \s0, \s-1, \s+2, \s(12, \s[12].
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        dropName(&rest) { $0.drop(while: \.isNumber) }
      case "h", "v", "w", "o", "l", "L", "D", "X", "b", "x", "N", "Z", "A", "B", "R", "C", "S", "H":
        // A quoted argument that draws or moves rather than writes.
        if let quote = rest.first, quote == "'" {
          let body = rest.dropFirst()
          let end = body.firstIndex(of: quote) ?? body.endIndex
          rest = end < body.endIndex ? body[body.index(after: end)...] : body[end...]
        }
      default:
        out.append(escape)
      }
    }
    out += rest
    return out
  }
}
