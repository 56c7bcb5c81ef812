import Foundation
import LimelightModel
import LimelightPlatform
import LimelightQuery

/// A parsed query (`QueryNode`) as a PostgreSQL condition on `item`, with
/// its parameters: words and prefixes on the folded words of names and
/// texts, kinds, types, extensions, folders, sizes and dates on the item's
/// columns. With `closeWords`, a word of at least three letters also
/// matches the names that hold the words it gives: the words of names
/// close to it.
struct PostgresQuery {
  private(set) var parameters: [String?] = []
  /// The text terms, as `tsquery` texts, for ranking.
  private(set) var rankTerms: [String] = []
  /// The words as a name should hold them (folded): those typed, or for a
  /// word read as a typo the likeliest word of names read for it (the
  /// first ``NearWords/likeliest`` gives). A name that holds them all, or
  /// holds them as whole words, ranks above one whose keywords hold them
  /// or whose words only begin with them.
  private(set) var typedWords: [String] = []
  let closeWords: ((String) throws(PostgresError) -> [String])?
  /// The words read for each typo, once a query however often it is compiled.
  var closeWordsRead: [String: [String]] = [:]
  /// The words other queries of the same search read for their typos
  /// (``PostgresIndex/search(_:limit:typos:closeWordsKnown:)``): taken
  /// instead of being read again, and counted as read by this one.
  var closeWordsKnown: [String: [String]] = [:]

  /// What a condition checks: everything; the candidates alone (what the
  /// words' index answers, a text's run of words taken as held); or the
  /// texts alone (the words' index taken as answered). Candidates ranked,
  /// then checked for their texts in rank order, need read only as many
  /// texts as the results asked for.
  enum Checks { case all, candidates, texts }
  var checks = Checks.all
  /// How deep the compiling is under an OR or a NOT of the query's.
  private var alternatives = 0
  /// Whether a text's run of words is checked under an OR or a NOT, which
  /// the candidates and the texts cannot be checked apart for.
  private(set) var textUnderAlternative = false
  /// Whether a text's run of words is checked at all.
  private(set) var checksTexts = false

  /// Whether every entry's pairs of common words are in the words'
  /// index: not while a host has still to send its entries again after
  /// the store began keeping them (``PostgresIndex/pairsComplete()``).
  let usesPairs: Bool

  init(closeWords: ((String) throws(PostgresError) -> [String])?, usesPairs: Bool = true) {
    self.closeWords = closeWords
    self.usesPairs = usesPairs
  }

  /// The condition `node` compiles to.
  mutating func condition(_ node: QueryNode) throws(PostgresError) -> String {
    switch node {
    case .nothing:
      return "false"
    case .and(let nodes):
      // No part (the parser gives it for punctuation alone) narrows nothing.
      guard !nodes.isEmpty else { return "true" }
      // The single words are one condition on every word of the entry,
      // which its index answers alone (a condition a word each left the
      // others to be checked row by row).
      var words: [String] = []
      var parts: [String] = []
      for node in nodes {
        if case .text(let text, let prefix, nil) = node, let word = try anyWord(text, prefix) {
          words.append(word)
        } else {
          parts.append(try condition(node))
        }
      }
      if !words.isEmpty { parts.insert(inWords(words), at: 0) }
      return "(" + parts.joined(separator: " AND ") + ")"
    case .or(let nodes):
      guard !nodes.isEmpty else { return "false" }
      // One node is no alternative.
      let alternative = nodes.count > 1 ? 1 : 0
      alternatives += alternative
      defer { alternatives -= alternative }
      return "("
        + (try nodes.map { n throws(PostgresError) in try condition(n) })
        .joined(separator: " OR ") + ")"
    case .not(let inner):
      alternatives += 1
      defer { alternatives -= 1 }
      return "NOT coalesce(\(try condition(inner)), false)"
    case .text(let text, let prefix, let column):
      return try textCondition(text, prefix: prefix, column: column)
    case .filter(let filter):
      return try filterCondition(filter)
    }
  }

  private mutating func bind(_ value: String?) -> String {
    parameters.append(value)
    return "$\(parameters.count)"
  }

