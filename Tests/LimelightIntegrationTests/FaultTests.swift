import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Faults the watcher must come through without losing what it saw.
@Suite struct FaultTests {
  /// Whether this process may mount a file system (root, and a kernel and
  /// container that allow it): the full-disk test needs one of its own.
  static let canMount: Bool = {
    guard geteuid() == 0 else { return false }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "limelight-mount-\(getpid())"
    ).path
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", folder]) == 0 else {
      return false
    }
    return run("/bin/umount", [folder]) == 0
  }()

  @discardableResult
  static func run(_ program: String, _ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// The index on a small file system that fills up: the watcher keeps
  /// what it cannot write, says so, and writes it all once there is room.
  /// The files come while it watches, or are there before it starts: then
  /// the first pass fills the disk with the batches it writes while it
  /// walks on.
  @Test(
    .enabled(
      if: FaultTests.canMount, "mounting a small file system for the index needs root"),
    arguments: [false, true])
  func whatAFullDiskHeldBackIsWrittenOnceThereIsRoom(filesFirst: Bool) throws {
    let instance = try Instance()
    let data = instance.base + "/xdg/data"
    #expect(Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1536k", "tmpfs", data]) == 0)
    defer {
      _ = instance.stopWatcher()
      Self.run("/bin/umount", ["-l", data])
    }
    try instance.write("first.txt", "aardvark")
    if !filesFirst { try instance.startWatcher() }
    for i in 0..<3_000 {
      try instance.write(
        "many/note \(i).txt", "kiwi\(i) " + String(repeating: "pohutukawa ", count: 20))
    }
    if filesFirst { try instance.startWatcher(waitingForCrawl: false) }
    try instance.waitFor("the status to say the index cannot be written", seconds: 60) {
      try instance.run("limelight", ["status"]).stdout.contains(
        "the index cannot be written: no space left on the device holding it (")
    }
    let status = try instance.run("limelight", ["status", "--json"])
    #expect(status.stdout.contains("\"contentDone\":false"), "\(status)")
    #expect(Self.run("/bin/mount", ["-o", "remount,size=256m", data]) == 0)
    try instance.waitFor("everything written", seconds: 60) {
      let status = try instance.run("limelight", ["status", "--json"]).stdout
      let found = try instance.findPaths("kiwi2999")
      let matches = try instance.indexMatchesDisk()
      return status.contains("\"contentDone\":true") && !status.contains("writeBlocked")
        && matches && found == ["many/note 2999.txt"]
    }
    #expect(try instance.findPaths("kiwi2999") == ["many/note 2999.txt"])
    #expect(try instance.findPaths("kiwi0") == ["many/note 0.txt"])
    #expect(try !instance.run("limelight", ["status"]).stdout.contains("cannot be written"))
    try instance.expectIndexMatchesDisk()
  }

  /// An index a version too old to upgrade from made: the watcher builds a
  /// new one from the disk and says why; a query meanwhile says what to do.
  @Test func anIndexTooOldToUpgradeIsBuiltAgain() throws {
    let instance = try Instance()
    try instance.write("notes/narwhal.txt", "narwhal tusk\n")
    try instance.indexOnce()
    let index = instance.base + "/xdg/data/limelight/index.sqlite"
    // As the first version left its list of migrations.
    let mark = """
      import sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      db.execute("DELETE FROM grdb_migrations")
      db.execute("INSERT INTO grdb_migrations VALUES ('v1')")
      db.commit()
      """
    #expect(try instance.run("/usr/bin/python3", ["-c", mark, index]).status == 0)
    let query = try instance.run("find-in", ["narwhal"])
    #expect(query.status != 0 && query.stderr.contains("too old to upgrade from"), "\(query)")
    try instance.startWatcher()
    try instance.waitFor("a new index", seconds: 60) {
      try instance.findPaths("narwhal") == ["notes/narwhal.txt"]
    }
    let status = try instance.run("limelight", ["status"]).stdout
    #expect(status.contains("rebuilt:") && status.contains("too old to upgrade from"), "\(status)")
    #expect(!FileManager.default.fileExists(atPath: index + ".damaged"))
    #expect(instance.stopWatcher() == 0)
  }

  /// Garbage in the middle of the index, and then in its header, while the
  /// watcher is stopped: each time the watcher finds it at start, sets the
  /// damaged file aside, builds a new index from the disk, and says so.
  @Test func aDamagedIndexIsSetAsideAndBuiltAgain() throws {
    let instance = try Instance()
    for i in 0..<2_000 {
      try instance.write("notes/walrus \(i).txt", "walrus\(i) tusks and ivory \(i)")
    }
    try instance.startWatcher()
    try instance.waitFor("the notes read") {
      try instance.findPaths("walrus1999") == ["notes/walrus 1999.txt"]
    }
    #expect(instance.stopWatcher() == 0)
    let index = instance.base + "/xdg/data/limelight/index.sqlite"
    let aside = index + ".damaged"
    for (offset, damage) in [("the middle", -1), ("the header", 0)] {
      let size = (try FileManager.default.attributesOfItem(atPath: index)[.size] as? Int) ?? 0
      let handle = try #require(FileHandle(forWritingAtPath: index))
      try handle.seek(toOffset: UInt64(damage < 0 ? size / 2 : damage))
      var garbage = SystemRandomNumberGenerator()
      try handle.write(
        contentsOf: Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &garbage) }))
      try handle.close()
      try? FileManager.default.removeItem(atPath: aside)
      try instance.startWatcher()
      try instance.waitFor("a new index after damage in \(offset)", seconds: 60) {
        let found = try instance.findPaths("walrus1999")
        let status = try instance.run("limelight", ["status"]).stdout
        return found == ["notes/walrus 1999.txt"] && status.contains("rebuilt:")
          && FileManager.default.fileExists(atPath: aside)
      }
      try instance.expectIndexMatchesDisk()
      #expect(instance.stopWatcher() == 0)
    }
  }
}
