import LimelightModel
import Testing

@testable import LimelightWatch

/// The watcher's policies, each taken alone: settling and move pairing.
@Suite struct WatchPolicyTests {
  @Test func aChangeWaitsUntilItsFileIsQuietButNotForever() {
    var settling = Settling(settleSeconds: 0.5)
    let file = RawPath("/h/notes.txt")
    settling.schedule(file, delay: 0.5, now: 0)
    // Written again and again: pushed back each time, but read after ten
    // settle periods (at least 5 s).
    for t in stride(from: 0.25, through: 4.75, by: 0.25) {
      settling.schedule(file, delay: 0.5, now: t)
      #expect(settling.takeReady(now: t).isEmpty)
    }
    #expect(settling.nextDeadline == 5)
    #expect(settling.takeReady(now: 5) == [file: false])
    // Closed by its writer: read after the short delay, forced when asked.
    settling.schedule(file, delay: 0.02, now: 10, settled: true, force: true)
    #expect(settling.takeReady(now: 10.02) == [file: true])
    #expect(settling.count == 0)
  }

  @Test func changesFollowAMovedFolderAndGoWithARemovedOne() {
    var settling = Settling(settleSeconds: 1)
    settling.schedule(RawPath("/h/a/x.txt"), delay: 1, now: 0)
    settling.schedule(RawPath("/h/ab/y.txt"), delay: 1, now: 0)
    settling.rebase(from: RawPath("/h/a"), to: RawPath("/h/b"))
    #expect(Set(settling.due.keys) == [RawPath("/h/b/x.txt"), RawPath("/h/ab/y.txt")])
    settling.forget(inside: RawPath("/h/ab"))
    #expect(Array(settling.due.keys) == [RawPath("/h/b/x.txt")])
  }

  @Test func renamesArePairedByCookieAndALoneHalfIsARemoval() {
    var moves = MovePairing()
    moves.departed(RawPath("/h/a.txt"), cookie: 7, isFolder: false, now: 0)
    moves.departed(RawPath("/h/gone"), cookie: 8, isFolder: true, now: 0)
    #expect(moves.arrived(cookie: 7)?.path == RawPath("/h/a.txt"))
    #expect(moves.arrived(cookie: 7) == nil)
    #expect(moves.takeExpired(now: 0.01).isEmpty)
    let alone = moves.takeExpired(now: MovePairing.patience)
    #expect(alone.map(\.path) == [RawPath("/h/gone")] && alone[0].isFolder)
    #expect(moves.count == 0 && moves.nextDeadline == nil)
  }
}