  /// A text of one word to be found anywhere (name, keywords or text) as
  /// a `tsquery` of the entry's words: the word (or prefix), and when
  /// typos are read, the words of names it may stand for. nil for a text
  /// of several words or none.
  private mutating func anyWord(_ text: String, _ prefix: Bool) throws(PostgresError) -> String? {
    let words = PostgresWords.words(text)
    guard words.count == 1 else { return nil }
    let lexeme = PostgresWords.quoted(words[0]) + (prefix ? ":*" : "")
    var query = lexeme
    if let closeWords, words[0].count >= 3 {
      let close = try read(closeWords, words[0])
      query = ([lexeme] + close.map(PostgresWords.quoted)).joined(separator: " | ")
      typedWords.append(close.first ?? words[0])
    } else {
      typedWords.append(words[0])
    }
    rankTerms.append(query)
    return "(" + query + ")"
  }

  /// The entries whose words (of name, keywords and text) hold each of
  /// `groups` (a `tsquery` text each: a word, or the words it may stand
  /// for). The words of texts are indexed once a distinct text
  /// (`item_text`), not once an entry that names one (three hosts held
  /// each text five times over: 1,510 bytes an entry), so each group is
  /// held by the name or by the text; of the entries whose names hold
  /// none of the query's terms (``namesHoldNone``), by the text alone,
  /// every group at once.
  private mutating func inWords(_ groups: [String]) -> String {
    if checks == .texts { return "true" }
    // A parameter a group in every way of compiling: the names' alone
    // (``inNames(_:)``) are numbered as the whole condition's.
    let queries = groups.map { "\(bind($0))::tsquery" }
    let all = queries.count == 1 ? queries[0] : "(\(queries.joined(separator: " && ")))"
    if namesAlone { return "(name_vector @@ \(all))" }
    if namesHoldNone { return "(\(Self.textsHolding(all, longest: Self.anyLength)))" }
    let held = queries.map { query in
      "(name_vector @@ \(query) OR coalesce(\(Self.textsHolding(query)), false))"
    }
    return "(" + held.joined(separator: " AND ") + ")"
  }

  /// The entries whose texts hold `query` (SQL of a `tsquery`), among the
  /// texts of at most `longest` words (SQL: an integer, or NULL for any).
  /// The texts are read by the store's owner (`limelight_texts_holding`):
  /// a reader is granted the entries alone, and sees the entries that
  /// name them that it may.
  static func textsHolding(_ query: String, longest: String = "NULL::integer") -> String {
    "text_hash IN (SELECT limelight_texts_holding(\(query), \(longest)))"
  }

  /// Where a condition compiled for the entries whose names hold none of
  /// the query's terms names the longest text it asks of: any, until
  /// ``sliced(_:to:)`` makes it a slice of short texts.
  static let anyLength = "NULL::integer /* texts of any length */"

  /// `condition` (compiled with ``namesHoldNone``) asking only the texts
  /// of at most `words` words, whose words' own indexes answer a common
  /// word at once (store migration `v22-text-words-once`).
  static func sliced(_ condition: String, to words: Int) -> String {
    condition.replacingOccurrences(of: anyLength, with: String(words))
  }

  /// The query's terms as one `tsquery` text, any of them: what a name
  /// holds when it holds one.
  var anyTerm: String { rankTerms.map { "(\($0))" }.joined(separator: " | ") }

  /// Whether words are looked up in names alone (``inNames(_:)``).
  private var namesAlone = false

  /// Whether the entries asked about are those whose names hold none of
  /// the query's terms (its ``rankTerms``): the words a name should hold
  /// are then held by none (false), and the others by texts alone, all
  /// of a conjunction looked up at once in the texts' index (a word at a
  /// time, a common word read thousands of texts to be intersected).
  private(set) var namesHoldNone = false

  /// `node` compiled for the entries whose names hold none of its terms
  /// (``namesHoldNone``), the words it read for its typos taken as this
  /// compiling read them, its parameters bound after `parameters`; only
  /// the candidates the words' indexes find (``Checks/candidates``) when
  /// `candidates`.
  func forNamesHoldingNone(
    _ node: QueryNode, after parameters: [String?], candidates: Bool = false
  ) throws(PostgresError) -> (condition: String, parameters: [String?]) {
    var texts = PostgresQuery(closeWords: closeWords, usesPairs: usesPairs)
    texts.closeWordsRead = closeWordsRead
    texts.parameters = parameters
    texts.namesHoldNone = true
    if candidates { texts.checks = .candidates }
    let condition = try texts.condition(node)
    return (condition, texts.parameters)
  }

