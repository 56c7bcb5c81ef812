import Foundation
import Testing

@testable import LimelightStore

/// Outcomes are values: their sentences are theirs alone, and whether a
/// request failed is decided on the value, whatever the sentence says.
@Suite struct RequestOutcomeTests {
  static let ran = ExtensionRunOutcome.indexed(.all, indexed: 3, deleted: 1)
  static let retrying = ExtensionRunOutcome.retrying(.ids(2), reason: "exit 1", seconds: 30)
  static let gaveUp = ExtensionRunOutcome.gaveUp(.all, reason: "timed out", attempts: 6)

  @Test func sentences() {
    #expect(RequestOutcome.reindexed(outsideRoots: []).description == "reindexed")
    #expect(
      RequestOutcome.reindexed(outsideRoots: ["/a", "/b"]).description
        == "not under any root: /a, /b")
    #expect(
      RequestOutcome.extensionRun(Self.ran).description
        == "reindex-all: 3 items indexed, 1 deleted")
    #expect(
      RequestOutcome.extensionRun(Self.retrying).description
        == "reindex of 2 ids failed: exit 1; retrying in 30 s")
    #expect(
      RequestOutcome.each([
        .erasedAndCrawled, .inDomain("com.example.notes", .extensionRun(Self.gaveUp)),
      ]).description
        == "erased and crawled again; com.example.notes: reindex-all failed: timed out;"
        + " gave up after 6 attempts")
  }

  @Test func failuresAreDecidedOnTheValue() {
    let failures: [RequestOutcome] = [
      .noExtension(domain: "a"), .extensionUnregistered(domain: "a"),
      .extensionRun(Self.retrying), .extensionRun(Self.gaveUp),
      .inDomain("a", .extensionRun(Self.gaveUp)),
      .each([.erasedAndCrawled, .inDomain("a", .extensionRun(Self.retrying))]),
    ]
    let successes: [RequestOutcome] = [
      .reindexedEveryRoot, .reindexed(outsideRoots: ["/x"]), .paused, .resumed,
      .erasedAndCrawled, .erasedAndReadAgain, .extensionRun(Self.ran),
      .extensionRun(.registered),
      .each([.erasedAndCrawled, .inDomain("a", .extensionRun(Self.ran))]),
      // A sentence that merely reads like a failure is not one.
      .note("reindex-all failed: nothing"), .extensionRun(.note("no reindex extension")),
    ]
    for outcome in failures { #expect(outcome.failed, "\(outcome)") }
    for outcome in successes { #expect(!outcome.failed, "\(outcome)") }
  }

  @Test func storedAndReadBack() {
    let outcomes: [RequestOutcome] = [
      .reindexed(outsideRoots: ["/a b", "/ü"]), .each([.paused, .extensionRun(Self.retrying)]),
      .inDomain("x.y", .noExtension(domain: "x.y")),
    ]
    for outcome in outcomes { #expect(RequestOutcome.stored(outcome.stored) == outcome) }
    #expect(ExtensionRunOutcome.stored(Self.gaveUp.stored) == Self.gaveUp)
    // What an earlier version stored, a sentence, reads as one.
    #expect(RequestOutcome.stored("reindexed") == .note("reindexed"))
    #expect(ExtensionRunOutcome.stored("registered") == .note("registered"))
    #expect(RequestOutcome.stored(nil) == nil)
  }
}
