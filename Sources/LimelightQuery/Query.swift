import Foundation
import LimelightModel
import LimelightPlatform

/// A parsed query: words, phrases, exclusions, alternatives and filters.
public indirect enum QueryNode: Equatable, Sendable {
  /// Text to find. `prefix`: the last word may be the start of a longer one.
  /// `column`: only in that part of the item (name, keywords).
  case text(String, prefix: Bool, column: TextColumn?)
  case filter(Filter)
  case and([QueryNode])
  case or([QueryNode])
  case not(QueryNode)
  /// Matches nothing (a word with no letters or digits).
  case nothing
}

/// The indexed text columns a query can name, in the text index's order.
public enum TextColumn: String, Sendable, CaseIterable {
  case name, keywords, path, content

  /// The column's position in the text index (its ``PhraseCheck`` index).
  package var position: Int { Self.allCases.firstIndex(of: self)! }
}

/// An item attribute the predicate language compares as text.
public enum TextAttribute: String, Sendable, CaseIterable {
  case displayName, title, contentDescription, keywords, authors, kind, path, domain, uri
}

/// A condition on an item's attributes.
public enum Filter: Equatable, Sendable {
  case kind(KindClass)
  /// File name extensions, lower-cased, without the dot.
  case extensions([String])
  /// Items at or below a folder.
  case inFolder(RawPath)
  /// A MIME type or pattern (`image/*`), matched against the type and its ancestors.
  case contentType(String)
  case domain(String)
  /// Entries of one host of a shared store (`host:NAME`), lower-cased; in
  /// the local index, which holds this host's alone, all or nothing.
  case host(String)
  /// `lower <= field < upper` (either bound may be open).
  case range(RangeField, lower: Double?, upper: Double?)
  /// A text attribute compared with a wildcard pattern (the predicate language).
  case match(TextAttribute, pattern: String, flags: String)
  /// Items written after an index generation (for `--live`; not query syntax).
  case changedAfter(generation: Int64)
  /// One of an item's people (`author:`, `from:`, `to:`) holds each word of
  /// the name, as the words of a name match: a prefix, accents ignored, a
  /// typo forgiven.
  case person(PersonRole, String)
}

/// Which of an item's people a name is looked for among.
public enum PersonRole: String, Sendable {
  /// Authors, artists, an e-mail's sender (`author:`, `from:`).
  case author
  /// An e-mail's recipients (`to:`).
  case recipient
}

/// A query the user got wrong, with the part at fault.
public struct QueryError: Error, CustomStringConvertible, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// Reads the query language of `find-in`.
///
/// Words are ANDed, each matching as a prefix; `"exact phrase"`; `-word` and
/// `-"phrase"` exclude; `a OR b` (also `|`); parentheses group; `kind:`, `ext:`,
/// `in:`, `name:`, `tag:`, `type:`, `domain:` and `host:` filter. Any other string is text:
/// nothing the user types reaches SQLite's FTS syntax unquoted.
public struct QueryParser {
  /// The filters a word can start with (`kind:pdf`), in the order the manual lists them.
  public static let filterNames = [
    "kind", "ext", "in", "name", "tag", "type", "domain", "host", "size", "modified", "created",
    "used", "taken", "author", "from", "to", "sort",
  ]

  /// Words a shell completes a query with: each filter, and each value of
  /// those with a fixed set of values.
  public static var completions: [String] {
    filterNames.flatMap { name -> [String] in
      switch name {
      case "kind": return KindClass.allCases.map { "kind:" + $0.rawValue }
      case "modified", "created", "used", "taken":
        return ["today", "yesterday", "week", "month", "year"].map { name + ":" + $0 }
      case "sort": return ["sort:size"]
      default: return [name + ":"]
      }
    }
  }

  private var tokens: [Token] = []
  private var position = 0
  private let currentDirectory: () -> RawPath
  private let home: RawPath
  /// The moment relative dates count from (`--now`), and the calendar
  /// dates are read in.
  public var now: Date
  public var calendar: Calendar
  /// Whether the query asked for the largest first (`sort:size`).
  private(set) var largestFirst = false

  enum Token: Equatable {
    case word(String)
    case phrase(String)
    case minus
    case or
    case open
    case close
  }

