import Foundation
import LimelightPlatform
import LimelightStore
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Application items whose expiration date has come are removed, on the
/// watcher's timer: at the next expiration the index knows of, looked up
/// again after each purge, whenever a writer says it wrote items that may
/// expire (``ExpiryPurge/Nudge``), and once an hour for those written by
/// other processes.
struct ExpiryPurge {
  /// When the next item expires (seconds since 1970), as last looked up.
  private(set) var nextExpiration: Double?
  /// When the index is looked at again (monotonic seconds).
  private(set) var nextLook = 0.0
  static let lookSeconds = 3_600.0

  /// When the watcher should wake for it (monotonic seconds).
  func deadline(now: Double, wallNow: Double) -> Double {
    min(nextLook, nextExpiration.map { now + max(0, $0 - wallNow) } ?? .infinity)
  }

  /// Looks at the index again at the next chance.
  mutating func lookSoon() { nextLook = 0 }

  /// Purges what expired and looks up the next expiration, when due.
  /// Returns a problem to report, if any.
  mutating func runIfDue(store: IndexStore, now: Double, wallNow: Double) -> String? {
    guard now >= deadline(now: now, wallNow: wallNow) else { return nil }
    nextLook = now + Self.lookSeconds
    do {
      // Asked of the index, not of the last look: items written since may
      // have expired already. Nothing is written when nothing expired.
      var next = try store.nextExpiration()?.timeIntervalSince1970
      if let due = next, due <= wallNow {
        _ = try store.write { try $0.purgeExpired(now: Date(timeIntervalSince1970: wallNow)) }
        next = try store.nextExpiration()?.timeIntervalSince1970
      }
      nextExpiration = next
    } catch {
      // Tried again at the next look, not in a loop.
      nextExpiration = nil
      return "cannot purge expired items: \(error)"
    }
    return nil
  }

  /// Wakes the watcher's loop from another thread: a pipe it polls, and a
  /// flag that says the index gained items that may expire.
  final class Nudge: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32
    private let pending = Atomic<Bool>(false)

    init() { (readEnd, writeEnd) = FileSystem.wakePipe() }

    deinit {
      if readEnd >= 0 { close(readEnd) }
      if writeEnd >= 0 { close(writeEnd) }
    }

    /// Called by a writer on any thread.
    func signal() {
      pending.store(true, ordering: .releasing)
      if writeEnd >= 0 { _ = write(writeEnd, "x", 1) }
    }

    /// Whether a writer signalled since the last call (the pipe emptied).
    func take() -> Bool {
      var buffer = [UInt8](repeating: 0, count: 64)
      while readEnd >= 0 && read(readEnd, &buffer, buffer.count) > 0 {}
      return pending.exchange(false, ordering: .acquiring)
    }
  }
}
