/// find-in's options, defined once: their spellings, whether they take a
/// value, and their help. The argument parser's declarations
/// (``FindInCommand``) and the quick reading of common invocations
/// (``FindInOptions/quick(_:)``, which the query service uses too) both come
/// from here, and a test checks that the two read every argument vector alike.
public enum FindInFlag: CaseIterable, Sendable {
  case json, null, limit, count, folder, store, storeRead, live, open, interactive, explain, now
  case about

  /// Every spelling, the long one first.
  public var names: [String] {
    switch self {
    case .json: ["--json"]
    case .null: ["--null", "-0"]
    case .limit: ["--limit"]
    case .count: ["--count"]
    case .folder: ["--in"]
    case .store: ["--store"]
    case .storeRead: ["--store-read"]
    case .live: ["--live"]
    case .open: ["--open"]
    case .interactive: ["--interactive", "-i"]
    case .explain: ["--explain"]
    case .now: ["--now"]
    case .about: ["--about"]
    }
  }

  /// Whether it takes a value (`--limit N` or `--limit=N`).
  public var takesValue: Bool {
    [.limit, .folder, .store, .storeRead, .now, .about].contains(self)
  }

  public var help: String {
    switch self {
    case .json: "Print JSON Lines, one object per result."
    case .null: "Separate URIs with NUL bytes."
    case .limit: "Print at most N results (default: all; 20 on a terminal)."
    case .count: "Print only the number of matches."
    case .folder: "Only items at or below this folder."
    case .store:
      "Search this PostgreSQL store (URL, key=value pairs or service=NAME), or 'local' for"
        + " this host's index (default: limelight.conf's 'store')."
    case .storeRead:
      "Read the shared store from this hot standby of it, and from its primary when the"
        + " standby is away (default: limelight.conf's 'store-read')."
    case .live: "After the results, print changes as they happen (+ added, ~ changed, - removed)."
    case .open:
      "Open the best match (or the Nth, with --open N) with xdg-open and remember it."
    case .interactive: "Pick from results that follow every key typed (see find-in(1))."
    case .explain:
      "Print how the query was read, in the filter language, and search nothing (--json: as"
        + " an object)."
    case .now:
      "Count relative dates (today, last week) from this moment (ISO 8601: 2026-11-27 or"
        + " 2026-11-27T15:00:00Z) instead of now."
    case .about:
      "Find documents about this text by meaning alone, in any language (the words, if any,"
        + " narrow them as filters do)."
    }
  }

  /// The flags by each spelling.
  package static let byName: [String: FindInFlag] = Dictionary(
    uniqueKeysWithValues: allCases.flatMap { flag in flag.names.map { ($0, flag) } })

  /// The one-letter spellings that may run together (`-0i`).
  package static let shortLetters = Set(
    allCases.flatMap(\.names).filter { !$0.hasPrefix("--") }.map { $0.last! })
}