  public init(
    home: RawPath, currentDirectory: @escaping () -> RawPath = { RawPath.absolute(".") },
    now: Date = Date(), calendar: Calendar = .current
  ) {
    self.home = home
    self.currentDirectory = currentDirectory
    self.now = now
    self.calendar = calendar
  }

  /// Parses a query in the filter language (or the predicate language,
  /// with filter words beside it); an empty query or a malformed filter
  /// throws ``QueryError``.
  public mutating func parse(_ query: String) throws(QueryError) -> QueryNode {
    largestFirst = false
    if PredicateParser.looksLikePredicate(query) { return try parsePredicate(query) }
    return try parseWords(query)
  }

  /// A query in the predicate language, with filter words beside it
  /// (`kind:audio authors == "Miles Davis"`): the filter words apart.
  mutating func parsePredicate(_ query: String) throws(QueryError) -> QueryNode {
    largestFirst = false
    let words = PhraseReader.rawTokens(query)
    let filters = words.filter {
      PhraseReader.isSyntax($0) && $0.contains(":") && !$0.hasPrefix("\"")
    }
    var predicate = PredicateParser(now: now, calendar: calendar)
    let rest = words.filter { !filters.contains($0) }.joined(separator: " ")
    let node = try predicate.parse(filters.isEmpty ? query : rest)
    guard !filters.isEmpty else { return node }
    return Self.simplify(.and([try parseWords(filters.joined(separator: " ")), node]))
  }

  private mutating func parseWords(_ query: String) throws(QueryError) -> QueryNode {
    tokens = Self.tokenize(query)
    position = 0
    if tokens.isEmpty { throw QueryError("the query is empty: give a word to find") }
    var nodes: [QueryNode] = []
    while position < tokens.count {
      if tokens[position] == .close {
        position += 1  // A stray ")" is ignored.
        continue
      }
      nodes.append(try parseOr())
    }
    let query = Self.simplify(.and(nodes))
    return query == .and([]) ? .nothing : query
  }

  static func tokenize(_ query: String) -> [Token] {
    var tokens: [Token] = []
    var current = ""
    var chars = Array(query)
    chars.append(" ")
    var i = 0
    func endWord() {
      guard !current.isEmpty else { return }
      tokens.append(current == "OR" || current == "|" || current == "||" ? .or : .word(current))
      current = ""
    }
    while i < chars.count {
      let ch = chars[i]
      if ch.isWhitespace {
        endWord()
      } else if ch == "\"" && (current.isEmpty || current.hasSuffix(":")) {
        // A phrase, alone or as a filter's value (name:"two words").
        var phrase = ""
        i += 1
        while i < chars.count - 1 && chars[i] != "\"" {
          phrase.append(chars[i])
          i += 1
        }
        if current.isEmpty {
          tokens.append(.phrase(phrase))
        } else {
          current += phrase
          tokens.append(.word(current))
          current = ""
        }
      } else if ch == "-" && current.isEmpty && i + 1 < chars.count && !chars[i + 1].isWhitespace
        && (tokens.isEmpty || tokens.last != .minus)
      {
        tokens.append(.minus)
      } else if ch == "(" && current.isEmpty {
        tokens.append(.open)
      } else if ch == ")" {
        endWord()
        tokens.append(.close)
      } else {
        current.append(ch)
      }
      i += 1
    }
    return tokens
  }

  private mutating func parseOr() throws(QueryError) -> QueryNode {
    var alternatives = [try parseAnd()]
    while position < tokens.count, tokens[position] == .or {
      position += 1
      if position >= tokens.count || tokens[position] == .close { break }
      alternatives.append(try parseAnd())
    }
    return alternatives.count == 1 ? alternatives[0] : .or(alternatives)
  }

  private mutating func parseAnd() throws(QueryError) -> QueryNode {
    var parts: [QueryNode] = []
    while position < tokens.count {
      let token = tokens[position]
      if token == .or || token == .close { break }
      parts.append(try parseUnary())
    }
    return parts.count == 1 ? parts[0] : .and(parts)
  }

  private mutating func parseUnary() throws(QueryError) -> QueryNode {
    let token = tokens[position]
    position += 1
    switch token {
    case .minus:
      guard position < tokens.count, tokens[position] != .or, tokens[position] != .close else {
        return .and([])
      }
      return .not(try parseUnary())
    case .open:
      var inner: [QueryNode] = []
      while position < tokens.count && tokens[position] != .close {
        inner.append(try parseOr())
      }
      if position < tokens.count { position += 1 }
      return inner.count == 1 ? inner[0] : .and(inner)
    case .phrase(let text):
      return Self.textNode(text, prefix: false, column: nil)
    case .word(let word):
      return try wordNode(word)
    case .or, .close:
      return .and([])
    }
  }

