import Foundation
import LimelightExit
import LimelightMeaning
import LimelightModel
import LimelightPlatform
import LimelightQuery
import LimelightStore

#if canImport(Glibc)
  import Glibc
#endif

/// What `find-in` was asked to do, however its arguments were read.
public struct FindInOptions: Equatable, Sendable {
  public var words: [String] = []
  public var json = false
  public var null = false
  public var limit: Int?
  public var count = false
  public var folder: String?
  /// `--store`: a shared store's name, or `local`.
  public var store: String?
  /// `--store-read`: the standby the store is read from.
  public var storeRead: String?
  public var live = false
  public var open = false
  /// `-i`: the as-you-type picker instead of a list.
  public var interactive = false
  /// Which result `--open` opens (1 for the best).
  public var pick = 1
  /// `--explain`: print the reading, search nothing.
  public var explain = false
  /// `--now`: the moment relative dates count from (ISO 8601).
  public var now: String?
  /// `--about`: a description to find documents by meaning alone.
  public var about: String?

  public init() {}

  /// Reads the common invocations (words, the documented options) without the
  /// argument parser, whose start-up costs milliseconds of every query; nil for
  /// anything else (help, completion, mistakes), which the parser then handles
  /// with its full messages.
  public static func quick(_ arguments: [String]) -> FindInOptions? {
    var options = FindInOptions()
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        options.words += arguments[index...]
        break
      }
      // "--limit=5": the name and its value.
      let (name, attached): (String, String?) =
        argument.hasPrefix("--")
        ? argument.firstIndex(of: "=").map {
          (String(argument[..<$0]), String(argument[argument.index(after: $0)...]))
        } ?? (argument, nil)
        : (argument, nil)
      if let flag = FindInFlag.byName[name] {
        var value = attached
        if flag.takesValue && value == nil {
          // A value apart never starts with "-" (the parser's rule: that is an
          // option), though it may be "-" itself.
          guard index < arguments.count,
            !arguments[index].hasPrefix("-") || arguments[index] == "-"
          else { return nil }
          value = arguments[index]
          index += 1
        }
        guard flag.takesValue || attached == nil, options.set(flag, value) else { return nil }
        // "--open N": the number right after --open picks the result.
        if flag == .open, index < arguments.count, !arguments[index].hasPrefix("-"),
          let n = Int(arguments[index])
        {
          options.pick = n
          index += 1
        }
      } else if argument.hasPrefix("--") {
        return nil  // Help, completion scripts, or an unknown option.
      } else if argument.count > 2, argument.hasPrefix("-"),
        argument.dropFirst().allSatisfy(FindInFlag.shortLetters.contains)
      {
        // Short flags run together (`-0i`).
        for letter in argument.dropFirst() {
          _ = options.set(FindInFlag.byName["-\(letter)"]!, nil)
        }
      } else if argument.count > 1, argument.hasPrefix("-"),
        argument.dropFirst().allSatisfy({ FindInFlag.shortLetters.contains($0) || $0 == "h" })
      {
        return nil  // Help, alone or among short flags: the parser's.
      } else {
        options.words.append(argument)
      }
    }
    return options
  }

  /// Sets what a flag says; false for a value it cannot take.
  mutating func set(_ flag: FindInFlag, _ value: String?) -> Bool {
    switch flag {
    case .json: json = true
    case .null: null = true
    case .count: count = true
    case .live: live = true
    case .open: open = true
    case .interactive: interactive = true
    case .explain: explain = true
    case .now:
      guard let value else { return false }
      now = value
    case .limit:
      guard let n = value.flatMap({ Int($0) }) else { return false }
      limit = n
    case .folder:
      guard let value else { return false }
      folder = value
    case .store:
      guard let value else { return false }
      store = value
    case .storeRead:
      guard let value else { return false }
      storeRead = value
    case .about:
      guard let value, !value.allSatisfy(\.isWhitespace) else { return false }
      about = value
    }
    return true
  }

  /// The format the options and the output ask for, and how many results
  /// it shows (all unless limited; 20 on a terminal).
  func presentation(_ context: FindInContext) -> (format: ResultFormat, shown: Int?) {
    let terminal = Terminal.of(context.output, environment: context.environment)
    let format: ResultFormat =
      json ? .json : null ? .nullSeparated : terminal.isTerminal ? .human(terminal) : .uris
    if case .human = format, limit == nil { return (format, 20) }
    return (format, limit)
  }

  /// Checks the combination of options.
  public func validate() throws {
    if pick < 1 { throw CommandFailure("--open takes a result number from 1 up") }
    if let limit, limit < 0 { throw CommandFailure("--limit must be 0 or more, not \(limit)") }
    if json && null { throw CommandFailure("--json and --null cannot be used together") }
    if live && (count || open) {
      throw CommandFailure("--live cannot be used with --count or --open")
    }
    if interactive && (json || null || count || live || open || limit != nil || explain) {
      throw CommandFailure(
        "-i cannot be used with --json, --null, --count, --live, --open, --limit or --explain")
    }
    if about != nil && (count || live || open || interactive) {
      throw CommandFailure("--about cannot be used with --count, --live, --open or -i")
    }
    if explain && (null || count || live || open) {
      throw CommandFailure("--explain cannot be used with --null, --count, --live or --open")
    }
    if let now, QueryClock.moment(now) == nil {
      throw CommandFailure(
        "--now: '\(now)' is not a moment: write 2026-11-27, 2026-11-27T15:00 or"
          + " 2026-11-27T15:00:00Z")
    }
  }
}