  /// The condition `node` compiles to, asked of the entries whose names
  /// hold its words, for one word (with filters or not): of the names'
  /// index alone, with the same parameters as ``condition(_:)``'s. A
  /// name's words are among the entry's words, so the names that hold the
  /// word match its part of the condition; the words' index, read too,
  /// gave every text that holds it to be intersected (a prefix of one
  /// letter: 810 -> 105 ms at 100,000 entries, the text's words computed
  /// again for each row of a bitmap grown lossy). Nil for any other query.
  func inNames(_ node: QueryNode) throws(PostgresError) -> String? {
    try inNames(node, words: 1...1)
  }

  /// The condition `node` compiles to, asked of the entries whose names
  /// hold each of its words (one or more, with filters or not), as
  /// ``inNames(_:)`` compiles it: it is the whole condition for those
  /// entries (an entry whose text holds a word its name lacks is not
  /// one), and reads no text. Nil for any other query.
  func inNamesHoldingEveryWord(_ node: QueryNode) throws(PostgresError) -> String? {
    try inNames(node, words: 1...Int.max)
  }

  private func inNames(_ node: QueryNode, words counted: ClosedRange<Int>)
    throws(PostgresError) -> String?
  {
    let nodes: [QueryNode]
    if case .and(let parts) = node { nodes = parts } else { nodes = [node] }
    // Single words: a text of several (a phrase, a run of ideographs) is
    // also found by the pairs of its words, which only texts hold.
    let words = nodes.filter { node in
      guard case .text(let text, _, nil) = node else { return false }
      return PostgresWords.words(text).count == 1
    }
    let filters = nodes.filter { if case .filter = $0 { true } else { false } }
    guard counted.contains(words.count), words.count + filters.count == nodes.count else {
      return nil
    }
    var names = PostgresQuery(closeWords: closeWords, usesPairs: usesPairs)
    names.closeWordsRead = closeWordsRead
    names.namesAlone = true
    return try names.condition(node)
  }

  /// The condition of `node`'s filters alone, its words left out, with
  /// its parameters bound after `parameters`: the rows the names it finds
  /// are read from when the filters find few
  /// (``PostgresIndex/readsFiltersFirst(anyWord:filters:_:)``). Nil
  /// unless `node` is filters and words, at least one of each.
  static func filtersAlone(of node: QueryNode, after parameters: [String?])
    throws(PostgresError) -> (condition: String, parameters: [String?])?
  {
    guard case .and(let nodes) = node else { return nil }
    let filters = nodes.filter { if case .filter = $0 { true } else { false } }
    guard !filters.isEmpty, filters.count < nodes.count else { return nil }
    var alone = PostgresQuery(closeWords: nil)
    alone.parameters = parameters
    let condition = try alone.condition(.and(filters))
    return (condition, alone.parameters)
  }

  /// The entries whose text holds `pattern` (a LIKE pattern over its words,
  /// one space between them and one at either end).
  private mutating func inText(_ pattern: String) -> String {
    checksTexts = true
    if alternatives > 0 { textUnderAlternative = true }
    return checks == .candidates
      ? "true" : "(' ' || \(Self.text) || ' ' LIKE \(bind(pattern)))"
  }

  /// The words of names a typed word may stand for, read once.
  private mutating func read(
    _ closeWords: (String) throws(PostgresError) -> [String], _ word: String
  ) throws(PostgresError) -> [String] {
    if let known = closeWordsRead[word] { return known }
    let close: [String]
    if let known = closeWordsKnown[word] { close = known } else { close = try closeWords(word) }
    closeWordsRead[word] = close
    return close
  }

