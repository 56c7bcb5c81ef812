import Foundation
import LimelightModel
import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// A small JSON note the watcher keeps beside the index's socket, apart
/// from the index (which may be the very thing that cannot be written):
/// dates as seconds since 1970.
enum RuntimeNote {
  static func encoded<T: Encodable>(_ value: T) -> Data? {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    return try? encoder.encode(value)
  }

  static func decoded<T: Decodable>(_ type: T.Type, from data: Data?) -> T? {
    guard let data else { return nil }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return try? decoder.decode(type, from: data)
  }

  /// The note `name` of a location's runtime folder.
  static func path(_ name: String, _ location: IndexLocation) -> String {
    location.runtimeDirectory.appending(name).string
  }

  static func write<T: Encodable>(_ value: T, _ name: String, _ location: IndexLocation) {
    guard let data = encoded(value) else { return }
    try? data.write(to: URL(fileURLWithPath: path(name, location)), options: .atomic)
  }

  static func read<T: Decodable>(_ type: T.Type, _ name: String, _ location: IndexLocation) -> T? {
    // Whole, whatever interrupts the read (see FileSystem.readPrefix).
    let bytes = try? FileSystem.readPrefix(RawPath(path(name, location)), limit: 1 << 20)
    return decoded(type, from: bytes.map { Data($0) })
  }

  static func remove(_ name: String, _ location: IndexLocation) {
    unlink(path(name, location))
  }
}
