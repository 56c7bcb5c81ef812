import Foundation
import LimelightModel
import LimelightPlatform
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What a command printed and how it ended.
struct CommandResult {
  var status: Int32
  var stdout: String
  var stderr: String
  var stdoutBytes: [UInt8]

  var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// An isolated Limelight instance: a home folder and XDG folders in a fresh
/// temporary folder, and the built executables run against them.
final class Instance: @unchecked Sendable {
  let base: String
  let home: String
  var watcher: Process?
  private var watcherLog: String { base + "/limelightd.log" }
  /// Variables every program of the instance is run with besides its own.
  var variables: [String: String] = [:]

  static let binDirectory: String = {
    if let dir = ProcessInfo.processInfo.environment["LIMELIGHT_BIN_DIR"] { return dir }
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    return (exe as NSString).deletingLastPathComponent
  }()

  init() throws {
    base = try Self.makeBase()
    home = base + "/home"
    for dir in [
      "home", "xdg/data", "xdg/config/limelight", "xdg/cache", "xdg/run",
      "xdg/system-config/limelight",
    ] {
      try FileManager.default.createDirectory(
        atPath: base + "/" + dir, withIntermediateDirectories: true)
    }
    // The machine's installed applications stay out of the tests' results;
    // the tests of that domain name their own launcher folders.
    try Data("applications = no\n".utf8).write(
      to: URL(fileURLWithPath: base + "/xdg/system-config/limelight/limelight.conf"))
  }

  /// A new folder for an instance. Its name is searched as part of every
  /// path, so its random part is ten consonants: `mkdtemp`'s letters and
  /// digits sometimes spelled a word a test looks for (a suffix holding
  /// "Too" matched the query `go too` in every file's path).
  private static func makeBase() throws -> String {
    let consonants = Array("bcdfghjklmnpqrstvwxz")
    let parent = FileManager.default.temporaryDirectory.path
    for _ in 0..<100 {
      let suffix = String((0..<10).map { _ in consonants.randomElement()! })
      let path = parent + "/limelight-test-" + suffix
      if Glibc.mkdir(path, 0o700) == 0 { return path }
      if errno != EEXIST { throw SystemError("mkdir \(path)") }
    }
    throw SystemError("mkdir: no free name in \(parent)")
  }

  deinit {
    stopWatcher()
    try? FileManager.default.removeItem(atPath: base)
  }

  var environment: [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["HOME"] = home
    env["XDG_DATA_HOME"] = base + "/xdg/data"
    env["XDG_CONFIG_HOME"] = base + "/xdg/config"
    env["XDG_CACHE_HOME"] = base + "/xdg/cache"
    env["XDG_RUNTIME_DIR"] = base + "/xdg/run"
    env["XDG_CONFIG_DIRS"] = base + "/xdg/system-config"
    env["NO_COLOR"] = "1"
    // A folder of stand-ins (xdg-open) that tests may fill, searched first.
    env["PATH"] = base + "/bin:" + (env["PATH"] ?? "/usr/bin:/bin")
    return env.merging(variables) { _, own in own }
  }

