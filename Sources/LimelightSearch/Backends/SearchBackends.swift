import Foundation
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
  /// `readOption` is `--store-read`'s: the store's hot standby read
  /// instead (else limelight.conf's `store-read`, for its `store`).
  /// `pool` keeps the store's connections between searches.
  public static func choose(
    option: String?, readOption: String? = nil, location: IndexLocation,
    index: IndexStore? = nil, writable: Bool = false, errors: Int32? = STDERR_FILENO,
    pool: StoreBackendPool? = nil
  ) throws -> any SearchBackend {
    if let (name, standby) = try storeNames(
      option: option, readOption: readOption, location: location)
    {
      if let pool {
        return try pool.take(StoreNames(store: name, standby: standby), errors: errors)
      }
      return try StoreBackend(name: name, standby: standby, errors: errors)
    }
    return try LocalBackend(store: index ?? openIndex(location, writable: writable))
  }

  /// The shared store a search reads and its standby, if any: `--store`
  /// (`option`) else limelight.conf's `store`; `--store-read`
  /// (`readOption`) else limelight.conf's `store-read` when the store is
  /// limelight.conf's. nil for the local index.
  public static func storeNames(option: String?, readOption: String?, location: IndexLocation)
    throws -> (store: String, standby: String?)?
  {
    // A store named on the command line is searched whatever
    // limelight.conf holds: a mistake there only leaves out its standby.
    let configuration: Configuration?
    do {
      configuration = try Configuration.load(for: location)
    } catch let error as Configuration.ParseError {
      guard option != nil else { throw CommandFailure("bad configuration: \(error)") }
      configuration = nil
    }
    guard let name = try named(option ?? configuration?.store) else { return nil }
    return (name, try standby(readOption: readOption, store: name, configuration: configuration))
  }

  /// The hot standby the store `store` is read from: `--store-read`
  /// (`readOption`), else limelight.conf's `store-read` when `store` is
  /// limelight.conf's; nil: the store itself.
  public static func standby(readOption: String?, store: String, configuration: Configuration?)
    throws(CommandFailure) -> String?
  {
    if let readOption { return try checked(readOption, option: "--store-read") }
    return store == configuration?.store ? configuration?.storeRead : nil
  }

  /// The local index, which must exist; `longLived` for a session that
  /// searches again and again.
  static func openIndex(_ location: IndexLocation, writable: Bool, longLived: Bool = false)
    throws -> IndexStore
  {
    try IndexStore.open(location, create: false, readOnly: !writable, longLived: longLived)
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
  public static func checked(_ name: String, option: String = "--store") throws(CommandFailure)
    -> String
  {
    do throws(Configuration.StoreNameError) {
      return try Configuration.checkedStoreName(name)
    } catch {
      throw CommandFailure("\(option): \(error)")
    }
  }
}
