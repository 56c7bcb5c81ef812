import CLinux
import Foundation
import LimelightModel
import LimelightPlatform
import LimelightPostgres
import LimelightStore
import Logging
import Synchronization

/// Sends what the local index holds of this host's files (and the items
/// applications gave it) to a shared PostgreSQL store, and keeps sending
/// what changes.
///
/// The local index is the durable queue: whatever the watcher wrote stays
/// there while the store is away, and is sent when it comes back, by
/// generation. The store's host row says which index (by identity) and up
/// to which generation this host's rows reflect, so that a restart sends
/// only what changed; when that cannot be told (a new local index, or
/// removals older than the index remembers), every entry is sent again
/// and the host's rows not sent are removed. Other hosts' rows are never
/// touched.
public final class SharedStoreSender: @unchecked Sendable {
  let store: IndexStore
  let storeName: String
  let host: String
  let logger: Logger
  /// Entries a store transaction takes.
  let pageSize: Int
  /// Whether the process was asked to stop (a signal).
  let interrupted: @Sendable () -> Bool
  private let stopping = Mutex(false)
  private var thread: Thread?
  private var report: SharedStoreReport

  /// The niceness of the threads that send: making the words of texts is
  /// the sending's cost, and it yields to the user's programs.
  static let nice: Int32 = 10
  /// The longest wait between attempts to reach a store that is away.
  public static let longestBackOff = 30.0
  /// How often the index's generation is read for what other programs
  /// wrote, when the watcher commits nothing.
  static let lookEvery = 2.0
  /// Seconds a burst's writes are gathered for before they are sent.
  static let gathering = 0.25
  /// Entries in one send that make it a burst's.
  static let burst = 50
  /// The entries written and removed by the last send.
  private var lastSent = 0
  /// The number of the last meaning vector the store was sent, and when.
  private var meaningSent: Int64?
  private var meaningSentAt = Date.distantPast
  /// Seconds the vectors the third pass writes (a few a second) are
  /// gathered for before they are sent: a transaction for each would keep
  /// the store busy for nothing.
  static let meaningGathering = 5.0

  /// When the send under way began, and when its progress was last
  /// written for `limelight status` (``tell(_:sent:of:)``).
  private var sendBegan = Date()
  private var progressWritten = Date.distantPast
  /// Whether the report written last holds a send's progress.
  private var progressShown = false
  /// Seconds between the writes of a send's progress; a send shorter than
  /// this (a save) writes none.
  static let progressEvery = 1.0

  /// Whether vectors wait to be sent, and have waited long enough.
  private func meaningDue() throws -> Bool {
    guard try store.meaningChange() != meaningSent else { return false }
    return meaningSent == nil || -meaningSentAt.timeIntervalSinceNow >= Self.meaningGathering
  }

  public init(
    store: IndexStore, storeName: String, host: String, logger: Logger, pageSize: Int = 500,
    interrupted: @escaping @Sendable () -> Bool = { false }
  ) {
    self.interrupted = interrupted
    (self.store, self.storeName, self.host, self.logger) = (store, storeName, host, logger)
    self.pageSize = pageSize
    report = SharedStoreReport(store: storeName, host: host, state: .sending, since: Date())
  }

  /// Starts sending on a thread of its own.
  public func start() {
    report.write(store.location)
    let thread = Thread { [self] in run() }
    thread.name = "shared store"
    self.thread = thread
    thread.start()
  }

  /// Stops after the page being sent (its transaction commits or not).
  public func stop() {
    stopping.withLock { $0 = true }
    store.commits.signal()
  }

  private var stopped: Bool { stopping.withLock { $0 } || interrupted() }

  private func run() {
    // Making the words of texts is the sending's cost: it yields to the
    // user's programs as the watcher's own indexing does.
    limelight_lower_thread_priority(Self.nice)
    var index: PostgresIndex?
    var backOff = 1.0
    while !stopped {
      let seen = store.commits.current
      do {
        // Other programs write the index too (`limelight index`): no
        // commit of the watcher's tells of theirs, a new generation does.
        if index != nil, let sent = report.sentThrough, try store.generation() == sent,
          try !meaningDue()
        {
          store.commits.wait(after: seen, timeout: Self.lookEvery)
          continue
        }
        // A new connection checks what the store holds of this host
        // (a store restored from a backup lost rows its host row says
        // were sent).
        let verify = index == nil
        let connected = try index ?? PostgresIndex(storeName, host: host)
        index = connected
        if try sendChanges(to: connected, verifying: verify) {
          backOff = 1
          // The next look waits for a commit. While the watcher writes a
          // burst (the last send carried many entries), the rest of it is
          // gathered for a moment more; a save or a few go at once, to be
          // found from other hosts within a blink (their followers are
          // told at its commit).
          store.commits.wait(after: seen, timeout: Self.lookEvery)
          if !stopped && lastSent >= Self.burst { usleep(UInt32(Self.gathering * 1_000_000)) }
        }
      } catch let error as PostgresError {
        if error.unreachable { index = nil }
        set(.unreachable, message: error.description)
        logger.warning("shared store: \(error); trying again in \(Int(backOff)) s")
        waitOut(backOff)
        backOff = min(backOff * 2, Self.longestBackOff)
      } catch {
        // The local index could not be read: the watcher reports that.
        logger.error("shared store: cannot read the local index: \(error)")
        store.commits.wait(after: seen, timeout: Self.longestBackOff)
      }
    }
  }

