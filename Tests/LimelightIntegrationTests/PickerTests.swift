import Foundation
import LimelightModel
import LimelightPlatform
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `find-in -i` on a real terminal: tmux runs it, keys are sent as a user
/// types them, and the screen is read back.
@Suite(.serialized) struct PickerTests {
  let instance: Instance
  let tmux: TmuxServer
  let opened: String

  init() throws {
    instance = try Instance()
    try instance.write("Documents/lighthouse-report.txt", "quarterly budget lighthouse beam\n")
    try instance.write("Documents/Lighthouse keeper notes.md", "the keeper's log\n")
    try instance.write("Pictures/灯台の写真.txt", "lighthouse photo\n")
    try instance.indexOnce()
    opened = instance.base + "/opened"
    try instance.standIn("xdg-open", recordingTo: opened)
    tmux = try TmuxServer(socket: instance.base + "/tmux", environment: instance.environment)
  }

  /// Starts the picker in an 80×24 terminal; its standard output and exit
  /// status go to files.
  func start(_ words: String, environment: [String: String] = [:]) throws {
    let variables = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
    let command =
      "env \(variables) '\(Instance.binDirectory)/find-in' -i \(words)"
      + " > '\(instance.base)/picked'; echo $? > '\(instance.base)/status'; sleep 60"
    try tmux.run(["new-session", "-d", "-s", "picker", "-x", "80", "-y", "24", command])
  }

  var picked: String {
    (try? String(contentsOfFile: instance.base + "/picked", encoding: .utf8)) ?? ""
  }

