import ArgumentParser
import LimelightCLI
import LimelightModel
import LimelightPicker
import LimelightQuery

/// `find-in` searching the index on its own, for when no watcher serves the
/// search (see the FindIn client) and for what the service does not serve:
/// `--live`, `--open`, help and completion scripts.
@main
struct FindInDirect: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "find-in",
    abstract: "Find files and application items in the Limelight index.",
    discussion: """
      Words are ANDed; each matches as a prefix, ignoring case and accents, in names, \
      keywords, paths and text. "exact phrase", -excluded, a OR b and parentheses \
      combine them. Filters: kind:KIND (image, audio, video, text, pdf, document, \
      spreadsheet, presentation, archive, code, folder, app), ext:EXT[,EXT], in:DIR, \
      name:WORD, tag:WORD, type:MIME (image/* allowed), domain:DOMAIN, size:>10MB, \
      modified:/created:/used: today, week, 2026-11, <2025-01-01 or A..B. A word \
      that matches nothing is taken as a typo; names answer to their initials. \
      The mdfind predicate language works too: 'displayName == "park*"cd && size > 1000'.

      Output: one URI per line when standard output is not a terminal; a readable \
      list on a terminal. Exit status: 0 when something matched, 1 when nothing did, \
      2 on a usage or query error. See find-in(1).
      """)

  @Argument(
    parsing: .allUnrecognized,
    help: ArgumentHelp("The words to find (a '-word' excludes).", valueName: "query"),
    completion: .list(QueryParser.completions))
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

  @Flag(
    name: [.customShort("i"), .customLong("interactive")],
    help: "Pick from results that follow every key typed (see find-in(1)).")
  var interactive = false

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
    var options = FindInOptions()
    options.words = query.filter { $0 != "--" }
    (options.json, options.null, options.limit, options.count) = (json, null, limit, count)
    (options.folder, options.live, options.open) = (folder, live, open)
    options.interactive = interactive
    // "--open N": the number right after --open picks the result.
    if open, let at = CommandLine.arguments.firstIndex(of: "--open"),
      at + 1 < CommandLine.arguments.count, let n = Int(CommandLine.arguments[at + 1]),
      let word = options.words.firstIndex(of: CommandLine.arguments[at + 1])
    {
      options.pick = n
      options.words.remove(at: word)
    }
    try Self.run(options)
  }

  static func run(_ options: FindInOptions) throws {
    guard options.interactive else { return try FindInSearch(options).run() }
    try options.validate()
    let status = try Picker(words: options.words).run()
    if status != 0 { throw CommandFailure("", status: status) }
  }

  static func main() {
    // Most queries need no argument parser: skip its start-up.
    if let options = FindInOptions.quick(Array(CommandLine.arguments.dropFirst())) {
      runWithStatus(name: "find-in") { try run(options) }
    }
    mainWithStatus()
  }
}