  /// The query compiled again in two conditions whose conjunction is the
  /// one `node` compiles to: the candidates the words' index finds, and
  /// the checks of their texts; nil when the texts cannot be checked apart
  /// (none is checked, or one under an OR or a NOT). Its parameters are
  /// those two conditions' alone (the server refuses one unread), and its
  /// terms ranked those of one compiling.
  func apart(_ node: QueryNode) throws(PostgresError)
    -> (query: PostgresQuery, candidates: String, texts: String)?
  {
    guard checksTexts, !textUnderAlternative else { return nil }
    var split = PostgresQuery(closeWords: closeWords, usesPairs: usesPairs)
    split.closeWordsRead = closeWordsRead
    split.checks = .candidates
    let candidates = try split.condition(node)
    let (terms, typed) = (split.rankTerms, split.typedWords)
    split.checks = .texts
    let texts = try split.condition(node)
    (split.rankTerms, split.typedWords, split.checks) = (terms, typed, .all)
    return (split, candidates, texts)
  }

  /// Words as quoted lexemes, the last one labelled `*` when it is a prefix.
  static func lexemes(_ words: [String], prefix: Bool) -> [String] {
    words.enumerated().map { index, word in
      PostgresWords.quoted(word) + (prefix && index == words.count - 1 ? ":*" : "")
    }
  }

  /// A word, a prefix or a phrase (several words, in order).
  private mutating func textCondition(_ text: String, prefix: Bool, column: TextColumn?)
    throws(PostgresError) -> String
  {
    if column == nil, let word = try anyWord(text, prefix) { return inWords([word]) }
    if column == .path {
      // The path's words, folded by its host as the local index folds
      // them: the words typed, in order, the last one perhaps begun.
      let words = PostgresWords.words(text)
      guard !words.isEmpty else { return "true" }
      let pattern = "% " + words.joined(separator: " ") + (prefix ? "%" : " %")
      // Ranked as the local index ranks a path's match: by the name, when
      // it holds the words (whole before begun), as for words anywhere.
      let lexemes = Self.lexemes(words, prefix: prefix)
      rankTerms.append(lexemes.joined(separator: " <-> "))
      typedWords += words
      // The index of the paths' words finds the paths that hold each word
      // (the last one perhaps begun), which for one word is the pattern
      // itself; the pattern then checks several words' order. Each row's
      // path compared with the pattern read every entry for a word that
      // begins few paths.
      let inPath =
        "(\(Self.pathWords) @@ \(bind(lexemes.joined(separator: " & ")))::tsquery)"
      guard words.count > 1 else { return inPath }
      return "(\(inPath) AND ' ' || \(Self.pathWordsText) || ' ' LIKE \(bind(pattern)))"
    }
    let words = PostgresWords.words(text)
    guard !words.isEmpty else { return "true" }
    let lexemes = Self.lexemes(words, prefix: prefix)
    let phrase = lexemes.joined(separator: " <-> ")
    var nameQuery = phrase
    if let closeWords, words.count == 1, words[0].count >= 3, column != .content {
      let close = try read(closeWords, words[0])
      nameQuery = ([phrase] + close.map(PostgresWords.quoted)).joined(separator: " | ")
    }
    // Each condition bound only where it is used: a parameter no statement
    // reads has no type the server can tell.
    func inName(_ query: inout PostgresQuery) -> String {
      query.rankTerms.append(nameQuery)
      query.typedWords += words
      if query.namesHoldNone { return "false" }
      return "(name_vector @@ \(query.bind(nameQuery))::tsquery)"
    }
    if column == .name || column == .keywords { return inName(&self) }
    // The words' index finds the entries with every word; the text's
    // words (no vector with positions is kept for a text) then hold the
    // phrase, or the word, as they run.
    // With the pairs of common words the phrase holds, which the store
    // made of the text's words (`limelight_pair_words`, as
    // ``PostgresWords/pairs(of:)`` makes them).
    let pairs = usesPairs ? PostgresWords.pairs(of: prefix ? Array(words.dropLast()) : words) : []
    let inAll = inWords(lexemes + pairs.map(PostgresWords.quoted))
    // Two whole words that are a pair: the pair is in the text exactly
    // when the words are side by side there (the store made the pairs of
    // the words kept), and the text need not be read.
    if words.count == 2 && !prefix && pairs.count == 1 {
      if column == .content || namesHoldNone { return inAll }
      let name = inName(&self)
      return "(\(name) OR \(inAll))"
    }
    let pattern =
      "% " + words.joined(separator: " ") + (prefix ? "%" : " %")
    let inText = inText(pattern)
    // (No name holds the phrase: `false OR` would keep the planner from
    // reading the texts' index first.)
    if column == .content || namesHoldNone { return "(\(inAll) AND \(inText))" }
    let name = inName(&self)
    // (name OR all) AND (name OR text): the same as name OR (all AND
    // text), with the indexes reading the first half alone.
    return "((\(name) OR \(inAll)) AND (\(name) OR \(inText)))"
  }

