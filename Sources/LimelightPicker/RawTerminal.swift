import CLinux

#if canImport(Glibc)
  import Glibc
#endif

/// The user's terminal (`/dev/tty`, so that standard output stays free for
/// the URIs the picker prints), in raw mode on the alternate screen while
/// the picker runs, given back as it was afterwards.
final class RawTerminal {
  let fd: Int32
  private var saved = termios()

  /// Nil when the process has no terminal.
  init?() {
    fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    guard tcgetattr(fd, &saved) == 0 else {
      close(fd)
      return nil
    }
    var raw = saved
    // No echo, no line editing, no signals from keys (Ctrl-C is read as a
    // key), no flow control, no CR/NL translation; output as it is.
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | ISTRIP | BRKINT)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_cflag |= tcflag_t(CS8)
    tcsetattr(fd, TCSAFLUSH, &raw)
    // The alternate screen keeps the user's scrollback as it was.
    write("\u{1B}[?1049h")
  }

  /// Restores the screen and the terminal's modes.
  func restore() {
    write("\u{1B}[?25h\u{1B}[?1049l")
    tcsetattr(fd, TCSAFLUSH, &saved)
    close(fd)
  }

  /// Rows and columns (24×80 when the terminal does not say).
  var size: (rows: Int, columns: Int) {
    var rows: Int32 = 0
    var columns: Int32 = 0
    guard limelight_terminal_size(fd, &rows, &columns) == 0, rows > 0, columns > 0 else {
      return (24, 80)
    }
    return (Int(rows), Int(columns))
  }

  func write(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        return
      }
      bytes = bytes.dropFirst(n)
    }
  }

  /// Waits up to `timeout` milliseconds (-1: for ever) for input; the bytes
  /// read, empty on a timeout or an interruption (a resize), nil when the
  /// terminal went away.
  func read(timeout: Int32) -> [UInt8]? {
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let ready = poll(&poller, 1, timeout)
    if ready < 0 { return errno == EINTR ? [] : nil }
    if ready == 0 { return [] }
    if poller.revents & Int16(POLLHUP | POLLERR) != 0 && poller.revents & Int16(POLLIN) == 0 {
      return nil
    }
    var buffer = [UInt8](repeating: 0, count: 1024)
    let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
    if n < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
    if n == 0 { return nil }
    return Array(buffer.prefix(n))
  }
}