  /// The exit status once the picker has left.
  func status() throws -> Int32? {
    try instance.waitFor("the picker to leave", seconds: 10) {
      FileManager.default.fileExists(atPath: instance.base + "/status")
    }
    return Int32(
      (try String(contentsOfFile: instance.base + "/status", encoding: .utf8))
        .trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// The screen once it shows what `ready` looks for.
  func screen(escapes: Bool = false, until ready: (String) -> Bool) throws -> String {
    var shown = ""
    do {
      try instance.waitFor("the screen to show it", seconds: 10) {
        shown = try tmux.run(["capture-pane", "-p", "-t", "picker"] + (escapes ? ["-e"] : []))
        return ready(shown)
      }
    } catch {
      Issue.record("the screen was:\n\(shown)")
      throw error
    }
    return shown
  }

  /// The screen's lines, without the empty ones at its end.
  func lines(_ screen: String) -> [String] {
    var lines = screen.components(separatedBy: "\n")
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }

  @Test func resultsFollowTheKeysAndTabPrintsTheChoice() throws {
    try start("lighthouse")
    var shown = try screen { $0.contains("3 results") }
    #expect(lines(shown)[0].hasPrefix("> lighthouse"))
    #expect(lines(shown)[0].hasSuffix("3 results"))
    // The selected result shows its kind, date and snippet under it.
    #expect(lines(shown)[1].hasPrefix(">  "), "\(shown)")
    #expect(shown.contains("Lighthouse keeper notes.md  ~/Documents"))
    #expect(shown.contains("灯台の写真.txt  ~/Pictures"))
    #expect(lines(shown).last?.contains("Enter open") == true)

    try tmux.run(["send-keys", "-t", "picker", " kee"])
    shown = try screen { $0.contains("1 result") && !$0.contains("3 results") }
    #expect(lines(shown)[0].hasPrefix("> lighthouse kee"))
    #expect(lines(shown)[1].contains("Lighthouse keeper notes.md"))
    #expect(lines(shown)[2].contains("Markdown document · today"))
    try tmux.run(["send-keys", "-t", "picker", "BSpace", "BSpace", "BSpace", "BSpace"])
    shown = try screen { $0.contains("3 results") }
    // Down moves to the second result; Tab prints its URI and leaves.
    let paths = [
      "lighthouse-report.txt": "Documents/lighthouse-report.txt",
      "Lighthouse keeper notes.md": "Documents/Lighthouse keeper notes.md",
      "灯台の写真.txt": "Pictures/灯台の写真.txt",
    ]
    let listed = lines(shown).compactMap { line in paths.keys.first { line.contains($0 + "  ~/") } }
    #expect(listed.count == 3, "\(shown)")
    // The selection stayed on the item it was on (the notes); Down goes to the next.
    let selected = try #require(
      lines(shown).first { $0.hasPrefix(">  ") }.flatMap { line in
        listed.firstIndex { line.contains($0) }
      })
    #expect(listed[selected] == "Lighthouse keeper notes.md")
    let next = listed[(selected + 1) % 3]
    try tmux.run(["send-keys", "-t", "picker", selected == 2 ? "Up" : "Down"])
    let wanted = selected == 2 ? listed[1] : next
    _ = try screen { lines($0).contains { $0.hasPrefix(">  \(wanted)  ") } }
    try tmux.run(["send-keys", "-t", "picker", "Tab"])
    #expect(try status() == 0)
    #expect(picked == FileURI.uri(for: RawPath(instance.path(paths[wanted]!))) + "\n")
    #expect(!FileManager.default.fileExists(atPath: opened))
  }

  @Test func theReadingShowsUnderTheQueryAsItIsTyped() throws {
    try start("text")
    var shown = try screen { $0.contains("= kind:text") }
    #expect(lines(shown)[1] == "  = kind:text", "\(shown)")
    try tmux.run(["send-keys", "-t", "picker", " from today"])
    shown = try screen { $0.contains("modified:today") || $0.contains("modified:20") }
    #expect(lines(shown)[1].hasPrefix("  = kind:text modified:"), "\(shown)")
    #expect(shown.contains("lighthouse-report.txt"))
    // Words that read as nothing show no reading.
    try tmux.run(["send-keys", "-t", "picker", "C-u", "lighthouse"])
    // The screen before held three results too: wait for the new query's.
    shown = try screen { lines($0).first?.hasPrefix("> lighthouse ") == true }
    #expect(lines(shown)[0].hasSuffix("3 results"), "\(shown)")
    #expect(!shown.contains("  = "), "\(shown)")
    try tmux.run(["send-keys", "-t", "picker", "Escape"])
    #expect(try status() == 1)
  }

  @Test func aScreenOfResultsAtATimeMoreAsTheSelectionGoesDown() throws {
    for n in 1...30 { try instance.write("Ledgers/ledger \(n).txt", "accounts\n") }
    try instance.indexOnce()
    try start("ledger")
    // 24 rows hold 21 results: a key asks for no more than those.
    var shown = try screen { $0.contains("21+ results") }
    try tmux.run(["send-keys", "-t", "picker", "PageDown"])
    // The folder is a match too.
    shown = try screen { $0.contains("31 results") }
    try tmux.run(["send-keys", "-t", "picker", "PageDown"])
    // The last of the 31, at the foot of the list.
    shown = try screen { screen in
      let shown = lines(screen)
      return shown.count > 21 && shown[21].hasPrefix(">  ")
    }
    #expect(lines(shown)[1...20].allSatisfy { $0.contains("edger") }, "\(shown)")
    try tmux.run(["send-keys", "-t", "picker", "Tab"])
    #expect(try status() == 0)
    #expect(picked.hasPrefix(FileURI.uri(for: RawPath(instance.path("Ledgers")))))
  }

  @Test func enterOpensAltEnterOpensTheFolderEscapeLeaves() throws {
    try start("keeper")
    _ = try screen { $0.contains("1 result") }
    try tmux.run(["send-keys", "-t", "picker", "Enter"])
    #expect(try status() == 0)
    let notes = FileURI.uri(for: RawPath(instance.path("Documents/Lighthouse keeper notes.md")))
    #expect(picked == notes + "\n")
    #expect(try String(contentsOfFile: opened, encoding: .utf8) == notes + "\n")
    // Opening records the use, as find-in --open does.
    #expect(try instance.run("find-in", ["used:today"]).lines == [notes])

    try tmux.run(["kill-session", "-t", "picker"])
    try FileManager.default.removeItem(atPath: instance.base + "/status")
    try start("report")
    _ = try screen { $0.contains("1 result") }
    try tmux.run(["send-keys", "-t", "picker", "M-Enter"])
    #expect(try status() == 0)
    let folder = FileURI.uri(for: RawPath(instance.path("Documents")))
    #expect(try String(contentsOfFile: opened, encoding: .utf8) == notes + "\n" + folder + "\n")

    try tmux.run(["kill-session", "-t", "picker"])
    try FileManager.default.removeItem(atPath: instance.base + "/status")
    try start("")
    _ = try screen { $0.hasPrefix(">") }
    try tmux.run(["send-keys", "-t", "picker", "nothing-like-this-anywhere"])
    _ = try screen { $0.contains("nothing-like-this-anywhere") }
    try tmux.run(["send-keys", "-t", "picker", "Escape"])
    #expect(try status() == 1)
    #expect(picked.isEmpty)
  }

  @Test func colourOnlyWhenAllowedAndRedrawnAfterAResize() throws {
    try start("lighthouse")
    let plain = try screen(escapes: true) { $0.contains("3 results") }
    #expect(!plain.contains("\u{1B}["), "NO_COLOR is set, yet: \(plain.debugDescription)")
    try tmux.run(["resize-window", "-t", "picker", "-x", "100", "-y", "30"])
    let wider = try screen { lines($0)[0].count == 100 }
    #expect(lines(wider)[0].hasSuffix("3 results"))
    try tmux.run(["send-keys", "-t", "picker", "C-c"])
    #expect(try status() == 1)

    try tmux.run(["kill-session", "-t", "picker"])
    try FileManager.default.removeItem(atPath: instance.base + "/status")
    try start("lighthouse", environment: ["NO_COLOR": "", "TERM": "xterm-256color"])
    let coloured = try screen(escapes: true) { $0.contains("3 results") }
    #expect(coloured.contains("\u{1B}["), "\(coloured.debugDescription)")
    try tmux.run(["send-keys", "-t", "picker", "Escape"])
    #expect(try status() == 1)
  }

  @Test func withoutATerminalItSaysSo() throws {
    let result = try instance.run(
      "/usr/bin/setsid", ["-w", Instance.binDirectory + "/find-in", "-i", "x"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("needs a terminal"), "\(result.stderr)")
    let mixed = try instance.run("find-in", ["-i", "--json", "x"])
    #expect(mixed.status == 2)
    #expect(mixed.stderr.contains("-i cannot be used with --json"), "\(mixed.stderr)")
  }
}

/// A tmux server of a test's own (its own socket), in the foreground as a
/// child of the test (a daemon would hold the test's handles), stopped when
/// the test ends.
final class TmuxServer {
  let socket: String
  let environment: [String: String]
  let server = Process()

  init(socket: String, environment: [String: String]) throws {
    (self.socket, self.environment) = (socket, environment)
    server.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
    server.arguments = ["-S", socket, "-f", "/dev/null", "-D"]
    server.environment = environment
    server.standardInput = FileHandle.nullDevice
    server.standardOutput = FileHandle.nullDevice
    server.standardError = FileHandle.nullDevice
    try server.run()
    let deadline = Date().addingTimeInterval(10)
    while access(socket, F_OK) != 0 && Date() < deadline { usleep(20_000) }
  }

  @discardableResult
  func run(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
    process.arguments = ["-S", socket, "-f", "/dev/null"] + arguments
    process.environment = environment
    // A file, not a pipe: the server tmux starts would hold a pipe open.
    let output = socket + ".out"
    _ = FileManager.default.createFile(atPath: output, contents: nil)
    process.standardOutput = FileHandle(forWritingAtPath: output)
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
  }

  deinit { PrivateBus.stop(server) }
}
