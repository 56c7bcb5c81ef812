import CLinux
import Foundation

/// A value made on a thread of its own, at the sending's priority, while
/// the thread that asked for it goes on (``SharedStoreSender``: the next
/// page read while the store writes this one).
final class MadeAhead<Value: Sendable>: @unchecked Sendable {
  private let done = DispatchGroup()
  /// Set by the making thread before it leaves `done`; read after it left.
  private var made: Result<Value, any Error>?

  init(_ make: @escaping @Sendable () throws -> Value) {
    done.enter()
    Thread.detachNewThread { [self] in
      limelight_lower_thread_priority(SharedStoreSender.nice)
      made = Result { try make() }
      done.leave()
    }
  }

  /// The value, once made, or what making it threw.
  func value() throws -> Value {
    done.wait()
    return try made!.get()
  }
}