  /// The words of an entry's path, folded by its host, as a vector of
  /// them (the expression of the index `item_path_words`).
  static let pathWords = "limelight_path_words(\(pathWordsText))"

  /// The words of an entry's path, folded by its host, one space apart:
  /// kept where they are not the words of the path's bytes
  /// (``pathWordsKept(words:path:)``), else read from them.
  static let pathWordsText = "coalesce(path_words, limelight_ascii_path_words(path))"

  /// What a row keeps of a path's `words` (folded by its host) beside its
  /// bytes (`path`), as SQL: nothing when they are the words the store
  /// reads of the bytes (store migration `v25-path-words-from-paths`),
  /// so that no fold of the server's need match the host's.
  static func pathWordsKept(words: String, path: String) -> String {
    "CASE WHEN \(words) = limelight_ascii_path_words(\(path)) THEN NULL ELSE \(words) END"
  }

  /// An entry's text, as the host that sent it made its words (nil
  /// without one), read from the texts kept once (`item_text`).
  static let text = "limelight_text(text_hash)"

  /// An entry's path as text: its bytes read as UTF-8, or the text its
  /// host made of them where they are not (kept only then, store
  /// migration `v21-slimmer-rows`).
  static let pathText = "coalesce(path_text, convert_from(path, 'UTF8'))"

  /// What a row keeps of a path's `text` beside its bytes (`path`), as
  /// SQL: nothing when the text is the bytes as UTF-8, which
  /// ``pathText`` reads back.
  static func pathTextKept(text: String, path: String) -> String {
    "CASE WHEN convert_to(\(text), 'UTF8') = \(path) THEN NULL ELSE \(text) END"
  }

  /// The entries of every host under a folder whose paths lie between
  /// `low` and `high` (parameters, as `bytea`): a range of the primary
  /// key for each host that writes.
  static func pathOnEveryHost(above low: String, below high: String) -> String {
    "(host = ANY (ARRAY(SELECT name FROM host)) AND path > \(low)::bytea AND path < \(high)::bytea)"
  }

  /// An entry's description: its own, or the one kept with its text.
  static let description = "coalesce(description, limelight_text_description(text_hash))"

