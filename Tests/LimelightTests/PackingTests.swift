import Foundation
import GRDB
import LimelightPlatform
import Synchronization
import Testing

@testable import LimelightModel
@testable import LimelightQuery
@testable import LimelightStore
@testable import LimelightWatch

/// Tidying the index after a large pass, a step at a time between the
/// user's changes: segments merged, free pages given back, and a rewrite
/// that gives way and leaves the index as it was.
@Suite struct PackingTests {
  let store: IndexStore

  init() throws { store = try Fixtures.newStore() }

  /// `count` notes, each written in a commit of its own (a segment each).
  func writeNotes(_ count: Int, words: Int = 200) throws {
    for i in 0..<count {
      let text = (0..<words).map { "w\(($0 * 7919 + i * 31) % 5003)" }.joined(separator: " ")
      try store.write { writer in
        try writer.upsert(Fixtures.record("/d/note \(i).txt", text: "harbour log \(i) \(text)"))
      }
    }
  }

  func names(_ words: String) throws -> [String] {
    try SearchEngine(store: store).search(.text(words, prefix: false, column: nil), limit: nil)
      .map(\.displayName).sorted()
  }

  func pragma(_ name: String) throws -> Int {
    try store.read { db in try Int.fetchOne(db, sql: "PRAGMA \(name)") ?? -1 }
  }

  func expectWholeIndexes(_ step: String) throws { try store.expectWholeIndexes(step) }

  @Test func mergingInStepsEndsWithOneSegmentAndTheSameAnswers() throws {
    try writeNotes(60)
    let before = try names("harbour")
    #expect(before.count == 60)
    // Sixty commits left segments to merge: the first step finds work.
    var steps = 0
    var more = try store.mergeStep(first: true)
    #expect(more)
    while more {
      steps += 1
      try #require(steps < 10_000)
      more = try store.mergeStep(first: false)
    }
    // Merged into one segment each: a merge started afresh finds nothing.
    #expect(try !store.mergeStep(first: true))
    #expect(try names("harbour") == before)
    try expectWholeIndexes("merging")
  }

  /// The segments of each full-text index, as its `_idx` table lists them.
  func segments() throws -> [String: Int] {
    try store.read { db in
      var counts: [String: Int] = [:]
      for table in ["item_name", "item_text"] {
        counts[table] = try Int.fetchOne(
          db, sql: "SELECT count(DISTINCT segid) FROM \(table)_idx")
      }
      return counts
    }
  }

  /// What the second pass does after each slice (``Watcher/tidySegments()``):
  /// a step that merges only a crowded level keeps the segments each commit
  /// adds few, where FTS5's own merging lets them pile up, and changes no answer.
  @Test func aStepAfterEachCommitKeepsTheSegmentsFew() throws {
    try writeNotes(40)
    let piled = try segments()
    #expect(piled.values.allSatisfy { $0 >= 12 }, "\(piled)")
    for i in 40..<80 {
      try store.write { writer in
        try writer.upsert(Fixtures.record("/d/note \(i).txt", text: "harbour log \(i)"))
      }
      _ = try store.mergeStep(first: false)
      let kept = try segments()
      #expect(kept.values.allSatisfy { $0 <= 8 }, "after note \(i): \(kept)")
    }
    // The watcher steps on while a step merges: the steps end, and a step
    // with nothing left to merge says so (the watcher is idle then).
    var steps = 0
    while try store.mergeStep(first: false) {
      steps += 1
      try #require(steps < 1_000)
    }
    #expect(try !store.mergeStep(first: false))
    #expect(try names("harbour").count == 80)
    try expectWholeIndexes("merging between commits")
  }

  /// A transaction writes each full-text index's words as one segment, as
  /// the two passes write files: their names first, then their texts in
  /// place of what the names left. A statement that opens a statement
  /// journal makes FTS5 write what it gathered so far as a segment of its
  /// own (a `REPLACE` into a table with an index did, for every file of
  /// the content pass).
  @Test func aTransactionWritesOneSegmentAnIndex() throws {
    let paths = (0..<40).map { "/d/note \($0).txt" }
    try store.write { writer in
      for path in paths { try writer.upsert(Fixtures.record(path, text: nil, pending: true)) }
    }
    #expect(try segments() == ["item_name": 1, "item_text": 1])
    try store.write { writer in
      for (number, path) in paths.enumerated() {
        try writer.upsert(Fixtures.record(path, text: "harbour log \(number) of the fleet"))
      }
    }
    #expect(try segments() == ["item_name": 1, "item_text": 2])
    #expect(try names("harbour").count == 40)
    try expectWholeIndexes("two passes")
  }

  @Test func aNewIndexGivesItsFreePagesBackInSteps() throws {
    #expect(try pragma("auto_vacuum") == 2)
    try writeNotes(200, words: 800)
    try store.write { writer in try writer.removeTree(RawPath("/d")) }
    _ = try store.mergeStep(first: true)
    let free = try pragma("freelist_count")
    let pages = try pragma("page_count")
    #expect(free > 20)
    var steps = 0
    while try store.releaseFreePages(atMost: 10) {
      steps += 1
      try #require(steps < 10_000)
    }
    #expect(steps >= free / 10 - 1)
    #expect(try pragma("freelist_count") == 0)
    #expect(try pragma("page_count") <= pages - free)
    try expectWholeIndexes("giving pages back")
  }

  /// Asking a new index to give its pages back in steps must not make
  /// every later opening take the write lock: `limelight status` and the
  /// commands that write opened the index only when the watcher's
  /// transaction ended, and failed as "locked" after 10 s.
  @Test func anIndexOpensWhileAnotherConnectionWrites() throws {
    var held = Configuration()
    held.allowsUnsafeTransactions = true
    let other = try DatabaseQueue(path: store.location.databasePath.string, configuration: held)
    try other.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
    defer { try? other.inDatabase { db in try db.execute(sql: "ROLLBACK") } }
    let opened = try IndexStore.open(store.location, create: false)
    #expect(try opened.status(watcherPID: nil).items == 0)
    #expect(try pragma("auto_vacuum") == 2)
  }

