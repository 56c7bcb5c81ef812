import Foundation
import LimelightPlatform
import Testing

@testable import LimelightApplications
@testable import LimelightCLI
@testable import LimelightExtensions
@testable import LimelightModel
@testable import LimelightSearch
@testable import LimelightStore

@Suite struct ItemLineTests {
  @Test func itemsDeletionsAndBatchEnds() throws {
    let mime = MIMEDatabase()
    let line = try ItemLine.parse(
      #"{"id": "42", "domain": "com.example.people", "uri": "people://42", "attributes": {"title": "Brent", "contentType": "text/vcard", "emailAddresses": ["b@example.com"], "dueDate": "2027-01-01", "contentCreationDate": "2020-05-06T07:08:09Z"}, "expirationDate": "2027-01-31T00:00:00Z"}"#,
      mime: mime)
    guard case .item(let item) = line else {
      Issue.record("not an item: \(line)")
      return
    }
    #expect(item.attributes.displayName == "Brent")
    #expect(item.attributes.contentTypeTree.contains("text/plain"))
    #expect(item.attributes.extra["emailAddresses"] == .strings(["b@example.com"]))
    if case .date = item.attributes.extra["dueDate"] {} else { Issue.record("dueDate not a date") }
    // Core Spotlight's name for the creation date fills the item's own date.
    #expect(item.attributes.created == ISO8601DateFormatter().date(from: "2020-05-06T07:08:09Z"))
    #expect(item.attributes.extra["contentCreationDate"] == nil)
    #expect(item.expirationDate == ISO8601DateFormatter().date(from: "2027-01-31T00:00:00Z"))
    #expect(
      try ItemLine.parse(#"{"delete": "1", "domain": "a.b"}"#, mime: nil)
        == .delete(ids: ["1"], domain: "a.b"))
    #expect(try ItemLine.parse(#"{"deleteDomain": "a.b"}"#, mime: nil) == .deleteDomain("a.b"))
    #expect(
      try ItemLine.parse(#"{"endBatch": {"clientState": "s"}}"#, mime: nil)
        == .endBatch(clientState: "s", expectedClientState: nil))
    #expect(
      try ItemLine.parse(#"{"endBatch": true}"#, mime: nil)
        == .endBatch(clientState: nil, expectedClientState: nil))
  }

  @Test(arguments: [
    "", "[]", "42", "null", #"{"id": 42, "domain": "a", "uri": "x:y"}"#,
    #"{"id": "1", "domain": "a..b", "uri": "x:y"}"#, #"{"id": "1", "domain": ".a", "uri": "x:y"}"#,
    #"{"id": "1", "domain": "a b", "uri": "x:y"}"#, #"{"id": "1", "domain": "é.x", "uri": "x:y"}"#,
    #"{"id": "1", "domain": "limelight", "uri": "x:y"}"#,
    #"{"id": "1", "domain": "a", "uri": ":y"}"#, #"{"id": "1", "domain": "a", "uri": "1x:y"}"#,
    #"{"id": "1", "domain": "a", "uri": "x:"}"#, #"{"id": "1", "domain": "a", "uri": "x:a\tb"}"#,
    #"{"id": "1", "domain": "a", "uri": "x:y", "attributes": []}"#,
    #"{"id": "1", "domain": "a", "uri": "x:y", "attributes": {"displayName": ""}}"#,
    #"{"id": "1", "domain": "a", "uri": "x:y", "attributes": {"size": -1}}"#,
    #"{"delete": [1], "domain": "a"}"#, #"{"endBatch": "now"}"#,
    #"{"endBatch": {"clientState": 7}}"#,
  ])
  func rejected(_ text: String) {
    #expect(throws: ItemLine.Invalid.self) { try ItemLine.parse(text, mime: nil) }
  }

  @Test func domainsHoldTheirSubdomains() {
    #expect(domain("com.example.notes", isWithin: "com.example"))
    #expect(domain("com.example", isWithin: "com.example"))
    #expect(!domain("com.examples", isWithin: "com.example"))
    #expect(!domain("com", isWithin: "com.example"))
  }
}

