import Foundation
import GRDB
import LimelightModel
import LimelightPlatform
import Testing

@testable import LimelightStore

/// A new file's facets are made from what is written, not read back from
/// its row: they must be what its row gives (``IndexWriter/facets(ofRow:)``),
/// the rank band above all, which SQLite computes from the name
/// (`item.nameRank`) and Swift again (``ItemRank/nameRank``).
@Suite struct NewRowFacetsTests {
  @Test func aNewRowsFacetsAreThoseItsRowGives() throws {
    let store = try Fixtures.newStore()
    let names = [
      "a", "notes.txt", ".bashrc", "archive.tar.gz", "a..", "x.y", "Makefile", "report-2024.pdf",
      "\u{65e5}\u{672c}\u{8a9e}.txt", "caf\u{e9}.md", "\u{e9}t\u{e9}", "photo.JPG", "v1.2.3",
      "name.with-dash", "dir.d", "a.b-c", "1234567890123456789012345678901234567890.txt",
      "\u{1f600}.png", "trailing.", "mixed.T3xt", "song.mp3",
    ]
    let now = Date().timeIntervalSince1970
    try store.write { writer in
      for (index, name) in names.enumerated() {
        let depth = String(repeating: "d/", count: index % 5)
        var file = Fixtures.record("/h/\(depth)\(name)", text: index % 2 == 0 ? "words" : nil)
        // Some changed this week (`recent`), some never dated.
        file.attributes.modified =
          index % 3 == 0 ? nil : Date(timeIntervalSince1970: index % 3 == 1 ? now - 60 : 1e9)
        try writer.upsert(file)
        var folder = Fixtures.record("/h/\(depth)\(name)-folder.d", text: nil)
        folder.status = FileStatus(
          kind: .directory, device: 1, inode: UInt64(10_000 + index), size: 4096, modified: 0,
          changed: 0, created: nil, mode: 0o40755)
        folder.attributes.contentType = "inode/directory"
        folder.attributes.contentTypeTree = ["inode/directory"]
        try writer.upsert(folder)
      }
      let rows = try Row.fetchAll(
        writer.db, sql: "SELECT rowid, facets FROM item_words_stored ORDER BY rowid")
      #expect(rows.count == names.count * 2)
      for row in rows {
        let written: String = row["facets"]
        #expect(written == (try writer.facets(ofRow: row["rowid"])))
      }
    }
  }
}
