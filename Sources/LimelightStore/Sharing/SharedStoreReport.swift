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
    /// Packing the store's indexes after sending every entry
    /// (`PostgresIndex.pack`): changes wait until it is done.
    case packing
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
  /// How far a long send is (nil when none is under way, or one too short
  /// to tell of): `limelight status` said only "generations to go", a
  /// number that rose all through a first send, since the watcher's own
  /// writes move it.
  public var progress: Progress?

  /// What a send under way sends, how many it has sent, and of how many
  /// when that is known (every entry of this host, sent again; the
  /// vectors written since the store last heard).
  public struct Progress: Codable, Sendable, Equatable {
    public enum What: String, Codable, Sendable {
      case entries
      case vectors
    }
    public var what: What
    public var sent: Int
    public var of: Int?

    public init(what: What, sent: Int, of: Int?) {
      (self.what, self.sent, self.of) = (what, sent, of)
    }
  }

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
