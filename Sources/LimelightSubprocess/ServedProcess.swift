import CLinux
import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// A helper program kept running to answer one request after another, so
/// that its start (loading its libraries) is paid once, not once per file.
/// Each exchange still has its own time limit and reply cap; a helper that
/// crashes, hangs, or answers out of protocol is killed (with its process
/// group), and the next request starts a new one. Use from one thread at a
/// time.
///
/// Requests are bytes the caller frames; a reply is a 4-byte big-endian
/// length and that many bytes.
public final class ServedProcess {
  public let arguments: [[UInt8]]
  public let environment: [String: String]
  public let memoryLimit: UInt64?
  var pid: pid_t = 0
  var input: Int32 = -1
  var output: Int32 = -1
  var errors: Int32 = -1
  /// Requests the running helper answered.
  public private(set) var served = 0

  /// Why an exchange failed.
  public enum Failure: Error, Equatable, Sendable {
    case cannotStart(String)
    case exited(Int32, String)
    case signalled(Int32)
    case timedOut
    case repliedTooMuch
    case badReply

    /// One line for logs and status, in the words of ``ChildProcess/Outcome/failure``.
    public var description: String {
      switch self {
      case .cannotStart(let reason): return reason
      case .exited(let status, let said):
        return "exited with status \(status)" + (said.isEmpty ? "" : ": " + said)
      case .signalled(let signal):
        return "crashed (signal \(signal)\(signal == SIGKILL ? ", perhaps out of memory" : ""))"
      case .timedOut: return "took too long and was stopped"
      case .repliedTooMuch: return "printed too much and was stopped"
      case .badReply: return "answered out of protocol"
      }
    }
  }

  public init(arguments: [[UInt8]], environment: [String: String], memoryLimit: UInt64?) {
    self.arguments = arguments
    self.environment = environment
    self.memoryLimit = memoryLimit
  }

  deinit { stop() }

  public var isRunning: Bool { pid > 0 }

  func start() throws(Failure) {
    var toChild: [Int32] = [-1, -1]
    var fromChild: [Int32] = [-1, -1]
    var errorPipe: [Int32] = [-1, -1]
    guard pipe(&toChild) == 0, pipe(&fromChild) == 0, pipe(&errorPipe) == 0 else {
      for fd in toChild + fromChild + errorPipe where fd >= 0 { close(fd) }
      throw .cannotStart("pipe failed")
    }
    for fd in toChild + fromChild + errorPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    let spawned = ChildProcess.spawn(
      arguments, environment: environment, input: toChild[0], output: fromChild[1],
      errors: errorPipe[1])
    close(toChild[0])
    close(fromChild[1])
    close(errorPipe[1])
    switch spawned {
    case .success(let child):
      pid = child
      input = toChild[1]
      output = fromChild[0]
      errors = errorPipe[0]
      _ = fcntl(errors, F_SETFL, O_NONBLOCK)
      served = 0
      if let memoryLimit { _ = limelight_set_limit(pid, Int32(RLIMIT_AS.rawValue), memoryLimit) }
    case .failure(let error):
      for fd in [toChild[1], fromChild[0], errorPipe[0]] { close(fd) }
      throw .cannotStart(error.description)
    }
  }

  /// Ends the helper: its input closes (it may exit by itself), then its
  /// process group is killed and it is reaped.
  public func stop() {
    guard pid > 0 else { return }
    close(input)
    kill(-pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    close(output)
    close(errors)
    pid = 0
  }

  /// Sends one request and reads its reply within `timeLimit` seconds and
  /// `replyLimit` bytes. On failure the helper is gone; the next exchange
  /// starts a new one.
  /// A reply as the served program writes it: a 4-byte big-endian length,
  /// then the body (what ``exchange(_:timeLimit:replyLimit:)`` reads).
  public static func frame(_ body: [UInt8]) -> [UInt8] {
    let length = UInt32(body.count)
    return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + body
  }

  /// The length a frame's 4-byte header says.
  public static func frameLength(_ header: some Collection<UInt8>) -> Int {
    header.reduce(0) { $0 << 8 | Int($1) }
  }

  public func exchange(_ request: [UInt8], timeLimit: Double, replyLimit: Int) throws(Failure)
    -> [UInt8]
  {
    if pid == 0 { try start() }
    let deadline = monotonicNow() + timeLimit
    do throws(Failure) {
      try send(request)
      let header = try receive(4, deadline: deadline)
      let length = Self.frameLength(header)
      guard length <= replyLimit else { throw Failure.repliedTooMuch }
      let reply = try receive(length, deadline: deadline)
      served += 1
      return reply
    } catch {
      throw ended(error)
    }
  }

  func send(_ bytes: [UInt8]) throws(Failure) {
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw .badReply }  // Its input is closed: it has ended.
      sent += n
    }
  }

  func receive(_ count: Int, deadline: Double) throws(Failure) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var have = 0
    while have < count {
      let left = deadline - monotonicNow()
      guard left > 0 else { throw .timedOut }
      var entry = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
      let ready = poll(&entry, 1, Int32(min(left, 60) * 1000) + 1)
      if ready < 0 && errno != EINTR { throw .badReply }
      if ready <= 0 { continue }
      let n = bytes[have...].withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw .badReply }  // End of output: it has ended.
      have += n
    }
    return bytes
  }

  /// Stops a helper that failed an exchange, and says how it ended.
  func ended(_ failure: Failure) -> Failure {
    if failure == .timedOut || failure == .repliedTooMuch {
      stop()
      return failure
    }
    // It may have died: wait a moment for its status.
    var status: Int32 = 0
    var waited: pid_t = 0
    let deadline = monotonicNow() + 1
    repeat {
      waited = waitpid(pid, &status, WNOHANG)
      if waited == 0 { usleep(2_000) }
    } while waited == 0 && monotonicNow() < deadline
    var said = [UInt8](repeating: 0, count: 4096)
    let n = read(errors, &said, said.count)
    let text =
      n > 0
      ? String(decoding: said[..<n], as: UTF8.self).split(whereSeparator: \.isNewline).last.map(
        String.init) ?? "" : ""
    if waited == pid {
      pid = 0
      kill(-waited, SIGKILL)
      close(input)
      close(output)
      close(errors)
      return status & 0x7f == 0 ? .exited((status >> 8) & 0xff, text) : .signalled(status & 0x7f)
    }
    stop()
    return failure
  }
}
