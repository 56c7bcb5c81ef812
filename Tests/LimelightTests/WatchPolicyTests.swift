import Foundation
import LimelightModel
import LimelightPlatform
import LimelightQuery
import LimelightStore
import Testing

@testable import LimelightWatch

/// The watcher's policies, each taken alone: settling, move pairing, the
/// second pass's slices.
@Suite struct WatchPolicyTests {
  @Test func aChangeWaitsUntilItsFileIsQuietButNotForever() {
    var settling = Settling(settleSeconds: 0.5)
    let file = RawPath("/h/notes.txt")
    settling.schedule(file, delay: 0.5, now: 0)
    // Written again and again: pushed back each time, but read after ten
    // settle periods (at least 5 s).
    for t in stride(from: 0.25, through: 4.75, by: 0.25) {
      settling.schedule(file, delay: 0.5, now: t)
      #expect(settling.takeReady(now: t).isEmpty)
    }
    #expect(settling.nextDeadline == 5)
    #expect(settling.takeReady(now: 5) == [file: false])
    // Closed by its writer: read after the short delay, forced when asked.
    settling.schedule(file, delay: 0.02, now: 10, settled: true, force: true)
    #expect(settling.takeReady(now: 10.02) == [file: true])
    #expect(settling.count == 0)
  }

  @Test func aBurstIsTakenEveryQuarterSecondAndAChangeAloneAtOnce() {
    var pacing = BurstPacing()
    // A change now and then: never held.
    for t in stride(from: 0.0, through: 10, by: 0.5) {
      pacing.arrived(now: t)
      #expect(pacing.heldUntil(now: t) == nil)
      pacing.took(now: t)
    }
    // A program writing 1,000 files a second, each taken as soon as it may
    // be: once the rate shows, a take waits for the one before to be a
    // quarter of a second old, never longer.
    var takes: [Double] = []
    for step in 0..<3_000 {
      let now = 20 + Double(step) * 0.001
      pacing.arrived(now: now)
      if let held = pacing.heldUntil(now: now) {
        #expect(held <= now + BurstPacing.spacing)
        continue
      }
      pacing.took(now: now)
      takes.append(now)
    }
    // A few dozen takes while the rate shows, then four a second.
    #expect(takes.count < 50)
    let gaps = zip(takes.dropFirst(), takes).map { $0 - $1 }
    #expect(gaps.suffix(8).allSatisfy { abs($0 - BurstPacing.spacing) < 0.002 })
    // The burst over: the next change alone is taken at once.
    pacing.arrived(now: 30)
    #expect(pacing.heldUntil(now: 30) == nil)
  }

  @Test func aBurstWrittenKeepsTheMeaningPassWaitingAWhile() {
    let activity = WatcherActivity()
    #expect(!activity.isBusy(within: 2))
    activity.wrote(1)
    #expect(!activity.isBusy(within: 2))
    activity.wrote(WatcherActivity.burstOperations)
    #expect(activity.isBusy(within: 2))
    #expect(!activity.isBusy(within: 0))
  }

  @Test func segmentsAreMergedASecondAfterAWriteAndOnWhileAStepMerges() {
    var tidying = SegmentTidying()
    #expect(tidying.due == nil)
    tidying.wrote(now: 10)
    // Writes that go on do not put the step off: once a second at most.
    tidying.wrote(now: 10.6)
    #expect(tidying.due == 10 + SegmentTidying.delay)
    tidying.stepped(more: true, now: 11)
    #expect(tidying.due == 11 + SegmentTidying.between)
    tidying.stepped(more: false, now: 11.1)
    #expect(tidying.due == nil)
    // Due while writes fail: put off, not asked again at once.
    tidying.wrote(now: 12)
    tidying.putOff(now: 13)
    #expect(tidying.due == 13 + SegmentTidying.delay)
    tidying.stepped(more: false, now: 14)
    tidying.wrote(now: 20)
    #expect(tidying.due == 20 + SegmentTidying.delay)
  }