  /// A word without the English possessive, the French and Italian
  /// elided article or pronoun, or the letter before a hyphen it is
  /// written with ("computer's" is "computer", "l'école" "école", "qu'il"
  /// "il", "e-mail" "mail"): the text index keeps
  /// them as words of their own, and a word of one or two letters beside
  /// another is a phrase to check in every text that holds both (a third
  /// of a second for "adjust the computer's clock" on 50,000 documents).
  static func withoutClitic(_ word: String) -> String {
    // A letter before a hyphen is no word either: "e-mail" is "mail" (the
    // phrase "e mail" took 150 ms in a sentence over the corpus).
    let halves = word.split(separator: "-", omittingEmptySubsequences: false)
    if halves.count == 2, halves[0].count == 1, halves[0].allSatisfy(\.isLetter),
      halves[1].count > 1, halves[1].allSatisfy(\.isLetter)
    {
      return String(halves[1])
    }
    let apostrophes: Set<Character> = ["'", "\u{2019}"]
    guard let mark = word.firstIndex(where: apostrophes.contains),
      word.lastIndex(where: apostrophes.contains) == mark
    else { return word }
    let before = word[..<mark]
    let after = word[word.index(after: mark)...]
    if after.lowercased() == "s" && before.count > 1 { return String(before) }
    let elided: Set<String> = ["l", "d", "j", "m", "n", "s", "t", "c", "qu", "un", "dell", "nell"]
    if elided.contains(before.lowercased()) && after.count > 1 { return String(after) }
    return word
  }

  /// A word with no letter or digit is dropped (an empty group), as a tokenizer would.
  static func textNode(_ text: String, prefix: Bool, column: TextColumn?) -> QueryNode {
    SearchText.hasWordCharacters(text) ? .text(text, prefix: prefix, column: column) : .and([])
  }

  private mutating func wordNode(_ word: String) throws(QueryError) -> QueryNode {
    guard let colon = word.firstIndex(of: ":"), colon != word.startIndex else {
      return Self.textNode(Self.withoutClitic(word), prefix: true, column: nil)
    }
    let name = word[..<colon].lowercased()
    let value = String(word[word.index(after: colon)...])
    guard Self.filterNames.contains(name) else {
      return Self.textNode(word, prefix: true, column: nil)
    }
    guard !value.isEmpty else {
      throw QueryError("'\(name):' needs a value, as in \(Self.example(name))")
    }
    switch name {
    case "kind":
      guard let kind = KindClass.named(value) else {
        throw QueryError(
          "unknown kind '\(value)' in '\(word)': use one of "
            + KindClass.allCases.map(\.rawValue).joined(separator: ", "))
      }
      return .filter(.kind(kind))
    case "ext":
      let extensions = value.split(separator: ",").map {
        $0.drop(while: { $0 == "." }).lowercased()
      }.filter { !$0.isEmpty }
      guard !extensions.isEmpty, extensions.allSatisfy({ !$0.contains("/") }) else {
        throw QueryError("'\(word)' is not an extension list: write ext:pdf or ext:jpg,png")
      }
      return .filter(.extensions(extensions))
    case "in":
      return .filter(.inFolder(resolveFolder(value)))
    case "name":
      return Self.textNode(value, prefix: true, column: .name)
    case "tag":
      return Self.textNode(value, prefix: true, column: .keywords)
    case "size":
      guard let (low, high) = RangeParser.size(value) else {
        throw QueryError(
          "'\(word)' is not a size: write size:>10MB, size:<1k or size:1M..5M")
      }
      return .filter(.range(.size, lower: low, upper: high))
    case "modified", "created", "used", "taken":
      guard let (low, high) = RangeParser.date(value, now: now, calendar: calendar) else {
        throw QueryError(
          "'\(word)' is not a date: write \(name):today, yesterday, week, month, year, "
            + "2026-11-20, 2026-11, >2026-01-01 or 2026-01-01..2026-03-31")
      }
      if let low, let high, low >= high {
        throw QueryError("'\(word)' is an empty range of dates: its start comes after its end")
      }
      // A photo's date taken is what its importer keeps as its creation.
      let field: RangeField =
        name == "used" ? .lastUsed : name == "created" || name == "taken" ? .created : .modified
      return .filter(.range(field, lower: low, upper: high))
    case "author", "from", "to":
      guard SearchText.hasWordCharacters(value) else {
        throw QueryError("'\(word)' names nobody: write \(Self.example(name))")
      }
      let role: PersonRole = name == "to" ? .recipient : .author
      return .and([.text(value, prefix: true, column: .keywords), .filter(.person(role, value))])
    case "sort":
      guard value.lowercased() == "size" else {
        throw QueryError("'\(word)' is not an order: write sort:size (the largest first)")
      }
      largestFirst = true
      return .and([])
    case "type":
      let lower = value.lowercased()
      let allowed = lower.allSatisfy { $0.isLetter || $0.isNumber || "/.+-_*".contains($0) }
      guard allowed, lower.contains("/") || lower == "*" else {
        throw QueryError("'\(word)' is not a MIME type: write type:image/png or type:text/*")
      }
      return .filter(.contentType(lower))
    case "host":
      guard HostName.isValid(value) else {
        throw QueryError("'\(word)' is not a host name: write host:laptop")
      }
      return .filter(.host(value.lowercased()))
    default:
      guard value.allSatisfy({ $0.isLetter || $0.isNumber || "._-".contains($0) }) else {
        throw QueryError("'\(word)' is not a domain: write domain:com.example.notes")
      }
      return .filter(.domain(value))
    }
  }

