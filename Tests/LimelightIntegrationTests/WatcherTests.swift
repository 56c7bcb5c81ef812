import CLinux
import Foundation
import LimelightImport
import LimelightModel
import LimelightPlatform
import LimelightStore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The watcher following changes with inotify, as a user sees them through `find-in`.
@Suite struct WatcherTests {
  /// After a one-off run, status says meaning search is off when it
  /// would be (no model beside the programs, or limelight.conf), not that
  /// a watcher would embed the documents.
  @Test func aOneOffRunSaysWhyMeaningSearchIsOff() throws {
    let instance = try Instance()
    try instance.write("Documents/letter.txt", "Dear neighbour, the fence is to be painted.\n")
    // The watcher's program alone, in a folder with no model beside it.
    let folder = instance.base + "/bare"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let bare = folder + "/limelightd"
    try FileManager.default.copyItem(atPath: Instance.binDirectory + "/limelightd", toPath: bare)
    // A process another test starts while the copy is written inherits it
    // open for writing until it runs its own program: the copy cannot be
    // run meanwhile ("Text file busy"), and is tried again.
    var once: CommandResult?
    for _ in 0..<100 where once == nil {
      do {
        once = try instance.run(bare, ["--once", "--quiet"])
      } catch let error as NSError
        where (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ETXTBSY)
      {
        usleep(50_000)
      }
    }
    let result = try #require(once, "the copy stayed busy")
    #expect(result.status == 0, "\(result.stderr)")
    let status = try instance.run("limelight", ["status"]).stdout
    #expect(
      status.contains(
        "meaning:    off (no model installed; scripts/install-meaning puts one in \(folder)/limelight-meaning) when the watcher last ran"
      ), "\(status)")
    try instance.config("meaning = no\n")
    try instance.indexOnce()
    let off = try instance.run("limelight", ["status"]).stdout
    #expect(
      off.contains("meaning:    off (limelight.conf says meaning = no) when the watcher last ran"),
      "\(off)")
  }

  @Test func createModifyRenameMoveDelete() throws {
    let instance = try Instance()
    try instance.mkdir("inbox")
    try instance.mkdir("archive/2025")
    try instance.startWatcher()

    // Create, then find.
    try instance.write("inbox/memo.txt", "albatross sighting\n")
    try instance.waitForPaths(["albatross"], ["inbox/memo.txt"])
    let id = try itemID(instance, "albatross")

    // Modify: the new text is found and the old is not.
    try instance.write("inbox/memo.txt", "cormorant sighting\n")
    try instance.waitForPaths(["cormorant"], ["inbox/memo.txt"])
    try instance.waitForPaths(["albatross"], [])

    // Rename in place keeps the id and the text.
    try instance.move("inbox/memo.txt", "inbox/sightings.txt")
    try instance.waitForPaths(["sightings"], ["inbox/sightings.txt"])
    #expect(try instance.findPaths("memo").isEmpty)
    #expect(try itemID(instance, "cormorant") == id)

    // Move to another folder inside the root.
    try instance.move("inbox/sightings.txt", "archive/2025/sightings.txt")
    try instance.waitForPaths(["cormorant"], ["archive/2025/sightings.txt"])
    #expect(try itemID(instance, "cormorant") == id)

    // Delete.
    try instance.remove("archive/2025/sightings.txt")
    try instance.waitForPaths(["cormorant"], [])
  }

  @Test func savesThroughATemporaryFileAreIndexedUnderTheRealName() throws {
    let instance = try Instance()
    try instance.startWatcher()
    // What editors do: write a temporary file, then rename it over the target.
    try Data("heron draft\n".utf8).write(
      to: URL(fileURLWithPath: instance.path("draft.txt")), options: .atomic)
    try instance.waitForPaths(["heron"], ["draft.txt"])
    try Data("egret final\n".utf8).write(
      to: URL(fileURLWithPath: instance.path("draft.txt")), options: .atomic)
    try instance.waitForPaths(["egret"], ["draft.txt"])
    try instance.waitForPaths(["heron"], [])
  }

  @Test func foldersMoveAndDisappearWithEverythingInThem() throws {
    let instance = try Instance()
    let outside = instance.base + "/outside"
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    try instance.startWatcher()

    // A new tree, several levels deep, created in one go.
    try instance.mkdir("project/src/deep/er")
    try instance.write("project/src/deep/er/kestrel.txt", "kestrel\n")
    try instance.write("project/src/osprey.txt", "osprey\n")
    try instance.waitForPaths(["kestrel"], ["project/src/deep/er/kestrel.txt"])

    // Rename the top folder: everything below follows, and keeps being watched.
    try instance.move("project", "renamed")
    try instance.waitForPaths(["kestrel"], ["renamed/src/deep/er/kestrel.txt"])
    try instance.write("renamed/src/deep/er/later.txt", "merlin\n")
    try instance.waitForPaths(["merlin"], ["renamed/src/deep/er/later.txt"])

    // Move out of the roots: gone. Move back in: found again.
    try instance.move("renamed", outside + "/renamed")
    try instance.waitForPaths(["kestrel"], [])
    try instance.waitForPaths(["osprey"], [])
    try instance.move(outside + "/renamed", "back")
    try instance.waitForPaths(["kestrel"], ["back/src/deep/er/kestrel.txt"])
    try instance.waitForPaths(["merlin"], ["back/src/deep/er/later.txt"])

    // Delete the whole tree.
    try instance.remove("back")
    try instance.waitForPaths(["kestrel"], [])
    try instance.waitForPaths(["back"], [])
    try instance.waitForPaths(["src"], [])
  }

  @Test func markersAndExclusionsApplyLive() throws {
    let instance = try Instance()
    try instance.write("photos/puffin.txt", "puffin\n")
    try instance.startWatcher()
    try instance.waitForPaths(["puffin"], ["photos/puffin.txt"])
    try instance.write("photos/.noindex", "")
    try instance.waitForPaths(["puffin"], [])
    try instance.remove("photos/.noindex")
    try instance.waitForPaths(["puffin"], ["photos/puffin.txt"])
    // Renamed to a hidden name: out of the index; and back.
    try instance.move("photos", ".photos")
    try instance.waitForPaths(["puffin"], [])
    try instance.move(".photos", "photos")
    try instance.waitForPaths(["puffin"], ["photos/puffin.txt"])
  }

  @Test func bothPassesAreReportedAndAFolderThatArrivesIsNamedThenRead() throws {
    let instance = try Instance()
    for i in 0..<40 { try instance.write("notes/note \(i).txt", "marmalade \(i)\n") }
    try instance.startWatcher()
    let json = try instance.run("limelight", ["status", "--json"]).stdout
    #expect(json.contains("\"crawlDone\":true") && json.contains("\"contentDone\":true"))
    #expect(json.contains("\"contentWaiting\":0") && json.contains("\"namesSeconds\":"))
    let human = try instance.run("limelight", ["status"]).stdout
    #expect(human.contains("names:") && human.contains("entries in"))
    #expect(!human.contains("checked against the disk"), "\(human)")
    #expect(human.contains("content:") && human.contains("done: every file read"))
    // What the second pass read and how long it took, once its report is
    // written (just after its last slice).
    var last = json
    for _ in 0..<50 where !last.contains("\"contentSeconds\":") {
      usleep(100_000)
      last = try instance.run("limelight", ["status", "--json"]).stdout
    }
    #expect(last.contains("\"contentFiles\":") && last.contains("\"contentSeconds\":"), "\(last)")
    let read = try instance.run("limelight", ["status"]).stdout
    #expect(read.contains("every file read (the last pass read "), "\(read)")
    // Not a terminal: --watch prints once, when everything is read.
    let watched = try instance.run("limelight", ["status", "--watch"])
    #expect(watched.status == 0 && watched.stdout.contains("every file read"))
    let verbose = try instance.run("limelight", ["status", "--verbose"]).stdout
    #expect(verbose.contains("tables:") && verbose.contains("item_words"))
    #expect(instance.log.contains("names pass done") && instance.log.contains("content pass done"))
    #expect(Set(try instance.findPaths("marmalade")).count == 40)
    // A folder of many files moved in: named by the first pass, then read.
    let staging = instance.base + "/staging"
    for i in 0..<300 {
      let file = staging + "/box/crate \(i).txt"
      try FileManager.default.createDirectory(
        atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data("quince \(i)\n".utf8).write(to: URL(fileURLWithPath: file))
    }
    try instance.move(staging + "/box", "box")
    try instance.waitFor("the folder's files by name and by their text") {
      try instance.run("find-in", ["--count", "crate"]).stdout == "300\n"
        && instance.run("find-in", ["--count", "quince"]).stdout == "300\n"
    }
    try instance.waitFor("both passes done again") {
      try instance.run("limelight", ["status", "--json"]).stdout.contains("\"contentDone\":true")
    }
    // Started again, the watcher checks the index it finds against the
    // disk, and says so rather than seeming to name everything anew.
    #expect(instance.stopWatcher() == 0)
    try instance.startWatcher()
    let again = try instance.run("limelight", ["status"]).stdout
    #expect(again.contains("entries checked against the disk in"), "\(again)")
  }

  @Test func oneWatcherPerIndexAndACleanStop() throws {
    let instance = try Instance()
    try instance.startWatcher()
    let second = try instance.run("limelightd", ["--once"])
    #expect(second.status == 2)
    #expect(second.stderr.contains("already running"))
    #expect(instance.stopWatcher() == 0)
    let status = try instance.run("limelight", ["status"])
    #expect(status.stdout.contains("stopped"))
  }

  @Test func aBurstLargerThanTheKernelsQueueEndsMatchingTheDisk() throws {
    let instance = try Instance()
    try instance.mkdir("burst")
    try instance.write("burst/keep.txt", "survivor\n")
    try instance.startWatcher()
    // More events than the kernel's queue holds (fs.inotify.max_queued_events,
    // 16384 by default), made while the watcher is paused: it reads them on a
    // thread of its own into memory, so none is lost and no rescan is needed.
    #expect(try instance.run("limelight", ["pause"]).status == 0)
    let queued =
      Int(
        (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))?
          .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 16384
    let count = min(queued + 2000, 60_000)
    for i in 0..<count {
      let fd = open(instance.path("burst/f\(i).txt"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      _ = write(fd, "gannet\n", 7)
      close(fd)
    }
    try instance.remove("burst/keep.txt")
    #expect(try instance.run("limelight", ["resume"]).status == 0)
    try instance.waitFor("the burst to be indexed", seconds: 300) {
      try instance.run("find-in", ["--count", "gannet"]).stdout == "\(count)\n"
    }
    #expect(try instance.findPaths("survivor").isEmpty)
    let status = try instance.run("limelight", ["status", "--json"]).stdout
    #expect(status.contains("\"overflows\":0"), "\(status)")
  }

  @Test func changesMadeWhileABurstIsWrittenLandAfterIt() throws {
    let instance = try Instance()
    try instance.mkdir("burst")
    try instance.startWatcher()
    // A burst is written on a thread of its own while the watcher reads the
    // next files of it: removals, renames and rewrites made meanwhile must
    // land after the writes they follow, never under them.
    let count = 3_000
    for i in 0..<count { try instance.write("burst/f\(i).txt", "gannet\n") }
    var gannets = 0
    var puffins = 0
    var moved = 0
    for i in 0..<count {
      if i % 3 == 0 {
        try instance.remove("burst/f\(i).txt")
      } else if i % 5 == 1 {
        #expect(
          rename(instance.path("burst/f\(i).txt"), instance.path("burst/moved-\(i).txt")) == 0)
        moved += 1
        gannets += 1
      } else if i % 7 == 2 {
        try instance.write("burst/f\(i).txt", "puffin\n")
        puffins += 1
      } else {
        gannets += 1
      }
    }
    var counts: [String] = []
    let expected = ["\(gannets)\n", "\(puffins)\n", "\(moved)\n"]
    do {
      try instance.waitFor("the index to match the disk", seconds: 120) {
        counts = try ["gannet", "puffin", "name:moved"].map {
          try instance.run("find-in", ["--count", $0]).stdout
        }
        return counts == expected
      }
    } catch {
      let disk = Set(try FileManager.default.contentsOfDirectory(atPath: instance.path("burst")))
      let indexed = Set(
        try instance.findPaths("in:" + instance.path("burst")).map {
          String($0.split(separator: "/").last ?? "")
        })
      Issue.record(
        "counts \(counts), expected \(expected); not indexed: \(disk.subtracting(indexed).sorted().prefix(20)); gone: \(indexed.subtracting(disk).sorted().prefix(20))"
      )
      throw error
    }
    let status = try instance.run("limelight", ["status", "--json"]).stdout
    #expect(status.contains("\"queue\":0"), "\(status)")
  }

  @Test func watchLimitIsReportedAndUnwatchedFoldersStayCurrent() throws {
    let instance = try Instance()
    try instance.config("max-watches = 2\nrescan-interval = 1\n")
    try instance.mkdir("a/b/c")
    try instance.startWatcher()
    let status = try instance.run("limelight", ["status"]).stdout
    #expect(status.contains("LIMIT REACHED"), "\(status)")
    let namesLine = { (status: String) in
      status.split(separator: "\n").first { $0.hasPrefix("names:") }.map(String.init) ?? ""
    }
    let named = namesLine(status)
    try instance.write("a/b/c/deep.txt", "wren\n")
    try instance.waitForPaths(["wren"], ["a/b/c/deep.txt"])
    try instance.remove("a/b/c/deep.txt")
    try instance.waitForPaths(["wren"], [])
    // The rescans of the folders past the limit are no names pass: the
    // count the pass named stays as it was.
    #expect(named.contains("done"), "\(status)")
    #expect(namesLine(try instance.run("limelight", ["status"]).stdout) == named)
  }

  func itemID(_ instance: Instance, _ word: String) throws -> String? {
    let line = try instance.run("find-in", ["--json", word]).lines.first ?? "{}"
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    return object?["id"] as? String
  }
}

/// A restart reconciles the index with what happened while the watcher was down.
@Suite struct RestartTests {
  @Test func changesWhileDownArePickedUp() throws {
    let instance = try Instance()
    try instance.write("keep.txt", "steady\n")
    try instance.write("change.txt", "before\n")
    try instance.write("gone.txt", "vanishing\n")
    try instance.write("old-name.txt", "wanderer\n")
    try instance.write("folder/inside.txt", "nested\n")
    try instance.indexOnce()
    let movedID = try instance.run("find-in", ["--json", "wanderer"]).stdout

    try instance.write("change.txt", "after\n")
    try instance.remove("gone.txt")
    try instance.write("new.txt", "newcomer\n")
    try instance.move("old-name.txt", "new-name.txt")
    try instance.move("folder", "moved-folder")
    try instance.startWatcher()

    #expect(try instance.findPaths("steady") == ["keep.txt"])
    #expect(try instance.findPaths("after") == ["change.txt"])
    #expect(try instance.findPaths("before").isEmpty)
    #expect(try instance.findPaths("vanishing").isEmpty)
    #expect(try instance.findPaths("newcomer") == ["new.txt"])
    #expect(try instance.findPaths("wanderer") == ["new-name.txt"])
    #expect(try instance.findPaths("nested") == ["moved-folder/inside.txt"])
    // A rename while down keeps the item's identity.
    let id = { (json: String) in
      json.components(separatedBy: "\"id\":\"").dropFirst().first?.prefix(17)
    }
    #expect(id(try instance.run("find-in", ["--json", "wanderer"]).stdout) == id(movedID))
  }

  @Test func killedWatcherRestartsIntoAConsistentIndex() throws {
    let instance = try Instance()
    for i in 0..<300 { try instance.write("batch/f\(i).txt", "ptarmigan \(i)\n") }
    try instance.startWatcher()
    for i in 300..<600 { try instance.write("batch/f\(i).txt", "ptarmigan \(i)\n") }
    kill(instance.watcher!.processIdentifier, SIGKILL)
    instance.watcher!.waitUntilExit()
    instance.watcher = nil
    try instance.startWatcher()
    try instance.waitFor("all files") {
      try instance.run("find-in", ["--count", "ptarmigan"]).stdout == "600\n"
    }
  }

  @Test func aFirstCrawlStoppedBeforeItsEndMakesItsIndexesAtTheNextStart() throws {
    let instance = try Instance()
    try instance.write("notes/kookaburra.txt", "quetzal\n")
    try instance.write("notes/second.txt", "quetzal again\n")
    // A first crawl that named one file and stopped: the indexes it went without are missing.
    let store = try IndexStore.open(
      IndexLocation.fromEnvironment(instance.environment), create: true)
    #expect(try store.deferIndexesForFirstCrawl())
    let named = RawPath(instance.home + "/notes/kookaburra.txt")
    let importer = FileImporter(mime: MIMEDatabase(), maxTextBytes: 1 << 20)
    try store.write { writer in
      _ = try writer.upsert(
        importer.nameRecord(
          for: named, status: try #require(FileSystem.status(named)), hidden: false))
    }
    var verbose = try instance.run("limelight", ["status", "--verbose"]).stdout
    #expect(!verbose.contains("item_content_pending"))

    try instance.indexOnce()
    // The second pass read both, on the index it takes its queue from.
    #expect(try instance.findPaths("quetzal") == ["notes/kookaburra.txt", "notes/second.txt"])
    // The name's words kept for typos, left for the crawl's end, were added at this start.
    #expect(try instance.findPaths("kookabura") == ["notes/kookaburra.txt"])
    verbose = try instance.run("limelight", ["status", "--verbose"]).stdout
    for index in ["item_identity", "item_size", "item_content_pending"] {
      #expect(verbose.contains(index + " "), "\(index)")
    }
  }

  @Test func requestsMadeWhileDownAreCarriedOutOnStart() throws {
    let instance = try Instance()
    try instance.write("a.txt", "first\n")
    try instance.indexOnce()
    let request = try instance.run("reindex-request", [instance.path("a.txt")])
    #expect(request.status == 0)
    #expect(request.stderr.contains("not running"))
    #expect(try instance.run("limelight", ["status"]).stdout.contains("kept until"))
    try instance.startWatcher()
    try instance.waitFor("the request to be carried out") {
      try !instance.run("limelight", ["status"]).stdout.contains("kept until")
    }
    let wait = try instance.run(
      "reindex-request", ["--wait", "--timeout", "30", instance.path("a.txt")])
    #expect(wait.status == 0, "\(wait.stderr)")
    let all = try instance.run("reindex-request", ["--wait", "--all"])
    #expect(all.status == 0)
    #expect(try instance.run("reindex-request", []).status == 2)
    #expect(try instance.run("reindex-request", ["--timeout", "3", "x"]).status == 2)
  }

  @Test func eraseRebuildsTheIndex() throws {
    let instance = try Instance()
    try instance.write("a.txt", "phoenix\n")
    try instance.startWatcher()
    let erase = try instance.run("limelight", ["erase", "--wait"])
    #expect(erase.status == 0)
    #expect(try instance.findPaths("phoenix") == ["a.txt"])
  }

  @Test func badConfigurationIsAClearError() throws {
    let instance = try Instance()
    try instance.config("root = ~\nindex-hidden = perhaps\n")
    let result = try instance.run("limelightd", ["--once"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("limelight.conf:2:"), "\(result.stderr)")
    try instance.config("root = ~\n")
    let missing = try instance.run("limelightd", ["--once", "--root", "/no/such/folder"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("no such folder"))
  }

  @Test func configuredRootsAndExclusions() throws {
    let instance = try Instance()
    try instance.write("docs/a.txt", "falcon\n")
    try instance.write("other/b.txt", "falcon\n")
    try instance.write("docs/skip-me/c.txt", "falcon\n")
    try instance.config("root = ~/docs\nexclude = skip-*\n")
    try instance.indexOnce()
    #expect(try instance.findPaths("falcon") == ["docs/a.txt"])
  }
}

/// Tags from the `user.xdg.tags` extended attribute, and text in legacy encodings.
@Suite struct AttributeTests {
  /// Whether the temporary folder's file system takes user extended attributes.
  static let xattrsWork: Bool = {
    guard let instance = try? Instance(), (try? instance.write("probe", "x")) != nil else {
      return false
    }
    return setTags(instance.path("probe"), "probe") == 0
  }()

  static func setTags(_ path: String, _ tags: String) -> Int32 {
    lsetxattr(path, "user.xdg.tags", tags, tags.utf8.count, 0)
  }

  @Test(.enabled(if: xattrsWork, "the file system has no user extended attributes"))
  func tagsAreKeywordsAndFollowChanges() throws {
    let instance = try Instance()
    try instance.write("plain.txt", "nothing to see\n")
    #expect(Self.setTags(instance.path("plain.txt"), "invoices,tax 2025") == 0)
    try instance.startWatcher()
    #expect(try instance.findPaths("invoices") == ["plain.txt"])
    #expect(try instance.findPaths("tag:tax") == ["plain.txt"])
    #expect(Self.setTags(instance.path("plain.txt"), "receipts") == 0)
    try instance.waitForPaths(["tag:receipts"], ["plain.txt"])
    try instance.waitForPaths(["tag:invoices"], [])
  }

  /// A page's own keywords are kept with the tags through every change of
  /// them and of its mode: the index keeps them in one list, and a new
  /// mode or new tags once replaced that list with the tags alone.
  @Test(.enabled(if: xattrsWork, "the file system has no user extended attributes"))
  func aFilesOwnKeywordsOutliveNewTagsAndModes() throws {
    let instance = try Instance()
    try instance.write(
      "page.html",
      "<html><head><title>Bread</title><meta name=\"keywords\" content=\"sourdough, levain\">"
        + "</head><body>flour and water</body></html>\n")
    try instance.startWatcher()
    #expect(try instance.findPaths("levain") == ["page.html"])
    #expect(Self.setTags(instance.path("page.html"), "kitchen") == 0)
    try instance.waitForPaths(["tag:kitchen"], ["page.html"])
    #expect(try instance.findPaths("levain") == ["page.html"])
    #expect(chmod(instance.path("page.html"), 0o600) == 0)
    #expect(Self.setTags(instance.path("page.html"), "pantry") == 0)
    try instance.waitForPaths(["tag:pantry"], ["page.html"])
    try instance.waitForPaths(["tag:kitchen"], [])
    #expect(try instance.findPaths("levain") == ["page.html"])
    #expect(try instance.findPaths("sourdough ext:html") == ["page.html"])
  }

  @Test func legacyEncodingsAreReadAsText() throws {
    let instance = try Instance()
    // "déjà vu" in ISO-8859-1, and a UTF-16 file with its byte-order mark.
    try instance.write(
      "latin1.txt", bytes: Array("d".utf8) + [0xE9] + Array("j".utf8) + [0xE0] + Array(" vu\n".utf8)
    )
    try instance.write(
      "utf16.txt",
      bytes: [0xFF, 0xFE]
        + Array("smorgasbord\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    try instance.indexOnce()
    #expect(try instance.findPaths("deja") == ["latin1.txt"])
    #expect(try instance.findPaths("déjà") == ["latin1.txt"])
    #expect(try instance.findPaths("smorgasbord") == ["utf16.txt"])
  }
}

/// `find-in --live` follows the index as the watcher changes it.
@Suite struct LiveTests {
  @Test func liveFollowsAdditionsChangesAndRemovals() throws {
    let instance = try Instance()
    try instance.write("first.txt", "quokka\n")
    try instance.startWatcher()
    let live = try instance.findRunning(["--live", "quokka"])
    func lines() -> [String] {
      live.lines
        .map { line in
          let text = String(line)
          let prefix = text.prefix(2)
          let uri =
            prefix == "+ " || prefix == "~ " || prefix == "- " ? String(text.dropFirst(2)) : text
          let path = FileURI.path(from: uri).map(\.string) ?? uri
          return (prefix == "+ " || prefix == "~ " || prefix == "- " ? String(prefix) : "")
            + path.replacingOccurrences(of: instance.home + "/", with: "")
        }
    }
    try instance.waitFor("the first results") { lines() == ["first.txt"] }
    try instance.write("second.txt", "quokka\n")
    try instance.waitFor("an addition") { lines().last == "+ second.txt" }
    try instance.write("second.txt", "quokka again\n")
    try instance.waitFor("a change") { lines().last == "~ second.txt" }
    try instance.write("first.txt", "no longer\n")
    try instance.waitFor("a change out of the results") { lines().last == "- first.txt" }
    try instance.remove("second.txt")
    try instance.waitFor("a removal") { lines().last == "- second.txt" }
  }
}
