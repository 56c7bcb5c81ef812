import Foundation
import GRDB
import LimelightModel
import LimelightPlatform
import Testing

@testable import LimelightStore
@testable import LimelightWatch

/// Reconciling the index with the disk, taken alone: a tree made up in
/// memory, the index's own file states, and the operations it asks for.
@Suite struct ReconcilerTests {
  /// A tree in memory: statuses by path, and folders that cannot be listed.
  struct MemoryTree: FileTree {
    var nodes: [RawPath: FileStatus] = [:]
    var unreadable: Set<RawPath> = []
    var nextInode: UInt64 = 100

    mutating func add(_ path: String, folder: Bool = false, size: Int64 = 10, inode: UInt64? = nil)
    {
      nextInode += 1
      nodes[RawPath(path)] = FileStatus(
        kind: folder ? .directory : .regular, device: 1, inode: inode ?? nextInode,
        size: folder ? 4096 : size, modified: 1_000_000_000, changed: 1_000_000_000,
        created: nil, mode: folder ? 0o40755 : 0o100644)
    }

    func status(_ path: RawPath) -> FileStatus? { nodes[path] }

    func entries(of folder: RawPath) throws(SystemError) -> [RawPath] {
      if unreadable.contains(folder) { throw SystemError("cannot list", path: folder) }
      return nodes.keys.filter { $0 != folder && $0.parent == folder }.map(\.lastComponent)
        .sorted { $0.string < $1.string }
    }
  }

  /// What a reconciliation asked for.
  final class Recorder: ReconcileSink {
    var operations: [IndexOperation] = []
    /// The index each flush writes what was asked for since the last one
    /// to, as the watcher's batches do; none: nothing is written.
    var applying: IndexStore?
    private var written = 0
    var watched: [RawPath] = []
    var marked: [RawPath] = []
    var unwatched: [RawPath] = []
    var problems: [String] = []
    var entries = 0
    /// What the sink does between two folders (the watcher writes the
    /// user's changes there); whether it wrote any.
    var between: () -> Bool = { false }

    func emit(_ operation: IndexOperation) { operations.append(operation) }
    func betweenFolders() -> Bool { between() }
    func flush() {
      guard let applying else { return }
      let pending = operations[written...]
      written = operations.count
      try? applying.write { writer in
        for operation in pending {
          switch operation {
          case .importFile(let job):
            var record = Fixtures.record(job.path.string, text: nil)
            record.status = job.status
            record.attributes.size = job.status.keptSize
            _ = try writer.upsert(record)
          case .move(let old, let new): try writer.move(from: old, to: new, hidden: { _ in false })
          case .remove(let path): try writer.removeTree(path)
          default: break
          }
        }
      }
    }
    func watch(_ folder: RawPath) { watched.append(folder) }
    func watchMarked(_ folder: RawPath) { marked.append(folder) }
    func unwatchTree(_ folder: RawPath) { unwatched.append(folder) }
    func note(_ problem: String) { problems.append(problem) }
    func countEntry() { entries += 1 }

    /// The paths of each kind of operation, sorted.
    var imported: [String] { paths { if case .importFile(let job) = $0 { job.path } else { nil } } }
    var named: [String] {
      paths { if case .importFile(let job) = $0, job.nameOnly { job.path } else { nil } }
    }
    var removed: [String] { paths { if case .remove(let path) = $0 { path } else { nil } } }
    var updated: [String] { paths { if case .metadata(let path, _) = $0 { path } else { nil } } }
    var failed: [String] { paths { if case .failure(let path, _) = $0 { path } else { nil } } }
    var moves: [String] {
      operations.compactMap {
        if case .move(let from, let to) = $0 { "\(from.string) -> \(to.string)" } else { nil }
      }
    }

    func paths(_ pick: (IndexOperation) -> RawPath?) -> [String] {
      operations.compactMap(pick).map(\.string).sorted()
    }
  }

  let store: IndexStore
  let root = RawPath("/h")
  var tree = MemoryTree()

  init() throws {
    store = try Fixtures.newStore()
    tree.add("/h", folder: true)
    tree.add("/h/docs", folder: true)
    tree.add("/h/docs/a.txt")
    tree.add("/h/docs/b.txt")
    tree.add("/h/docs/d.txt")
    tree.add("/h/.cache", folder: true)
    tree.add("/h/.cache/x.txt")
    tree.add("/h/skip", folder: true)
    tree.add("/h/skip/.noindex", size: 0)
    tree.add("/h/skip/c.txt")
  }

  /// A tree the user changes while the walk goes on (through `Recorder.between`).
  final class ChangingTree: FileTree, @unchecked Sendable {
    var tree: MemoryTree
    /// The folders listed, in order.
    var listed: [RawPath] = []
    init(_ tree: MemoryTree) { self.tree = tree }
    func status(_ path: RawPath) -> FileStatus? { tree.status(path) }
    func entries(of folder: RawPath) throws(SystemError) -> [RawPath] {
      guard tree.status(folder) != nil else { throw SystemError("cannot list", path: folder) }
      listed.append(folder)
      return try tree.entries(of: folder)
    }
  }