@Suite struct ApplicationStoreTests {
  func store() throws -> (IndexStore, String) {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "limelight-unit-\(UUID().uuidString)"
    ).path
    let location = IndexLocation.fromEnvironment([
      "HOME": base, "XDG_DATA_HOME": base + "/data", "XDG_CONFIG_HOME": base + "/config",
      "XDG_RUNTIME_DIR": base + "/run",
    ])
    return (try IndexStore.open(location, create: true), base)
  }

  func item(_ id: String, _ domain: String, expires: Date? = nil) -> IndexItem {
    IndexItem(
      id: id, domain: domain, uri: "x://\(domain)/\(id)",
      attributes: AttributeSet(displayName: "item \(id)"), expirationDate: expires)
  }

  func count(_ store: IndexStore) throws -> Int {
    try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") ?? 0 }
  }

  @Test func aBatchBeyondItsLimitIsRefusedAndTheOnesBeforeItStay() throws {
    let (store, base) = try store()
    defer { try? FileManager.default.removeItem(atPath: base) }
    func line(_ id: Int) -> Result<[UInt8], LineReader.TooLong> {
      .success(
        Array(
          #"{"id": "\#(id)", "domain": "a.b", "uri": "x://\#(id)", "attributes": {"displayName": "n"}}"#
            .utf8))
    }
    var importer = ItemImport(store: store)
    importer.batchLimit = 300
    let ended = Result<[UInt8], LineReader.TooLong>.success(Array(#"{"endBatch": true}"#.utf8))
    // Three lines and an end fit; the next batch grows past the limit.
    let lines = [line(1), line(2), line(3), ended] + (4...9).map(line)
    do {
      _ = try importer.run(lines)
      Issue.record("an oversized batch was applied")
    } catch {
      #expect(error.line == 8, "\(error)")
      #expect(error.message.contains("more than 300 bytes"), "\(error)")
      #expect(error.summary.indexed == 3)
    }
    #expect(try count(store) == 3)
  }

  @Test func sameIDsInOtherDomainsAreOtherItems() throws {
    let (store, base) = try store()
    defer { try? FileManager.default.removeItem(atPath: base) }
    try store.write { writer in
      try writer.upsert(applicationItem: item("1", "a.notes"))
      try writer.upsert(applicationItem: item("1", "b.notes"))
      #expect(try writer.upsert(applicationItem: item("1", "a.notes")) == .updated)
    }
    #expect(try count(store) == 2)
    let removed = try store.write { try $0.deleteDomain("a") }
    #expect(removed == 1)
    // A domain is not a prefix of another's name: "b" does not hold "bb".
    try store.write { writer in
      try writer.upsert(applicationItem: item("2", "bb.notes"))
      #expect(try writer.deleteDomain("b") == 1)
    }
    #expect(try count(store) == 1)
  }

  @Test func expiredItemsArePurgedAndDeletionsAreRecorded() throws {
    let (store, base) = try store()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let past = Date(timeIntervalSinceNow: -10)
    try store.write { writer in
      try writer.upsert(applicationItem: item("1", "a", expires: past))
      try writer.upsert(applicationItem: item("2", "a"))
    }
    #expect(try store.nextExpiration() == Date(timeIntervalSince1970: past.timeIntervalSince1970))
    let generation = try store.generation()
    #expect(try store.write { try $0.purgeExpired() } == 1)
    #expect(try count(store) == 1)
    let removals = try store.read {
      try Int.fetchOne(
        $0, sql: "SELECT count(*) FROM removal WHERE generation > ?", arguments: [generation])
    }
    #expect(removals == 1)
  }
}

@Suite struct ExtensionDescriptorTests {
  @Test func descriptorsAreCheckedAndOneDomainHasOneExtension() throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "limelight-ext-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: base) }
    try FileManager.default.createDirectory(
      atPath: base + "/sys", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: base + "/user", withIntermediateDirectories: true)
    func write(_ path: String, _ text: String) throws {
      try Data(text.utf8).write(to: URL(fileURLWithPath: base + "/" + path))
    }
    let group = "[Limelight Extension]\n"
    try write("sys/notes.extension", group + "Domain=org.example.notes\nExec=/bin/notes\n")
    try write(
      "user/notes.extension",
      group + "Domain=org.example.notes\nExec=\"/opt/my notes\" --x\nTimeout=5\n")
    try write("user/twin.extension", group + "Domain=org.example.notes\nExec=/bin/twin\n")
    try write("user/nodomain.extension", group + "Exec=/bin/x\n")
    try write("user/badtime.extension", group + "Domain=a\nExec=/bin/x\nTimeout=0\n")
    try write("user/badquote.extension", group + "Domain=a\nExec=\"/bin/x\n")
    try write("user/reserved.extension", group + "Domain=limelight.files\nExec=/bin/x\n")
    let (found, problems) = ExtensionDescriptors.load(
      from: [RawPath(base + "/sys"), RawPath(base + "/user")])
    #expect(found.map(\.name) == ["notes"])
    #expect(found.first?.command == ["/opt/my notes", "--x"])
    #expect(found.first?.timeLimit == 5)
    #expect(problems.count == 5, "\(problems)")
    #expect(found.first?.answers(for: "org.example") == true)
    #expect(found.first?.answers(for: "org.example.notes.inbox") == true)
    #expect(found.first?.answers(for: "org.examples") == false)
  }

  @Test func backoffDoubles() {
    #expect(ExtensionRetry.backoff(afterFailures: 1) == 30)
    #expect(ExtensionRetry.backoff(afterFailures: 3) == 120)
    #expect(ExtensionRetry.backoff(afterFailures: 20) == 3600)
  }

  @Test func aFailingRunBacksOffThenGivesUp() {
    let now = Date(timeIntervalSince1970: 1_000_000)
    var run = ExtensionRun(domain: "org.example", descriptor: "/x")
    run.pendingAll = true
    for attempt in 1..<ExtensionRetry.attempts {
      let retry = ExtensionRetry(
        after: run, all: true, ids: [], failure: "exit 1", summary: .init(), now: now)
      #expect(
        retry.outcome
          == .retrying(
            .all, reason: "exit 1", seconds: Int(ExtensionRetry.backoff(afterFailures: attempt))))
      #expect(retry.run.pendingAll && retry.run.failures == attempt)
      #expect(
        retry.run.nextAttempt
          == now.addingTimeInterval(ExtensionRetry.backoff(afterFailures: attempt)))
      #expect(retry.outcome.failed)
      run = retry.run
    }
    let last = ExtensionRetry(
      after: run, all: true, ids: [], failure: "exit 1", summary: .init(), now: now)
    #expect(last.outcome == .gaveUp(.all, reason: "exit 1", attempts: ExtensionRetry.attempts))
    #expect(!last.run.hasWork && last.run.nextAttempt == nil)
    // A success clears the count and the work it did.
    var partial = run
    partial.pendingAll = false
    partial.pendingIDs = ["a", "b", "c"]
    var summary = ItemImport.Summary()
    summary.indexed = 2
    let done = ExtensionRetry(
      after: partial, all: false, ids: ["a", "b"], failure: nil, summary: summary, now: now)
    #expect(done.outcome == .indexed(.ids(2), indexed: 2, deleted: 0))
    #expect(done.run.failures == 0 && done.run.pendingIDs == ["c"] && !done.finished)
    #expect(done.run.lastSuccess == now && done.run.lastOutcome == done.outcome)
  }
}

