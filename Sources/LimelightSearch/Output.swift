import Foundation
import LimelightExit
import LimelightModel
import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// What the terminal can show.
public struct Terminal: Sendable {
  public var isTerminal: Bool
  public var color: Bool

  public init(isTerminal: Bool, color: Bool) {
    (self.isTerminal, self.color) = (isTerminal, color)
  }

  /// What the terminal on `fd` can show, given the environment's `NO_COLOR` and `TERM`.
  public static func of(
    _ fd: Int32 = STDOUT_FILENO, environment: [String: String] = ProcessEnvironment.current
  ) -> Terminal {
    let tty = isatty(fd) == 1
    let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    let dumb = environment["TERM"] == "dumb"
    return Terminal(isTerminal: tty, color: tty && !noColor && !dumb)
  }

  public func bold(_ text: String) -> String { color ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
  public func dim(_ text: String) -> String { color ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
  public func highlight(_ text: String) -> String {
    color ? "\u{1B}[1;33m\(text)\u{1B}[0m" : "[\(text)]"
  }
}

/// Buffered standard output for commands that print many lines.
public final class OutputBuffer {
  private var buffer: [UInt8] = []
  private let fd: Int32
  private let abandoned: (() -> Bool)?
  /// Whether standard output stopped taking data (the reader went away).
  public private(set) var isClosed = false

  /// A buffer for `fd`; `abandoned` says whether whoever asked for the output
  /// is gone (a query service client that was interrupted), which closes it.
  public init(fd: Int32 = STDOUT_FILENO, abandoned: (() -> Bool)? = nil) {
    self.fd = fd
    self.abandoned = abandoned
    buffer.reserveCapacity(1 << 16)
  }

  public func write(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  public func write(bytes: [UInt8]) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { flush() }
  }

  public func flush() {
    if !isClosed && !buffer.isEmpty {
      if abandoned?() == true {
        isClosed = true
      } else if !writeAll(buffer, to: fd) {
        isClosed = true  // A closed pipe: the reader has what it wanted.
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  deinit { flush() }
}

/// "2026-11-22 14:03", or "today 14:03"; made once, used for every result.
public struct ShortDateFormatter {
  private let full = ShortDateFormatter.make("yyyy-MM-dd HH:mm")
  private let today = ShortDateFormatter.make("'today' HH:mm")

  public init() {}

  private static func make(_ format: String) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = format
    return formatter
  }

  public func string(_ date: Date?) -> String {
    guard let date else { return "" }
    return (Calendar.current.isDateInToday(date) ? today : full).string(from: date)
  }
}