/// Where a `find-in` search runs: this process's standard output and
/// environment, or those a query service client handed over.
public struct FindInContext {
  /// Where results go, and where messages go.
  public var output: Int32 = STDOUT_FILENO
  public var errors: Int32 = STDERR_FILENO
  /// The variables that locate the index and shape the output (`NO_COLOR`, `TERM`).
  public var environment: [String: String]
  /// The folder relative `in:` paths start from.
  public var currentDirectory: RawPath?
  /// An index already open, used instead of opening one.
  public var store: IndexStore?
  /// The shared stores' connections the service keeps between searches.
  public var storeBackends: StoreBackendPool?
  /// Whether the asker went away, so that nothing more is written for it.
  public var abandoned: (() -> Bool)?
  /// Meaning search's model, when it is loaded (the watcher's query
  /// service keeps it); without it, results come from words alone.
  public var meaning: MeaningEngine?

  public init(environment: [String: String] = ProcessEnvironment.current) {
    self.environment = environment
  }
}

/// Runs a `find-in` search: parses the query, prints the results in the format
/// the options and the output ask for, opens or follows them.
public struct FindInSearch {
  public let options: FindInOptions
  public let context: FindInContext

  public init(_ options: FindInOptions, context: FindInContext = FindInContext()) {
    self.options = options
    self.context = context
  }

  public func run() throws {
    try options.validate()
    let location = IndexLocation.fromEnvironment(context.environment)
    // `--about` alone: no words to read, no filters.
    let query = options.about != nil && options.words.isEmpty ? nil : try read(location)
    if options.explain, let query { return explain(query) }
    let backend = try SearchBackends.choose(
      option: options.store, readOption: options.storeRead, location: location,
      index: context.store, writable: options.open, errors: context.errors,
      pool: context.storeBackends)
    defer { context.storeBackends?.giveBack(backend) }
    let output = OutputBuffer(fd: context.output, abandoned: context.abandoned)
    if let about = options.about {
      return try runAbout(
        about, filters: query.map(MeaningSearch.filters) ?? .and([]), backend: backend,
        home: location.home, output: output)
    }
    guard let query else { return }
    // While the index is built, an empty or short answer may not be the truth.
    if let note = backend.buildingNote() { printError(note, to: context.errors) }
    if options.count { return try context.printCount(backend.count(query.everything)) }
    if options.open {
      let result = try context.picked(
        options.pick, of: backend.search(query, limit: options.pick).results)
      try Opener.open(result, location: location, index: (backend as? LocalBackend)?.store)
      output.write(result.uri + "\n")
      return output.flush()
    }
    let (format, shown) = options.presentation(context)
    // Followers start from the change the results come from (read first,
    // so nothing committed meanwhile is missed); plain queries skip the read.
    let start = options.live ? try backend.lastChange() : 0
    let found = try backend.searchWithMeaning(
      query, limit: shown.map { $0 + 1 }, model: options.live ? nil : context.meaning)
    let printed = shown.map { Array(found.results.prefix($0)) } ?? found.results
    // Snippets only for a person at a terminal, and only of what is shown.
    var snippets: [String: String] = [:]
    if case .human = format { snippets = try backend.snippets(for: printed, query: found.ran) }
    ResultPrinter(format: format, home: location.home, output: output) { snippets[$0.uri] }
      .print(printed)
    context.noteMore(format: format, matched: found.results.count, shown: printed.count)
    // Followed until the reader goes away, which ends the command well.
    if options.live {
      return try LiveFollower(
        backend: backend, query: query.everything, json: options.json, output: output
      ).follow(from: start, shown: printed.map(LiveFollower.Shown.init))
    }
    try context.end(found: found.results.count)
  }
}

