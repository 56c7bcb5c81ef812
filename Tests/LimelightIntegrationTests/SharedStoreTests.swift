import Foundation
import LimelightPlatform
import LimelightPostgres
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Several watchers, each an instance with a host name of its own, sending
/// their entries to one PostgreSQL store, and the front ends searching it.
@Suite struct SharedStoreTests {
  /// The URI a host's entry has in the store.
  func uri(_ host: String, _ instance: Instance, _ relative: String) -> String {
    "file://" + host + FileURI.uri(for: RawPath(instance.path(relative))).dropFirst(7)
  }

  func instance(_ store: String, host: String) throws -> Instance {
    let instance = try Instance()
    try instance.config("store = \(store)\nhost-name = \(host)\n")
    return instance
  }

  /// Two hosts sending to a new store, each with a file (path, text)
  /// written and indexed once: beta's first.
  func twoHosts(alpha alphaFile: (String, String), beta betaFile: (String, String)) throws -> (
    store: String, alpha: Instance, beta: Instance
  ) {
    let server = try #require(PostgresServer.shared)
    let store = try server.newDatabase()
    let alpha = try instance(store, host: "alpha")
    let beta = try instance(store, host: "beta")
    try beta.write(betaFile.0, betaFile.1)
    try alpha.write(alphaFile.0, alphaFile.1)
    try beta.indexOnce()
    try alpha.indexOnce()
    return (store, alpha, beta)
  }

  @Test func twoHostsWriteOneStoreAndEachFindsBoth() throws {
    let server = try #require(PostgresServer.shared)
    let store = try server.newDatabase()
    let alpha = try instance(store, host: "alpha")
    let beta = try instance(store, host: "beta")
    try alpha.write("notes/wombat.txt", "burrows by the creek\n")
    try beta.write("plans/wombat plan.md", "a creek crossing\n")
    try beta.write("plans/numbat.txt", "termites\n")
    try alpha.indexOnce()
    try beta.indexOnce()

    let both = [uri("alpha", alpha, "notes/wombat.txt"), uri("beta", beta, "plans/wombat plan.md")]
    #expect(try alpha.find("wombat").sorted() == both)
    #expect(try beta.find("creek").sorted() == both)
    // A typo, a narrowing to one host, and the local index alone.
    #expect(try alpha.find("wombta").sorted() == both)
    #expect(try alpha.find("host:beta", "wombat") == [both[1]])
    #expect(try alpha.find("host:gamma", "wombat").isEmpty)
    #expect(
      try alpha.find("--store", "local", "wombat") == [
        FileURI.uri(for: RawPath(alpha.path("notes/wombat.txt")))
      ])
    let counted = try alpha.run("find-in", ["--count", "ext:txt"])
    #expect(counted.stdout == "2\n")
    let json = try alpha.run("find-in", ["--json", "numbat"])
    #expect(json.stdout.contains("\"host\":\"beta\""))
    #expect(json.stdout.contains("\"uri\":\"\(uri("beta", beta, "plans/numbat.txt"))\""))

    let status = try alpha.run("limelight", ["status"])
    #expect(status.stdout.contains("as alpha: "))
    #expect(status.stdout.contains("alpha: 3 entries"))  // home, notes, wombat.txt
    #expect(status.stdout.contains("beta: 4 entries"))

