import CLinux
import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a helper program to completion within limits: a time limit (then the
/// whole process group is killed), a cap on what it prints, a memory cap, a
/// clean environment, no standard input. Synchronous, for worker threads.
public struct ChildProcess: Sendable {
  /// The program and its arguments, as bytes (a file name need not be
  /// UTF-8): an argument vector, never a shell line.
  public var arguments: [[UInt8]]
  public var environment: [String: String]
  /// Seconds before the program is stopped.
  public var timeLimit: Double
  /// Bytes of standard output kept; a program that prints more is stopped.
  public var outputLimit: Int
  /// Bytes of address space the program may map (RLIMIT_AS), or nil.
  public var memoryLimit: UInt64?
  /// Bytes of standard error kept for the failure message.
  public var errorLimit = 4096

  public init(
    arguments: [[UInt8]], environment: [String: String] = ChildProcess.cleanEnvironment,
    timeLimit: Double, outputLimit: Int, memoryLimit: UInt64? = nil
  ) {
    self.arguments = arguments
    self.environment = environment
    self.timeLimit = timeLimit
    self.outputLimit = outputLimit
    self.memoryLimit = memoryLimit
  }

  /// How a run ended.
  public enum Ending: Equatable, Sendable {
    case exited(Int32)
    case signalled(Int32)
    case timedOut
    case printedTooMuch
  }

  /// What the program printed and how it ended.
  public struct Outcome: Sendable {
    public var ending: Ending
    public var output: [UInt8]
    public var errors: [UInt8]

    /// A one-line reason for a run that did not exit 0, for logs and status.
    public var failure: String? {
      let said =
        String(decoding: errors, as: UTF8.self)
        .split(whereSeparator: \.isNewline).last.map { ": " + $0 } ?? ""
      switch ending {
      case .exited(0): return nil
      case .exited(let status): return "exited with status \(status)\(said)"
      case .signalled(let signal):
        return "crashed (signal \(signal)\(signal == SIGKILL ? ", perhaps out of memory" : ""))"
      case .timedOut: return "took too long and was stopped"
      case .printedTooMuch: return "printed too much and was stopped"
      }
    }
  }

  /// Why a program could not be started.
  public struct SpawnError: Error, CustomStringConvertible {
    public let description: String
  }

  /// The variables a helper gets: a fixed PATH, the locale, HOME and the XDG
  /// folders of this process (read once: they do not change while it runs).
  public static let cleanEnvironment: [String: String] = {
    let environment = ProcessEnvironment.current
    var clean = ["PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
    for name in [
      "HOME", "LANG", "TZ", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME",
      "XDG_RUNTIME_DIR", "XDG_DATA_DIRS", "XDG_CONFIG_DIRS",
    ] {
      if let value = environment[name] { clean[name] = value }
    }
    return clean
  }()

  public func run() throws(SpawnError) -> Outcome {
    var outPipe: [Int32] = [-1, -1]
    var errPipe: [Int32] = [-1, -1]
    guard pipe(&outPipe) == 0 else { throw SpawnError(description: "pipe failed") }
    guard pipe(&errPipe) == 0 else {
      close(outPipe[0])
      close(outPipe[1])
      throw SpawnError(description: "pipe failed")
    }
    // Other threads may spawn too: none of their children should hold these.
    for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    let spawned = Self.spawn(
      arguments, environment: environment, input: nil, output: outPipe[1], errors: errPipe[1])
    close(outPipe[1])
    close(errPipe[1])
    defer {
      close(outPipe[0])
      close(errPipe[0])
    }
    let pid = try spawned.get()
    if let memoryLimit { _ = limelight_set_limit(pid, Int32(RLIMIT_AS.rawValue), memoryLimit) }
    var outcome = Outcome(ending: .exited(0), output: [], errors: [])
    var ending: Ending?
    let deadline = monotonicNow() + timeLimit
    var open = [outPipe[0], errPipe[0]]
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while !open.isEmpty && ending == nil {
      let left = deadline - monotonicNow()
      if left <= 0 {
        ending = .timedOut
        break
      }
      var entries = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      let ready = poll(&entries, nfds_t(entries.count), Int32(min(left, 60) * 1000) + 1)
      if ready < 0 && errno != EINTR { break }
      for entry in entries where entry.revents != 0 {
        let n = read(entry.fd, &buffer, buffer.count)
        if n <= 0 {
          if n < 0 && errno == EINTR { continue }
          open.removeAll { $0 == entry.fd }
        } else if entry.fd == outPipe[0] {
          outcome.output += buffer[..<n]
          if outcome.output.count > outputLimit { ending = .printedTooMuch }
        } else if outcome.errors.count < errorLimit {
          outcome.errors += buffer[..<min(n, errorLimit - outcome.errors.count)]
        }
      }
    }
    if ending != nil { kill(-pid, SIGKILL) }
    // Output closed: the program has ended or is about to; wait for it, within the limit.
    var status: Int32 = 0
    while true {
      let waited = waitpid(pid, &status, ending == nil ? WNOHANG : 0)
      if waited == pid { break }
      if waited < 0 && errno != EINTR { break }
      if waited == 0 {
        if monotonicNow() > deadline {
          ending = .timedOut
          kill(-pid, SIGKILL)
          continue
        }
        usleep(2_000)
      }
    }
    if let ending {
      outcome.ending = ending
    } else if status & 0x7f == 0 {
      outcome.ending = .exited((status >> 8) & 0xff)
    } else {
      outcome.ending = .signalled(status & 0x7f)
    }
    // Whatever it left behind in its group goes with it.
    if outcome.ending != .exited(0) { kill(-pid, SIGKILL) }
    return outcome
  }
  /// Starts a program in a process group of its own, with default signal
  /// handling, these descriptors as its standard input (nil: /dev/null),
  /// output and error, and this environment; returns its process id.
  static func spawn(
    _ arguments: [[UInt8]], environment: [String: String], input: Int32?, output: Int32,
    errors: Int32
  ) -> Result<pid_t, SpawnError> {
    guard let first = arguments.first else {
      return .failure(SpawnError(description: "no program"))
    }
    let program = String(decoding: first, as: UTF8.self)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let input {
      posix_spawn_file_actions_adddup2(&actions, input, 0)
    } else {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    posix_spawn_file_actions_adddup2(&actions, output, 1)
    posix_spawn_file_actions_adddup2(&actions, errors, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Its own process group (so a timeout stops its children too), default
    // signal handling and no blocked signals (the watcher's threads block some).
    var none = sigset_t()
    sigemptyset(&none)
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes,
      Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv: [UnsafeMutablePointer<CChar>?] =
      arguments.map { bytes in
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (i, byte) in bytes.enumerated() { copy[i] = CChar(bitPattern: byte == 0 ? 0x3F : byte) }
        copy[bytes.count] = 0
        return copy
      } + [nil]
    let envp =
      environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for argument in argv { argument?.deallocate() }
      for variable in envp { free(variable) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
    guard spawned == 0 else {
      return .failure(
        SpawnError(description: "cannot run \(program): \(String(cString: strerror(spawned)))"))
    }
    return .success(pid)
  }
}
