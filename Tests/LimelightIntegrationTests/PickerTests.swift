import Foundation
import LimelightModel
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `find-in -i` on a real terminal: tmux runs it, keys are sent as a user
/// types them, and the screen is read back.
@Suite struct PickerTests {
  let instance: Instance
  let tmux: TmuxServer
  let opened: String

  init() throws {
    instance = try Instance()
    try instance.write("Documents/lighthouse-report.txt", "quarterly budget lighthouse beam\n")
    try instance.write("Documents/Lighthouse keeper notes.md", "the keeper's log\n")
    try instance.write("Pictures/灯台の写真.txt", "lighthouse photo\n")
    try instance.indexOnce()
    let bin = instance.base + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    opened = instance.base + "/opened"
    try "#!/bin/sh\necho \"$@\" >> '\(opened)'\n".write(
      toFile: bin + "/xdg-open", atomically: true, encoding: .utf8)
    #expect(chmod(bin + "/xdg-open", 0o755) == 0)
    tmux = TmuxServer(socket: instance.base + "/tmux", environment: instance.environment)
  }

  /// Starts the picker in an 80×24 terminal; its standard output and exit
  /// status go to files.
  func start(_ words: String, environment: [String: String] = [:]) throws {
    let variables = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
    let command =
      "env \(variables) '\(Instance.binDirectory)/find-in' -i \(words)"
      + " > '\(instance.base)/picked'; echo $? > '\(instance.base)/status'; sleep 60"
    try tmux.run(["new-session", "-d", "-x", "80", "-y", "24", command])
  }

  var picked: String { (try? String(contentsOfFile: instance.base + "/picked", encoding: .utf8)) ?? "" }

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
    try instance.waitFor("the screen to show it", seconds: 10) {
      shown = try tmux.run(["capture-pane", "-p"] + (escapes ? ["-e"] : []))
      return ready(shown)
    }
    return shown
  }

  func lines(_ screen: String) -> [String] { screen.components(separatedBy: "\n") }

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

    try tmux.run(["send-keys", " kee"])
    shown = try screen { $0.contains("1 result") && !$0.contains("3 results") }
    #expect(lines(shown)[0].hasPrefix("> lighthouse kee"))
    #expect(lines(shown)[1].contains("Lighthouse keeper notes.md"))
    #expect(lines(shown)[2].contains("Markdown document · today"))
    try tmux.run(["send-keys", "BSpace", "BSpace", "BSpace", "BSpace"])
    shown = try screen { $0.contains("3 results") }
    // Down moves to the second result; Tab prints its URI and leaves.
    let paths = [
      "lighthouse-report.txt": "Documents/lighthouse-report.txt",
      "Lighthouse keeper notes.md": "Documents/Lighthouse keeper notes.md",
      "灯台の写真.txt": "Pictures/灯台の写真.txt",
    ]
    let listed = lines(shown).compactMap { line in paths.keys.first { line.contains($0 + "  ~/") } }
    #expect(listed.count == 3, "\(shown)")
    try tmux.run(["send-keys", "Down"])
    _ = try screen { lines($0).contains { $0.hasPrefix(">  \(listed[1])  ") } }
    try tmux.run(["send-keys", "Tab"])
    #expect(try status() == 0)
    #expect(picked == FileURI.uri(for: RawPath(instance.path(paths[listed[1]]!))) + "\n")
    #expect(!FileManager.default.fileExists(atPath: opened))
  }

  @Test func enterOpensAltEnterOpensTheFolderEscapeLeaves() throws {
    try start("keeper")
    _ = try screen { $0.contains("1 result") }
    try tmux.run(["send-keys", "Enter"])
    #expect(try status() == 0)
    let notes = FileURI.uri(for: RawPath(instance.path("Documents/Lighthouse keeper notes.md")))
    #expect(picked == notes + "\n")
    #expect(try String(contentsOfFile: opened, encoding: .utf8) == notes + "\n")
    // Opening records the use, as find-in --open does.
    #expect(try instance.run("find-in", ["used:today"]).lines == [notes])

    try tmux.run(["kill-server"])
    try FileManager.default.removeItem(atPath: instance.base + "/status")
    try start("report")
    _ = try screen { $0.contains("1 result") }
    try tmux.run(["send-keys", "M-Enter"])
    #expect(try status() == 0)
    let folder = FileURI.uri(for: RawPath(instance.path("Documents")))
    #expect(try String(contentsOfFile: opened, encoding: .utf8) == notes + "\n" + folder + "\n")

    try tmux.run(["kill-server"])
    try FileManager.default.removeItem(atPath: instance.base + "/status")
    try start("")
    _ = try screen { $0.hasPrefix(">") }
    try tmux.run(["send-keys", "nothing-like-this-anywhere"])
    _ = try screen { $0.contains("nothing-like-this-anywhere") }
    try tmux.run(["send-keys", "Escape"])
    #expect(try status() == 1)
    #expect(picked.isEmpty)
  }

  @Test func colourOnlyWhenAllowedAndRedrawnAfterAResize() throws {
    try start("lighthouse")
    let plain = try screen(escapes: true) { $0.contains("3 results") }
    #expect(!plain.contains("\u{1B}["), "NO_COLOR is set, yet: \(plain.debugDescription)")
    try tmux.run(["resize-window", "-x", "100", "-y", "30"])
    let wider = try screen { lines($0)[0].count == 100 }
    #expect(lines(wider)[0].hasSuffix("3 results"))
    try tmux.run(["send-keys", "C-c"])
    #expect(try status() == 1)

    try tmux.run(["kill-server"])
    try FileManager.default.removeItem(atPath: instance.base + "/status")
    try start("lighthouse", environment: ["NO_COLOR": "", "TERM": "xterm-256color"])
    let coloured = try screen(escapes: true) { $0.contains("3 results") }
    #expect(coloured.contains("\u{1B}["), "\(coloured.debugDescription)")
    try tmux.run(["send-keys", "Escape"])
    #expect(try status() == 1)
  }

  @Test func withoutATerminalItSaysSo() throws {
    let result = try instance.run("/usr/bin/setsid", ["-w", Instance.binDirectory + "/find-in", "-i", "x"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("needs a terminal"), "\(result.stderr)")
    let mixed = try instance.run("find-in", ["-i", "--json", "x"])
    #expect(mixed.status == 2)
    #expect(mixed.stderr.contains("-i cannot be used with --json"), "\(mixed.stderr)")
  }
}

/// A tmux server of a test's own (its own socket), killed when the test ends.
final class TmuxServer {
  let socket: String
  let environment: [String: String]

  init(socket: String, environment: [String: String]) {
    (self.socket, self.environment) = (socket, environment)
  }

  @discardableResult
  func run(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
    process.arguments = ["-S", socket, "-f", "/dev/null"] + arguments
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  deinit { _ = try? run(["kill-server"]) }
}
