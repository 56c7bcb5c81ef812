/// When the watcher next merges a step of the full-text indexes' segments
/// (``Watcher/tidySegments()``, which the second pass also runs after each
/// slice). Each commit adds a segment to each index, and FTS5's own
/// merging (`automerge`, 16) let 18 to 66 pile up in a first crawl's second
/// pass, and 60 saved files leave 30 and 37 on the corpus's index: a word a
/// search looks up is looked for in each. Queries served during the
/// corpus's second pass took twice as long (p99 92 to 127 ms; 46 to 56 ms
/// with a step after each slice, which cost the pass a few seconds of its
/// three minutes), and a typo looked for among the texts' words 68 ms
/// instead of 41. A step comes a second after the first write since the
/// last (once a second while writes go on), and the next right after while
/// the one before merged something.
struct SegmentTidying {
  /// Seconds from a write to the step after it.
  static let delay = 1.0
  /// Seconds between two steps that each merged something.
  static let between = 0.05

  /// When the next step is due; nil while nothing was written since the last.
  private(set) var due: Double?

  /// Something was written at `now`.
  mutating func wrote(now: Double) { due = due ?? now + Self.delay }

  /// A step was due while writes waited or failed (the disk full): it
  /// waits as long again, rather than wake the watcher at once, over and over.
  mutating func putOff(now: Double) { due = now + Self.delay }

  /// A step ran: another follows if it merged something (`more`).
  mutating func stepped(more: Bool, now: Double) { due = more ? now + Self.between : nil }
}
