import ArgumentParser
import Foundation
import LimelightCLI
import LimelightCommand
import LimelightExit
import LimelightModel
import LimelightPlatform
import LimelightPostgres
import LimelightSearch
import LimelightStore

@main
struct Limelight: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "limelight",
    abstract: "Control the Limelight index.",
    discussion: "See limelight(1).",
    subcommands: [
      Status.self, Show.self, Pause.self, Resume.self, Erase.self, Index.self, Delete.self,
      ClientState.self, Extensions.self,
    ])

  static func main() { mainWithStatus() }
}

struct Status: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Show the watcher's state, both passes' progress, queue, watches and errors.")

  @Flag(name: .long, help: "Print one JSON object.")
  var json = false

  @Flag(
    name: .long,
    help:
      "Follow the passes until everything is read: on a terminal the report is redrawn in place, otherwise printed once at the end."
  )
  var watch = false

  @Flag(
    name: .shortAndLong,
    help:
      "Also list the files of each kind of trouble, and print the size of each table and index of the file."
  )
  var verbose = false

  func run() throws {
    let location = IndexLocation.fromEnvironment()
    let store = try openIndex()
    let terminal = Terminal.of()
    var shown = 0
    while true {
      var status = try store.status(watcherPID: location.watcherPID())
      status.frontEnds = InstalledFrontEnds.find(location.base)
      if shown == 0 { addSharedHosts(&status, location: location) }
      let finished = !watch || status.contentDone || !status.running
      if json {
        if finished { try printJSON(status) }
      } else if finished || terminal.isTerminal {
        let lines = report(status, location: location, terminal: terminal)
        // Back to the report's first line, and clear what follows: redrawn in place.
        if shown > 0 { print("\u{1B}[\(shown)F\u{1B}[J", terminator: "") }
        print(lines.joined(separator: "\n"))
        shown = lines.count
        if verbose && finished {
          try printTroubles(store, status)
          try printTableSizes(store, entries: status.items)
        }
      }
      if finished { return }
      Thread.sleep(forTimeInterval: 0.5)
    }
  }

  /// The hosts of the shared store limelight.conf names (or the watcher
  /// sends to), read once: the store is another machine's to answer.
  func addSharedHosts(_ status: inout IndexStatus, location: IndexLocation) {
    let configuration = try? Configuration.load(for: location)
    guard let name = status.sharedStore?.store ?? configuration?.store else { return }
    do {
      status.sharedHosts = try PostgresIndex(reading: name).hosts()
    } catch {
      status.sharedHostsError = error.description
    }
    guard let standby = configuration?.storeRead, name == configuration?.store else { return }
    do {
      let replication = try PostgresIndex(reading: standby).replication()
      status.sharedStandby = IndexStatus.SharedStandby(
        store: standby, isStandby: replication.isStandby, caughtUp: replication.caughtUp,
        lagSeconds: replication.lagSeconds)
    } catch {
      status.sharedStandby = IndexStatus.SharedStandby(store: standby, error: error.description)
    }
  }

  /// `--verbose`: the files of each kind of trouble, the first 200 of each.
  func printTroubles(_ store: IndexStore, _ status: IndexStatus) throws {
    for kind in Trouble.allCases {
      guard let count = status.troubles[kind.rawValue], count > 0 else { continue }
      print("\n\(kind.label): \(count)")
      for failure in try store.failures(of: kind, limit: 200) {
        print("  \(failure.path): \(failure.message)")
      }
      if count > 200 { print("  … and \(count - 200) more") }
    }
  }

  /// `--verbose`: where the file's bytes go, per table and index.
  func printTableSizes(_ store: IndexStore, entries: Int) throws {
    let sizes = try store.tableSizes()
    let width = sizes.map(\.name.count).max() ?? 0
    print("tables:")
    for (name, bytes) in sizes where bytes > 0 {
      let perEntry = entries > 0 ? " (\(count(Int(bytes / Int64(entries)))) B an item)" : ""
      print(
        "  " + name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
          + byteCount(bytes) + perEntry)
    }
  }

  func printJSON(_ status: IndexStatus) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    print(String(decoding: try encoder.encode(status), as: UTF8.self))
  }

  func report(_ status: IndexStatus, location: IndexLocation, terminal: Terminal) -> [String] {
    var lines: [(String, String)] = [
      (
        "watcher",
        status.running ? "\(status.state) (pid \(status.pid.map(String.init) ?? "?"))" : "stopped"
      ),
      ("index", "\(location.databasePath.string) (\(byteCount(status.databaseBytes)))"),
      (
        "items",
        "\(count(status.items)): \(count(status.files)) files, \(count(status.folders)) folders, "
          + "\(count(status.installedApplications)) installed applications, "
          + "\(count(status.applicationItems)) from applications"
      ),
      ("generation", "\(count(Int(status.generation))) (one more for each change written)"),
      ("names", namesLine(status)),
      ("content", contentLine(status)),
      ("roots", status.roots.isEmpty ? "none yet" : status.roots.joined(separator: ", ")),
    ]
    if terminal.isTerminal && status.running && !status.contentDone {
      lines.insert(("", progressBar(status)), at: 6)
    }
    if let meaning = status.meaning, let roots = lines.firstIndex(where: { $0.0 == "roots" }) {
      lines.insert(("meaning", meaningLine(meaning, running: status.running)), at: roots)
    }
    // Not idle yet: what the watcher still does once both passes are done.
    if let waiting = status.thumbnailsWaiting,
      let roots = lines.firstIndex(where: { $0.0 == "roots" })
    {
      lines.insert(
        ("thumbnails", "drawing, \(count(waiting)) waiting (at the lowest priority)"), at: roots)
    }
    if let tidying = status.tidying, let roots = lines.firstIndex(where: { $0.0 == "roots" }) {
      lines.insert(("tidying", tidyingLine(tidying, quiet: status.packingQuietSeconds)), at: roots)
    }
    if status.running {
      lines.append(
        ("queue", "\(count(status.queue)) waiting, \(count(status.pendingRequests)) requests"))
      var watches = "\(count(status.watchedFolders)) folders"
      if status.watchLimitReached {
        watches +=
          "; LIMIT REACHED: \(count(status.unwatchedFolders)) folders are rescanned on a timer"
          + " instead"
      }
      lines.append(("watches", watches))
    } else if status.pendingRequests > 0 {
      lines.append(("requests", "\(count(status.pendingRequests)) kept until limelightd starts"))
    }
    if status.extensions > 0 {
      let failing =
        status.failingExtensions > 0
        ? ", \(status.failingExtensions) failing: see 'limelight extensions'" : ""
      lines.append(("extensions", "\(count(status.extensions))\(failing)"))
    }
    if let blocked = status.writeBlocked { lines.append(("WRITES", blocked.description)) }
    if let rebuilt = status.rebuilt { lines.append(("rebuilt", rebuilt.description)) }
    if status.paused { lines.append(("paused", "yes: 'limelight resume' continues")) }
    if status.overflows > 0 {
      lines.append(("overflows", "\(count(status.overflows)) (each rescanned)"))
    }
    if let frontEnds = status.frontEnds { lines.append(("front ends", frontEnds.summary)) }
    lines += sharedStoreLines(status)
    // Errors are real ones, each kind counted apart; a locked document is none.
    let kinds = Trouble.allCases.filter { $0 != .locked }.compactMap { kind in
      status.troubles[kind.rawValue].flatMap { $0 > 0 ? "\(count($0)) \(kind.label)" : nil }
    }
    lines.append(
      (
        "errors",
        count(status.failures) + (kinds.isEmpty ? "" : ": " + kinds.joined(separator: ", "))
      )
    )
    // The latest errors under their count, not under the locked documents'
    // line (they are none of those).
    for failure in status.recentFailures {
      lines.append(("", "\(failure.path): \(failure.message)"))
    }
    if let locked = status.troubles[Trouble.locked.rawValue], locked > 0 {
      lines.append(
        ("locked", "\(count(locked)) encrypted document\(locked == 1 ? "" : "s"), indexed by name"))
    }
    if let last = status.lastError { lines.append(("last warning", last)) }
    let width = lines.map(\.0.count).max() ?? 0
    return lines.map { key, value in
      (key.isEmpty ? "" : key + ":").padding(toLength: width + 2, withPad: " ", startingAt: 0)
        + value
    }
  }

  /// How a send under way goes: what it has sent of what, when a long one
  /// tells; the generations to go otherwise.
  func sendingLine(_ progress: SharedStoreReport.Progress?, behind: Int64) -> String {
    guard let progress else { return "sending, \(behind) generations to go" }
    let what = progress.what == .entries ? "entries" : "meaning vectors"
    guard let total = progress.of else {
      return "sending \(what): \(count(progress.sent)) sent, \(behind) generations to go"
    }
    let all = progress.what == .entries ? "every entry" : "meaning vectors"
    return "sending \(all): \(count(progress.sent)) of \(count(total)) sent"
  }

  /// The shared store: how this watcher's sending goes, and every host's
  /// entries and last contact.
  func sharedStoreLines(_ status: IndexStatus) -> [(String, String)] {
    var lines: [(String, String)] = []
    if let shared = status.sharedStore {
      var state: String
      switch shared.state {
      case .current:
        // Vectors the third pass wrote, sent after the entries.
        state = shared.progress.map { "current; " + sendingLine($0, behind: 0) } ?? "current"
      case .sending: state = sendingLine(shared.progress, behind: status.sharedStoreBehind ?? 0)
      case .packing:
        state =
          "packing the store's indexes after sending every entry "
          + "(since \(ShortDateFormatter().string(shared.since)))"
      case .unreachable:
        state =
          "UNREACHABLE since \(ShortDateFormatter().string(shared.since)): "
          + "\(status.sharedStoreBehind ?? 0) generations wait in the local index"
      }
      if !status.running { state = "not sending (limelightd is stopped)" }
      lines.append(("shared store", "\(shared.store) as \(shared.host): \(state)"))
      if let message = shared.message, shared.state == .unreachable { lines.append(("", message)) }
    }
    if let error = status.sharedHostsError {
      lines.append(("hosts", "cannot be read: \(error)"))
    } else if let hosts = status.sharedHosts {
      lines.append(("hosts", hosts.isEmpty ? "none yet" : "\(hosts.count)"))
      let dates = ShortDateFormatter()
      for host in hosts {
        lines.append(
          (
            "",
            "\(host.name): \(host.entries) entries, last contact \(dates.string(host.lastContact))"
          ))
      }
    }
    if let standby = status.sharedStandby { lines.append(("read from", standbyLine(standby))) }
    return lines
  }

  /// The standby searches read, and how far behind its primary it is.
  func standbyLine(_ standby: IndexStatus.SharedStandby) -> String {
    if let error = standby.error {
      return "\(standby.store): AWAY, searches read the primary (\(error))"
    }
    guard standby.isStandby == true else {
      return "\(standby.store): a primary, not a standby (promoted?): searches read it"
    }
    guard standby.caughtUp == false else { return "\(standby.store): standby, caught up" }
    let lag = standby.lagSeconds.map { String(format: "%.1f s", $0) } ?? "some time"
    return "\(standby.store): standby, \(lag) behind the primary (its replay lags)"
  }

  /// The first pass: every entry found by name.
  func namesLine(_ status: IndexStatus) -> String {
    guard status.crawlDone else {
      return status.running
        ? "in progress: \(count(status.crawlSeen)) entries named"
        : "not done (limelightd finishes it)"
    }
    guard let seconds = status.namesSeconds, let rate = status.namesRate else {
      return "done: \(count(status.crawlSeen)) entries"
    }
    // A watcher started again checks the index it finds against the disk.
    let what = status.namesChecked ? "entries checked against the disk" : "entries"
    return
      "done: \(count(status.crawlSeen)) \(what) in \(duration(seconds)) (\(count(Int(rate))) a second)"
  }

  /// The second pass: the content of the files named by the first.
  func contentLine(_ status: IndexStatus) -> String {
    if status.contentDone {
      // What the last pass read: a pass that read a handful after a
      // restart says so rather than pass for the first crawl's.
      guard let files = status.contentFiles, let seconds = status.contentSeconds, files > 0 else {
        return "done: every file read"
      }
      return
        "done: every file read (the last pass read \(count(files)) files in \(duration(seconds)), "
        + "\(count(Int(Double(files) / max(seconds, 0.001)))) a second)"
    }
    let read = status.contentRead ?? 0
    var line = "read \(count(read)) of \(count(read + status.contentWaiting)) files"
    if let rate = status.contentRate { line += ", \(count(Int(rate))) a second" }
    if let left = status.contentSecondsLeft { line += ", about \(duration(left)) left" }
    if !status.running {
      line = "\(count(status.contentWaiting)) files wait (limelightd reads them)"
    }
    return line
  }

  /// What the watcher still does to the index after a pass that rewrote much of it.
  func tidyingLine(_ tidying: IndexTidying, quiet: Double?) -> String {
    switch tidying {
    case .merging: "merging the text index's pieces, a step at a time"
    case .releasing: "giving the space merged pieces held back to the disk"
    case .packingWaits:
      "packing the index (about 4 % smaller) once no file has changed for "
        + minutes(quiet ?? 300)
    }
  }

  /// The third pass: documents embedded for meaning search, or why it is off.
  func meaningLine(_ meaning: MeaningStatus, running: Bool) -> String {
    if let off = meaning.off {
      return "off (\(off))" + (running ? "" : " when the watcher last ran")
    }
    if meaning.embedded >= meaning.worth {
      return "on: \(count(meaning.vectors)) documents found by what they are about"
    }
    var line = "embedded \(count(meaning.embedded)) of \(count(meaning.worth)) documents"
    if !running { return line + "; the watcher embeds the rest while it runs" }
    if let rate = meaning.rate { line += String(format: ", %.1f a second", rate) }
    if let left = meaning.secondsLeft { line += ", about \(duration(left)) left" }
    return line
  }

  /// `[#####.....]  42 %`: the second pass's share done.
  func progressBar(_ status: IndexStatus, width: Int = 40) -> String {
    let read = Double(status.contentRead ?? 0)
    let total = read + Double(status.contentWaiting)
    let fraction = status.crawlDone && total > 0 ? read / total : 0
    let filled = Int((fraction * Double(width)).rounded(.down))
    return "[" + String(repeating: "#", count: filled)
      + String(repeating: ".", count: width - filled) + "] \(Int(fraction * 100)) %"
  }

  /// A count as a person reads it: 154,880, not 154880.
  func count(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var grouped = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
      grouped.append(digit)
    }
    return number < 0 ? "-" + grouped : grouped
  }

  func duration(_ seconds: Double) -> String {
    if seconds < 60 { return String(format: "%.1f s", seconds) }
    let minutes = Int(seconds / 60)
    if minutes < 60 { return "\(minutes) min \(Int(seconds) % 60) s" }
    return "\(minutes / 60) h \(minutes % 60) min"
  }

  /// `5 minutes`, `1 minute`, for a wait given in whole minutes.
  func minutes(_ seconds: Double) -> String {
    let minutes = max(1, Int((seconds / 60).rounded()))
    return minutes == 1 ? "1 minute" : "\(minutes) minutes"
  }

  func byteCount(_ bytes: Int64) -> String {
    ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)
  }
}

