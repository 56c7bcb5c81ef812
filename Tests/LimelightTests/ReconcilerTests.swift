import Foundation
import LimelightModel
import LimelightPlatform
import LimelightStore
import Testing

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
    var watched: [RawPath] = []
    var marked: [RawPath] = []
    var unwatched: [RawPath] = []
    var problems: [String] = []
    var entries = 0

    func emit(_ operation: IndexOperation) { operations.append(operation) }
    func flush() {}
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

  func reconcile(_ tree: MemoryTree, force: Bool = false) -> Recorder {
    var reconciler = Reconciler(
      store: store, rules: ExclusionRules(configuration: .defaults, alwaysExcluded: []),
      roots: [root])
    reconciler.files = tree
    let recorder = Recorder()
    reconciler.run(root, force: force, into: recorder)
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
        record.attributes.size = job.status.size
        _ = try writer.upsert(record)
      }
    }
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
    // Gone altogether: everything below goes, and is no longer watched.
    changed.unreadable = []
    for path in changed.nodes.keys where path.isInside(RawPath("/h/docs")) {
      changed.nodes[path] = nil
    }
    let gone = reconcile(changed)
    #expect(gone.removed.contains("/h/docs"))
    #expect(gone.removed.contains("/h/docs/a.txt"))
  }
}
