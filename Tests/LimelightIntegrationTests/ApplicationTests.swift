import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Applications' items: pushed with `limelight index` and the Swift library
/// (through the colleagues sample), rebuilt by reindex extensions, and the
/// installed applications' own domain.
@Suite struct ApplicationTests {
  static let people = """
    [
      {"id": "42", "name": "Brent Reid", "team": "Engineering", "role": "iOS",
       "email": ["brent@example.com"], "phone": ["555-0100"], "skills": ["swift", "ios"]},
      {"id": "43", "name": "Mei-Ling Chen", "team": "Research", "role": "Data scientist",
       "email": ["meiling@example.com"], "skills": ["python"]},
      {"id": "44", "name": "Sofía Martínez", "team": "Support", "email": ["sofia@example.com"]}
    ]
    """

  func colleagues(_ instance: Instance) throws {
    try instance.write("people.json", Self.people)
  }

  /// The JSON object of each `find-in --json` line.
  func jsonResults(_ instance: Instance, _ words: [String]) throws -> [[String: Any]] {
    try instance.run("find-in", ["--json"] + words).lines.compactMap {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  @Test func pushFindUpdateDelete() throws {
    let instance = try Instance()
    try colleagues(instance)
    let load = try instance.run(
      "colleagues", ["load", "--batch", "2", instance.path("people.json")])
    #expect(load.status == 0, "\(load.stderr)")
    #expect(try instance.find("brent") == ["colleagues://person/42"])
    // Typos, accents and custom attributes (e-mail addresses) are searchable.
    #expect(try instance.find("sofia") == ["colleagues://person/44"])
    #expect(try instance.find("meiling@example") == ["colleagues://person/43"])
    let found = try jsonResults(instance, ["brnet"])
    #expect(found.first?["id"] as? String == "42")
    #expect(found.first?["domain"] as? String == "com.example.colleagues.people")
    #expect(found.first?["kind"] as? String != nil)
    // The batches stored their client state: 2, 4, then all 3.
    #expect(
      try instance.run("limelight", ["client-state", "--index-name", "colleagues"]).stdout == "3\n")

    // Update: the new value is found, the old one no longer.
    #expect(try instance.run("colleagues", ["set", "42", "name", "Brent Rider"]).status == 0)
    #expect(try instance.find("rider") == ["colleagues://person/42"])
    #expect(try instance.find("reid").isEmpty)
    let shown = try instance.run("limelight", ["show", "--json", "colleagues://person/42"])
    #expect(shown.stdout.contains("\"displayName\":\"Brent Rider\""), "\(shown.stdout)")
    #expect(shown.stdout.contains("\"emailAddresses\":[\"brent@example.com\"]"))

    // An item of another application with the same id is kept apart.
    let other = try instance.run(
      "limelight", ["index"],
      stdin:
        #"{"id": "42", "domain": "org.example.notes", "uri": "notes://42", "attributes": {"title": "Rider notes"}}"#
    )
    #expect(other.status == 0, "\(other.stderr)")
    #expect(Set(try instance.find("rider")) == ["colleagues://person/42", "notes://42"])
    #expect(try instance.find("rider", "domain:com.example") == ["colleagues://person/42"])

    // Deleting a domain takes the domains under it, and nothing else.
    let deleted = try instance.run("limelight", ["delete", "--domain", "com.example.colleagues"])
    #expect(deleted.status == 0)
    #expect(try instance.find("rider") == ["notes://42"])
    #expect(try instance.find("sofia").isEmpty)
    #expect(try instance.run("limelight", ["delete", "--domain", "com.example"]).status == 1)
    #expect(try instance.run("limelight", ["delete", "--id", "42"]).status == 0)
    #expect(try instance.find("rider").isEmpty)
  }

  @Test func openedApplicationItemsGoToTheirHandlerAndRankHigher() throws {
    let instance = try Instance()
    let bin = instance.base + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let opened = instance.base + "/opened"
    try "#!/bin/sh\necho \"$1\" >> '\(opened)'\n".write(
      toFile: bin + "/xdg-open", atomically: true, encoding: .utf8)
    #expect(chmod(bin + "/xdg-open", 0o755) == 0)
    let lines = [
      #"{"id": "1", "domain": "org.example.notes", "uri": "notes://note/1", "attributes": {"displayName": "Echidna feeding"}}"#,
      #"{"id": "2", "domain": "org.example.notes", "uri": "notes://note/2", "attributes": {"displayName": "Echidna sighting"}}"#,
    ]
    #expect(
      try instance.run("limelight", ["index"], stdin: lines.joined(separator: "\n")).status == 0)
    #expect(try instance.find("echidna") == ["notes://note/1", "notes://note/2"])
    let result = try instance.run("find-in", ["--open", "2", "echidna"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try String(contentsOfFile: opened, encoding: .utf8) == "notes://note/2\n")
    #expect(try instance.find("echidna") == ["notes://note/2", "notes://note/1"])
    #expect(try instance.find("used:today") == ["notes://note/2"])
  }

  @Test func anInterruptedLoadResumesAfterItsLastBatch() throws {
    let instance = try Instance()
    try colleagues(instance)
    // As if a load had stored its first two colleagues and then been stopped.
    let stored = try instance.run(
      "limelight", ["index", "--index-name", "colleagues", "--client-state", "2"], stdin: "")
    #expect(stored.status == 0, "\(stored.stderr)")
    let resumed = try instance.run(
      "colleagues", ["load", "--resume", "--batch", "1", instance.path("people.json")])
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(try instance.find("brent").isEmpty)
    #expect(try instance.find("sofia") == ["colleagues://person/44"])
    #expect(
      try instance.run("limelight", ["client-state", "--index-name", "colleagues"]).stdout == "3\n")
    // The library's SearchQuery, as the sample application uses it.
    let searched = try instance.run("colleagues", ["search", "sofía"])
    #expect(searched.stdout == "Sofía Martínez\tsofia@example.com\n", "\(searched.stdout)")
  }

