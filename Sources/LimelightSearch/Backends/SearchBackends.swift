import LimelightExit
import LimelightModel
import LimelightPlatform
import LimelightStore

/// The one place that chooses where a search runs: the shared store
/// `--store` names, else the one limelight.conf names, else (or for
/// `local`) this host's index.
public enum SearchBackends {
  /// The backend for a search: `option` is `--store`'s value; `index`, an
  /// index already open (the query service's); `writable`, the local
  /// index opened for writing (`--open` records the use).
  public static func choose(
    option: String?, location: IndexLocation, index: IndexStore? = nil, writable: Bool = false
  ) throws -> any SearchBackend {
    if let name = try storeName(option: option, location: location) {
      return try StoreBackend(name: name)
    }
    return try LocalBackend(store: index ?? openIndex(location, writable: writable))
  }

  /// The local index, which must exist; `longLived` for a session that
  /// searches again and again.
  static func openIndex(_ location: IndexLocation, writable: Bool, longLived: Bool = false)
    throws -> IndexStore
  {
    try IndexStore.open(location, create: false, readOnly: !writable, longLived: longLived)
  }

  /// The shared store a search reads: the one `--store` names (`option`),
  /// else limelight.conf's; nil for the local index (`local`, or none).
  public static func storeName(option: String?, location: IndexLocation) throws -> String? {
    var name = option
    if name == nil {
      do {
        name = try Configuration.load(for: location).store
      } catch let error as Configuration.ParseError {
        throw CommandFailure("bad configuration: \(error)")
      }
    }
    return try named(name)
  }

  /// The shared store an item is read from (`limelight show`): the one
  /// `--store` names (`option`), else limelight.conf's when the item is
  /// another host's (`elsewhere`); nil for this host's index, which shows
  /// its own items whatever limelight.conf says.
  public static func storeName(
    option: String?, configuration: Configuration, elsewhere: Bool
  ) throws -> String? {
    try named(option ?? (elsewhere ? configuration.store : nil))
  }

  /// A store's name checked; nil for none or `local` (this host's index).
  private static func named(_ name: String?) throws(CommandFailure) -> String? {
    guard let name, name != "local" else { return nil }
    return try checked(name)
  }

  /// A store named on the command line (`--store`), checked as
  /// limelight.conf's is: one holding a password is a usage error.
  public static func checked(_ name: String) throws(CommandFailure) -> String {
    do throws(Configuration.StoreNameError) {
      return try Configuration.checkedStoreName(name)
    } catch {
      throw CommandFailure("--store: \(error)")
    }
  }
}
