#if canImport(Glibc)
  import Glibc
#endif

/// Exit statuses shared by every command. Each command's man page lists the
/// ones it uses, under EXIT STATUS.
public enum ExitStatus {
  public static let success: Int32 = 0
  /// Nothing matched (find-in), a wait that timed out (reindex-request),
  /// nothing to delete or no state stored (limelight).
  public static let notFound: Int32 = 1
  /// A command that could not do its work: limelightd when the index cannot
  /// be written (or a one-off run cannot reach its shared store),
  /// limelight-import when a file cannot be read.
  public static let failed: Int32 = 1
  /// A usage or query error, or an index that cannot be used.
  public static let usage: Int32 = 2
  /// limelightd set a damaged index aside and could not start itself again:
  /// `EX_TEMPFAIL`, which a service manager takes as "start it again".
  public static let restartFailed: Int32 = 75
}

/// An error a command reports as "name: message" with its own exit status.
public struct CommandFailure: Error, CustomStringConvertible {
  public var message: String
  public var status: Int32
  public init(_ message: String, status: Int32 = ExitStatus.usage) {
    self.message = message
    self.status = status
  }
  public var description: String { message }
}

/// Runs a command's body and returns its exit status, after writing the
/// message of an error (one line, "name: message") to `errors`: a
/// ``CommandFailure`` has its own status, any other error is
/// ``ExitStatus/usage`` (an index or query that cannot be used).
public func failureStatus(name: String, errors: Int32 = STDERR_FILENO, _ body: () throws -> Void)
  -> Int32
{
  do {
    try body()
    return ExitStatus.success
  } catch let failure as CommandFailure {
    if !failure.message.isEmpty { printError("\(name): \(failure.message)", to: errors) }
    return failure.status
  } catch {
    printError("\(name): \(error)", to: errors)
    return ExitStatus.usage
  }
}

/// Writes a line to standard error (or to another descriptor).
public func printError(_ message: String, to fd: Int32 = STDERR_FILENO) {
  writeAll(Array((message + "\n").utf8), to: fd)
}

/// Writes every byte unless the descriptor fails; false when it did.
@discardableResult
public func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
  var offset = 0
  while offset < bytes.count {
    let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    if n < 0 && errno == EINTR { continue }
    if n <= 0 { return false }
    offset += n
  }
  return true
}
