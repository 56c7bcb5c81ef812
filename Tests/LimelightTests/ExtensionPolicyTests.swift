import Foundation
import Testing

@testable import LimelightExtensions
@testable import LimelightStore

/// The requests that wait for reindex extensions, taken alone: which run
/// answers which request, and what each is completed with.
@Suite struct ExtensionPolicyTests {
  static func request(_ id: Int64, _ domain: String = "org.example") -> IndexRequest {
    IndexRequest(id: id, kind: .domain, paths: [], domain: domain, created: Date())
  }

  static let indexed = ExtensionRunOutcome.indexed(.all, indexed: 3, deleted: 0)

  @Test func aRequestIsCompletedOnceEveryExtensionItWaitsForHasRun() {
    var waiters = RequestWaiters()
    waiters.add(
      .init(request: Self.request(1), domains: ["a", "b"], outcomes: [], anyWholeRun: false))
    // A run of another domain, or one the request came too late for, answers nothing.
    #expect(
      waiters.ran(
        "c", all: true, answered: [1], outcome: Self.indexed, failed: false, finished: true
      )
      .isEmpty)
    #expect(
      waiters.ran(
        "a", all: true, answered: [], outcome: Self.indexed, failed: false, finished: true
      )
      .isEmpty)
    // A run that left work for the next one (ids beyond its share) is not the end.
    #expect(
      waiters.ran(
        "a", all: false, answered: [1], outcome: Self.indexed, failed: false, finished: false
      )
      .isEmpty)
    #expect(waiters.requests(waitingFor: "a") == [1])
    #expect(
      waiters.ran(
        "a", all: true, answered: [1], outcome: Self.indexed, failed: false, finished: true
      )
      .isEmpty)
    let done = waiters.ran(
      "b", all: true, answered: [1], outcome: Self.indexed, failed: false, finished: true)
    #expect(done.map(\.0.id) == [1])
    #expect(
      done.first?.1
        == .each([
          .inDomain("a", .extensionRun(Self.indexed)), .inDomain("b", .extensionRun(Self.indexed)),
        ]))
    #expect(waiters.waiting.isEmpty)
  }

  @Test func aFailureIsNewsAtOnceAndALoneRunSpeaksForItself() {
    var waiters = RequestWaiters()
    waiters.add(.init(request: Self.request(1), domains: ["a"], outcomes: [], anyWholeRun: false))
    waiters.add(
      .init(request: Self.request(2), domains: ["a", "b"], outcomes: [], anyWholeRun: false))
    let failedRun = ExtensionRunOutcome.retrying(.all, reason: "exit 3", seconds: 30)
    let done = waiters.ran(
      "a", all: true, answered: [1, 2], outcome: failedRun, failed: true, finished: false)
    #expect(done.map(\.0.id) == [1, 2])
    #expect(done[0].1 == .extensionRun(failedRun))
    #expect(done[1].1 == .inDomain("a", .extensionRun(failedRun)))
    #expect(done[0].1.failed && done[1].1.failed)
  }

  @Test func anEraseWaitsForAnyWholeRunAndGoneExtensionsAreSaidSo() {
    var waiters = RequestWaiters()
    waiters.add(
      .init(
        request: Self.request(1), domains: ["a", "b"], outcomes: [.erasedAndCrawled],
        anyWholeRun: true))
    // A run of ids is no whole run; one under way before the erase waited is.
    #expect(
      waiters.ran(
        "a", all: false, answered: [], outcome: Self.indexed, failed: false, finished: true
      )
      .isEmpty)
    #expect(
      waiters.ran(
        "a", all: true, answered: [], outcome: Self.indexed, failed: false, finished: true
      )
      .isEmpty)
    let done = waiters.forgetAllBut(["a"])
    #expect(done.map(\.0.id) == [1])
    #expect(
      done.first?.1
        == .each([
          .erasedAndCrawled, .inDomain("a", .extensionRun(Self.indexed)),
          .extensionUnregistered(domain: "b"),
        ]))
  }
}