  private func resolveFolder(_ value: String) -> RawPath {
    if value == "~" { return home }
    if value.hasPrefix("~/") {
      return home.appending(String(value.dropFirst(2))).lexicallyNormalized
    }
    if value.hasPrefix("/") { return RawPath(value).lexicallyNormalized }
    return currentDirectory().appending(value).lexicallyNormalized
  }

  static func example(_ filter: String) -> String {
    switch filter {
    case "kind": return "kind:pdf"
    case "ext": return "ext:md"
    case "in": return "in:~/Documents"
    case "name": return "name:report"
    case "tag": return "tag:work"
    case "type": return "type:image/*"
    case "size": return "size:>10MB"
    case "modified", "created", "used", "taken": return "\(filter):today"
    case "author": return "author:\"Miles Davis\""
    case "from": return "from:anna"
    case "to": return "to:bill"
    case "sort": return "sort:size"
    case "host": return "host:laptop"
    default: return "domain:com.example.notes"
    }
  }

  /// Flattens nested ANDs and ORs and drops empty groups.
  static func simplify(_ node: QueryNode) -> QueryNode {
    switch node {
    case .and(let parts):
      var flat: [QueryNode] = []
      for part in parts.map(simplify) {
        if case .and(let inner) = part { flat.append(contentsOf: inner) } else { flat.append(part) }
      }
      return flat.count == 1 ? flat[0] : .and(flat)
    case .or(let parts):
      var flat: [QueryNode] = []
      for part in parts.map(simplify) {
        if case .or(let inner) = part {
          flat.append(contentsOf: inner)
        } else if part != .and([]) {
          flat.append(part)
        }
      }
      return flat.count == 1 ? flat[0] : .or(flat)
    case .not(let inner):
      let simple = simplify(inner)
      return simple == .and([]) ? simple : .not(simple)
    default:
      return node
    }
  }
}

extension QueryNode {
  /// `self` with the words typed as prefixes that are followed by another
  /// word, and whose last word (by `lastWord`, a store's own splitting) is
  /// shorter than `letters`, typed whole: a person typing a sentence (`end
  /// a process by sending it a signal`, `computer's clock`) typed those
  /// words whole, and a prefix of one or two letters is in nearly every
  /// text. The last word is still being typed, and stays a prefix.
  public func shortWordsWhole(shorterThan letters: Int, lastWord: (String) -> String?)
    -> QueryNode
  {
    guard case .and(let parts) = self,
      let last = parts.lastIndex(where: { if case .text = $0 { true } else { false } })
    else { return self }
    return .and(
      parts.enumerated().map { index, part in
        guard index != last, case .text(let text, true, let column) = part,
          let end = lastWord(text), end.count < letters
        else { return part }
        return .text(text, prefix: false, column: column)
      })
  }
}