@Suite struct LauncherTests {
  @Test func fieldCodesExpandForALaunchWithoutFiles() {
    let entry = KeyFile.Group(raw: ["Name": "Gimp", "Icon": "gimp"])
    let file = RawPath("/usr/share/applications/gimp.desktop")
    #expect(
      Opener.expand(["gimp", "%U", "--title=%c", "%i", "100%%"], entry: entry, file: file)
        == ["gimp", "--title=Gimp", "--icon", "gimp", "100%"])
    #expect(
      Opener.expand(["x", "--from=%k"], entry: entry, file: file) == ["x", "--from=" + file.string])
    #expect(Opener.expand(["x", "%z"], entry: entry, file: file) == nil)
  }

  @Test func launcherIDsAndURIs() throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "limelight-apps-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: base) }
    for folder in ["user/kde", "system"] {
      try FileManager.default.createDirectory(
        atPath: base + "/" + folder, withIntermediateDirectories: true)
    }
    let entry = "[Desktop Entry]\nType=Application\nName=Editor\nExec=true\n"
    try Data(entry.utf8).write(to: URL(fileURLWithPath: base + "/user/kde/editor.desktop"))
    try Data(entry.utf8).write(to: URL(fileURLWithPath: base + "/system/kde-editor.desktop"))
    let folders = ApplicationFolders([RawPath(base + "/user"), RawPath(base + "/system")])
    // The user's kde/editor.desktop is kde-editor.desktop, and hides the system's.
    #expect(folders.file(forID: "kde-editor.desktop")?.string == base + "/user/kde/editor.desktop")
    #expect(
      ApplicationFolders.uri(forID: "org.gnome.Maps.desktop")
        == "application:org.gnome.Maps.desktop")
    #expect(ApplicationFolders.uri(forID: "a b/c.desktop") == "application:a%20b%2Fc.desktop")
    #expect(ApplicationFolders.id(fromURI: "application:a%20b%2Fc.desktop") == "a b/c.desktop")
    #expect(ApplicationFolders.id(fromURI: "file:///x.desktop") == nil)
  }
}