  private mutating func filterCondition(_ filter: Filter) throws(PostgresError) -> String {
    switch filter {
    case .kind(.folder):
      return "folder"
    case .kind(let kind):
      return Self.ofChains(kinds: "ARRAY[\(bind(kind.rawValue))::text]")
    case .extensions(let extensions):
      // A name that ends with `.tar.gz` has `gz` after its last dot (no
      // letter lower-cases to a dot): the index of those narrows the
      // names to compare.
      let lowered = extensions.map { $0.lowercased() }
      let lasts = lowered.map {
        String($0.split(separator: ".", omittingEmptySubsequences: false).last ?? "")
      }
      let patterns = lowered.map { "%." + Self.likeEscaped($0) }
      return "(limelight_extension(name) = ANY (\(bind(Self.array(lasts)))::text[])"
        + " AND lower(name) LIKE ANY (\(bind(Self.array(patterns)))::text[]))"
    case .inFolder(let folder):
      // The folder on every host (a person's machines share a layout);
      // `host:` narrows to one.
      let (low, high) = folder.subtreeBounds
      return Self.pathOnEveryHost(above: bind(Self.hex(low)), below: bind(Self.hex(high)))
    case .host(let name):
      return "(host = \(bind(name)))"
    case .domain(let domain):
      // Files have none in the store (theirs is `fileDomain`).
      let files = LimelightModel.domain(fileDomain, isWithin: domain) ? "domain IS NULL" : "false"
      let pattern = Self.likeEscaped(domain) + ".%"
      return "(\(files) OR domain = \(bind(domain)) OR domain LIKE \(bind(pattern)))"
    case .changedAfter(let change):
      return "(change > \(bind(String(change)))::bigint)"
    case .person(.author, let name):
      // Each word of the name begins a word of one author's name (the
      // store keeps no recipients: `to:` is its keywords' words alone).
      let words = PostgresWords.words(name)
      guard !words.isEmpty else { return "false" }
      let checks = words.map { word in
        "unaccent(lower(v)) ~ \(bind("(^|[^[:alnum:]])" + Self.regexEscaped(word)))"
      }
      return "(EXISTS (SELECT FROM unnest(authors) AS l(v) WHERE "
        + checks.joined(separator: " AND ") + "))"
    case .person(.recipient, _):
      return "true"
    case .contentType(let type):
      if type.hasSuffix("/*") {
        // A group of types (`image/*`): any type of it, found by the
        // index of each entry's groups; a pattern of more than one slash
        // (no group) by every entry's types.
        if type.utf8.count(where: { $0 == UInt8(ascii: "/") }) == 1 {
          return Self.ofChains(groups: "ARRAY[\(bind(type))::text]")
        }
        let pattern = Self.likeEscaped(String(type.dropLast())) + "%"
        return Self.ofChains(like: "\(bind(pattern))::text")
      }
      return Self.ofChains(types: "ARRAY[\(bind(type))::text]")
    case .range(let field, let lower, let upper):
      // A time compared as one (the seconds of every row's, as numeric,
      // were a third of listing what changed this week).
      let (column, value): (String, (String) -> String)
      switch field {
      // A size as a whole number of bytes (an integer is at least x when
      // at least x rounded up), which the planner counts by the column's
      // statistics and reads from its index.
      case .size: (column, value) = ("size", { "ceil(\($0)::float8)::bigint" })
      case .modified: (column, value) = ("modified", { "to_timestamp(\($0)::float8)" })
      case .created: (column, value) = ("created", { "to_timestamp(\($0)::float8)" })
      case .lastUsed: (column, value) = ("last_used", { "to_timestamp(\($0)::float8)" })
      }
      var parts: [String] = []
      if let lower { parts.append("\(column) >= \(value(bind(String(lower))))") }
      if let upper { parts.append("\(column) < \(value(bind(String(upper))))") }
      return parts.isEmpty ? "true" : "(" + parts.joined(separator: " AND ") + ")"
    case .match(let attribute, let pattern, let flags):
      return try matchCondition(attribute, pattern: pattern, flags: flags)
    }
  }

  /// The entries whose chain of types (store migration `v24-type-chains`)
  /// holds `types`, whose kinds hold `kinds`, whose groups of types
  /// (`image/*`) hold `groups`, or of whose types one is `like` (SQL each,
  /// nil: any): the few chains that do, read first, then their entries
  /// from the index of the chains.
  static func ofChains(
    types: String? = nil, kinds: String? = nil, groups: String? = nil, like: String? = nil
  ) -> String {
    let arguments = [types, kinds, groups, like].map { $0 ?? "NULL" }
    return "(type_chain = ANY (limelight_type_chains(\(arguments.joined(separator: ", ")))))"
  }

  /// The predicate language's comparison (`displayName == "rep*"cd`) on
  /// an entry's attribute as the store keeps it; a list (keywords,
  /// authors) matches when one of its values does. The pattern as
  /// ``WildcardMatcher`` reads it: `*` any run, `c` case and `d` accents
  /// ignored, `w` a word of the value matched whole.
  private mutating func matchCondition(
    _ attribute: TextAttribute, pattern: String, flags: String
  ) throws(PostgresError) -> String {
    var list: String?
    var value: String
    switch attribute {
    case .displayName: value = "name"
    case .path: value = Self.pathText
    case .domain:
      // A file's domain is `fileDomain`, not kept.
      value = "coalesce(domain, \(bind(fileDomain))::text)"
    case .title: value = "title"
    case .kind: value = "kind"
    case .contentDescription: value = Self.description
    case .uri: value = "limelight_uri(host, path, \(Self.pathText), domain)"
    case .keywords, .authors:
      list = attribute == .keywords ? "keywords" : "authors"
      value = "v"
    }
    let condition = compare(value, attribute: attribute, pattern: pattern, flags: flags)
    guard let list else { return condition }
    return "(EXISTS (SELECT FROM unnest(\(list)) AS l(v) WHERE \(condition)))"
  }

