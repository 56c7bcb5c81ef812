import Foundation
import LimelightModel

/// The Core Spotlight / `mdfind` predicate language, for users who come from macOS:
/// `keywords == "park*"cdw && contentType == "image/*"`, with `!=`, `<`, `>`, `<=`,
/// `>=`, `&&`, `||`, `!`, parentheses, `InRange(attribute, low, high)` and `$time`
/// values (`$time.now`, `$time.now(-3600)`, `$time.today`, `$time.today(-7)`,
/// `$time.yesterday`, `$time.this_week`, `$time.this_month`, `$time.this_year`,
/// `$time.iso(2026-01-01)`).
struct PredicateParser {
  enum Token: Equatable {
    case identifier(String)
    case string(String, modifiers: String)
    case number(Double)
    case time(String, offset: Double?)
    case op(String)
  }

  /// What a comparison compares with: the tokens that are values.
  enum Value {
    case string(String, modifiers: String)
    case number(Double)
    case time(String, offset: Double?)
  }

  /// What an attribute is, and where it is kept.
  enum Attribute {
    case text(TextAttribute)
    case contentType
    case content
    case anyText
    case number(RangeField)
  }

  /// Each attribute's names (the first is the one the manual and messages
  /// use) and what it reads.
  static let attributeTable: [(names: [String], attribute: Attribute)] = [
    (
      ["displayName", "kMDItemDisplayName", "name", "kMDItemFSName", "fileName"],
      .text(.displayName)
    ),
    (["title", "kMDItemTitle"], .text(.title)),
    (
      ["contentDescription", "kMDItemDescription", "description"],
      .text(.contentDescription)
    ),
    (["keywords", "kMDItemKeywords", "tags", "kMDItemUserTags"], .text(.keywords)),
    (["authors", "kMDItemAuthors"], .text(.authors)),
    (["kind", "kMDItemKind"], .text(.kind)),
    (["path", "kMDItemPath"], .text(.path)),
    (["domain", "domainIdentifier"], .text(.domain)),
    (["uri", "contentURL"], .text(.uri)),
    (
      ["contentType", "kMDItemContentType", "contentTypeTree", "kMDItemContentTypeTree"],
      .contentType
    ),
    (["textContent", "kMDItemTextContent"], .content),
    (["size", "kMDItemFSSize", "fileSize"], .number(.size)),
    (
      [
        "contentModificationDate", "kMDItemContentModificationDate", "kMDItemFSContentChangeDate",
        "modified",
      ], .number(.modified)
    ),
    (
      ["contentCreationDate", "kMDItemContentCreationDate", "kMDItemFSCreationDate", "created"],
      .number(.created)
    ),
    (["lastUsedDate", "kMDItemLastUsedDate", "used"], .number(.lastUsed)),
    (["*"], .anyText),
  ]

  /// The attributes by every name, lower-cased.
  static let attributes: [String: Attribute] = {
    var map: [String: Attribute] = [:]
    for (names, attribute) in attributeTable {
      for name in names { map[name.lowercased()] = attribute }
    }
    return map
  }()

  /// The attributes' names for a message: "displayName, title, … or *".
  static var attributeList: String {
    let names = attributeTable.map(\.names[0])
    return names.dropLast().joined(separator: ", ") + " or " + names.last!
  }

  /// Whether a query is written in this language rather than as words.
  static func looksLikePredicate(_ query: String) -> Bool {
    if ["==", "!=", "&&", "||", "InRange("].contains(where: query.contains) { return true }
    guard let tokens = try? tokenize(query), tokens.count >= 3 else { return false }
    if case .identifier(let name) = tokens.first(where: { $0 != .op("(") && $0 != .op("!") }),
      attributes[name.lowercased()] != nil,
      tokens.contains(where: { ["<", ">", "<=", ">="].contains(opText($0)) })
    {
      return true
    }
    return false
  }

  static func opText(_ token: Token) -> String? {
    if case .op(let text) = token { return text }
    return nil
  }

  let now: Date
  let calendar: Calendar
  private var tokens: [Token] = []
  private var position = 0