  @Test func malformedLinesAreRejectedWithTheirNumber() throws {
    let instance = try Instance()
    let good =
      #"{"id": "1", "domain": "org.example.notes", "uri": "notes://1", "attributes": {"displayName": "Quokka facts"}}"#
    let second =
      #"{"id": "2", "domain": "org.example.notes", "uri": "notes://2", "attributes": {"displayName": "Wombat facts"}}"#
    let cases: [(String, String)] = [
      ("{\"id\": \"3\", \"domain\": \"org.example.notes\"}", "missing 'uri'"),
      ("not json", "not JSON"),
      (#"{"id": "3", "domain": "bad domain", "uri": "notes://3"}"#, "is not a domain"),
      (#"{"id": "3", "domain": "limelight.files", "uri": "notes://3"}"#, "reserved"),
      (#"{"id": "3", "domain": "org.example.notes", "uri": "no scheme"}"#, "not a URI"),
      (#"{"id": "3", "domain": "org.example.notes", "uri": "notes://a\nb"}"#, "control"),
      (#"{"id": "", "domain": "org.example.notes", "uri": "notes://3"}"#, "empty"),
      (
        #"{"id": "3", "domain": "org.example.notes", "uri": "notes://3", "attributes": {"keywords": 7}}"#,
        "keywords"
      ),
      (
        #"{"id": "3", "domain": "org.example.notes", "uri": "notes://3", "expirationDate": "soon"}"#,
        "expirationDate"
      ),
      (#"{"delete": ["1"]}"#, "domain"),
    ]
    for (bad, reason) in cases {
      // The bad line is the third: the batch of the first two is not applied.
      let result = try instance.run(
        "limelight", ["index"], stdin: [good, second, bad].joined(separator: "\n"))
      #expect(result.status == 2, "\(bad)")
      #expect(result.stderr.contains("line 3"), "\(result.stderr)")
      #expect(result.stderr.contains(reason), "\(bad): \(result.stderr)")
      #expect(!result.stderr.contains("Fatal"), "\(result.stderr)")
      #expect(try instance.find("quokka").isEmpty, "\(bad) half-applied its batch")
    }
    // Input that is no file of lines, and a resume with nothing stored.
    let folder = try instance.run("limelight", ["index", instance.base])
    #expect(folder.status != 0 && folder.stderr.contains("is a folder"), "\(folder.stderr)")
    let none = try instance.run("limelight", ["client-state", "--index-name", "unknown"])
    #expect(none.status == 1 && none.stdout.isEmpty && none.stderr.contains("no client state"))
    // A batch ended before the bad line stays, with its client state.
    let ended = [good, #"{"endBatch": {"clientState": "after-1"}}"#, second, "{"].joined(
      separator: "\n")
    let result = try instance.run("limelight", ["index"], stdin: ended)
    #expect(result.status == 2)
    #expect(result.stderr.contains("line 4"), "\(result.stderr)")
    #expect(try instance.find("quokka") == ["notes://1"])
    #expect(try instance.find("wombat").isEmpty)
    #expect(try instance.run("limelight", ["client-state"]).stdout == "after-1\n")
    // A batch that expects another state is refused whole.
    let refused = try instance.run(
      "limelight", ["index", "--expected-client-state", "other", "--client-state", "x"],
      stdin: second)
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("client state"), "\(refused.stderr)")
    #expect(try instance.find("wombat").isEmpty)
    let accepted = try instance.run(
      "limelight", ["index", "--expected-client-state", "after-1", "--client-state", "after-2"],
      stdin: second)
    #expect(accepted.status == 0, "\(accepted.stderr)")
    #expect(try instance.find("wombat") == ["notes://2"])
    #expect(try instance.run("limelight", ["client-state"]).stdout == "after-2\n")
    // Usage mistakes of delete.
    #expect(try instance.run("limelight", ["delete"]).status == 2)
    #expect(try instance.run("limelight", ["delete", "--all", "--id", "1"]).status == 2)
    #expect(try instance.run("limelight", ["delete", "--domain", "not a domain"]).status == 2)
  }

  @Test func expiredItemsVanish() throws {
    let instance = try Instance()
    let lines = [
      #"{"id": "1", "domain": "org.example.notes", "uri": "notes://1", "attributes": {"displayName": "Ephemeral platypus"}, "expirationDate": "2001-01-01T00:00:00Z"}"#,
      #"{"id": "2", "domain": "org.example.notes", "uri": "notes://2", "attributes": {"displayName": "Lasting platypus"}}"#,
    ]
    let result = try instance.run("limelight", ["index"], stdin: lines.joined(separator: "\n"))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try instance.find("platypus") == ["notes://2"])
    // The item without a date of its own expires 30 days after its update.
    let shown = try instance.run("limelight", ["show", "--json", "notes://2"])
    let object = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
    let expiry = (object?["expirationDate"] as? String).flatMap(ISO8601DateFormatter().date(from:))
    let days = (expiry?.timeIntervalSinceNow ?? 0) / 86_400
    #expect(days > 29.9 && days <= 30.0, "\(shown.stdout)")
    // The expired one was purged, not only hidden.
    #expect(try instance.run("limelight", ["show", "notes://1"]).status == 1)
  }

  /// A descriptor for the colleagues sample, with the built program's path.
  func installExtension(
    _ instance: Instance, name: String = "colleagues", exec: String? = nil,
    domain: String = "com.example.colleagues", timeout: Int = 20
  ) throws {
    let folder = instance.base + "/xdg/config/limelight/extensions.d"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let command = exec ?? Instance.binDirectory + "/colleagues"
    try Data(
      "[Limelight Extension]\nDomain=\(domain)\nExec=\(command)\nTimeout=\(timeout)\n".utf8
    ).write(to: URL(fileURLWithPath: "\(folder)/\(name).extension"))
  }

  /// The colleagues' address book, without indexing it.
  func writeAddressBook(_ instance: Instance) throws {
    let folder = instance.base + "/xdg/data/colleagues"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Data(Self.people.utf8).write(to: URL(fileURLWithPath: folder + "/people.json"))
  }

  @Test func extensionRebuildsItsDomain() throws {
    let instance = try Instance()
    try writeAddressBook(instance)
    try instance.write("notes.txt", "kookaburra\n")
    try instance.startWatcher()
    // The descriptor appears while the watcher runs: the domain is indexed.
    try installExtension(instance)
    try instance.waitFor("the extension's first run") {
      try instance.find("brent") == ["colleagues://person/42"]
    }
    let listed = try instance.run("limelight", ["extensions", "--json"])
    #expect(
      listed.stdout.contains("\"lastOutcome\":\"reindex-all: 3 items indexed"), "\(listed.stdout)")

    // The application changed a colleague behind the index's back; a
    // request for that id brings the change in.
    let book = instance.base + "/xdg/data/colleagues/people.json"
    let changed = Self.people.replacingOccurrences(of: "Brent Reid", with: "Brent Rider")
    try Data(changed.utf8).write(to: URL(fileURLWithPath: book))
    let request = try instance.run(
      "reindex-request",
      ["--domain", "com.example.colleagues", "--id", "42", "--wait", "--timeout", "30"])
    #expect(request.status == 0, "\(request.stderr)")
    #expect(request.stdout.contains("1 items indexed"), "\(request.stdout)")
    #expect(try instance.find("rider") == ["colleagues://person/42"])
    #expect(try instance.find("reid").isEmpty)

    // A domain no extension answers for is a usage error.
    #expect(try instance.run("reindex-request", ["--domain", "org.example.none"]).status == 2)

    // Erase everything: the files are crawled again and the extension rebuilds
    // its domain, before --wait returns.
    let erased = try instance.run("limelight", ["erase", "--wait"])
    #expect(erased.status == 0, "\(erased.stderr)")
    #expect(
      erased.stdout.contains(
        "erased and crawled again; com.example.colleagues: reindex-all: 3 items indexed"),
      "\(erased.stdout)")
    #expect(try instance.find("rider") == ["colleagues://person/42"])
    #expect(try instance.findPaths("kookaburra") == ["notes.txt"])
    // Erasing the domain alone: it comes back, the files stay.
    let domainErased = try instance.run(
      "limelight", ["erase", "--domain", "com.example.colleagues", "--wait"])
    #expect(domainErased.stdout.contains("reindex-all: 3 items indexed"), "\(domainErased.stdout)")
    let sofia = try instance.run("find-in", ["--json", "sofia"])
    #expect(
      try instance.find("sofia") == ["colleagues://person/44"],
      "\(sofia.stdout)\(sofia.stderr)\n--- watcher log ---\n\(instance.log)")
    #expect(try instance.findPaths("kookaburra") == ["notes.txt"])

    // An extension that fails: erase --wait says so, and the files are back.
    try installExtension(instance, exec: instance.base + "/missing-program")
    try instance.waitFor("the broken descriptor to be read") {
      try instance.run("limelight", ["extensions"]).stdout.contains("missing-program")
    }
    let failed = try instance.run("limelight", ["erase", "--wait"])
    #expect(failed.status == 1, "\(failed.stdout)")
    #expect(
      failed.stderr.contains("com.example.colleagues: reindex-all failed"), "\(failed.stderr)")
    #expect(try instance.findPaths("kookaburra") == ["notes.txt"])
    #expect(instance.stopWatcher() == 0)
  }

