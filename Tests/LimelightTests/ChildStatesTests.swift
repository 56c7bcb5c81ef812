import Foundation
import LimelightModel
import LimelightPlatform
import LimelightStore
import Testing

/// A folder's own items as the index remembers them, read past the items
/// below its child folders, whatever sorts between a folder and its items
/// (`a-b` and `a.txt` come between `a` and `a/x` in the order of paths).
@Suite struct ChildStatesTests {
  @Test func aFoldersOwnItemsAndNoneBelowThem() throws {
    let store = try Fixtures.newStore()
    let below = ["a/x.txt", "a/y/z.txt", "b/c/d.txt", "a0/e.txt"]
    let own = ["a", "a-b.txt", "a.txt", "a0", "b", "z.txt", "\u{e9}t\u{e9}.txt"]
    try store.write { writer in
      for name in own + below { try writer.upsert(Fixtures.record("/h/top/\(name)", text: nil)) }
      try writer.upsert(Fixtures.record("/h/top-other.txt", text: nil))
      try writer.upsert(Fixtures.record("/h/top0.txt", text: nil))
    }
    let states = try store.childStates(of: RawPath("/h/top"))
    #expect(Set(states.keys.map(\.string)) == Set(own.map { "/h/top/\($0)" }))
    // `a/y` itself is no item: what is below it is not `a`'s.
    #expect(try store.childStates(of: RawPath("/h/top/a")).keys.map(\.string) == ["/h/top/a/x.txt"])
  }
}
