import Testing

@testable import LimelightStore

extension IndexStore {
  /// FTS5's own check of both full-text indexes against what they index
  /// (rank 1: against the content too), recorded as an issue of the test
  /// when they disagree after `step`.
  func expectWholeIndexes(_ step: String) throws {
    try write { writer in
      for table in ["item_text", "item_name"] {
        do {
          try writer.db.execute(
            sql: "INSERT INTO \(table) (\(table), rank) VALUES ('integrity-check', 1)")
        } catch {
          Issue.record("\(table) after \(step): \(error)")
        }
      }
    }
  }
}