/// A request that the watcher carries out (now, or when it next starts).
protocol WatcherRequestCommand: ParsableCommand {
  var kind: IndexRequest.Kind { get }
  var done: String { get }
}

extension WatcherRequestCommand {
  func submit(wait: Bool, timeout: Double?, domain: String? = nil) throws {
    let location = IndexLocation.fromEnvironment()
    let store = try IndexStore.open(location, create: true)
    let id = try store.submit(kind, domain: domain)
    guard location.watcherPID() != nil else {
      print("limelightd is not running: it will \(done) when it starts")
      return
    }
    if wait {
      guard let finished = try waitForRequest(id, in: store, timeout: timeout) else {
        throw CommandFailure("timed out waiting for the watcher", status: ExitStatus.notFound)
      }
      // How the extensions that had to run for it went (an erase's).
      guard let outcome = finished.outcome, kind == .erase || kind == .eraseDomain else { return }
      if outcome.failed {
        throw CommandFailure(outcome.description, status: ExitStatus.notFound)
      }
      print(outcome)
    }
  }
}

struct Pause: WatcherRequestCommand {
  static let configuration = CommandConfiguration(
    abstract: "Stop indexing until 'limelight resume' (changes are caught up then).")
  var kind: IndexRequest.Kind { .pause }
  var done: String { "stay paused" }
  func run() throws { try submit(wait: true, timeout: 30) }
}

