import CLinux
import Foundation
import LimelightExit
import LimelightImport
import LimelightModel
import LimelightPlatform
import LimelightStore
import Logging

#if canImport(Glibc)
  import Glibc
#endif

/// A damaged index, found by SQLite in this process or another
/// (``IndexDamage``) or by the structural check the watcher runs at start
/// and once a day: the damaged file is set aside, and the watcher starts
/// again in its own place, which builds a new index from the disk (names
/// first) and asks the reindex extensions for the applications' items.
extension Watcher {
  /// How often the index's structure is checked again, in seconds.
  static let integrityCheckSeconds = 86_400.0

  /// Deals with damage reported and not yet dealt with.
  func rebuildIfDamaged() {
    if let reason = IndexDamage.reported(store.location) { rebuild(after: reason) }
  }

  /// Checks the index's structure (every page) on a thread of its own, at
  /// the lowest CPU and I/O priority; what is wrong is reported as damage.
  func startIntegrityCheck() {
    nextIntegrityCheck = monotonicNow() + Self.integrityCheckSeconds
    let store = self.store
    let logger = self.logger
    let thread = Thread {
      limelight_lower_thread_priority(Watcher.backgroundNice)
      limelight_idle_io_priority()
      // A damage that SQLite meets while reading is reported by the store.
      guard let problem = try? store.structuralProblem() else { return }
      logger.error("the index's structure is damaged: \(problem)")
      IndexDamage.report(store.location, reason: problem)
    }
    thread.start()
  }

  /// Sets the damaged index aside and starts this watcher again in its place.
  func rebuild(after reason: String) -> Never {
    extensions.stop()
    HelperPool.shared.stopIdle(after: 0)
    Self.rebuild(store.location, after: reason, logger: logger)
  }

  /// Sets the damaged index of `location` aside and starts the watcher
  /// again in its place (also for damage met before the watcher runs).
  public static func rebuild(_ location: IndexLocation, after reason: String, logger: Logger)
    -> Never
  {
    logger.error(
      "the index is damaged (\(reason)): it is set aside and built again from the disk")
    let aside = IndexDamage.setAside(location)
    IndexRebuild(reason: reason, time: Date()).leave(location)
    logger.error("the damaged index is kept as \(aside.string); limelightd starts again")
    startAgain()
  }

  /// Replaces this process's image with a fresh one of the same program
  /// and arguments (its process id, and so its place under a service
  /// manager, stays).
  static func startAgain() -> Never {
    // Descriptors are left as they are: a parent may watch for one it
    // handed down to close (Foundation's Process does, to see its child
    // end); the helpers' and extensions' pipes were closed when they stopped.
    var argv = CommandLine.arguments.map { strdup($0) } + [nil]
    execv("/proc/self/exe", &argv)
    // No image to start: a service manager starts the watcher again.
    let message = "limelightd: cannot start again: \(String(cString: strerror(errno)))\n"
    _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    exit(ExitStatus.restartFailed)
  }
}