  @Test func expiredApplicationItemsGoOnTheWatchersTimer() throws {
    let store = try Fixtures.newStore()
    let wall = Date().timeIntervalSince1970
    try store.write { writer in
      for (id, expires) in [("gone", wall - 5), ("soon", wall + 10), ("later", wall + 7_200)] {
        try writer.upsert(
          applicationItem: IndexItem(
            id: id, domain: "org.example", uri: "x://\(id)",
            attributes: AttributeSet(displayName: id),
            expirationDate: Date(timeIntervalSince1970: expires)))
      }
    }
    func count() throws -> Int { try store.itemStates(inDomain: "org.example").count }
    var purge = ExpiryPurge()
    // The first look purges what expired already (a one-off run ends with
    // it), finds the next expiration and sets the timer for it.
    #expect(try count() == 3)
    #expect(purge.runIfDue(store: store, now: 100, wallNow: wall) == nil)
    #expect(purge.deadline(now: 100, wallNow: wall) == 110)
    #expect(purge.runIfDue(store: store, now: 105, wallNow: wall + 5) == nil)
    #expect(try count() == 2)
    #expect(purge.runIfDue(store: store, now: 110, wallNow: wall + 10) == nil)
    #expect(try count() == 1)
    // The next is two hours away: the hourly look comes first.
    #expect(purge.deadline(now: 110, wallNow: wall + 10) == 110 + ExpiryPurge.lookSeconds)
    purge.lookSoon()
    #expect(purge.deadline(now: 111, wallNow: wall + 11) == 0)
  }

  @Test func changesFollowAMovedFolderAndGoWithARemovedOne() {
    var settling = Settling(settleSeconds: 1)
    settling.schedule(RawPath("/h/a/x.txt"), delay: 1, now: 0)
    settling.schedule(RawPath("/h/ab/y.txt"), delay: 1, now: 0)
    settling.rebase(from: RawPath("/h/a"), to: RawPath("/h/b"))
    #expect(Set(settling.due.keys) == [RawPath("/h/b/x.txt"), RawPath("/h/ab/y.txt")])
    settling.forget(inside: RawPath("/h/ab"))
    #expect(Array(settling.due.keys) == [RawPath("/h/b/x.txt")])
  }

  @Test func renamesArePairedByCookieAndALoneHalfIsARemoval() {
    var moves = MovePairing()
    moves.departed(RawPath("/h/a.txt"), cookie: 7, isFolder: false, now: 0)
    moves.departed(RawPath("/h/gone"), cookie: 8, isFolder: true, now: 0)
    #expect(moves.arrived(cookie: 7)?.path == RawPath("/h/a.txt"))
    #expect(moves.arrived(cookie: 7) == nil)
    #expect(moves.takeExpired(now: 0.01).isEmpty)
    let alone = moves.takeExpired(now: MovePairing.patience)
    #expect(alone.map(\.path) == [RawPath("/h/gone")] && alone[0].isFolder)
    #expect(moves.count == 0 && moves.nextDeadline == nil)
  }

  @Test func aSliceStopsReadingOnceItHoldsItsTextBudget() throws {
    let folder = RawPath(Fixtures.newFolder())
    try FileManager.default.createDirectory(
      atPath: folder.string, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder.string) }
    let line = String(repeating: "budget words again ", count: 50) + "\n"
    let jobs = try (0..<6).map { index -> ImportJob in
      let path = folder.appending("note \(index).txt")
      try String(repeating: line, count: 100).write(
        toFile: path.string, atomically: false, encoding: .utf8)
      return ImportJob(path: path, status: try #require(FileSystem.status(path)), hidden: false)
    }
    let extractor = Extractor(
      mime: MIMEDatabase(), maxTextBytes: 1 << 20, workers: 1, texts: TextPacker())
    // About 95 KB of text each: the third file would pass 150 KB.
    let records = extractor.extract(jobs, textBudget: 150_000)
    #expect(records.map(\.path) == Array(jobs.prefix(2).map(\.path)))
    #expect(records.allSatisfy { $0.indexedText?.content.contains("budget words") == true })
    // What was read is kept once, folded for the index: the text as read is let go.
    #expect(records.allSatisfy { $0.attributes.textContent == nil })
    #expect(extractor.extract(jobs).count == jobs.count)
  }

