import LimelightModel
import LimelightPlatform

/// The halves of renames, paired by inotify's cookie: `IN_MOVED_FROM` waits
/// a moment for its `IN_MOVED_TO`; alone after that, it was a move out of
/// the watched trees, that is a removal.
struct MovePairing {
  struct Departure {
    var path: RawPath
    var deadline: Double
    var isFolder: Bool
  }

  /// How long a `IN_MOVED_FROM` waits for its other half.
  static let patience = 0.05

  private var departures: [UInt32: Departure] = [:]

  var count: Int { departures.count }

  var nextDeadline: Double? { departures.values.map(\.deadline).min() }

  mutating func departed(_ path: RawPath, cookie: UInt32, isFolder: Bool, now: Double) {
    departures[cookie] = Departure(path: path, deadline: now + Self.patience, isFolder: isFolder)
  }

  /// The other half of an `IN_MOVED_TO`, if it came.
  mutating func arrived(cookie: UInt32) -> Departure? {
    departures.removeValue(forKey: cookie)
  }

  /// The halves that waited long enough alone, taken out: each is a removal.
  mutating func takeExpired(now: Double) -> [Departure] {
    let expired = departures.filter { $0.value.deadline <= now }
    for cookie in expired.keys { departures[cookie] = nil }
    return Array(expired.values)
  }
}
