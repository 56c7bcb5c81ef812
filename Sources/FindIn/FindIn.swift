import ArgumentParser
import LimelightCLI
import LimelightModel
import LimelightQuery

@main
struct FindIn: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "find-in",
    abstract: "Find files and application items in the Limelight index.",
    discussion: """
      Words are ANDed; each matches as a prefix, ignoring case and accents, in names,
      keywords, paths and text. "exact phrase", -excluded, a OR b and parentheses
      combine them. Filters: kind:KIND (image, audio, video, text, pdf, document,
      spreadsheet, presentation, archive, code, folder, app), ext:EXT[,EXT], in:DIR,
      name:WORD, tag:WORD, type:MIME (image/* allowed), domain:DOMAIN, size:>10MB,
      modified:/created:/used: today, week, 2026-11, <2025-01-01 or A..B. A word
      that matches nothing is taken as a typo; names answer to their initials.
      The mdfind predicate language works too: 'displayName == "park*"cd && size > 1000'.

      Output: one URI per line when standard output is not a terminal; a readable
      list on a terminal. Exit status: 0 when something matched, 1 when nothing did,
      2 on a usage or query error. See find-in(1).
      """)

  @Argument(
    parsing: .allUnrecognized,
    help: ArgumentHelp("The words to find (a '-word' excludes).", valueName: "query"))
  var query: [String] = []

  @Flag(name: .long, help: "Print JSON Lines, one object per result.")
  var json = false

  @Flag(name: [.customShort("0"), .customLong("null")], help: "Separate URIs with NUL bytes.")
  var null = false

  @Option(name: .long, help: "Print at most N results (default: all; 20 on a terminal).")
  var limit: Int?

  @Flag(name: .long, help: "Print only the number of matches.")
  var count = false

  @Option(name: .customLong("in"), help: "Only items at or below this folder.")
  var folder: String?

  @Flag(
    name: .long,
    help: "After the results, print changes as they happen (+ added, ~ changed, - removed).")
  var live = false

  @Flag(
    name: .customLong("open"),
    help: "Open the best match (or the Nth, with --open N) with xdg-open and remember it.")
  var open = false

  func run() throws {
    // Unknown "--options" are mistakes; after a "--" every word is part of the query.
    let afterTerminator =
      CommandLine.arguments.firstIndex(of: "--").map {
        Set(CommandLine.arguments[($0 + 1)...])
      } ?? []
    if let option = query.first(where: {
      $0.hasPrefix("--") && $0.count > 2 && !afterTerminator.contains($0)
    }) {
      throw CommandFailure(
        "unknown option '\(option)' (to search for it, put it after --: find-in -- \(option))")
    }
    var words = query.filter { $0 != "--" }
    // "--open N": the number right after --open picks the result.
    var pick = 1
    if open, let at = CommandLine.arguments.firstIndex(of: "--open"),
      at + 1 < CommandLine.arguments.count, let n = Int(CommandLine.arguments[at + 1]),
      let word = words.firstIndex(of: CommandLine.arguments[at + 1])
    {
      guard n >= 1 else { throw CommandFailure("--open takes a result number from 1 up") }
      pick = n
      words.remove(at: word)
    }
    if let limit, limit < 0 { throw CommandFailure("--limit must be 0 or more, not \(limit)") }
    if json && null { throw CommandFailure("--json and --null cannot be used together") }
    if live && (count || open) {
      throw CommandFailure("--live cannot be used with --count or --open")
    }
    let location = IndexLocation.fromEnvironment()
    var parser = QueryParser(home: location.home)
    var node: QueryNode
    do {
      node = try parser.parse(words.joined(separator: " "))
      if let folder { node = .and([node, try parser.parse("in:" + folder)]) }
    } catch {
      throw CommandFailure(error.message)
    }
    let engine = SearchEngine(store: try openIndex())
    if count {
      let total = try engine.count(node)
      print(total)
      if total == 0 { throw CommandFailure("", status: ExitStatus.notFound) }
      return
    }
    if open {
      let results = try engine.search(node, limit: pick)
      guard results.count >= pick else {
        if results.isEmpty { throw CommandFailure("", status: ExitStatus.notFound) }
        throw CommandFailure("only \(results.count) results: nothing to open as number \(pick)")
      }
      try Opener.open(results[pick - 1], store: engine.store)
      print(results[pick - 1].uri)
      return
    }
    let terminal = Terminal.standardOutput()
    let format: ResultFormat =
      json ? .json : null ? .nullSeparated : terminal.isTerminal ? .human(terminal) : .uris
    var shown = limit
    if case .human = format, limit == nil { shown = 20 }
    let startGeneration = try engine.store.generation()
    let results = try engine.search(node, limit: shown.map { $0 + 1 })
    let printed = shown.map { Array(results.prefix($0)) } ?? results
    let shownQuery = printed.isEmpty ? node : try engine.expanded(node)
    ResultPrinter(format: format, engine: engine, query: shownQuery, home: location.home)
      .print(printed)
    if case .human = format, results.count > printed.count {
      printError("… more results: use --limit N to see them, or pipe the output for all")
    }
    if live {
      let known = Dictionary(printed.map { ($0.id, $0.uri) }, uniquingKeysWith: { a, _ in a })
      try LiveFollower(engine: engine, query: node, json: json).follow(
        from: startGeneration, shown: known)
    }
    if results.isEmpty { throw CommandFailure("", status: ExitStatus.notFound) }
  }

  static func main() { mainWithStatus() }
}