struct Resume: WatcherRequestCommand {
  static let configuration = CommandConfiguration(abstract: "Resume indexing after a pause.")
  var kind: IndexRequest.Kind { .resume }
  var done: String { "resume" }
  func run() throws { try submit(wait: true, timeout: 30) }
}

struct Erase: WatcherRequestCommand {
  static let configuration = CommandConfiguration(
    abstract: "Forget every item (or a domain's) and index it all again.",
    discussion: """
      The roots are crawled again, the installed applications read again, and every \
      reindex extension is run to give its domain's items back. Items an application \
      pushed without an extension are gone until it pushes them again. With --domain, \
      only that domain (and the domains under it) is erased and indexed again.
      """)

  @Option(name: .long, help: "Erase only this domain and the domains under it.")
  var domain: String?

  @Flag(
    name: .long,
    help: """
      Wait until everything is indexed again, the applications' extensions included, \
      and print how it went (exit 1 when an extension failed).
      """)
  var wait = false

  func validate() throws {
    do { if let domain { try ItemLine.validate(domain: domain, allowReserved: true) } } catch {
      throw ValidationError(error.description)
    }
  }

  var kind: IndexRequest.Kind { domain == nil ? .erase : .eraseDomain }
  var done: String { "erase and index again" }
  func run() throws { try submit(wait: wait, timeout: nil, domain: domain) }
}
