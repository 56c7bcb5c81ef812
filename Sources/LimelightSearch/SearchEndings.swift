import LimelightExit

/// How a search ends, alike against the local index and a shared store: a
/// count, the result to open, the note that more matched than are shown,
/// and exit status 1 when nothing matched.
extension FindInContext {
  /// Prints `total` (`--count`); nothing counted ends with status 1.
  func printCount(_ total: Int) throws {
    let buffer = OutputBuffer(fd: output, abandoned: abandoned)
    buffer.write("\(total)\n")
    buffer.flush()
    if total == 0 { throw CommandFailure("", status: ExitStatus.notFound) }
  }

  /// Result number `pick` (from 1) of `results`, for `--open`.
  func picked<Result>(_ pick: Int, of results: [Result]) throws -> Result {
    guard results.count >= pick else {
      if results.isEmpty { throw CommandFailure("", status: ExitStatus.notFound) }
      throw CommandFailure("only \(results.count) results: nothing to open as number \(pick)")
    }
    return results[pick - 1]
  }

  /// Tells a person at a terminal that more matched than `shown`.
  func noteMore(format: ResultFormat, matched: Int, shown: Int) {
    guard case .human = format, matched > shown else { return }
    printError("… more results: use --limit N to see them, or pipe the output for all", to: errors)
  }

  /// Ends a search that printed `results`: status 1 when there were none.
  func end(found results: Int) throws {
    if results == 0 { throw CommandFailure("", status: ExitStatus.notFound) }
  }
}