  /// Waits `seconds`, whatever the watcher commits meanwhile, or until
  /// stopped. A store away is tried again when its wait is out: woken by
  /// each commit, the sender tried again at every one (while a crawl
  /// wrote, a connection and a line in the log every two seconds, each
  /// saying 30).
  private func waitOut(_ seconds: Double) {
    let until = Date(timeIntervalSinceNow: seconds)
    while !stopped, until.timeIntervalSinceNow > 0 {
      store.commits.wait(after: store.commits.current, timeout: until.timeIntervalSinceNow)
    }
  }

  /// Connects and sends everything not sent yet, once (`limelightd --once`).
  public func sendNow() throws {
    report.write(store.location)
    do {
      _ = try sendChanges(to: PostgresIndex(storeName, host: host), verifying: true)
    } catch let error as PostgresError {
      set(.unreachable, message: error.description)
      throw error
    }
  }

  /// Sends what changed since the store last heard from this index;
  /// true when everything is sent, false when stopped midway. `verifying`
  /// compares the entries the store then holds of this host with the
  /// index's, and sends everything again when they differ.
  func sendChanges(to index: PostgresIndex, verifying: Bool = false, resending: Bool = false)
    throws -> Bool
  {
    let identity = try store.identity()
    // Read first: the vectors written before it go with their entries.
    let meaningBefore = try store.meaningChange()
    // The count (a read of every row) only when it is compared.
    let (now, entries) = try store.sharedEntries(counting: verifying)
    let (following, sweep) = try index.following()
    // The store follows this index when it names it, is not ahead of it,
    // and every removal since is still known; else everything goes again.
    let follows =
      try following.map {
        try $0.indexID == identity && $0.generation <= now
          && $0.generation + 1 >= store.removalsKeptFrom()
      } ?? false
    let resend = resending || !follows
    if resend || following?.generation != now {
      guard
        try send(
          to: index, through: now, identity: identity, following: following,
          sweep: sweep, resend: resend)
      else { return false }
      report.lastSent = Date()
    }
    if let entries, !resend, try index.entryCount() != entries {
      logger.warning("shared store: it holds other entries of this host than were sent")
      return try sendChanges(to: index, resending: true)
    }
    guard try sendMeaning(to: index, resent: resend, before: meaningBefore) else { return false }
    report.sentThrough = now
    report.progress = nil
    // A long send of vectors while the store was current told its
    // progress: that goes too.
    if progressShown && report.state == .current { report.write(store.location) }
    progressShown = false
    set(.current)
    return true
  }

  /// Sends the pages of what changed after what the store follows (all of
  /// it, for a `resend`, whose rows get a new mark and the rest go);
  /// false when stopped midway.
  private func send(
    to index: PostgresIndex, through now: Int64, identity: String,
    following: PostgresIndex.Following?, sweep: Int64, resend: Bool
  ) throws -> Bool {
    // What a send cut short (a store away) had told is not this one's.
    report.progress = nil
    set(.sending)
    let mark = resend ? sweep + 1 : sweep
    let after = resend ? nil : following?.generation
    lastSent = 0
    sendBegan = Date()
    // Every entry again: how many, told at once (a read of every row).
    let total = resend ? try store.sharedEntries(counting: true).count : nil
    tell(.entries, sent: 0, of: total)
    // Each page is read and made ready on a thread of its own while the
    // store writes the page before; the first is waited for. (One host
    // sending alone for 100 s: 27,500-31,000 entries before, 37,000-37,500.)
    var ahead = MadeAhead { [self] in try readPage(after: after, through: now, row: 0) }
    while true {
      if stopped { return false }
      let page = try ahead.value()
      if let next = page.nextRow {
        ahead = MadeAhead { [self] in try readPage(after: after, through: now, row: next) }
      }
      let reached =
        page.nextRow == nil && !resend
        ? PostgresIndex.Following(indexID: identity, generation: now) : nil
      try index.write(page.entries, removing: page.removed, sweep: mark, following: reached)
      lastSent += page.entries.count + page.removed.count
      tell(.entries, sent: lastSent, of: total)
      if page.nextRow == nil { break }
    }
    if resend {
      try index.finishResend(
        sweep: mark, following: PostgresIndex.Following(indexID: identity, generation: now))
      logger.info("shared store: sent every entry of this host again (through \(now))")
      pack(index, after: lastSent)
    }
    return true
  }

