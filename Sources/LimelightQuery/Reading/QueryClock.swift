import Foundation
import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The moment and the calendar a query's dates are read in: now (or
/// `--now`), the process's time zone (`TZ`), and the first day of the week of
/// their `LC_TIME` locale — Monday, as ISO 8601 has it, for the C and POSIX
/// locales and when none is set.
public struct QueryClock: Sendable {
  public var now: Date
  public var calendar: Calendar

  /// The clock of a process with this environment; `now`, when given, an
  /// ISO 8601 moment (``moment(_:calendar:)``) that must be valid.
  public init(environment: [String: String], now text: String? = nil) {
    // The process's own zone unless the environment names another (the
    // query service serves only clients whose `TZ` is its own): naming a
    // zone loads ICU's data, which a query need not wait for.
    var calendar = Calendar(identifier: .gregorian)
    let own = getenv("TZ").map { String(cString: $0) }
    let zone = environment["TZ"].map { $0.hasPrefix(":") ? String($0.dropFirst()) : $0 }
    if let zone, zone != own {
      calendar.timeZone =
        ["UTC", "UTC0", "GMT", "Etc/UTC"].contains(zone)
        ? TimeZone(secondsFromGMT: 0)! : TimeZone(identifier: zone) ?? .current
    } else {
      calendar.timeZone = .current
    }
    let locale = [environment["LC_ALL"], environment["LC_TIME"], environment["LANG"]]
      .compactMap { $0 }.first { !$0.isEmpty }
    let name = locale.map { String($0.prefix { $0 != "." && $0 != "@" }) }
    if let name, name != "C", name != "POSIX" {
      var local = Calendar(identifier: .gregorian)
      local.locale = Locale(identifier: name)
      calendar.firstWeekday = local.firstWeekday
      calendar.minimumDaysInFirstWeek = local.minimumDaysInFirstWeek
    } else {
      calendar.firstWeekday = 2
      calendar.minimumDaysInFirstWeek = 4
    }
    self.calendar = calendar
    self.now = text.flatMap { Self.moment($0, calendar: calendar) } ?? Date()
  }

  /// An ISO 8601 moment: a day (its start), or a day and a time, with or
  /// without seconds and a zone (`Z`, `+01:00`); nil for anything else.
  public static func moment(_ text: String, calendar: Calendar = Calendar(identifier: .gregorian))
    -> Date?
  {
    let parts = text.split(separator: "T", maxSplits: 1).map(String.init)
    let day = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
    guard day.count == 3, let year = day[0], let month = day[1], let dayOfMonth = day[2],
      (1...12).contains(month), (1...31).contains(dayOfMonth), parts[0].count == 10
    else { return nil }
    var components = DateComponents(year: year, month: month, day: dayOfMonth)
    var calendar = calendar
    if parts.count == 2 {
      var time = parts[1]
      if time.hasSuffix("Z") {
        time.removeLast()
        calendar.timeZone = TimeZone(identifier: "UTC")!
      } else if let sign = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
        let zone = time[sign...].split(separator: ":").map(String.init)
        guard let hours = Int(zone[0].dropFirst()), hours <= 14,
          let minutes = zone.count > 1 ? Int(zone[1]) : 0,
          let offset = TimeZone(
            secondsFromGMT: (zone[0].hasPrefix("-") ? -1 : 1) * (hours * 3600 + minutes * 60))
        else { return nil }
        calendar.timeZone = offset
        time = String(time[..<sign])
      }
      let clock = time.split(separator: ":").map { Int($0) }
      guard (2...3).contains(clock.count), clock.allSatisfy({ $0 != nil }),
        (0...23).contains(clock[0]!), (0...59).contains(clock[1]!),
        clock.count == 2 || (0...60).contains(clock[2]!)
      else { return nil }
      components.hour = clock[0]
      components.minute = clock[1]
      components.second = clock.count == 3 ? clock[2] : 0
    }
    guard let date = calendar.date(from: components),
      calendar.component(.day, from: date) == dayOfMonth
    else { return nil }
    return date
  }
}

extension QueryParser {
  /// A parser that reads dates by `clock` (a process's `TZ`, `LC_TIME` and
  /// `--now`): what every front end that reads a person's words uses.
  public init(
    home: RawPath, currentDirectory: @escaping () -> RawPath = { RawPath.absolute(".") },
    clock: QueryClock
  ) {
    self.init(
      home: home, currentDirectory: currentDirectory, now: clock.now, calendar: clock.calendar)
  }
}
