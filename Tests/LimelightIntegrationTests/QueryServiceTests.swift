import Foundation
import Synchronization
import Testing

@testable import LimelightQueryClient

#if canImport(Glibc)
  import Glibc
#endif

/// `find-in` handing its searches to the running watcher: the output, the
/// messages and the exit status are those of `find-in-direct`, which searches
/// on its own.
@Suite struct QueryServiceTests {
  func instanceWithFiles() throws -> Instance {
    let instance = try Instance()
    try instance.write("notes/puffin colony.txt", "puffins nest on cliffs\n")
    try instance.write("notes/Café menu.md", "# Menu\ncroissant puffin pastry\n")
    try instance.write("photos/puffin-2026.txt", "a photo of a puffin\n")
    try instance.write("odd/line\nbreak puffin.txt", "newline in the name\n")
    return instance
  }

  @Test func servedSearchesPrintWhatDirectSearchesPrint() throws {
    let instance = try instanceWithFiles()
    try instance.startWatcher()
    let socket = instance.base + "/xdg/run/limelight/query.socket"
    #expect(FileManager.default.fileExists(atPath: socket), "the watcher serves queries")
    let cases: [([String], String?)] = [
      (["puffin"], nil),
      (["--json", "puffin"], nil),
      (["-0", "puffin"], nil),
      (["--count", "puffin"], nil),
      (["--limit", "1", "puffin"], nil),
      (["--limit=2", "--", "puffin", "-colony"], nil),
      (["cafe"], nil),
      (["pufin"], nil),
      (["--in", "notes", "puffin"], nil),
      (["--in", "..", "puffin"], "notes"),
      (["in:.", "puffin"], "photos"),
      (["kind:text", "puffin"], nil),
      (["nothing-matches-this"], nil),
      (["kind:bogus"], nil),
      (["modified:13-45"], nil),
      (["--limit", "-3", "puffin"], nil),
      (["--json", "-0", "puffin"], nil),
      (["--bogus-option"], nil),
      (["--help"], nil),
      (["displayName == \"puffin*\"c"], nil),
    ]
    for (arguments, directory) in cases {
      let served = try instance.run("find-in", arguments, in: directory)
      let direct = try instance.run("find-in-direct", arguments, in: directory)
      #expect(served.status == direct.status, "\(arguments)")
      #expect(served.stdoutBytes == direct.stdoutBytes, "\(arguments)")
      #expect(served.stderr == direct.stderr, "\(arguments)")
    }
    #expect(try instance.run("find-in", ["--count", "puffin"]).stdout == "4\n")
    #expect(instance.stopWatcher() == 0)
    #expect(!FileManager.default.fileExists(atPath: socket), "the socket goes with the watcher")
    // Without the service, find-in searches on its own.
    #expect(try instance.run("find-in", ["--count", "puffin"]).stdout == "4\n")
  }

  @Test func aClientWithAnotherTimeZoneOrIndexIsNotServedAnotherInstancesResults() throws {
    let instance = try instanceWithFiles()
    try instance.startWatcher()
    let zoned = ["TZ": "Pacific/Kiritimati"]
    let served = try instance.run("find-in", ["--json", "puffin"], environment: zoned)
    let direct = try instance.run("find-in-direct", ["--json", "puffin"], environment: zoned)
    #expect(served.stdout == direct.stdout)
    // Another data folder with the same runtime folder: that index, not this one.
    let elsewhere = ["XDG_DATA_HOME": instance.base + "/xdg/other-data"]
    let other = try instance.run("find-in", ["puffin"], environment: elsewhere)
    #expect(other.status == 2)
    #expect(other.stderr.contains("no index"))
  }

  @Test func manyClientsAtOnceAllGetTheirAnswers() throws {
    let instance = try instanceWithFiles()
    try instance.startWatcher()
    let results = Mutex<[CommandResult]>([])
    DispatchQueue.concurrentPerform(iterations: 24) { _ in
      if let result = try? instance.run("find-in", ["--count", "puffin"]) {
        results.withLock { $0.append(result) }
      }
    }
    let all = results.withLock { $0 }
    #expect(all.count == 24)
    #expect(all.allSatisfy { $0.status == 0 && $0.stdout == "4\n" })
  }

  @Test func garbageOnTheSocketIsRefusedAndTheServiceGoesOn() throws {
    let instance = try instanceWithFiles()
    try instance.startWatcher()
    let socket = instance.base + "/xdg/run/limelight/query.socket"
    let requests: [[UInt8]] = [
      Array("hello there".utf8),
      QueryServiceWire.magic + [0xFF, 0xFF, 0xFF, 0x7F],  // a body far over the limit
      QueryServiceWire.magic + [3, 0, 0, 0] + [0, 0, 0],  // a body without its fields
      [],
    ]
    for request in requests {
      let fd = try #require(QueryClient.connect(to: socket))
      if !request.isEmpty { _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) } }
      shutdown(fd, Int32(SHUT_WR))
      // The service answers "search yourself" or hangs up; either way, at once.
      let answer = QueryClient.readByte(fd, timeout: 5000)
      #expect(answer == nil || answer == QueryServiceWire.fallback, "\(request.prefix(8))")
      close(fd)
    }
    #expect(try instance.run("find-in", ["--count", "puffin"]).stdout == "4\n")
    #expect(instance.watcher?.isRunning == true)
  }

  @Test func aReaderThatStopsEarlyDoesNotStopTheService() throws {
    let instance = try instanceWithFiles()
    for i in 0..<300 { try instance.write("many/puffin \(i).txt", "puffin \(i)\n") }
    try instance.startWatcher()
    // A pipe closed after the first line, as `find-in puffin | head -1` does.
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = ["-c", "\"$0\" puffin | head -1", Instance.binDirectory + "/find-in"]
    shell.environment = instance.environment
    let out = Pipe()
    shell.standardOutput = out
    try shell.run()
    let first = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    shell.waitUntilExit()
    #expect(first.hasPrefix("file://"))
    #expect(try instance.run("find-in", ["--count", "puffin"]).stdout == "304\n")
    #expect(instance.watcher?.isRunning == true)
  }
}