  init(now: Date = Date(), calendar: Calendar = .current) {
    self.now = now
    self.calendar = calendar
  }

  mutating func parse(_ query: String) throws(QueryError) -> QueryNode {
    tokens = try Self.tokenize(query)
    position = 0
    let node = try parseOr()
    if position < tokens.count {
      throw QueryError("unexpected \(describe(tokens[position])) in the predicate")
    }
    return node
  }

  // MARK: - Grammar

  private mutating func parseOr() throws(QueryError) -> QueryNode {
    let parts = try parseList(separatedBy: "||") { (p: inout Self) throws(QueryError) in
      try p.parseAnd()
    }
    return parts.count == 1 ? parts[0] : .or(parts)
  }

  private mutating func parseAnd() throws(QueryError) -> QueryNode {
    let parts = try parseList(separatedBy: "&&") { (p: inout Self) throws(QueryError) in
      try p.parseUnary()
    }
    return parts.count == 1 ? parts[0] : .and(parts)
  }

  /// `element (separator element)*`.
  private mutating func parseList(
    separatedBy separator: String, _ element: (inout Self) throws(QueryError) -> QueryNode
  ) throws(QueryError) -> [QueryNode] {
    var parts = [try element(&self)]
    while next == .op(separator) {
      position += 1
      parts.append(try element(&self))
    }
    return parts
  }

  private mutating func parseUnary() throws(QueryError) -> QueryNode {
    guard let token = next else { throw QueryError("the predicate ends too early") }
    position += 1
    switch token {
    case .op("!"):
      return .not(try parseUnary())
    case .op("("):
      let inner = try parseOr()
      try expect(.op(")"))
      return inner
    case .identifier(let name) where name.lowercased() == "inrange":
      try expect(.op("("))
      let attribute = try attributeName()
      try expect(.op(","))
      let low = try value()
      try expect(.op(","))
      let high = try value()
      try expect(.op(")"))
      guard case .number(let field) = Self.attributes[attribute.lowercased()]! else {
        throw QueryError("InRange needs a number or date attribute, not '\(attribute)'")
      }
      return .filter(
        .range(field, lower: try number(low, field).start, upper: try number(high, field).end))
    case .identifier(let name):
      position -= 1
      _ = try attributeName()
      guard case .op(let op) = next, ["==", "!=", "<", ">", "<=", ">="].contains(op) else {
        throw QueryError("expected ==, !=, <, >, <= or >= after '\(name)'")
      }
      position += 1
      return try comparison(name, op, try value())
    default:
      throw QueryError("unexpected \(describe(token)) in the predicate")
    }
  }

  private mutating func attributeName() throws(QueryError) -> String {
    guard case .identifier(let name) = next else {
      throw QueryError("expected an attribute name such as displayName or kMDItemContentType")
    }
    guard Self.attributes[name.lowercased()] != nil else {
      throw QueryError(
        "unknown attribute '\(name)': use \(Self.attributeList)")
    }
    position += 1
    return name
  }

  private mutating func value() throws(QueryError) -> Value {
    guard let token = next else {
      throw QueryError("the predicate ends where a value was expected")
    }
    let value: Value
    switch token {
    case .string(let text, let modifiers): value = .string(text, modifiers: modifiers)
    case .number(let number): value = .number(number)
    case .time(let name, let offset): value = .time(name, offset: offset)
    case .identifier, .op:
      throw QueryError("expected a value (\"text\", a number or $time…), found \(describe(token))")
    }
    position += 1
    return value
  }

