import Foundation
import LimelightModel
import LimelightStore

#if canImport(Glibc)
  import Glibc
#endif

/// Waits until the watcher has carried out a request. Returns false on timeout.
public func waitForRequest(_ id: Int64, in store: IndexStore, timeout: Double?) throws
  -> IndexRequest?
{
  let deadline = timeout.map { Date().addingTimeInterval($0) }
  var delay: UInt32 = 10_000
  while true {
    if let request = try store.request(id: id), request.doneGeneration != nil { return request }
    if let deadline, Date() >= deadline { return nil }
    usleep(delay)
    delay = min(delay * 2, 100_000)
  }
}