  func reconcile(
    _ tree: any FileTree, force: Bool = false, applying: Bool = false,
    between: @escaping () -> Bool = { false }
  ) -> Recorder {
    var reconciler = Reconciler(
      store: store, rules: ExclusionRules(configuration: .defaults, alwaysExcluded: []),
      roots: [root])
    reconciler.files = tree
    let recorder = Recorder()
    recorder.between = between
    if applying { recorder.applying = store }
    reconciler.run(root, force: force, into: recorder)
    recorder.flush()
    return recorder
  }

  /// The index as the first crawl of `tree` leaves it (what it names, with
  /// the statuses it saw), as the batch writer would store it.
  func storeNamed(_ tree: MemoryTree) throws {
    let first = reconcile(tree)
    try store.write { writer in
      for operation in first.operations {
        guard case .importFile(let job) = operation else { continue }
        var record = Fixtures.record(job.path.string, text: nil)
        record.status = job.status
        record.attributes.size = job.status.keptSize
        _ = try writer.upsert(record)
      }
    }
  }

  /// The user's changes written between two folders of a walk: a file
  /// the walk found gone and the user made again meanwhile stays, and a
  /// folder gone before it was listed is no failure, and goes.
  @Test func theUsersChangesDuringAWalkAreKept() throws {
    var tree = tree
    // Listed after `/h/docs`: a look at the user's changes comes between.
    tree.add("/h/a", folder: true)
    try storeNamed(tree)
    let docs = RawPath("/h/docs")
    let changing = ChangingTree(tree)
    changing.tree.nodes[RawPath("/h/docs/d.txt")] = nil
    var madeAgain = false
    let walked = reconcile(changing) {
      // After `/h/docs` is listed (d.txt found gone), before the next folder.
      guard changing.listed.contains(docs), !madeAgain else { return false }
      changing.tree.add("/h/docs/d.txt", size: 5)
      madeAgain = true
      return true
    }
    #expect(madeAgain)
    #expect(!walked.removed.contains("/h/docs/d.txt"))
    // Without the user's change, d.txt goes.
    let unchanged = ChangingTree(tree)
    unchanged.tree.nodes[RawPath("/h/docs/d.txt")] = nil
    #expect(reconcile(unchanged).removed.contains("/h/docs/d.txt"))
    // `/h/docs` removed after `/h` was listed, before it is.
    let removing = ChangingTree(tree)
    let gone = reconcile(removing) {
      guard removing.listed == [RawPath("/h")] else { return false }
      for path in removing.tree.nodes.keys where path.isInside(docs) {
        removing.tree.nodes[path] = nil
      }
      return true
    }
    #expect(!removing.listed.contains(docs))
    #expect(gone.failed.isEmpty)
    #expect(gone.removed.contains("/h/docs"))
  }