  private func comparison(_ name: String, _ op: String, _ value: Value) throws(QueryError)
    -> QueryNode
  {
    let attribute = Self.attributes[name.lowercased()]!
    switch attribute {
    case .number(let field):
      let (start, end) = try number(value, field)
      switch op {
      case "==": return .filter(.range(field, lower: start, upper: end))
      case "!=": return .not(.filter(.range(field, lower: start, upper: end)))
      case "<": return .filter(.range(field, lower: nil, upper: start))
      case "<=": return .filter(.range(field, lower: nil, upper: end))
      case ">": return .filter(.range(field, lower: end, upper: nil))
      default: return .filter(.range(field, lower: start, upper: nil))
      }
    case .text(let attribute):
      guard case .string(let pattern, let modifiers) = value else {
        throw QueryError("'\(name)' is text: compare it with a \"quoted string\"")
      }
      guard op == "==" || op == "!=" else {
        throw QueryError("'\(name)' is text: compare it with == or !=")
      }
      let node = QueryNode.filter(.match(attribute, pattern: pattern, flags: modifiers))
      return op == "==" ? node : .not(node)
    case .contentType:
      guard case .string(let pattern, _) = value, op == "==" || op == "!=" else {
        throw QueryError("compare contentType with == or != and a \"quoted\" MIME type")
      }
      let node = QueryNode.filter(.contentType(pattern.lowercased()))
      return op == "==" ? node : .not(node)
    case .content, .anyText:
      guard case .string(let pattern, _) = value, op == "==" || op == "!=" else {
        throw QueryError("compare '\(name)' with == or != and a \"quoted\" word")
      }
      let words = pattern.replacingOccurrences(of: "*", with: " ").trimmingCharacters(
        in: .whitespaces)
      guard SearchText.hasWordCharacters(words) else { return .nothing }
      let node = QueryNode.text(
        words, prefix: pattern.hasSuffix("*"), column: attribute.isContent ? .content : nil)
      return op == "==" ? node : .not(node)
    }
  }

  /// A number, or the span a date value names (a day for `$time.today`).
  private func number(_ value: Value, _ field: RangeField) throws(QueryError) -> (
    start: Double, end: Double
  ) {
    switch value {
    case .number(let value):
      return (value, value + 1)
    case .string(let text, _):
      if field == .size, let bytes = RangeParser.bytes(text) { return (bytes, bytes + 1) }
      if let span = RangeParser.period(String(text.prefix(10)), now: now, calendar: calendar),
        text.count <= 10
      {
        return span
      }
      if let date = ISO8601DateFormatter().date(from: text) {
        return (date.timeIntervalSince1970, date.timeIntervalSince1970 + 1)
      }
      throw QueryError("'\(text)' is not a \(field == .size ? "size" : "date")")
    case .time(let name, let offset):
      return try time(name, offset)
    }
  }

  private func time(_ name: String, _ offset: Double?) throws(QueryError) -> (
    start: Double, end: Double
  ) {
    let day = 86_400.0
    let today = calendar.startOfDay(for: now)
    func start(of unit: Calendar.Component) -> Date {
      calendar.dateInterval(of: unit, for: now)?.start ?? today
    }
    func shifted(_ date: Date, _ unit: Calendar.Component, _ count: Double) -> (Double, Double) {
      let begin = calendar.date(byAdding: unit, value: Int(count), to: date) ?? date
      let end = calendar.date(byAdding: unit, value: 1, to: begin) ?? begin
      return (begin.timeIntervalSince1970, end.timeIntervalSince1970)
    }
    switch name.lowercased() {
    case "now":
      let t = now.timeIntervalSince1970 + (offset ?? 0)
      return (t, t + 1)
    case "today": return shifted(today, .day, offset ?? 0)
    case "yesterday": return shifted(today, .day, -1 + (offset ?? 0))
    case "this_week": return shifted(start(of: .weekOfYear), .weekOfYear, offset ?? 0)
    case "this_month": return shifted(start(of: .month), .month, offset ?? 0)
    case "this_year": return shifted(start(of: .year), .year, offset ?? 0)
    default:
      if name.lowercased().hasPrefix("iso:") {
        let text = String(name.dropFirst(4))
        if let span = RangeParser.period(text, now: now, calendar: calendar) { return span }
        if let date = ISO8601DateFormatter().date(from: text) {
          return (date.timeIntervalSince1970, date.timeIntervalSince1970 + day / day)
        }
      }
      throw QueryError(
        "unknown $time.\(name): use now, today, yesterday, this_week, this_month, this_year or iso(DATE)"
      )
    }
  }

