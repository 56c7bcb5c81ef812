import ArgumentParser
import LimelightCommand
import LimelightExit
import LimelightModel
import LimelightQuery
import LimelightSearch

extension FindInFlag {
  /// The spellings as the argument parser takes them.
  var nameSpecification: NameSpecification {
    NameSpecification(
      names.map { name in
        name.hasPrefix("--")
          ? .customLong(String(name.dropFirst(2))) : .customShort(name.last!)
      })
  }
}

/// `find-in` as the argument parser reads it: help, completion scripts and
/// messages for mistakes. Arguments it accepts are read as
/// ``FindInOptions/quick(_:)`` reads them, which alone knows `--open N`.
public struct FindInCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "find-in",
    abstract: "Find files and application items in the Limelight index.",
    discussion: """
      Words are ANDed; each matches as a prefix, ignoring case and accents, in names, \
      keywords, paths and text. "exact phrase", -excluded, a OR b and parentheses \
      combine them. Filters: kind:KIND (\(KindClass.allCases.map(\.rawValue)
        .joined(separator: ", "))), ext:EXT[,EXT], in:DIR, \
      name:WORD, tag:WORD, type:MIME (image/* allowed), domain:DOMAIN, size:>10MB, \
      modified:/created:/used:/taken: today, week, 2026-11, <2025-01-01 or A..B, \
      author:/from:/to: NAME, sort:size. A word that matches nothing is taken as a \
      typo; names answer to their initials. The mdfind predicate language works \
      too: 'displayName == "park*"cd && size > 1000'. A person's own words are read \
      into these filters ("pdfs from last week", "Fotos von gestern", "songs by \
      Miles Davis"): --explain shows the reading.

      Output: one URI per line when standard output is not a terminal; a readable \
      list on a terminal. Exit status: 0 when something matched, 1 when nothing did, \
      2 on a usage or query error. See find-in(1).
      """)

  @Argument(
    parsing: .allUnrecognized,
    help: ArgumentHelp("The words to find (a '-word' excludes).", valueName: "query"),
    completion: .list(QueryParser.completions))
  var query: [String] = []

  @Flag(name: FindInFlag.json.nameSpecification, help: ArgumentHelp(FindInFlag.json.help))
  var json = false

  @Flag(name: FindInFlag.null.nameSpecification, help: ArgumentHelp(FindInFlag.null.help))
  var null = false

  @Option(name: FindInFlag.limit.nameSpecification, help: ArgumentHelp(FindInFlag.limit.help))
  var limit: Int?

  @Flag(name: FindInFlag.count.nameSpecification, help: ArgumentHelp(FindInFlag.count.help))
  var count = false

  @Option(
    name: FindInFlag.folder.nameSpecification, help: ArgumentHelp(FindInFlag.folder.help))
  var folder: String?

  @Option(name: FindInFlag.store.nameSpecification, help: ArgumentHelp(FindInFlag.store.help))
  var store: String?

  @Option(
    name: FindInFlag.storeRead.nameSpecification, help: ArgumentHelp(FindInFlag.storeRead.help))
  var storeRead: String?

  @Flag(name: FindInFlag.live.nameSpecification, help: ArgumentHelp(FindInFlag.live.help))
  var live = false

  @Flag(name: FindInFlag.open.nameSpecification, help: ArgumentHelp(FindInFlag.open.help))
  var open = false

  @Flag(
    name: FindInFlag.interactive.nameSpecification,
    help: ArgumentHelp(FindInFlag.interactive.help))
  var interactive = false

  @Flag(name: FindInFlag.explain.nameSpecification, help: ArgumentHelp(FindInFlag.explain.help))
  var explain = false

  @Option(name: FindInFlag.now.nameSpecification, help: ArgumentHelp(FindInFlag.now.help))
  var now: String?

  @Option(name: FindInFlag.about.nameSpecification, help: ArgumentHelp(FindInFlag.about.help))
  var about: String?

  public init() {}

  /// The options as the parser's declarations hold them (the words keep an
  /// `--open N` number and what follows `--`): what the quick reading is
  /// checked against.
  var declared: FindInOptions {
    var options = FindInOptions()
    options.words = query
    // The parser keeps the "--" that ends the options among the words.
    if let terminator = options.words.firstIndex(of: "--") { options.words.remove(at: terminator) }
    (options.json, options.null, options.limit, options.count) = (json, null, limit, count)
    (options.folder, options.store, options.live, options.open) = (folder, store, live, open)
    options.storeRead = storeRead
    (options.interactive, options.explain, options.now) = (interactive, explain, now)
    options.about = about
    return options
  }

  /// What the arguments this command was parsed from ask for.
  public func options(arguments: [String]) throws -> FindInOptions {
    if let options = FindInOptions.quick(arguments) { return options }
    // The parser took as query words what the quick reading did not: options
    // it does not know.
    let terminator = arguments.firstIndex(of: "--") ?? arguments.count
    if let option = arguments[..<terminator].first(where: {
      $0.hasPrefix("--") && $0.count > 2
        && FindInFlag.byName[String($0.prefix { $0 != "=" })] == nil
    }) {
      throw CommandFailure(
        "unknown option '\(option)' (to search for it, put it after --: find-in -- \(option))")
    }
    throw CommandFailure("cannot read the arguments: \(arguments.joined(separator: " "))")
  }

  public func run() throws {
    try Self.run(options(arguments: Array(CommandLine.arguments.dropFirst())))
  }

  /// Runs what the options ask for: a search, or the picker.
  public static func run(_ options: FindInOptions) throws {
    guard options.interactive else { return try FindInSearch(options).run() }
    try options.validate()
    guard let pick = picker else { throw CommandFailure("find-in -i is not available here") }
    let status = try pick(options)
    if status != 0 { throw CommandFailure("", status: status) }
  }

  /// The picker, `find-in -i` (set by the executable that links it).
  nonisolated(unsafe) public static var picker: ((FindInOptions) throws -> Int32)?

  /// Parses and runs; most invocations skip the argument parser's start-up.
  public static func main(_ arguments: [String]) -> Never {
    if let options = FindInOptions.quick(arguments) {
      runWithStatus(name: "find-in") { try run(options) }
    }
    mainWithStatus(arguments: arguments)
  }
}
