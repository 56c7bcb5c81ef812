import Foundation
import LimelightModel

/// The numeric attributes that `size:` and the date filters compare.
public enum RangeField: String, Sendable {
  case size, modified, created, lastUsed
}

/// Reads the values of `size:` and of `modified:`, `created:` and `used:`.
enum RangeParser {
  /// `>10MB`, `<1k`, `>=2G`, `5M` (at least), `1M..5M`, in bytes.
  static func size(_ value: String) -> (Double?, Double?)? {
    if let range = splitRange(value) {
      guard let low = bytes(range.0), let high = bytes(range.1), low <= high else { return nil }
      return (low, high + 1)
    }
    let (op, rest) = comparison(value)
    guard let amount = bytes(rest) else { return nil }
    switch op {
    case ">": return (amount + 1, nil)
    case ">=", "": return (amount, nil)
    case "<": return (nil, amount)
    case "<=": return (nil, amount + 1)
    default: return (amount, amount + 1)  // "="
    }
  }

  static func bytes(_ text: String) -> Double? {
    guard !text.isEmpty else { return nil }
    let lower = text.lowercased()
    let (k, m, g, t): (Double, Double, Double, Double) = (
      1024, 1_048_576, 1_073_741_824, 1_099_511_627_776
    )
    let units: [(String, Double)] = [
      ("kb", k), ("mb", m), ("gb", g), ("tb", t), ("k", k), ("m", m), ("g", g), ("t", t), ("b", 1),
    ]
    for (unit, factor) in units where lower.hasSuffix(unit) {
      guard let number = Double(lower.dropLast(unit.count)), number >= 0, number.isFinite else {
        return nil
      }
      return (number * factor).rounded(.down)
    }
    guard let number = Double(lower), number >= 0, number.isFinite else { return nil }
    return number
  }

  /// `today`, `yesterday`, `week`, `month`, `year` (the last 7, 30 or 365 days),
  /// an ISO date (`2026-11-20`, `2026-11`, `2026`), a range `A..B`, or `<`/`>` a date.
  /// Returns half-open bounds in seconds since 1970.
  static func date(_ value: String, now: Date, calendar: Calendar) -> (Double?, Double?)? {
    if let range = splitRange(value) {
      let low = range.0.isEmpty ? nil : period(range.0, now: now, calendar: calendar)
      let high = range.1.isEmpty ? nil : period(range.1, now: now, calendar: calendar)
      if !range.0.isEmpty && low == nil || !range.1.isEmpty && high == nil { return nil }
      if low == nil && high == nil { return nil }
      return (low?.0, high?.1)
    }
    let (op, rest) = comparison(value)
    guard let span = period(rest, now: now, calendar: calendar) else { return nil }
    switch op {
    case ">": return (span.1, nil)
    case ">=": return (span.0, nil)
    case "<": return (nil, span.0)
    case "<=": return (nil, span.1)
    default: return span
    }
  }

  /// The span of time a word or an ISO date names.
  static func period(_ text: String, now: Date, calendar: Calendar) -> (Double, Double)? {
    let startOfToday = calendar.startOfDay(for: now).timeIntervalSince1970
    let day = 86_400.0
    switch text.lowercased() {
    case "today": return (startOfToday, startOfToday + day)
    case "yesterday": return (startOfToday - day, startOfToday)
    case "week": return (startOfToday - 6 * day, now.timeIntervalSince1970 + day)
    case "month": return (startOfToday - 29 * day, now.timeIntervalSince1970 + day)
    case "year": return (startOfToday - 364 * day, now.timeIntervalSince1970 + day)
    default: break
    }
    let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
    guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
    let numbers = parts.map { $0! }
    guard numbers[0] >= 1900 && numbers[0] <= 9999 else { return nil }
    var start = DateComponents(year: numbers[0], month: 1, day: 1)
    var step = DateComponents(year: 1)
    if numbers.count >= 2 {
      guard (1...12).contains(numbers[1]) else { return nil }
      start.month = numbers[1]
      step = DateComponents(month: 1)
    }
    if numbers.count == 3 {
      guard (1...31).contains(numbers[2]) else { return nil }
      start.day = numbers[2]
      step = DateComponents(day: 1)
    }
    guard let begin = calendar.date(from: start), let end = calendar.date(byAdding: step, to: begin)
    else { return nil }
    return (begin.timeIntervalSince1970, end.timeIntervalSince1970)
  }

  static func comparison(_ value: String) -> (String, String) {
    for op in [">=", "<=", ">", "<", "="] where value.hasPrefix(op) {
      return (op, String(value.dropFirst(op.count)))
    }
    return ("", value)
  }

  static func splitRange(_ value: String) -> (String, String)? {
    guard let dots = value.range(of: "..") else { return nil }
    return (String(value[..<dots.lowerBound]), String(value[dots.upperBound...]))
  }
}