  /// Runs one of the built executables to completion.
  @discardableResult
  func run(
    _ tool: String, _ arguments: [String], stdin: String? = nil,
    environment overrides: [String: String] = [:], in directory: String? = nil
  ) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(
      fileURLWithPath: tool.hasPrefix("/") ? tool : Self.binDirectory + "/" + tool)
    process.arguments = arguments
    process.environment = environment.merging(overrides) { _, new in new }
    process.currentDirectoryURL = URL(fileURLWithPath: directory.map(path) ?? home)
    let out = base + "/out-\(UUID().uuidString)"
    let err = out + ".err"
    _ = FileManager.default.createFile(atPath: out, contents: nil)
    _ = FileManager.default.createFile(atPath: err, contents: nil)
    defer {
      try? FileManager.default.removeItem(atPath: out)
      try? FileManager.default.removeItem(atPath: err)
    }
    process.standardOutput = FileHandle(forWritingAtPath: out)
    process.standardError = FileHandle(forWritingAtPath: err)
    var input = "/dev/null"
    if let stdin {
      input = out + ".in"
      _ = FileManager.default.createFile(atPath: input, contents: Data(stdin.utf8))
    }
    defer { if stdin != nil { try? FileManager.default.removeItem(atPath: input) } }
    process.standardInput = FileHandle(forReadingAtPath: input)
    try process.run()
    process.waitUntilExit()
    let outData = FileManager.default.contents(atPath: out) ?? Data()
    let errData = FileManager.default.contents(atPath: err) ?? Data()
    return CommandResult(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self), stdoutBytes: Array(outData))
  }

  /// `find-in` with its URIs as lines.
  func find(_ words: String...) throws -> [String] {
    try find(words)
  }

  func find(_ words: [String]) throws -> [String] {
    try run("find-in", words).lines
  }

  /// The paths `find-in` prints, relative to the home folder.
  func findPaths(_ words: String...) throws -> [String] {
    relativePaths(try run("find-in", words).lines)
  }

  /// The paths of `file://` URIs, relative to the home folder.
  func relativePaths(_ uris: [String]) -> [String] {
    uris.compactMap { uri in
      FileURI.path(from: uri).map { String(decoding: $0.bytes, as: UTF8.self) }
    }.map { $0.hasPrefix(home + "/") ? String($0.dropFirst(home.count + 1)) : $0 }
  }

  func indexOnce(_ extra: [String] = []) throws {
    let result = try run("limelightd", ["--once", "--quiet"] + extra)
    #expect(result.status == 0, "limelightd --once failed: \(result.stderr)")
  }

  /// Starts the watcher and waits for its first crawl to finish (unless
  /// not `waitingForCrawl`). With
  /// `boundByPermissions`, a watcher run by root runs without the
  /// capabilities that let root read what its permissions forbid, so that
  /// a file's mode binds it as it binds the user who owns the file.
  /// `program`: the watcher's program, when not the built one.
  func startWatcher(
    _ extra: [String] = [], boundByPermissions: Bool = false, waitingForCrawl: Bool = true,
    program: String = Instance.binDirectory + "/limelightd"
  ) throws {
    let process = Process()
    if boundByPermissions && geteuid() == 0 {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
      process.arguments =
        ["--bounding-set", "-dac_override,-dac_read_search", "--", program, "--verbose"] + extra
    } else {
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = ["--verbose"] + extra
    }
    process.environment = environment
    _ = FileManager.default.createFile(atPath: watcherLog, contents: nil)
    let log = FileHandle(forWritingAtPath: watcherLog)
    log?.seekToEndOfFile()
    process.standardOutput = log
    process.standardError = log
    process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    try process.run()
    watcher = process
    guard waitingForCrawl else { return }
    // The second pass runs at the lowest priority: on two cores busy with
    // the rest of the suite it waits its turn.
    try waitFor("the first crawl, both passes", seconds: 120) {
      let status = try self.run("limelight", ["status", "--json"])
      return status.stdout.contains("\"contentDone\":true")
        && status.stdout.contains("\"running\":true")
    }
  }

  /// Sends SIGTERM and waits for the watcher to exit; returns its status.
  @discardableResult
  func stopWatcher() -> Int32? {
    guard let process = watcher else { return nil }
    watcher = nil
    if process.isRunning {
      kill(process.processIdentifier, SIGTERM)
      let deadline = Date().addingTimeInterval(30)
      while process.isRunning && Date() < deadline { usleep(20_000) }
      if process.isRunning {
        let threads = threads(of: process.processIdentifier)
        Issue.record(
          "limelightd ignored SIGTERM\n--- its threads ---\n\(threads)\n--- watcher log ---\n\(log)"
        )
        kill(process.processIdentifier, SIGKILL)
      }
      process.waitUntilExit()
    }
    return process.terminationStatus
  }

  var log: String { (try? String(contentsOfFile: watcherLog, encoding: .utf8)) ?? "" }

  /// Each thread of a process with its state and what the kernel has it
  /// wait in (`/proc/PID/task`): where a watcher that does not stop waits.
  func threads(of pid: Int32) -> String {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.sorted().map { task in
      let folder = "/proc/\(pid)/task/\(task)"
      func read(_ name: String) -> String {
        ((try? String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8)) ?? "?")
          .trimmingCharacters(in: .whitespacesAndNewlines)
      }
      let state = read("status").split(separator: "\n").first { $0.hasPrefix("State:") } ?? "?"
      let kernelStack = read("stack").split(separator: "\n").prefix(4).joined(separator: " < ")
      return "\(task) \(read("comm")): \(state), waits in \(read("wchan")); \(kernelStack)"
    }.joined(separator: "\n")
  }

  /// Fails the test unless the index lists exactly the entries below the
  /// home folder that are on disk (hidden ones left out), entry by entry.
  func expectIndexMatchesDisk(_ sourceLocation: SourceLocation = #_sourceLocation) throws {
    let (indexed, disk) = try indexAndDisk()
    #expect(Set(indexed) == Set(disk), sourceLocation: sourceLocation)
    #expect(
      indexed.count == Set(indexed).count, "an entry listed twice", sourceLocation: sourceLocation)
  }

  /// Whether the index lists exactly the entries on disk (see above).
  func indexMatchesDisk() throws -> Bool {
    let (indexed, disk) = try indexAndDisk()
    return indexed.count == disk.count && Set(indexed) == Set(disk)
  }

  /// What the index lists below the home folder, and what is there.
  private func indexAndDisk() throws -> (indexed: [String], disk: [String]) {
    let disk = try FileManager.default.subpathsOfDirectory(atPath: home).filter {
      !$0.split(separator: "/").contains { $0.hasPrefix(".") }
    }
    return (relativePaths(try run("find-in", ["in:" + home]).lines), disk)
  }

  /// Polls `condition` until it holds; fails the test (with the watcher's log
  /// and the last error) after `seconds`. A condition that throws has not held
  /// yet: the item it looks at may not be there yet.
  func waitFor(_ what: String, seconds: Double = 30, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    var lastError: (any Error)?
    while Date() < deadline {
      do {
        if try condition() { return }
      } catch {
        lastError = error
      }
      usleep(50_000)
    }
    let reason = lastError.map { " (last error: \($0))" } ?? ""
    Issue.record("timed out waiting for \(what)\(reason)\n--- watcher log ---\n\(log)")
    throw CancellationError()
  }

  /// Waits until `find-in words` prints exactly these home-relative paths (in any order).
  func waitForPaths(_ words: [String], _ expected: Set<String>, seconds: Double = 30) throws {
    var last: [String] = []
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      last = relativePaths(try run("find-in", words).lines)
      if Set(last) == expected { return }
      usleep(50_000)
    }
    Issue.record("find-in \(words) gave \(last), expected \(expected)\n--- watcher log ---\n\(log)")
    throw CancellationError()
  }

  // MARK: - Files

  func path(_ relative: String) -> String { home + "/" + relative }

  /// A stand-in for a program (xdg-open, a terminal) in the instance's own
  /// folder of programs, searched first: it notes its arguments, a line a run.
  func standIn(_ name: String, recordingTo file: String) throws {
    let bin = base + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    try "#!/bin/sh\necho \"$@\" >> '\(file)'\n".write(
      toFile: bin + "/" + name, atomically: true, encoding: .utf8)
    guard chmod(bin + "/" + name, 0o755) == 0 else { throw SystemError("chmod") }
  }

  func write(_ relative: String, _ text: String) throws {
    let full = path(relative)
    try FileManager.default.createDirectory(
      atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: full))
  }

  func write(_ relative: String, bytes: [UInt8]) throws {
    let full = path(relative)
    try FileManager.default.createDirectory(
      atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: full))
  }

  func mkdir(_ relative: String) throws {
    try FileManager.default.createDirectory(
      atPath: path(relative), withIntermediateDirectories: true)
  }

  func move(_ from: String, _ to: String) throws {
    let source = from.hasPrefix("/") ? from : path(from)
    let target = to.hasPrefix("/") ? to : path(to)
    guard rename(source, target) == 0 else { throw SystemError("rename", path: RawPath(source)) }
  }

  func remove(_ relative: String) throws {
    try FileManager.default.removeItem(atPath: path(relative))
  }

  /// A `find-in` left running (`--live`), its output read as it comes.
  final class Running {
    let process = Process()
    let outPath: String

    init(_ instance: Instance, _ arguments: [String]) throws {
      process.executableURL = URL(fileURLWithPath: Instance.binDirectory + "/find-in")
      process.arguments = arguments
      process.environment = instance.environment
      outPath = instance.base + "/live-\(UUID().uuidString).out"
      _ = FileManager.default.createFile(atPath: outPath, contents: nil)
      process.standardOutput = FileHandle(forWritingAtPath: outPath)
      try process.run()
    }

    deinit {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }

    /// The lines printed so far.
    var lines: [String] {
      ((try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "").split(separator: "\n")
        .map(String.init)
    }
  }

  /// Starts `find-in` with these arguments, left running until the result goes.
  func findRunning(_ arguments: [String]) throws -> Running { try Running(self, arguments) }

  func config(_ text: String) throws {
    try Data(text.utf8).write(
      to: URL(fileURLWithPath: base + "/xdg/config/limelight/limelight.conf"))
  }
}
