import CLinux
import Dispatch
import Foundation
import LimelightPlatform
import LimelightStore

/// A first crawl's name terms on their way to the typo index: gathered on a
/// thread of their own, then added a part at a time between the user's
/// changes and the second pass's slices. Added in one transaction, after
/// the names pass of a home of 178,000 entries, they held every change the
/// user made for 5 to 10 s.
final class NameTermsBackfill: @unchecked Sendable {
  private let gathering = DispatchGroup()
  /// Set by the gathering thread before it leaves `gathering`.
  private var gathered: Result<[String], any Error> = .success([])
  /// The terms still to add, once gathered.
  private var left: ArraySlice<String>?
  let started = monotonicNow()

  /// Starts gathering the terms of every name (``IndexStore/deferredNameTerms()``).
  init(store: IndexStore) {
    gathering.enter()
    Thread.detachNewThread { [self] in
      limelight_lower_thread_priority(Watcher.indexingNice)
      gathered = Result { try store.deferredNameTerms() }
      gathering.leave()
    }
  }

  /// Whether the terms are gathered (and parts can be added).
  var isGathered: Bool { left != nil || gathering.wait(timeout: .now()) == .success }

  /// The next part to add, and whether it is the last; nil while the terms
  /// are being gathered. Throws what gathering them met.
  func nextPart() throws -> (terms: ArraySlice<String>, last: Bool)? {
    if left == nil {
      guard gathering.wait(timeout: .now()) == .success else { return nil }
      left = try gathered.get()[...]
    }
    let part = left!.prefix(IndexStore.nameTermsPart)
    return (part, part.count == left!.count)
  }

  /// The part ``nextPart()`` gave is in the index.
  func added(_ count: Int) { left = left?.dropFirst(count) }
}

extension Watcher {
  /// Begins adding a first crawl's name terms to the typo index, if they
  /// wait (``addNameTermsPart()`` goes on): until they are in, a name is
  /// found as typed, a typo of it only among the texts.
  func addDeferredNameTerms() {
    guard nameTerms == nil else { return }
    do {
      nameTermsMissing = false
      if try store.beginAddingDeferredNameTerms() { nameTerms = NameTermsBackfill(store: store) }
    } catch {
      nameTermsMissing = true
      note("cannot add the names' words to the typo index: \(error)")
    }
  }

  /// Adds the next part of a first crawl's name terms to the typo index,
  /// once they are gathered; whether it added one.
  func addNameTermsPart() -> Bool {
    guard let backfill = nameTerms else { return false }
    do {
      guard let part = try backfill.nextPart() else { return false }
      try store.addDeferredNameTerms(part.terms, last: part.last)
      backfill.added(part.terms.count)
      if part.last {
        nameTerms = nil
        logger.info(
          "names are found with typos too",
          metadata: ["seconds": "\(String(format: "%.1f", monotonicNow() - backfill.started))"])
      }
      return true
    } catch {
      // Gathered again at the next slice.
      nameTerms = nil
      nameTermsMissing = true
      note("cannot add the names' words to the typo index: \(error)")
      return false
    }
  }
}