  private var next: Token? { position < tokens.count ? tokens[position] : nil }

  private mutating func expect(_ token: Token) throws(QueryError) {
    guard next == token else {
      throw QueryError(
        "expected \(describe(token)) \(next.map { "before " + describe($0) } ?? "at the end")")
    }
    position += 1
  }

  private func describe(_ token: Token) -> String {
    switch token {
    case .identifier(let name): return "'\(name)'"
    case .string(let text, _): return "\"\(text)\""
    case .number(let value): return "\(value)"
    case .time(let name, _): return "$time.\(name)"
    case .op(let op): return "'\(op)'"
    }
  }

  // MARK: - Tokens

  static func tokenize(_ text: String) throws(QueryError) -> [Token] {
    var tokens: [Token] = []
    let chars = Array(text)
    var i = 0
    while i < chars.count {
      let c = chars[i]
      if c.isWhitespace {
        i += 1
        continue
      }
      if c == "\"" || c == "'" {
        var value = ""
        i += 1
        while i < chars.count && chars[i] != c {
          if chars[i] == "\\" && i + 1 < chars.count { i += 1 }
          value.append(chars[i])
          i += 1
        }
        guard i < chars.count else {
          throw QueryError("a quoted string is not closed: \(c)\(value)")
        }
        i += 1
        var modifiers = ""
        while i < chars.count, "cdw".contains(chars[i]) {
          modifiers.append(chars[i])
          i += 1
        }
        tokens.append(.string(value, modifiers: modifiers))
        continue
      }
      let two = i + 1 < chars.count ? String(chars[i...i + 1]) : ""
      if ["==", "!=", "<=", ">=", "&&", "||"].contains(two) {
        tokens.append(.op(two == "=" ? "==" : two))
        i += 2
        continue
      }
      if "<>!(),".contains(c) {
        tokens.append(.op(String(c)))
        i += 1
        continue
      }
      if c == "=" {
        tokens.append(.op("=="))
        i += 1
        continue
      }
      if c.isNumber || (c == "-" && i + 1 < chars.count && chars[i + 1].isNumber) {
        var number = String(c)
        i += 1
        while i < chars.count, chars[i].isNumber || chars[i] == "." {
          number.append(chars[i])
          i += 1
        }
        guard let value = Double(number) else { throw QueryError("'\(number)' is not a number") }
        tokens.append(.number(value))
        continue
      }
      if c == "$" {
        var name = ""
        i += 1
        while i < chars.count,
          chars[i].isLetter || chars[i].isNumber || chars[i] == "_" || chars[i] == "."
        {
          name.append(chars[i])
          i += 1
        }
        guard name.lowercased().hasPrefix("time.") else {
          throw QueryError("unknown value $\(name): only $time values exist")
        }
        name = String(name.dropFirst(5))
        var offset: Double?
        if i < chars.count, chars[i] == "(" {
          var inside = ""
          i += 1
          while i < chars.count, chars[i] != ")" {
            inside.append(chars[i])
            i += 1
          }
          guard i < chars.count else { throw QueryError("$time.\(name)( is not closed") }
          i += 1
          if name.lowercased() == "iso" {
            name = "iso:" + inside.trimmingCharacters(in: .whitespaces)
          } else {
            guard let value = Double(inside.trimmingCharacters(in: .whitespaces)) else {
              throw QueryError("$time.\(name)(\(inside)) needs a number")
            }
            offset = value
          }
        }
        tokens.append(.time(name, offset: offset))
        continue
      }
      if c.isLetter || c == "_" || c == "*" {
        var name = String(c)
        i += 1
        while c != "*", i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_" {
          name.append(chars[i])
          i += 1
        }
        tokens.append(.identifier(name))
        continue
      }
      throw QueryError("unexpected '\(c)' in the predicate")
    }
    return tokens
  }
}

extension PredicateParser.Attribute {
  var isContent: Bool {
    if case .content = self { return true }
    return false
  }
}