  @Test func aRequestForSeveralExtensionsWaitsForEachOfThem() throws {
    let instance = try Instance()
    try writeAddressBook(instance)
    try installExtension(instance)
    let script = instance.base + "/other.sh"
    let item =
      #"{"id": "1", "domain": "com.example.other", "uri": "other://1", "attributes": {"displayName": "Numbat survey"}}"#
    try Data("#!/bin/sh\nsleep 1\necho '\(item)'\n".utf8).write(to: URL(fileURLWithPath: script))
    chmod(script, 0o755)
    try installExtension(instance, name: "other", exec: script, domain: "com.example.other")
    try instance.startWatcher()
    try instance.waitFor("both extensions' first runs") {
      try instance.find("brent").count == 1 && instance.find("numbat").count == 1
    }
    #expect(try instance.run("limelight", ["delete", "--domain", "com.example"]).status == 0)
    #expect(try instance.find("numbat").isEmpty)
    let request = try instance.run(
      "reindex-request", ["--domain", "com.example", "--wait", "--timeout", "60"])
    #expect(request.status == 0, "\(request.stderr)")
    #expect(request.stdout.contains("com.example.colleagues: reindex-all"), "\(request.stdout)")
    #expect(request.stdout.contains("com.example.other: reindex-all"), "\(request.stdout)")
    // Both domains are back by the time it returns.
    #expect(try instance.find("numbat") == ["other://1"])
    #expect(try instance.find("brent") == ["colleagues://person/42"])
    #expect(instance.stopWatcher() == 0)
  }

