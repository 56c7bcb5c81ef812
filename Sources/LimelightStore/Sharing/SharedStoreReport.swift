import Foundation
import LimelightModel

/// How the watcher's sending to a shared store goes, for `limelight status`:
/// kept beside the socket (``RuntimeNote``), written when it changes.
public struct SharedStoreReport: Codable, Sendable, Equatable {
  public enum State: String, Codable, Sendable {
    /// Connecting, or sending what changed.
    case sending
    /// Everything the index holds is in the store.
    case current
    /// The store cannot be reached: changes wait in the local index.
    case unreachable
  }

  /// The store as configured (never with a password: those are refused).
  public var store: String
  /// The host name this watcher's entries carry there.
  public var host: String
  public var state: State
  /// When the state began.
  public var since: Date
  /// Why the store cannot be reached, or refused a write.
  public var message: String?
  /// The local index's generation the store holds everything up to.
  public var sentThrough: Int64?
  /// When the store last took a write.
  public var lastSent: Date?

  public init(store: String, host: String, state: State, since: Date) {
    (self.store, self.host, self.state, self.since) = (store, host, state, since)
  }

  static let noteName = "shared-store.json"

  public func write(_ location: IndexLocation) { RuntimeNote.write(self, Self.noteName, location) }

  public static func read(_ location: IndexLocation) -> SharedStoreReport? {
    RuntimeNote.read(SharedStoreReport.self, noteName, location)
  }

  public static func remove(_ location: IndexLocation) { RuntimeNote.remove(noteName, location) }
}