  @Test func packingGivesWayUndoneAndPacksWhenLeftAlone() throws {
    // As the watcher does: the packed file's pages copied back beside it.
    store.checkpointAside()
    store.prepareForWrites(.idle)
    try writeNotes(150, words: 400)
    let before = try names("harbour")
    let pages = try pragma("page_count")
    let asked = Atomic<Int>(0)
    // Asked often: a test's index is small.
    let packed = try store.pack(
      givingWay: {
        asked.add(1, ordering: .relaxed)
        return true
      }, askingEvery: 100)
    #expect(!packed)
    #expect(asked.load(ordering: .relaxed) == 1)
    // Given way: the index as it was, and still written to.
    #expect(try pragma("page_count") == pages)
    #expect(try names("harbour") == before)
    try store.write { writer in
      try writer.upsert(Fixtures.record("/d/after.txt", text: "harbour after the pack"))
    }
    try expectWholeIndexes("a pack that gave way")
    #expect(try store.pack(givingWay: { false }))
    #expect(try pragma("auto_vacuum") == 2)
    try store.write { writer in
      try writer.upsert(Fixtures.record("/d/later.txt", text: "harbour later on"))
    }
    #expect(try names("harbour") == (before + ["after.txt", "later.txt"]).sorted())
    try expectWholeIndexes("a pack")
  }

  @Test func tidyingLeftUndoneIsKeptForTheNextWatcher() throws {
    #expect(try store.tidyingWanted() == (false, false))
    try store.noteTidying(merge: true, pack: true)
    let reopened = try IndexStore.open(store.location, create: false)
    #expect(try reopened.tidyingWanted() == (true, true))
    try reopened.noteTidying(merge: false, pack: true)
    #expect(try store.tidyingWanted() == (false, true))
    try store.noteTidying(merge: false, pack: false)
    #expect(try store.tidyingWanted() == (false, false))
  }

  @Test func theLogIsCopiedBackBesideTheWriter() throws {
    store.checkpointAside()
    store.prepareForWrites(.idle)
    let checkpointer = try #require(store.checkpointer.withLock { $0 })
    // The copy going idle asked for, out of the way.
    var deadline = Date().addingTimeInterval(10)
    while checkpointer.runs.load(ordering: .relaxed) == 0 && Date() < deadline { usleep(10_000) }
    let before = checkpointer.runs.load(ordering: .relaxed)
    // A test's commits are small: the copy is woken past 16 pages.
    checkpointer.threshold.store(16 * 20, ordering: .relaxed)
    let wal = store.location.databasePath.string + "-wal"
    func logBytes() -> Int64 { FileSystem.status(RawPath(wal))?.size ?? 0 }
    var largest: Int64 = 0
    for round in 0..<30 {
      try writeNotes(1, words: 30_000)
      try store.write { writer in
        try writer.upsert(Fixtures.record("/d/r\(round).txt", text: "round \(round)"))
      }
      largest = max(largest, logBytes())
      usleep(20_000)
    }
    deadline = Date().addingTimeInterval(10)
    while checkpointer.runs.load(ordering: .relaxed) == before && Date() < deadline {
      usleep(10_000)
    }
    // Woken by the writer's commits, not by a call.
    #expect(checkpointer.runs.load(ordering: .relaxed) > before)
    // Copied back and started over: the log never held every commit
    // (4 MB when nothing copies it), nor much more than its 1.3 MB limit.
    #expect(largest < 2 << 20)
    #expect(try names("round").count == 30)
    // SQLite's own copy stays off: the writer's hook is this one.
    store.prepareForWrites(.content)
    #expect(checkpointer.threshold.load(ordering: .relaxed) == 16384)
    try expectWholeIndexes("copies beside the writer")
  }

  @Test func packingWaitsForAQuietThatGrowsEachTimeItGaveWay() {
    var schedule = PackingSchedule()
    #expect(schedule.due(lastChange: 0) == nil)
    // Counted from when it was wanted, or from the last change after that.
    schedule.want(now: 1000)
    #expect(schedule.due(lastChange: 10) == 1000 + PackingSchedule.firstQuiet)
    #expect(schedule.due(lastChange: 1200) == 1200 + PackingSchedule.firstQuiet)
    schedule.noteGaveWay()
    schedule.noteGaveWay()
    #expect(schedule.due(lastChange: 1200) == 1200 + 4 * PackingSchedule.firstQuiet)
    for _ in 0..<20 { schedule.noteGaveWay() }
    #expect(schedule.quietNeeded == PackingSchedule.longestQuiet)
    schedule.done()
    #expect(schedule.due(lastChange: 1200) == nil)
    // Wanted again after another large pass: the first quiet again.
    schedule.want(now: 5000)
    #expect(schedule.due(lastChange: 0) == 5000 + PackingSchedule.firstQuiet)
  }

  @Test func somethingWaitingIsSeenFromAnotherThread() throws {
    let (read, write) = FileSystem.wakePipe()
    defer {
      close(read)
      close(write)
    }
    let waits = PackingSchedule.somethingWaits(on: [read])
    #expect(!waits())
    _ = Glibc.write(write, "x", 1)
    let seen = Mutex<Bool?>(nil)
    let thread = Thread { seen.withLock { $0 = waits() } }
    thread.start()
    while seen.withLock({ $0 }) == nil { usleep(1000) }
    #expect(seen.withLock { $0 } == true)
  }
}