extension FindInSearch {
  /// `--about`: documents by meaning alone, the words (if any) filtering
  /// them. The model is the query service's, or loaded here.
  func runAbout(
    _ about: String, filters: QueryNode, backend: any SearchBackend, home: RawPath,
    output: OutputBuffer
  ) throws {
    let model: MeaningEngine
    if let loaded = context.meaning {
      model = loaded
    } else {
      do throws(MeaningEngine.Unavailable) { model = try MeaningEngine.load() } catch {
        throw CommandFailure("--about: meaning search is off: \(error)")
      }
    }
    let (format, shown) = options.presentation(context)
    let results = try backend.nearest(
      about: about, filteredBy: filters, limit: shown ?? MeaningSearch.most * 5, model: model)
    var snippets: [String: String] = [:]
    if case .human = format {
      snippets = try backend.snippets(for: results, query: filters)
    }
    ResultPrinter(format: format, home: home, output: output) { snippets[$0.uri] }.print(results)
    try context.end(found: results.count)
  }

  /// The query the words make, read as a person's words and parsed, with
  /// `--in` and `--now` applied.
  func read(_ location: IndexLocation) throws -> ReadQuery {
    var parser = QueryParser(
      home: location.home,
      currentDirectory: { [directory = context.currentDirectory] in
        directory ?? RawPath.absolute(".")
      }, clock: QueryClock(environment: context.environment, now: options.now))
    do {
      let typed = options.words.joined(separator: " ")
      if context.environment["LIMELIGHT_TRACE_SQL"] == "1" { Self.traceReading(typed, parser) }
      var query = try parser.read(typed)
      if let folder = options.folder {
        let inFolder = try parser.parse("in:" + folder)
        query.node = .and([query.node, inFolder])
        query.literal = query.literal.map { .and([$0, inFolder]) }
        query.line += " in:" + folder
      }
      return query
    } catch {
      throw CommandFailure(error.message)
    }
  }

  /// What reading a query costs, the first time in this process (the
  /// tables made) and again: for the benchmarks, with the SQL trace.
  static func traceReading(_ typed: String, _ parser: QueryParser) {
    var times: [String] = []
    for _ in 0..<2 {
      var copy = parser
      let started = Date()
      _ = try? copy.read(typed)
      times.append(String(format: "%.3f", Date().timeIntervalSince(started) * 1000))
    }
    printError("[reading \(times[0]) ms, again \(times[1]) ms] \(typed)", to: STDERR_FILENO)
  }

  /// `--explain`: the reading on one line (or as a JSON object).
  func explain(_ query: ReadQuery) {
    let output = OutputBuffer(fd: context.output, abandoned: context.abandoned)
    if options.json {
      output.write(query.explanationJSON + "\n")
    } else {
      output.write(query.line + "\n")
    }
    output.flush()
  }
}

extension ReadingSearch<SearchResult> {
  /// The results, each with the words it lacks.
  func results(_ query: ReadQuery, limit: Int?) throws -> [SearchResult] {
    try run(query, limit: limit).map { found in
      var result = found.result
      result.unmatched = found.unmatched
      return result
    }
  }
}

extension ReadQuery {
  /// `--explain --json`: the reading under `query`, with what was typed,
  /// the words left out, and whether the largest come first.
  public var explanationJSON: String {
    let object: [String: Any] = [
      "query": line, "typed": typed, "ignored": ignored, "largestFirst": largestFirst,
      "read": line != typed,
    ]
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }
}