  @Test func aFirstCrawlNamesEverythingItMayAndWatchesEveryFolder() {
    let crawl = reconcile(tree)
    // Hidden folders are left out, a marked folder's content too (the
    // folder is named when met, then taken out once its marker is seen).
    #expect(
      crawl.imported == [
        "/h", "/h/docs", "/h/docs/a.txt", "/h/docs/b.txt", "/h/docs/d.txt", "/h/skip",
      ])
    #expect(crawl.named == crawl.imported)
    #expect(crawl.removed == ["/h/skip"])
    #expect(Set(crawl.watched) == [RawPath("/h"), RawPath("/h/docs")])
    #expect(crawl.marked == [RawPath("/h/skip")])
    #expect(crawl.entries == 6)
    // Forced: read at once, not named for a second pass.
    #expect(reconcile(tree, force: true).named.isEmpty)
  }

  @Test func changesWhileNobodyWatchedAreFoundAndNothingElseIsTouched() throws {
    try storeNamed(tree)
    #expect(reconcile(tree).operations.allSatisfy { if case .remove = $0 { true } else { false } })
    var changed = tree
    // Written to; renamed (same inode, size and time); deleted; a new file.
    changed.add("/h/docs/a.txt", size: 99, inode: tree.nodes[RawPath("/h/docs/a.txt")]!.inode)
    changed.nodes[RawPath("/h/docs/b2.txt")] = changed.nodes.removeValue(
      forKey: RawPath("/h/docs/b.txt"))
    changed.nodes[RawPath("/h/docs/d.txt")] = nil
    changed.add("/h/docs/e.txt")
    // Permissions changed and nothing else: the status change time moves.
    changed.nodes[RawPath("/h/docs")]!.mode = 0o40700
    changed.nodes[RawPath("/h/docs")]!.changed += 1
    let found = reconcile(changed)
    #expect(found.updated == ["/h/docs"])
    #expect(found.moves == ["/h/docs/b.txt -> /h/docs/b2.txt"])
    #expect(found.imported == ["/h/docs/a.txt", "/h/docs/e.txt"])
    #expect(found.removed.filter { $0 != "/h/skip" } == ["/h/docs/d.txt"])
  }

  @Test func aNewFileOnAFreedInodeIsNoMoveAndAnUnreadableFolderKeepsItsItems() throws {
    try storeNamed(tree)
    var changed = tree
    // An atomic save freed d.txt's inode and a new file of another size got it.
    let inode = tree.nodes[RawPath("/h/docs/d.txt")]!.inode
    changed.nodes[RawPath("/h/docs/d.txt")] = nil
    changed.add("/h/docs/new.txt", size: 77, inode: inode)
    let saved = reconcile(changed)
    #expect(saved.moves.isEmpty)
    #expect(saved.imported == ["/h/docs/new.txt"])
    #expect(saved.removed.filter { $0 != "/h/skip" } == ["/h/docs/d.txt"])
    // A folder that cannot be listed now: a failure, and its items stay.
    changed.unreadable = [RawPath("/h/docs")]
    let unreadable = reconcile(changed)
    #expect(unreadable.failed == ["/h/docs"])
    #expect(unreadable.removed.filter { $0 != "/h/skip" }.isEmpty)
    // Gone altogether: the folder goes, with everything below it.
    changed.unreadable = []
    for path in changed.nodes.keys where path.isInside(RawPath("/h/docs")) {
      changed.nodes[path] = nil
    }
    let gone = reconcile(changed)
    #expect(gone.removed.filter { $0 != "/h/skip" } == ["/h/docs"])
  }

  /// A folder renamed and a file moved into another folder while nobody
  /// watched keep their items, found again under their new paths; what was
  /// deleted inside the renamed folder goes; a hard link beside a file that
  /// stays is a file of its own; names that sort between a folder and its
  /// items (`docs.txt`, `docs0`) are neither taken for them nor skipped.
  @Test func movesWhileNobodyWatchedAreFollowedFolderByFolder() throws {
    var before = tree
    before.add("/h/docs.txt")
    before.add("/h/docs0", folder: true)
    before.add("/h/docs0/e.txt")
    before.add("/h/docs/sub", folder: true)
    before.add("/h/docs/sub/f.txt")
    try storeNamed(before)
    // A restart with nothing changed asks for nothing but the marked folder's removal.
    #expect(
      reconcile(before).operations.allSatisfy { if case .remove = $0 { true } else { false } })
    var after = before
    for (path, status) in before.nodes
    where path.isInside(RawPath("/h/docs")) || path == RawPath("/h/docs") {
      after.nodes[path] = nil
      after.nodes[path.rebased(from: RawPath("/h/docs"), to: RawPath("/h/papers"))] = status
    }
    after.nodes[RawPath("/h/papers/b.txt")] = nil
    after.nodes[RawPath("/h/docs0/a2.txt")] = after.nodes.removeValue(
      forKey: RawPath("/h/papers/a.txt"))
    after.add("/h/docs0/link.txt", inode: before.nodes[RawPath("/h/docs0/e.txt")]!.inode)
    let found = reconcile(after, applying: true)
    #expect(found.moves == ["/h/docs -> /h/papers", "/h/papers/a.txt -> /h/docs0/a2.txt"])
    #expect(found.imported == ["/h/docs0/link.txt"])
    #expect(found.removed.filter { $0 != "/h/skip" } == ["/h/papers/b.txt"])
    // The index now is the disk: nothing more to do (but for the marked
    // folder, named when met and taken out once its marker is seen).
    let again = reconcile(after, applying: true)
    #expect(again.imported == ["/h/skip"] && again.removed == ["/h/skip"])
    #expect(again.operations.count == 2)
    let paths = try store.read { db in
      try Data.fetchAll(db, sql: "SELECT path FROM item ORDER BY path").map {
        String(decoding: $0, as: UTF8.self)
      }
    }
    #expect(
      paths
        == after.nodes.keys.map(\.string).filter { !$0.contains("/.") && !$0.contains("/skip") }
        .sorted())
  }

  /// A root taken out of the configuration takes its items along, and
  /// nothing of a root kept, nor of a folder whose name only begins like it.
  @Test func itemsOutsideEveryRootGo() throws {
    try store.write { writer in
      for path in ["/h", "/h/a.txt", "/h/docs/b.txt", "/hx/c.txt", "/old/d.txt", "/old"] {
        _ = try writer.upsert(Fixtures.record(path, text: nil))
      }
    }
    let removed = try store.write { writer in try writer.removeFiles(outside: [root]) }
    #expect(removed == 3)
    let left = try store.read { db in
      try Data.fetchAll(db, sql: "SELECT path FROM item ORDER BY path").map {
        String(decoding: $0, as: UTF8.self)
      }
    }
    #expect(left == ["/h", "/h/a.txt", "/h/docs/b.txt"])
  }
}