  /// `value` (SQL) compared with a wildcard pattern.
  private mutating func compare(
    _ value: String, attribute: TextAttribute, pattern: String, flags: String
  ) -> String {
    var value = value
    let matcher = WildcardMatcher(pattern: pattern, modifiers: flags)
    if matcher.ignoreDiacritics { value = "unaccent(\(value))" }
    if matcher.ignoreCase { value = "lower(\(value))" }
    let folded = WildcardMatcher.fold(
      pattern, ignoreCase: matcher.ignoreCase, ignoreDiacritics: matcher.ignoreDiacritics)
    let like = folded.split(separator: "*", omittingEmptySubsequences: false)
      .map { Self.likeEscaped(String($0)) }.joined(separator: "%")
    var condition: String
    if matcher.words {
      // Words as WildcardMatcher splits them: runs between spaces and
      // punctuation.
      condition =
        "(EXISTS (SELECT FROM regexp_split_to_table(\(value), '[[:space:][:punct:]]+') AS w(word)"
        + " WHERE word LIKE \(bind(like))))"
    } else {
      condition = "(\(value) LIKE \(bind(like)))"
    }
    // A name pattern that starts with a word (of ASCII letters and digits,
    // which every tokenizer cuts alike) needs a word of the name starting
    // so: the names' index narrows what is compared row by row.
    let leading = folded.prefix { $0.isASCII && ($0.isLetter || $0.isNumber) }
    if attribute == .displayName, !leading.isEmpty,
      let first = PostgresWords.words(String(leading)).first
    {
      condition =
        "(name_vector @@ \(bind(PostgresWords.quoted(first) + ":*"))::tsquery"
        + " AND \(condition))"
    }
    return condition
  }

  /// `text` matched literally by a regular expression.
  static func regexEscaped(_ text: String) -> String {
    var out = ""
    for ch in text {
      if "\\^$.|?*+()[]{}".contains(ch) { out.append("\\") }
      out.append(ch)
    }
    return out
  }

  /// `text` matched literally by `LIKE` (its `%`, `_` and `\` escaped).
  static func likeEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
      .replacingOccurrences(of: "_", with: "\\_")
  }

  /// A text array literal.
  static func array(_ values: [String]) -> String { array(values.map { Optional($0) }) }

  /// An array's text form, each element quoted (nil as NULL).
  static func array(_ values: [String?]) -> String {
    var out = "{"
    for (index, value) in values.enumerated() {
      if index > 0 { out += "," }
      guard let value else {
        out += "NULL"
        continue
      }
      out += "\""
      if value.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") }) {
        out += value.replacingOccurrences(of: "\\", with: "\\\\")
          .replacingOccurrences(of: "\"", with: "\\\"")
      } else {
        out += value
      }
      out += "\""
    }
    return out + "}"
  }

  /// A part of a statement (`$N` its parameters) as a statement's own: the
  /// parameters it names, numbered from 1 in the order it first names
  /// them (the server refuses a parameter no part of a statement names).
  static func standalone(_ sql: String, _ parameters: [String?]) -> (
    sql: String, parameters: [String?]
  ) {
    var numbers: [Int: Int] = [:]
    var used: [String?] = []
    var out = ""
    var rest = Substring(sql)
    while let dollar = rest.firstIndex(of: "$") {
      out += rest[..<dollar]
      let after = rest.index(after: dollar)
      let digits = rest[after...].prefix(while: { $0.isASCII && $0.isNumber })
      rest = rest[digits.endIndex...]
      guard let number = Int(digits), parameters.indices.contains(number - 1) else {
        out += "$" + digits
        continue
      }
      let renumbered =
        numbers[number]
        ?? {
          used.append(parameters[number - 1])
          numbers[number] = used.count
          return used.count
        }()
      out += "$\(renumbered)"
    }
    return (out + rest, used)
  }

  /// Bytes in `bytea`'s hex input form.
  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
    out.reserveCapacity(2 + bytes.count * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
