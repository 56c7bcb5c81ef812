import Foundation

/// Wakes the threads that wait for this process's next commit to the index
/// (the shared store's sender): they sleep until there is something to
/// send, instead of asking the index over and over.
public final class CommitSignal: @unchecked Sendable {
  private let condition = NSCondition()
  private var count: UInt64 = 0

  public init() {}

  /// Counts a commit (or a reason to look again) and wakes the waiters.
  public func signal() {
    condition.lock()
    count &+= 1
    condition.broadcast()
    condition.unlock()
  }

  /// The commits counted so far.
  public var current: UInt64 {
    condition.lock()
    defer { condition.unlock() }
    return count
  }

  /// Waits until the count passes `seen`, at most `timeout` seconds, and
  /// returns the count then.
  @discardableResult
  public func wait(after seen: UInt64, timeout: Double) -> UInt64 {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while count == seen && condition.wait(until: deadline) {}
    return count
  }
}