  @Test func aDamagedIndexIsBuiltAgainWithTheExtensionsItems() throws {
    let instance = try Instance()
    try writeAddressBook(instance)
    try installExtension(instance)
    try instance.write("notes.txt", "kookaburra\n")
    try instance.indexOnce()
    #expect(try instance.find("brent") == ["colleagues://person/42"])
    // The disk mangles the file.
    let index = instance.base + "/xdg/data/limelight/index.sqlite"
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: index + suffix) }
    try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: index))
    let broken = try instance.run("find-in", ["brent"])
    #expect(broken.status == 2)
    #expect(broken.stderr.contains("damaged"), "\(broken.stderr)")
    try instance.startWatcher()
    try instance.waitFor("the extension's items in the new index") {
      try instance.find("brent") == ["colleagues://person/42"]
    }
    #expect(try instance.findPaths("kookaburra") == ["notes.txt"])
    #expect(FileManager.default.fileExists(atPath: index + ".damaged"))
    #expect(instance.stopWatcher() == 0)
  }

  @Test func misbehavingExtensionsAreStoppedAndTheWatcherGoesOn() throws {
    let instance = try Instance()
    try instance.mkdir("bin")
    // The flood has time to print its 64 MiB even on a loaded machine: it must be
    // stopped for what it printed, not for the time it took.
    let scripts = [
      ("hang", "sleep 60", 2),
      ("crash", "kill -SEGV $$", 2),
      ("garbage", "echo 'this is not json'", 2),
      ("flood", "yes '{\"id\": \"1\"}'", 50),
      ("failing", "echo oops >&2; exit 3", 2),
    ]
    for (name, body, timeout) in scripts {
      let path = instance.base + "/\(name).sh"
      try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
      chmod(path, 0o755)
      try installExtension(
        instance, name: name, exec: path, domain: "org.example.\(name)", timeout: timeout)
    }
    try instance.startWatcher()
    try instance.waitFor("every extension's first run", seconds: 90) {
      let listed = try instance.run("limelight", ["extensions", "--json"]).lines
      return listed.count == scripts.count && listed.allSatisfy { $0.contains("retrying in") }
    }
    let listed = try instance.run("limelight", ["extensions"]).stdout
    #expect(listed.contains("took too long and was stopped"), "\(listed)")
    #expect(listed.contains("crashed (signal 11"), "\(listed)")
    #expect(listed.contains("printed a bad line 1: not JSON"), "\(listed)")
    #expect(listed.contains("printed too much and was stopped"), "\(listed)")
    #expect(listed.contains("exited with status 3: oops"), "\(listed)")
    // The watcher goes on indexing files.
    try instance.write("after.txt", "bandicoot\n")
    try instance.waitForPaths(["bandicoot"], ["after.txt"])
    #expect(try instance.run("limelight", ["status"]).stdout.contains("watching"))
    #expect(instance.stopWatcher() == 0)
  }

  @Test func installedApplicationsAreTheirOwnDomain() throws {
    let instance = try Instance()
    let folder = instance.base + "/apps"
    try FileManager.default.createDirectory(
      atPath: folder + "/vendor", withIntermediateDirectories: true)
    let marker = instance.base + "/launched"
    let launcher = """
      [Desktop Entry]
      Type=Application
      Name=Firefox Web Browser
      Name[de]=Firefox-Webbrowser
      GenericName=Web Browser
      Comment=Browse the World Wide Web
      Keywords=Internet;WWW;Browser;
      Exec=sh -c "echo started > \(marker)" %u
      Icon=firefox

      """
    try Data(launcher.utf8).write(to: URL(fileURLWithPath: folder + "/firefox.desktop"))
    try Data(
      "[Desktop Entry]\nType=Application\nName=Hidden Helper\nNoDisplay=true\nExec=true\n".utf8
    )
    .write(to: URL(fileURLWithPath: folder + "/helper.desktop"))
    try instance.config("applications = yes\napplication-folder = \(folder)\n")
    try instance.startWatcher()
    #expect(try instance.find("firef") == ["application:firefox.desktop"])
    #expect(try instance.find("browser", "kind:app") == ["application:firefox.desktop"])
    #expect(try instance.find("helper").isEmpty)
    let found = try jsonResults(instance, ["firefox"])
    #expect(found.first?["domain"] as? String == "limelight.applications")
    #expect(found.first?["id"] as? String == "firefox.desktop")

    // A launcher installed while watching (in a subfolder: its id gets the folder's name).
    try Data("[Desktop Entry]\nType=Application\nName=Gimp Image Editor\nExec=true\n".utf8)
      .write(to: URL(fileURLWithPath: folder + "/vendor/gimp.desktop"))
    try instance.waitFor("the new launcher") {
      try instance.find("gimp") == ["application:vendor-gimp.desktop"]
    }
    // Opening it starts the application (and records the use).
    let opened = try instance.run("find-in", ["--open", "firefox"])
    #expect(opened.status == 0, "\(opened.stderr)")
    try instance.waitFor("the application to start") {
      FileManager.default.fileExists(atPath: marker)
    }
    let shown = try instance.run("limelight", ["show", "--json", "application:firefox.desktop"])
    #expect(shown.stdout.contains("\"useCount\":1"), "\(shown.stdout)")
    // Uninstalled: gone.
    try FileManager.default.removeItem(atPath: folder + "/vendor/gimp.desktop")
    try instance.waitFor("the removed launcher to go") { try instance.find("gimp").isEmpty }
    #expect(instance.stopWatcher() == 0)

    // Turned off: the domain is emptied.
    try instance.config("applications = no\n")
    try instance.indexOnce()
    #expect(try instance.find("firefox").isEmpty)
  }

  @Test func liveFollowersSeeApplicationChanges() throws {
    let instance = try Instance()
    // A file that matches from the start: its result line says the follower is ready.
    try instance.write("wallaby.txt", "marsupials\n")
    try instance.indexOnce()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Instance.binDirectory + "/find-in")
    process.arguments = ["--live", "--json", "wallaby"]
    process.environment = instance.environment
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    defer { if process.isRunning { process.terminate() } }
    var seen = ""
    let fd = pipe.fileHandleForReading.fileDescriptor
    _ = fcntl(fd, F_SETFL, O_NONBLOCK)
    var buffer = [UInt8](repeating: 0, count: 4096)
    func readUntil(_ text: String) {
      let deadline = Date().addingTimeInterval(30)
      while Date() < deadline && !seen.contains(text) {
        let count = read(fd, &buffer, buffer.count)
        if count > 0 { seen += String(decoding: buffer[..<count], as: UTF8.self) }
        usleep(20_000)
      }
    }
    readUntil("wallaby.txt")
    let line =
      #"{"id": "7", "domain": "org.example.notes", "uri": "notes://7", "attributes": {"displayName": "Wallaby census"}}"#
    #expect(try instance.run("limelight", ["index"], stdin: line).status == 0)
    // (An item that comes and goes between two looks is never shown at all.)
    readUntil(#""event":"added""#)
    #expect(
      try instance.run("limelight", ["delete", "--id", "7", "--domain", "org.example.notes"]).status
        == 0)
    // Both changes reach the follower, naming the item as the application
    // does: its own id and domain.
    readUntil(#""event":"removed""#)
    let events = seen.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]
    }
    let expected = ["uri": "notes://7", "id": "7", "domain": "org.example.notes"]
    #expect(events.first == expected.merging(["event": "added"]) { a, _ in a }, "\(seen)")
    #expect(events.last == expected.merging(["event": "removed"]) { a, _ in a }, "\(seen)")
  }
}
