import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A PostgreSQL server of the test process's own: made with `initdb` in a
/// temporary folder, listening only on a socket there, stopped when the
/// process ends (a watchdog shell waits for it). Run as the `postgres`
/// user when the tests run as root, which `initdb` refuses to be.
final class PostgresServer: Sendable {
  let socketFolder: String
  let user = "limelight"
  /// The folder of PostgreSQL's programs.
  let bin: String

  /// The server, started at first use; nil where PostgreSQL is not
  /// installed.
  static let shared: PostgresServer? = try? PostgresServer()

  static var binFolder: String? {
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))
    return versions?.sorted { $0.compare($1, options: .numeric) == .orderedDescending }
      .map { "/usr/lib/postgresql/\($0)/bin" }
      .first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
  }

  /// A server of its own, for a test that stops and starts it.
  init() throws {
    guard let bin = Self.binFolder else { throw CocoaError(.fileNoSuchFile) }
    self.bin = bin
    socketFolder = try Self.newFolder()
    try Self.run(
      geteuid() == 0, bin + "/initdb",
      [
        "-D", socketFolder + "/data", "-A", "trust", "-U", user, "-E", "UTF8", "--locale=C",
        "--no-sync",
      ])
    try start()
    try stopWhenDone()
  }

  /// A hot standby of `primary`: its copy made by `pg_basebackup -R`,
  /// which also has it follow the primary's log (streaming replication).
  init(standbyOf primary: PostgresServer) throws {
    bin = primary.bin
    socketFolder = try Self.newFolder()
    try Self.run(
      geteuid() == 0, bin + "/pg_basebackup",
      [
        "-h", primary.socketFolder, "-U", user, "-D", socketFolder + "/data", "-R", "-N",
        "--checkpoint=fast",
      ])
    try start()
    try stopWhenDone()
  }

  /// The URL of `url`'s database on this server (a standby holds its
  /// primary's databases).
  func sameDatabase(_ url: String) -> String {
    url.replacingOccurrences(
      of: #"host=[^&]*"#, with: "host=\(socketFolder)", options: .regularExpression)
  }

  /// Makes a standby its own primary (`pg_ctl promote`).
  func promote() throws {
    try Self.run(
      geteuid() == 0, bin + "/pg_ctl", ["-D", socketFolder + "/data", "-w", "promote"])
  }

  /// A new folder for a server's data and socket, the `postgres` user's
  /// when the tests run as root.
  private static func newFolder() throws -> String {
    var template = Array("/tmp/limelight-pg.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
    let folder = String(cString: made)
    if geteuid() == 0, let postgres = getpwnam("postgres") {
      chown(folder, postgres.pointee.pw_uid, postgres.pointee.pw_gid)
    }
    return folder
  }

  /// Stops the server when this process ends, however it ends.
  private func stopWhenDone() throws {
    let asRoot = geteuid() == 0
    let (folder, data) = (socketFolder, socketFolder + "/data")
    let watchdog = Process()
    watchdog.executableURL = URL(fileURLWithPath: "/bin/sh")
    let stop =
      (asRoot ? "runuser -u postgres -- " : "") + "\(bin)/pg_ctl -D \(data) -m immediate stop"
    watchdog.arguments = [
      "-c", "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(stop); rm -rf \(folder)",
    ]
    watchdog.standardOutput = FileHandle.nullDevice
    watchdog.standardError = FileHandle.nullDevice
    try watchdog.run()
  }

  /// Starts the server (again).
  func start() throws {
    try Self.run(
      geteuid() == 0, bin + "/pg_ctl",
      [
        "-D", socketFolder + "/data", "-l", socketFolder + "/server.log", "-w", "-o",
        "-k \(socketFolder) -c listen_addresses='' -c fsync=off -c max_connections=200", "start",
      ])
  }

  /// Freezes the server's processes (`SIGSTOP`), or thaws them: a server
  /// that no longer answers on connections already made, as a host
  /// frozen or a network cut without a word leaves them.
  func freeze(_ frozen: Bool) throws {
    let pid = try String(contentsOfFile: socketFolder + "/data/postmaster.pid", encoding: .utf8)
      .split(separator: "\n").first.flatMap { pid_t($0) }
    guard let pid else { throw CocoaError(.fileReadCorruptFile) }
    let children =
      (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8))
      ?? ""
    for process in [pid] + children.split(separator: " ").compactMap({ pid_t($0) }) {
      kill(process, frozen ? SIGSTOP : SIGCONT)
    }
  }

  /// Stops the server at once, as a crash or a lost network would.
  func stop() throws {
    try Self.run(
      geteuid() == 0, bin + "/pg_ctl", ["-D", socketFolder + "/data", "-m", "immediate", "stop"])
  }

  /// Runs a program to its end. Not with `Process`: the server `pg_ctl`
  /// leaves running kept `Process` from ever seeing its child exit.
  private static func run(_ asRoot: Bool, _ program: String, _ arguments: [String]) throws {
    let argv =
      (asRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] : [program])
      + arguments
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
      posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_RDWR, 0)
    }
    // Nothing else of this process goes to the server `pg_ctl` leaves
    // running: it would hold, for good, the descriptor by which Foundation's
    // `Process` learns that a program another test runs at the same moment
    // has ended, and that test would wait for it forever.
    closeFrom(3, &actions)
    let copies = argv.map { strdup($0) } + [nil]
    defer { for copy in copies { free(copy) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, argv[0], &actions, nil, copies, environ) == 0 else {
      throw CocoaError(.executableLoad)
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    guard status == 0 else { throw CocoaError(.executableLoad) }
  }

  /// glibc's `posix_spawn_file_actions_addclosefrom_np`, which Swift's
  /// Glibc module leaves out: the spawned program gets no descriptor from
  /// `fd` up.
  private static func closeFrom(_ fd: Int32, _ actions: inout posix_spawn_file_actions_t) {
    typealias CloseFrom =
      @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32)
      -> Int32
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np")
    else { return }
    _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, fd)
  }

  /// What `psql` prints for `sql` run on the database of `url`, unaligned.
  func psql(_ url: String, _ sql: String) throws -> String {
    let psql = Process()
    psql.executableURL = URL(fileURLWithPath: bin + "/psql")
    psql.arguments = ["-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql, url]
    let output = Pipe()
    psql.standardOutput = output
    psql.standardError = FileHandle.nullDevice
    try psql.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    psql.waitUntilExit()
    guard psql.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
    return String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// A session on the database of `url` that has run `sql` (a transaction
  /// it leaves open, holding its locks) and waits: until it is terminated,
  /// or the server stops.
  func session(_ url: String, running sql: String) throws -> Process {
    let psql = Process()
    psql.executableURL = URL(fileURLWithPath: bin + "/psql")
    psql.arguments = ["-X", "-q", url]
    let input = Pipe()
    psql.standardInput = input
    psql.standardOutput = FileHandle.nullDevice
    psql.standardError = FileHandle.nullDevice
    try psql.run()
    input.fileHandleForWriting.write(Data((sql + "\n").utf8))
    return psql
  }

  /// A URL for the server's database `name`.
  func url(_ name: String) -> String { "postgresql://\(user)@/\(name)?host=\(socketFolder)" }

  /// A new, empty database of its own for one test; its URL.
  func newDatabase() throws -> String {
    let name = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    try Self.run(false, bin + "/createdb", ["-h", socketFolder, "-U", user, name])
    return url(name)
  }
}
