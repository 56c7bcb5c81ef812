import Foundation
import LimelightModel
import LimelightPlatform
import LimelightStore
import Testing

/// The pages of changes a shared store is sent: every file changed after a
/// generation, once, in the order of the rows, and the removals with the
/// first page, whether the changes are few (read from the index of
/// generations and sorted) or many (read in the order of the rows).
@Suite struct SharedChangesTests {
  @Test(arguments: [3, 2_500])
  func everyChangeIsReadOnceInTheOrderOfRows(changed: Int) throws {
    let store = try Fixtures.newStore()
    let files = 3_000
    func path(_ number: Int) -> String { "/h/notes/file-\(number).txt" }
    try store.write { writer in
      for number in 0..<files { try writer.upsert(Fixtures.record(path(number), text: nil)) }
    }
    let before = try store.generation()
    // Changed files spread through the rows (each keeps its row), and one removed.
    let numbers = Array(stride(from: 0, to: files, by: files / changed).prefix(changed))
    try store.write { writer in
      for number in numbers.reversed() {
        try writer.upsert(Fixtures.record(path(number), text: "changed \(number)"))
      }
      _ = try writer.removeTree(RawPath(path(files - 1)))
    }
    let now = try store.generation()
    var read: [String] = []
    var removed: [RawPath] = []
    var afterRow: Int64 = 0
    var pages = 0
    while true {
      let page = try store.sharedChanges(
        after: before, through: now, afterRow: afterRow, limit: 500)
      pages += 1
      read += page.items.map(\.path.string)
      #expect(pages == 1 || page.removed.isEmpty)
      removed += page.removed
      guard let next = page.nextRow else { break }
      afterRow = next
    }
    #expect(read == numbers.map(path))
    #expect(removed == [RawPath(path(files - 1))])
    #expect(pages == changed / 500 + 1)
  }
}