    // One host's changes and a new local index of its own leave the
    // other host's entries as they were.
    try beta.remove("plans/wombat plan.md")
    try beta.indexOnce()
    #expect(try alpha.find("wombat") == [both[0]])
    try FileManager.default.removeItem(atPath: beta.base + "/xdg/data/limelight")
    try beta.write("plans/bilby.txt", "burrows too\n")
    try beta.indexOnce()
    #expect(
      try alpha.find("burrows").sorted() == [both[0], uri("beta", beta, "plans/bilby.txt")])
    #expect(try alpha.find("numbat") == [uri("beta", beta, "plans/numbat.txt")])
    #expect(try alpha.run("limelight", ["status"]).stdout.contains("alpha: 3 entries"))
    // A store that lost rows its host row says were sent (restored from an
    // older backup) gets them again at the host's next start.
    try PostgresConnection(store).execute(
      "DELETE FROM item WHERE host = 'alpha' AND name = 'wombat.txt'")
    #expect(try beta.find("wombat").isEmpty)
    try alpha.indexOnce()
    #expect(try beta.find("wombat") == [both[0]])
  }

  /// A store upgraded to keep the words of paths (v6) has none for the
  /// rows sent before: the upgrade marks every host as not current, and
  /// each sends its entries again at its next start, with their paths'
  /// words, which a word read as folders is looked for in.
  @Test func pathWordsComeWithEachHostsResendAfterTheUpgrade() throws {
    let server = try #require(PostgresServer.shared)
    let store = try server.newDatabase()
    let alpha = try instance(store, host: "alpha")
    try alpha.write("Répertoires/quokka.txt", "marsupial\n")
    try alpha.indexOnce()
    // "répertoires" is read as folders; the words typed are looked for in
    // paths too.
    let words = ["quok", "repertoires"]
    let local = try alpha.find(["--store", "local"] + words)
    #expect(local == [FileURI.uri(for: RawPath(alpha.path("Répertoires/quokka.txt")))])
    let shared = [uri("alpha", alpha, "Répertoires/quokka.txt")]
    #expect(try alpha.find(words) == shared)
    // As the upgrade leaves rows sent before it.
    let connection = try PostgresConnection(store)
    try connection.execute("UPDATE item SET path_words = '', word_count = 0")
    try connection.execute("UPDATE host SET index_id = NULL")
    #expect(try alpha.find(words) != shared)
    try alpha.indexOnce()
    #expect(try alpha.find(words) == shared)
  }

  /// The store searches a person's words as the local index does: the
  /// reading, the names first, e-mail and its sender, words that carry
  /// no meaning left out, and what holds most of the words.
  @Test func theStoreSearchesAPersonsWords() throws {
    let mail = """
      Return-Path: <x@example.org>
      From: Anna Berg <anna@example.org>
      To: Bob <bob@example.org>
      Subject: The budget for 2027
      Message-ID: <budget@example.org>
      Content-Type: text/plain; charset=utf-8

      The budget figures.

      """
    let (_, alpha, beta) = try twoHosts(
      alpha: ("Mail/budget.eml", mail), beta: ("Notes/asyncio.md", "How to use asyncio loops.\n"))
    try beta.write("Notes/yesterday.txt", "a note named for a day\n")
    try beta.indexOnce()
    let now = ["--now", "2026-11-27T12:00:00Z"]
    #expect(
      try alpha.run("find-in", now + ["emails from anna about the budget"]).lines == [
        uri("alpha", alpha, "Mail/budget.eml")
      ])
    #expect(
      try alpha.run("find-in", now + ["how to use asyncio"]).lines == [
        uri("beta", beta, "Notes/asyncio.md")
      ])
    #expect(
      try alpha.run("find-in", now + ["yesterday"]).lines.first
        == uri("beta", beta, "Notes/yesterday.txt"))
    let partial = try alpha.run("find-in", now + ["--json", "asyncio", "zorblatpgalpha"])
    #expect(partial.stdout.contains("\"unmatched\":[\"zorblatpgalpha\"]"), "\(partial.stdout)")
  }

  /// What applications give a watcher's index goes to the store with the
  /// files, under its own URI, found by domain and followed while the
  /// watcher runs (another program wrote it); deleted, it goes.
  @Test func applicationItemsGoToTheStoreWithTheirURIs() throws {
    let server = try #require(PostgresServer.shared)
    let store = try server.newDatabase()
    let alpha = try instance(store, host: "alpha")
    let beta = try instance(store, host: "beta")
    try alpha.write("notes/quoll.txt", "spotted\n")
    let pushed = try alpha.run(
      "limelight", ["index"],
      stdin:
        #"{"id": "7", "domain": "org.example.notes", "uri": "notes://7", "attributes": {"title": "Quoll census", "textContent": "counted at dusk"}}"#
    )
    #expect(pushed.status == 0, "\(pushed.stderr)")
    try alpha.indexOnce()
    #expect(
      try beta.find("quoll").sorted() == [
        "file://alpha" + alpha.path("notes/quoll.txt"), "notes://7",
      ]
    )
    #expect(try beta.find("dusk") == ["notes://7"])
    #expect(try beta.find("domain:org.example", "quoll") == ["notes://7"])
    #expect(try beta.find("-domain:org.example", "quoll").count == 1)
    let json = try beta.run("find-in", ["--json", "census"]).stdout
    #expect(json.contains("\"domain\":\"org.example.notes\""), "\(json)")
    #expect(json.contains("\"host\":\"alpha\""), "\(json)")

    // While the watcher runs, what `limelight index` and `delete` write
    // (no commit of the watcher's) reaches the store.
    try alpha.startWatcher()
    let second = try alpha.run(
      "limelight", ["index"],
      stdin:
        #"{"id": "8", "domain": "org.example.notes", "uri": "notes://8", "attributes": {"title": "Quoll tracks"}}"#
    )
    #expect(second.status == 0, "\(second.stderr)")
    try beta.waitFor("the new item in the store") { try beta.find("tracks") == ["notes://8"] }
    #expect(try alpha.run("limelight", ["delete", "--id", "7"]).status == 0)
    try beta.waitFor("the deleted item gone from the store") { try beta.find("census").isEmpty }
    #expect(try beta.find("tracks") == ["notes://8"])
  }

  /// `limelight show` of another host's URI reads the store; this host's
  /// URI (and a path) the local index, or the store with --store.
  @Test func showReadsAnotherHostsEntryFromTheStore() throws {
    let (store, alpha, beta) = try twoHosts(
      alpha: ("notes/quokka.txt", "smiles\n"),
      beta: ("plans/numbat plan.txt", "termites by the dozen\n"))

    let remote = uri("beta", beta, "plans/numbat plan.txt")
    let shown = try alpha.run("limelight", ["show", "--json", remote])
    #expect(shown.status == 0, "\(shown.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
    #expect(object["host"] as? String == "beta")
    #expect(object["uri"] as? String == remote)
    #expect(object["path"] as? String == beta.path("plans/numbat plan.txt"))
    #expect(object["displayName"] as? String == "numbat plan.txt")
    #expect(object["contentType"] as? String == "text/plain")
    #expect(object["size"] as? Int == 22)
    #expect(object["textContentLength"] as? Int == "termites by the dozen".count)
    // What the importers read besides: as the host's own index has it.
    let atHome = try beta.run(
      "limelight", ["show", "--json", beta.path("plans/numbat plan.txt")])
    let itsOwn = try #require(
      try JSONSerialization.jsonObject(with: Data(atHome.stdout.utf8)) as? [String: Any])
    #expect(object["kind"] as? String == itsOwn["kind"] as? String && itsOwn["kind"] != nil)
    #expect(object["contentDescription"] as? String == "termites by the dozen")
    let listing = try alpha.run("limelight", ["show", remote]).stdout
    #expect(listing.contains("host "), "\(listing)")
    #expect(listing.contains("= \"beta\""), "\(listing)")

    // This host's URI is the local index's item (every attribute), and the
    // store's entry with --store.
    let own = uri("alpha", alpha, "notes/quokka.txt")
    let local = try alpha.run("limelight", ["show", "--json", own])
    #expect(local.status == 0 && local.stdout.contains("\"generation\""), "\(local.stderr)")
    let sent = try alpha.run("limelight", ["show", "--json", "--store", store, own])
    #expect(sent.stdout.contains("\"host\":\"alpha\""), "\(sent.stderr)")
    let byPath = try alpha.run(
      "limelight", ["show", "--store", store, alpha.path("notes/quokka.txt")])
    #expect(byPath.status == 0 && byPath.stdout.contains("quokka.txt"), "\(byPath.stderr)")

    // What no host sent, another host without a store named, a store away.
    let missing = try alpha.run("limelight", ["show", uri("beta", beta, "plans/none.txt")])
    #expect(missing.status == 1 && missing.stderr.contains("no item"), "\(missing.stderr)")
    let lone = try Instance()
    let unnamed = try lone.run("limelight", ["show", remote])
    #expect(unnamed.status == 2 && unnamed.stderr.contains("is on beta"), "\(unnamed.stderr)")
    let away = try lone.run(
      "limelight", ["show", "--store", "host=/nonexistent port=1 dbname=x", remote])
    #expect(away.status == 2 && !away.stderr.isEmpty)
  }

  /// `find-in -i` searches the store `find-in` would: every host's
  /// entries, another host's with its host and folder there and a snippet
  /// of the store's words; Tab prints their URIs; another host's entry
  /// cannot be opened here (nor with `--open`), this host's opens as its
  /// own.
  @Test func thePickerSearchesTheStore() throws {
    let (_, alpha, beta) = try twoHosts(
      alpha: ("notes/numbat notes.txt", "a walk\n"),
      beta: ("plans/numbat plan.txt", "termites by the dozen for the numbat\n"))
    let opened = alpha.base + "/opened"
    try alpha.standIn("xdg-open", recordingTo: opened)
    let tmux = try TmuxServer(socket: alpha.base + "/tmux", environment: alpha.environment)
    func start(_ words: String) throws {
      try? FileManager.default.removeItem(atPath: alpha.base + "/status")
      let command =
        "'\(Instance.binDirectory)/find-in' -i \(words) > '\(alpha.base)/picked';"
        + " echo $? > '\(alpha.base)/status'; sleep 60"
      try tmux.run(["new-session", "-d", "-s", "picker", "-x", "100", "-y", "24", command])
    }
    func screen(until ready: (String) -> Bool) throws -> String {
      var shown = ""
      try alpha.waitFor("the screen to show it", seconds: 10) {
        shown = try tmux.run(["capture-pane", "-p", "-t", "picker"])
        return ready(shown)
      }
      return shown
    }
    func status() throws -> String {
      try alpha.waitFor("the picker to leave", seconds: 10) {
        FileManager.default.fileExists(atPath: alpha.base + "/status")
      }
      return try String(contentsOfFile: alpha.base + "/status", encoding: .utf8)
    }

    try start("numbat termites")
    let shown = try screen { $0.contains("1 result") }
    #expect(shown.contains("numbat plan.txt  beta:" + beta.path("plans")), "\(shown)")
    #expect(shown.contains("[termites] by the dozen for the [numbat]"), "\(shown)")
    try tmux.run(["send-keys", "-t", "picker", "Tab"])
    #expect(try status() == "0\n")
    let picked = try String(contentsOfFile: alpha.base + "/picked", encoding: .utf8)
    #expect(picked == uri("beta", beta, "plans/numbat plan.txt") + "\n")
    try tmux.run(["kill-session", "-t", "picker"])

    // Another host's entry is not opened; this host's is, as its own file.
    try start("numbat plan")
    _ = try screen { $0.contains("1 result") }
    try tmux.run(["send-keys", "-t", "picker", "Enter"])
    #expect(try status() != "0\n")
    #expect(!FileManager.default.fileExists(atPath: opened))
    try tmux.run(["kill-session", "-t", "picker"])
    try start("numbat notes")
    _ = try screen { $0.contains("1 result") }
    try tmux.run(["send-keys", "-t", "picker", "Enter"])
    #expect(try status() == "0\n")
    let handed = try String(contentsOfFile: opened, encoding: .utf8)
    #expect(handed.contains(FileURI.uri(for: RawPath(alpha.path("notes/numbat notes.txt")))))

    // `find-in --open` alike.
    try FileManager.default.removeItem(atPath: opened)
    let elsewhere = try alpha.run("find-in", ["--open", "numbat", "plan"])
    #expect(elsewhere.status != 0 && elsewhere.stderr.contains("is on beta"), "\(elsewhere)")
    #expect(!FileManager.default.fileExists(atPath: opened))
    let here = try alpha.run("find-in", ["--open", "numbat", "notes"])
    #expect(here.status == 0 && here.stdout == uri("alpha", alpha, "notes/numbat notes.txt") + "\n")
    #expect(FileManager.default.fileExists(atPath: opened))
  }

  /// Each entry carries who may find it, read from the disk: its folder's
  /// owner, group and mode, then each folder above that others may not pass.
  @Test func entriesCarryTheirFoldersOwnershipForRowLevelSecurity() throws {
    let server = try #require(PostgresServer.shared)
    let store = try server.newDatabase()
    let alpha = try instance(store, host: "alpha")
    try alpha.write("private/diary.txt", "numbat\n")
    try alpha.write("open/list.txt", "bilby\n")
    chmod(alpha.path("private"), 0o700)
    chmod(alpha.path("open"), 0o755)
    // Whatever the umask made it (another test's index may have narrowed
    // it for a moment): others may pass the home folder.
    chmod(alpha.home, 0o755)
    try alpha.indexOnce()
    func triple(_ path: String) throws -> [Int] {
      let own = try #require(FileSystem.ownership(RawPath(path)))
      return [Int(own.owner), Int(own.group), Int(own.mode)]
    }
    // The instance's own folder (made private by mkdtemp) is the one above
    // the home that others may not pass.
    let gate = try triple(alpha.base)
    #expect(gate[2] & 0o001 == 0)
    let owner = try PostgresConnection(store)
    func reach(_ relative: String) throws -> [Int] {
      let text =
        try owner.execute(
          "SELECT reach FROM item WHERE path = convert_to($1, 'UTF8')", [alpha.path(relative)]
        ).rows.first?.first ?? nil
      return (text ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "{}"))
        .split(separator: ",").compactMap { Int($0) }
    }
    #expect(try reach("private/diary.txt") == (try triple(alpha.path("private"))) + gate)
    #expect(try reach("open/list.txt") == (try triple(alpha.path("open"))) + gate)
  }

  @Test func aStoreNameWithAPasswordOrAStoreAwayIsRefusedClearly() throws {
    let alpha = try Instance()
    try alpha.config("store = postgresql://me:secret@db.example/limelight\n")
    let watcher = try alpha.run("limelightd", ["--once"])
    #expect(watcher.status != 0)
    #expect(watcher.stderr.contains("must not hold a password"))
    let query = try alpha.run("find-in", ["--store", "host=/nonexistent/folder dbname=x", "a"])
    #expect(query.status == 2)
    #expect(query.stderr.contains("cannot be reached"))
  }

  /// A store away is tried again as the log says, 1, 2, 4 … seconds
  /// apart, however often the watcher writes meanwhile.
  @Test func aStoreAwayIsTriedAgainWhenItsWaitIsOut() throws {
    let alpha = try Instance()
    try alpha.config("store = host=\(alpha.base)/no-server dbname=x\nhost-name = alpha\n")
    try alpha.startWatcher(waitingForCrawl: false)
    defer { alpha.stopWatcher() }
    try alpha.waitFor("the store said away") { alpha.log.contains("trying again in 1 s") }
    let started = Date()
    // A write a quarter of a second, each a commit of the watcher's.
    var written = 0
    while Date().timeIntervalSince(started) < 5 {
      try alpha.write("notes/\(written).txt", "numbat \(written)\n")
      written += 1
      usleep(250_000)
    }
    try alpha.waitFor("the files in the local index") {
      try alpha.find("--store", "local", "numbat").count == written
    }
    // Tried at 0, 1, 3, 7, 15 … s after the first: by t seconds, about
    // log2(t + 1) + 1 tries (one more allowed for the time the first
    // took to be seen), where a try at every commit made twenty.
    let seconds = Date().timeIntervalSince(started) + 1
    let tries = alpha.log.components(separatedBy: "trying again in").count - 1
    #expect(tries >= 2)
    #expect(tries <= Int(log2(seconds + 1)) + 2, "\(tries) tries in \(seconds) s: \(alpha.log)")
  }

  @Test func liveFollowsAnotherHostsChanges() throws {
    let server = try #require(PostgresServer.shared)
    let store = try server.newDatabase()
    let alpha = try instance(store, host: "alpha")
    let beta = try instance(store, host: "beta")
    try alpha.write("quoll.txt", "quoll\n")
    try alpha.indexOnce()
    try beta.indexOnce()
    let live = try alpha.findRunning(["--live", "quoll"])
    func lines() -> [String] { live.lines }
    try alpha.waitFor("the first results") { lines() == [uri("alpha", alpha, "quoll.txt")] }
    try beta.write("quoll sighting.txt", "quoll\n")
    try beta.indexOnce()
    try alpha.waitFor("the other host's addition") {
      lines().last == "+ " + uri("beta", beta, "quoll sighting.txt")
    }
    try beta.remove("quoll sighting.txt")
    try beta.indexOnce()
    try alpha.waitFor("the other host's removal") {
      lines().last == "- " + uri("beta", beta, "quoll sighting.txt")
    }
  }

  /// A team's reads go to a hot standby (`store-read`), the watchers'
  /// writes to the primary: a search reads the standby (it answers with
  /// the primary stopped), a follower reads its changes there once the
  /// standby has replayed them, status says how the standby stands, a
  /// standby away is said and the primary read instead, and a promoted
  /// one is said to be a primary.
  @Test func searchesReadAStandbyAndThePrimaryWhenItIsAway() throws {
    let primary = try PostgresServer()
    let store = try primary.newDatabase()
    let standby = try PostgresServer(standbyOf: primary)
    let standbyStore = standby.sameDatabase(store)
    let alpha = try Instance()
    try alpha.config("store = \(store)\nstore-read = \(standbyStore)\nhost-name = alpha\n")
    try alpha.write("bandicoot.txt", "bandicoot\n")
    try alpha.indexOnce()
    let first = uri("alpha", alpha, "bandicoot.txt")
    try alpha.waitFor("the entry replayed on the standby") {
      try alpha.find("bandicoot") == [first]
    }
    let status = try alpha.run("limelight", ["status"]).stdout
    #expect(status.contains("read from"), "\(status)")
    #expect(status.contains("\(standbyStore): standby, "), "\(status)")

    // A follower: its first results and a change, read on the standby.
    let live = try alpha.findRunning(["--live", "bandicoot"])
    try alpha.waitFor("the first results") { live.lines == [first] }
    try alpha.write("bandicoot 2.txt", "bandicoot\n")
    try alpha.indexOnce()
    let second = uri("alpha", alpha, "bandicoot 2.txt")
    try alpha.waitFor("the follower's addition") { live.lines.last == "+ " + second }

    // The primary away: the standby still answers searches and `show`.
    try primary.stop()
    let found = try alpha.run("find-in", ["bandicoot"])
    #expect(found.status == 0 && found.stdout.split(separator: "\n").count == 2, "\(found)")
    let shown = try alpha.run("limelight", ["show", "--store", store, second])
    #expect(shown.status == 0 && shown.stdout.contains("bandicoot 2.txt"), "\(shown)")
    try primary.start()

    // The standby away: said on standard error, and the primary read.
    try standby.stop()
    let fellBack = try alpha.run("find-in", ["bandicoot"])
    #expect(fellBack.status == 0 && fellBack.stdout.split(separator: "\n").count == 2)
    #expect(fellBack.stderr.contains("standby cannot be read"), "\(fellBack.stderr)")
    #expect(
      try alpha.run("limelight", ["status"]).stdout.contains("AWAY, searches read the primary"))
    let named = try alpha.run(
      "find-in", ["--store-read", standbyStore, "--store", store, "bandicoot"])
    #expect(named.status == 0 && named.stderr.contains("standby cannot be read"))

    // Promoted (its primary lost for good): a primary of its own, said so.
    try standby.start()
    try standby.promote()
    try alpha.waitFor("the promotion") {
      try alpha.run("limelight", ["status"]).stdout.contains("a primary, not a standby")
    }
  }

  /// The primary lost for good with writes its standby never replayed,
  /// the standby promoted and named as the store: each host's next start
  /// sends what the promoted store lacks (its host row says which of the
  /// host's generations its rows reflect), so nothing is lost, removals
  /// included.
  @Test func aPromotedStandbyGetsWhatItNeverReplayedFromEachHost() throws {
    let primary = try PostgresServer()
    let store = try primary.newDatabase()
    let standby = try PostgresServer(standbyOf: primary)
    let promoted = standby.sameDatabase(store)
    let alpha = try instance(store, host: "alpha")
    try alpha.write("kept.txt", "quokka\n")
    try alpha.write("gone.txt", "quokka\n")
    try alpha.indexOnce()
    try alpha.waitFor("the first entries replayed on the standby") {
      try alpha.find("--store", promoted, "quokka").count == 2
    }
    // The standby stops following; the primary takes writes it never sees.
    try standby.stop()
    try alpha.write("late.txt", "quokka\n")
    try alpha.remove("gone.txt")
    try alpha.indexOnce()
    #expect(try alpha.find("quokka").count == 2)  // kept and late, on the primary
    try primary.stop()
    try standby.start()
    try standby.promote()
    #expect(
      try alpha.find("--store", promoted, "quokka").sorted()
        == [uri("alpha", alpha, "gone.txt"), uri("alpha", alpha, "kept.txt")])
    // Named as the store: the host's next start sends what it lacks.
    try alpha.config("store = \(promoted)\nhost-name = alpha\n")
    try alpha.indexOnce()
    #expect(
      try alpha.find("quokka").sorted()
        == [uri("alpha", alpha, "kept.txt"), uri("alpha", alpha, "late.txt")])
  }

  /// A server of the test's own, a store on it, and host alpha's watcher
  /// running with a first file (holding `word`) found in the store.
  func alphaSending(
    _ word: String, variables: [String: String] = [:]
  ) throws -> (server: PostgresServer, store: String, alpha: Instance) {
    let server = try PostgresServer()
    let store = try server.newDatabase()
    let alpha = try instance(store, host: "alpha")
    alpha.variables = variables
    try alpha.write("first.txt", "\(word)\n")
    try alpha.startWatcher()
    try alpha.waitFor("the first file in the store") {
      try alpha.find(word) == [uri("alpha", alpha, "first.txt")]
    }
    return (server, store, alpha)
  }

  /// The store goes away while the watcher works: its changes wait in the
  /// local index, status says so, a query says the store is unreachable,
  /// and everything is sent once the store is back.
  @Test func aWatcherKeepsItsChangesWhileTheStoreIsAwayAndSendsThemAfter() throws {
    let (server, store, alpha) = try alphaSending("potoroo")
    // The query service keeps its connection between searches: the
    // server's process that ran the last one waits for the next.
    #expect(try alpha.find("potoroo") == [uri("alpha", alpha, "first.txt")])
    #expect(
      try server.psql(
        store,
        "SELECT count(*) FROM pg_stat_activity WHERE state = 'idle'"
          + " AND query LIKE 'SELECT host, encode(path, ''hex'')%'") == "1")
    try server.stop()
    for n in 0..<20 { try alpha.write("later/\(n).txt", "potoroo \(n)\n") }
    try alpha.remove("first.txt")
    try alpha.waitFor("the watcher reporting the store unreachable") {
      try alpha.run("limelight", ["status"]).stdout.contains("UNREACHABLE")
    }
    let away = try alpha.run("find-in", ["potoroo"])
    #expect(away.status == 2)
    #expect(away.stderr.contains("cannot be reached"))
    // The local index has them meanwhile.
    try alpha.waitFor("the changes in the local index") {
      try alpha.find("--store", "local", "potoroo").count == 20
    }
    try server.start()
    let expected = (0..<20).map { uri("alpha", alpha, "later/\($0).txt") }.sorted()
    try alpha.waitFor("the changes sent once the store is back", seconds: 60) {
      try alpha.find("potoroo").sorted() == expected
    }
    try alpha.waitFor("the watcher reporting the store current") {
      try alpha.run("limelight", ["status"]).stdout.contains("as alpha: current")
    }
  }

  /// A whole send (a host new to the store, or one the store asks for
  /// everything again) tells `limelight status` how far it is: what it has
  /// sent of every entry, not the generations to go, a number that rose
  /// all through a first send of 355,000 entries as the watcher wrote.
  @Test func aWholeSendTellsHowFarItIs() throws {
    let server = try #require(PostgresServer.shared)
    let store = try server.newDatabase()
    let beta = try instance(store, host: "beta")
    for n in 0..<3 { try beta.write("notes/\(n).txt", "bettong \(n)\n") }
    try beta.indexOnce()
    // The store no longer knows which index its rows reflect, as after an
    // upgrade that asks for everything again; and it takes no write.
    _ = try server.psql(store, "UPDATE host SET index_id = NULL")
    let holder = try server.session(
      store, running: "BEGIN; LOCK TABLE item IN SHARE MODE; SELECT pg_sleep(600);")
    defer { holder.terminate() }
    try beta.waitFor("the entries' table held") {
      try server.psql(
        store,
        "SELECT count(*) FROM pg_locks WHERE relation = 'item'::regclass AND mode = 'ShareLock'"
          + " AND granted") == "1"
    }
    try beta.startWatcher()
    // The home folder, notes and its three files.
    try beta.waitFor("the send telling how far it is") {
      try beta.run("limelight", ["status"]).stdout.contains(
        "as beta: sending every entry: 0 of 5 sent")
    }
    // The session ends (its server process would sleep on, the lock held).
    _ = try server.psql(
      store,
      "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE relation = 'item'::regclass"
        + " AND mode = 'ShareLock'")
    try beta.waitFor("the store current once it takes writes", seconds: 60) {
      try beta.run("limelight", ["status"]).stdout.contains("as beta: current")
    }
    let status = try beta.run("limelight", ["status", "--json"]).stdout
    #expect(!status.contains("\"progress\""), "\(status)")
    #expect(try beta.find("bettong").count == 3)
  }

  /// The primary restarting while a host sends, its transaction open in
  /// the middle of a page: the page is rolled back, and the host sends it
  /// again once the server is back; the store then holds each entry once.
  @Test func aPrimaryRestartedInTheMiddleOfASendLosesNothing() throws {
    let (server, store, alpha) = try alphaSending("quokka")
    // A session that holds the entries' table against writes: the host's
    // next page waits for it, its transaction begun.
    let holder = try server.session(
      store, running: "BEGIN; LOCK TABLE item IN SHARE MODE; SELECT pg_sleep(600);")
    defer { holder.terminate() }
    let files = 1_200
    for n in 0..<files { try alpha.write("batch/\(n / 100)/\(n).txt", "quokka \(n)\n") }
    try alpha.waitFor("the host's page waiting in its transaction", seconds: 60) {
      try server.psql(
        store,
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
          + " AND state = 'active' AND query NOT LIKE '%pg_stat_activity%'") == "1"
    }
    try server.stop()
    try server.start()
    try alpha.waitFor("every entry sent once the server is back", seconds: 90) {
      try alpha.find("--count", "quokka") == ["\(files + 1)"]
    }
    try alpha.waitFor("the watcher reporting the store current") {
      try alpha.run("limelight", ["status"]).stdout.contains("as alpha: current")
    }
    // Every file of the page rolled back, with its text, and its folders.
    #expect(
      try server.psql(
        store,
        "SELECT count(*), count(*) FILTER (WHERE limelight_text(text_hash) LIKE 'quokka%')"
          + " FROM item WHERE host = 'alpha' AND convert_from(path, 'UTF8') LIKE '%/batch/%' AND NOT folder"
      )
        == "\(files)|\(files)")
    #expect(
      try server.psql(
        store,
        "SELECT count(*) FROM item WHERE host = 'alpha' AND convert_from(path, 'UTF8') LIKE '%/batch/%' AND folder"
      ) == "12")
  }

  /// A server that stops answering on the connections already made (its
  /// host frozen, the network cut without a word): a search says so and
  /// ends instead of waiting for good, the watcher reports the store
  /// unreachable and keeps its changes, and sends them once it answers.
  @Test func aStoreThatStopsAnsweringIsGivenUpOnAndItsChangesKept() throws {
    let (server, _, alpha) = try alphaSending(
      "wallaby", variables: ["LIMELIGHT_STORE_ANSWER_SECONDS": "2"])
    try server.freeze(true)
    var thawed = false
    defer { if !thawed { try? server.freeze(false) } }
    try alpha.write("later.txt", "wallaby again\n")
    try alpha.waitFor("the watcher giving up on the statement", seconds: 30) {
      alpha.log.contains("the server did not answer within 2 s")
    }
    try alpha.waitFor("the watcher reporting the store unreachable") {
      try alpha.run("limelight", ["status"]).stdout.contains("UNREACHABLE")
    }
    let search = try alpha.run("find-in", ["wallaby"])
    #expect(search.status == 2)
    #expect(search.stderr.contains("cannot be reached"), "\(search.stderr)")
    #expect(try alpha.find("--store", "local", "wallaby").count == 2)
    try server.freeze(false)
    thawed = true
    try alpha.waitFor("the change sent once the server answers", seconds: 60) {
      try alpha.find("wallaby").sorted()
        == [uri("alpha", alpha, "first.txt"), uri("alpha", alpha, "later.txt")].sorted()
    }
  }
}
