import CLinux
import LimelightExit

#if canImport(Glibc)
  import Glibc
#endif

/// The `find-in` side of the query service: hands the search, with this
/// process's standard output and standard error, to the running watcher,
/// which has the index open and warm, and waits for its exit status.
public enum QueryClient {
  /// How long the service may take to say whether it serves the search.
  static let answerTimeout: Int32 = 3000

  /// The exit status of the search as the service ran it, or nil when the
  /// service is not there, declines, or does not answer in time: the caller
  /// then runs the search itself, and nothing has been written.
  public static func search(arguments: [[UInt8]]) -> Int32? {
    let path = QueryServiceWire.socketPath(environment: variable)
    guard let fd = connect(to: path) else { return nil }
    defer { close(fd) }
    let request = QueryServiceWire.Request(
      currentDirectory: currentDirectory(), arguments: arguments, environment: environment())
    guard send(request.encoded(), over: fd) else { return nil }
    guard readByte(fd, timeout: answerTimeout) == QueryServiceWire.ready else { return nil }
    var go = QueryServiceWire.go
    guard Glibc.send(fd, &go, 1, Int32(MSG_NOSIGNAL)) == 1 else { return nil }
    // Committed: the service writes the results now, however long they take.
    guard readByte(fd, timeout: -1) == QueryServiceWire.done,
      let status = readByte(fd, timeout: -1)
    else {
      let message = "find-in: the watcher stopped during the search\n"
      _ = write(STDERR_FILENO, message, message.utf8.count)
      return ExitStatus.usage
    }
    return Int32(status)
  }

  /// Replaces this process with the program that runs searches on its own
  /// (`find-in-direct`, beside this one), with the same arguments.
  public static func runDirectly() -> Never {
    var target = [CChar](repeating: 0, count: 4096)
    let path =
      limelight_path_beside_executable("find-in-direct", &target, target.count) == 0
      ? String(decoding: target.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      : "find-in-direct"
    execv(path, CommandLine.unsafeArgv)
    let message = "find-in: cannot run \(path): \(String(cString: strerror(errno)))\n"
    _ = write(STDERR_FILENO, message, message.utf8.count)
    exit(ExitStatus.usage)
  }

  static func variable(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  static func connect(to path: String) -> Int32? {
    guard var address = QueryServiceWire.address(of: Array(path.utf8)) else { return nil }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      close(fd)
      return nil
    }
    return fd
  }

  /// Sends the request, with standard output and standard error attached to
  /// its first bytes.
  static func send(_ bytes: [UInt8], over fd: Int32) -> Bool {
    let descriptors: [Int32] = [STDOUT_FILENO, STDERR_FILENO]
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { raw in
        offset == 0
          ? limelight_send_with_fds(fd, raw.baseAddress, raw.count, descriptors, 2)
          : Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
      }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return false }  // A closed standard output cannot travel: search here.
      offset += n
    }
    return true
  }

  /// One byte from the service, or nil at its end, on an error or after
  /// `timeout` milliseconds (-1: no limit).
  static func readByte(_ fd: Int32, timeout: Int32) -> UInt8? {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while true {
      let ready = poll(&entry, 1, timeout)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return nil }
      var byte: UInt8 = 0
      let n = recv(fd, &byte, 1, 0)
      if n < 0 && errno == EINTR { continue }
      return n == 1 ? byte : nil
    }
  }

  static func currentDirectory() -> [UInt8] {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return [] }
    return buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }
  }

  static func environment() -> [[UInt8]] {
    var result: [[UInt8]] = []
    var pointer = environ
    while let entry = pointer.pointee {
      result.append(
        Array(UnsafeBufferPointer(start: entry, count: strlen(entry))).map {
          UInt8(bitPattern: $0)
        })
      pointer += 1
    }
    return result
  }
}