  /// Packs the store's indexes after a whole resend of `sent` entries
  /// (``PostgresIndex/packs(after:)``). The entries are sent whether or
  /// not it can: a pack that fails is only said.
  private func pack(_ index: PostgresIndex, after sent: Int) {
    do {
      guard try index.packs(after: sent) else { return }
      set(.packing)
      defer { set(.sending) }
      let began = Date()
      guard try index.pack(givingUp: { stopped }) else { return }
      logger.info(
        "shared store: packed its indexes after \(sent) entries sent, in \(Int(-began.timeIntervalSinceNow)) s"
      )
    } catch {
      logger.warning("shared store: could not pack its indexes: \(error)")
    }
  }

  /// A page of what changed after `after` through `now`, from the row
  /// after `row`, made ready to send.
  private func readPage(after: Int64?, through now: Int64, row: Int64) throws -> PageReady {
    let page = try store.sharedChanges(after: after, through: now, afterRow: row, limit: pageSize)
    var reach = Reach()
    let items = page.items.map { item in
      var item = item
      // An application item's URI is no path: only its writer finds it.
      if item.domain == nil { item.reach = reach.of(item.path) }
      return item
    }
    return PageReady(entries: EntriesReady(items), removed: page.removed, nextRow: page.nextRow)
  }

  /// A page of changes made ready to send (``readPage(after:through:row:)``).
  struct PageReady: Sendable {
    var entries: EntriesReady
    var removed: [RawPath]
    /// The row to read the next page after; nil for the last page.
    var nextRow: Int64?
  }

  /// Sends the meaning vectors the third pass wrote since the store last
  /// heard (after a whole resend, since it began: its entries carried the
  /// others), or drops the store's vectors of this host when its index
  /// keeps none; false when stopped midway.
  private func sendMeaning(to index: PostgresIndex, resent: Bool, before: Int64) throws -> Bool {
    guard try resent || meaningDue() else { return true }
    meaningSentAt = Date()
    let now = try store.meaningChange()
    guard try store.hasMeaning() else {
      if try index.holdsMeaning() { try index.dropMeaning(through: now) }
      meaningSent = now
      return true
    }
    var through = resent ? before : try index.meaningThrough()
    if resent { try index.writeMeaning([], through: through) }
    // The store heard of an index numbered further (restored from a
    // backup, say): everything again.
    if through > now { through = 0 }
    sendBegan = Date()
    var sent = 0
    let total = through < now ? try store.sharedMeaningCount(after: through) : 0
    while through < now {
      if stopped { return false }
      tell(.vectors, sent: sent, of: total)
      let page = try store.sharedMeaning(after: through, limit: pageSize)
      let last = page.last?.change ?? now
      let reached = page.count < pageSize ? max(now, last) : last
      try index.writeMeaning(page.map { ($0.path, $0.vector) }, through: reached)
      through = reached
      sent += page.count
    }
    meaningSent = now
    return true
  }

  /// Keeps how far the send under way is, and writes it for `limelight
  /// status` once a second: at once for a whole resend, whose size is
  /// known; after a second for any other (a save writes nothing more).
  private func tell(_ what: SharedStoreReport.Progress.What, sent: Int, of total: Int?) {
    report.progress = SharedStoreReport.Progress(what: what, sent: sent, of: total)
    let now = Date()
    let first = what == .entries && sent == 0 && total != nil
    guard
      first
        || now.timeIntervalSince(sendBegan) >= Self.progressEvery
          && now.timeIntervalSince(progressWritten) >= Self.progressEvery
    else { return }
    progressWritten = now
    progressShown = true
    report.write(store.location)
  }

  private func set(_ state: SharedStoreReport.State, message: String? = nil) {
    guard report.state != state || report.message != message else { return }
    if report.state != state { report.since = Date() }
    report.state = state
    report.message = message
    report.write(store.location)
  }
}