  /// The second pass reads the newest files first and hands each slice to
  /// the writer in the order of the files' rows; a file gone since its name
  /// was written is handed over as missing, and nothing is read twice. The
  /// texts are large enough that a slice holds its text budget
  /// (``ContentPass/sliceTextBytes``) before its end: sorted by row before
  /// it was read, a slice read the oldest files and the newest waited.
  @Test func theSecondPassReadsNewestFirstAndHandsSlicesOverInTheOrderOfRows() throws {
    let store = try Fixtures.newStore()
    let folder = Fixtures.newFolder()
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    // Named oldest first, so that rows and age run opposite ways.
    let count = 24
    var paths: [String] = []
    try store.write { writer in
      for index in 0..<count {
        let path = folder + "/note \(index).txt"
        let text = "word\(index) harbour " + String(repeating: "quay wall \(index) ", count: 25_000)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        var named = Fixtures.record(path, text: nil, pending: true)
        named.attributes.modified = Date(timeIntervalSince1970: Double(1_000 + index))
        try writer.upsert(named)
        paths.append(path)
      }
    }
    try FileManager.default.removeItem(atPath: paths[count - 2])
    let rows = Dictionary(
      uniqueKeysWithValues: try store.filesWaitingForContent(limit: count).map {
        ($0.path, $0.rowID)
      })
    let pass = ContentPass(
      store: store,
      makeExtractor: {
        Extractor(mime: Fixtures.mime, maxTextBytes: 1 << 20, workers: 2, texts: store.texts)
      },
      isHidden: { _ in false })
    var handed: [[RawPath]] = []
    var missing: [RawPath] = []
    var steps = 0
    while !pass.isFinished && steps < 2000 {
      steps += 1
      // Nil while the slice is still being read.
      guard let outcome = pass.step(now: monotonicNow()) else {
        Thread.sleep(forTimeInterval: ContentPass.readingCheck)
        continue
      }
      handed.append(outcome.records.map(\.path))
      missing += outcome.missing
      try store.write { writer in
        for record in outcome.records { try writer.upsert(record) }
        for path in outcome.missing { _ = try writer.removeTree(path) }
      }
    }
    #expect(pass.isFinished)
    #expect(handed.count > 1)
    #expect(missing == [RawPath(paths[count - 2])])
    let read = handed.joined()
    #expect(read.count == count - 1)
    #expect(Set(read).count == read.count)
    // The newest file still there comes in the first slice.
    #expect(handed.first?.contains(RawPath(paths[count - 1])) == true)
    for slice in handed {
      let order = slice.map { rows[$0] ?? -1 }
      #expect(order == order.sorted())
    }
    #expect(try store.filesWaitingForContentCount() == 0)
  }

