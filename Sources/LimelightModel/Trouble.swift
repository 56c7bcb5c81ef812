/// The kinds of trouble reading a file can meet, told apart by the message
/// its failure keeps: a person who sees "errors" should see real ones.
public enum Trouble: String, CaseIterable, Sendable, Codable {
  /// The file is damaged (or not what its type says).
  case damaged
  /// Limelight may not read it (permissions).
  case unreadable
  /// A document that needs a password: not an error, indexed by name.
  case locked
  /// A program that reads a format failed (crashed, timed out, missing).
  case toolFailed
  /// Anything else (too large for its type, …).
  case other

  /// The kind of a failure's message (`malformed: …`, `locked: …`, …).
  public static func of(_ message: String) -> Trouble {
    for (kind, patterns) in patterns where patterns.contains(where: { matches(message, $0) }) {
      return kind
    }
    return .other
  }

  /// The messages of each kind, as SQL `LIKE` patterns (the store counts
  /// them with these; ``of(_:)`` reads them the same way).
  public static let patterns: [(Trouble, [String])] = [
    (.locked, ["locked: %"]),
    (.unreadable, ["%Permission denied%", "%Operation not permitted%"]),
    (.damaged, ["malformed: %"]),
    (.toolFailed, ["importer %", "%crashed%", "%timed out%", "%killed%"]),
  ]

  /// What a person reads for it in `limelight status`.
  public var label: String {
    switch self {
    case .damaged: "damaged"
    case .unreadable: "not readable (permissions)"
    case .locked: "locked (encrypted)"
    case .toolFailed: "a reading tool failed"
    case .other: "other"
    }
  }

  /// `LIKE` as SQLite reads it, for ASCII patterns: `%` any run.
  static func matches(_ message: String, _ pattern: String) -> Bool {
    let parts = pattern.split(separator: "%", omittingEmptySubsequences: false).map(String.init)
    var rest = Substring(message.lowercased())
    for (index, part) in parts.enumerated() {
      let piece = part.lowercased()
      if index == 0 {
        guard rest.hasPrefix(piece) else { return false }
        rest = rest.dropFirst(piece.count)
      } else if index == parts.count - 1 {
        return piece.isEmpty || rest.hasSuffix(piece)
      } else if let found = rest.range(of: piece) {
        rest = rest[found.upperBound...]
      } else {
        return false
      }
    }
    return rest.isEmpty
  }
}
