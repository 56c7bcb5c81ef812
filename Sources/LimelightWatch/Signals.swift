import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// SIGTERM, SIGINT and SIGHUP ask the watcher to commit what it has and stop.
/// The handler only sets a flag and writes to a pipe that the event loop polls.
enum StopSignal {
  nonisolated(unsafe) static var requested: sig_atomic_t = 0
  nonisolated(unsafe) static var pipeWrite: Int32 = -1
  nonisolated(unsafe) static var pipeRead: Int32 = -1

  static func install() {
    (pipeRead, pipeWrite) = FileSystem.wakePipe()
    for sig in [SIGTERM, SIGINT, SIGHUP] {
      signal(sig) { _ in
        StopSignal.requested = 1
        if StopSignal.pipeWrite >= 0 { _ = write(StopSignal.pipeWrite, "x", 1) }
      }
    }
    signal(SIGPIPE, SIG_IGN)
  }

  static var isRequested: Bool { requested != 0 }
}

extension Watcher {
  /// Whether SIGTERM, SIGINT or SIGHUP asked the watcher to stop: work
  /// that follows its run (the last sending to a shared store) stops too.
  public static var stopRequested: Bool { StopSignal.isRequested }
}