  /// A file the user saves, deletes, renames or changes the mode of while
  /// the second pass reads it: the watcher writes it first, and what the
  /// pass read (older) is not written over it, nor the deleted or renamed
  /// file put back at its old path; the others are read again.
  @Test func whatTheSecondPassReadIsNotWrittenOverANewerChange() throws {
    let store = try Fixtures.newStore()
    let paths = try Self.namedFiles(6, "note", holding: "stalewords", in: store)
    let pass = ContentPass(
      store: store,
      makeExtractor: {
        Extractor(mime: Fixtures.mime, maxTextBytes: 1 << 20, workers: 2, texts: store.texts)
      },
      isHidden: { _ in false })
    // The first step starts reading; the files are read meanwhile.
    #expect(pass.step(now: monotonicNow()) == nil)
    Thread.sleep(forTimeInterval: 1)
    // Meanwhile the user saved one, deleted another and changed the mode of
    // a third: the watcher wrote all three.
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: paths[2])
    let changed = try #require(FileSystem.status(RawPath(paths[2])))
    try store.write { writer in
      try writer.upsert(Fixtures.record(paths[0], text: "freshwords"))
      _ = try writer.removeTree(RawPath(paths[1]))
      try writer.updateMetadata(path: RawPath(paths[2]), status: changed, keywords: [])
    }
    // …and renamed a fourth.
    let moved = (paths[3] as NSString).deletingLastPathComponent + "/moved 3.txt"
    try FileManager.default.moveItem(atPath: paths[3], toPath: moved)
    try store.write { writer in
      try writer.move(from: RawPath(paths[3]), to: RawPath(moved), hidden: { _ in false })
    }
    var steps = 0
    var first = true
    while !pass.isFinished && steps < 2000 {
      steps += 1
      // Nil while the slice is still being read.
      guard let outcome = pass.step(now: monotonicNow()) else {
        Thread.sleep(forTimeInterval: ContentPass.readingCheck)
        continue
      }
      // Read before the change: left waiting, and read again.
      if first { #expect(!outcome.records.map(\.path).contains(RawPath(paths[2]))) }
      first = false
      try store.write { writer in
        for record in outcome.records { try writer.upsert(record) }
        for path in outcome.missing { _ = try writer.removeTree(path) }
      }
    }
    let engine = SearchEngine(store: store)
    let stale = try engine.search(.text("stalewords", prefix: false, column: nil))
    #expect(
      Set(stale.map(\.displayName))
        == ["note 2.txt", "moved 3.txt", "note 4.txt", "note 5.txt"])
    let fresh = try engine.search(.text("freshwords", prefix: false, column: nil))
    #expect(fresh.map(\.displayName) == ["note 0.txt"])
    #expect(try store.filesWaitingForContentCount() == 0)
  }
  /// A slice of the second pass gives way to the user's changes after its
  /// first operations: what it wrote commits, and its rest, written after
  /// them, leaves out a file the user saved meanwhile.
  @Test func aSliceGivesWayAndItsRestLeavesOutWhatTheUserWrote() throws {
    let store = try Fixtures.newStore()
    let paths = try Self.namedFiles(4, "page", holding: "slicewords", in: store)
    let extractor = Extractor(
      mime: Fixtures.mime, maxTextBytes: 1 << 20, workers: 2, texts: store.texts)
    let pass = ContentPass(store: store, makeExtractor: { extractor }, isHidden: { _ in false })
    var outcome: ContentPass.Outcome?
    for _ in 0..<100 where outcome == nil {
      outcome = pass.step(now: monotonicNow())
      if outcome == nil { Thread.sleep(forTimeInterval: 0.05) }
    }
    let slice = try #require(outcome)
    #expect(slice.records.count == 4)
    let writer = BatchWriter(store: store, extractor: extractor, thumbnails: nil) { _ in false }
    var asked = 0
    let afterTwo = {
      asked += 1
      return asked >= 2
    }
    let written = try writer.write(slice.operations, givingWay: afterTwo) { _ in }
    #expect(written.count == 2)
    let engine = SearchEngine(store: store)
    func found(_ word: String) throws -> Set<String> {
      Set(try engine.search(.text(word, prefix: false, column: nil)).map(\.displayName))
    }
    #expect(try found("slicewords") == ["page 0.txt", "page 1.txt"])
    // The user saves the fourth page before the rest is written.
    try store.write { try $0.upsert(Fixtures.record(paths[3], text: "userwords")) }
    let rest = pass.current(
      ContentPass.Outcome(
        records: Array(slice.records.dropFirst(2)), missing: [], files: slice.files))
    #expect(rest.records.map(\.path) == [RawPath(paths[2])])
    _ = try writer.write(rest.operations, givingWay: nil) { _ in }
    #expect(try found("slicewords") == ["page 0.txt", "page 1.txt", "page 2.txt"])
    #expect(try found("userwords") == ["page 3.txt"])
  }

  /// `count` text files in a new folder, `name 0.txt` and on, each holding
  /// `word` and its number, in the index by name alone (as the first pass
  /// leaves them for the second).
  static func namedFiles(_ count: Int, _ name: String, holding word: String, in store: IndexStore)
    throws -> [String]
  {
    let folder = Fixtures.newFolder()
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var paths: [String] = []
    try store.write { writer in
      for index in 0..<count {
        let path = folder + "/\(name) \(index).txt"
        try "\(word) number\(index)".write(toFile: path, atomically: false, encoding: .utf8)
        try writer.upsert(Fixtures.record(path, text: nil, pending: true))
        paths.append(path)
      }
    }
    return paths
  }
}
