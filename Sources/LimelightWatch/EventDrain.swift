import Foundation
import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Reads inotify's queue on a thread of its own, as fast as events come,
/// into a queue in memory that the watcher's loop takes from: the kernel's
/// queue (16,384 events by default) overflows within seconds of a burst
/// while the loop writes, and an overflow costs a rescan of every root.
///
/// The loop polls ``wakeFD``, readable while events wait. Past ``capacity``
/// events waiting (the loop paused, or far behind), the rest are dropped and
/// one overflow event stands for them, as the kernel's own does.
final class EventDrain: @unchecked Sendable {
  let inotify: Inotify
  private let lock = NSLock()
  private var waiting: [InotifyEvent] = []
  private var overflowed = false
  private var stopped = false
  private let wake: [Int32]

  /// Events held at most (about 100 bytes each).
  static let capacity = 500_000

  /// The end the loop polls: readable while events wait.
  var wakeFD: Int32 { wake[0] }

  init(_ inotify: Inotify) throws(SystemError) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw SystemError("pipe") }
    for end in ends {
      _ = fcntl(end, F_SETFL, O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    wake = ends
    self.inotify = inotify
    Thread.detachNewThread { [self] in run() }
  }

  deinit {
    close(wake[0])
    close(wake[1])
  }

  /// Every event read so far, in order; empties the queue.
  func take() -> [InotifyEvent] {
    var byte: UInt8 = 0
    while read(wake[0], &byte, 1) > 0 {}
    lock.lock()
    defer { lock.unlock() }
    let events = waiting
    waiting.removeAll()
    overflowed = false
    return events
  }

  /// Whether events wait to be taken, without taking them.
  var hasWaiting: Bool {
    lock.lock()
    defer { lock.unlock() }
    return !waiting.isEmpty || overflowed
  }

  /// Ends the reading thread (within half a second).
  func stop() {
    lock.lock()
    stopped = true
    lock.unlock()
  }

  private func run() {
    var entry = pollfd(fd: inotify.fd, events: Int16(POLLIN), revents: 0)
    while true {
      lock.lock()
      let done = stopped
      lock.unlock()
      if done { return }
      entry.revents = 0
      guard poll(&entry, 1, 500) > 0 else { continue }
      let events = inotify.readEvents()
      if events.isEmpty { continue }
      lock.lock()
      let wasEmpty = waiting.isEmpty
      if overflowed {
        // Dropped: the overflow event already queued stands for them.
      } else if waiting.count + events.count > Self.capacity {
        waiting.append(
          InotifyEvent(watch: -1, mask: UInt32(IN_Q_OVERFLOW), cookie: 0, name: nil))
        overflowed = true
      } else {
        waiting += events
      }
      lock.unlock()
      if wasEmpty {
        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
      }
    }
  }
}
