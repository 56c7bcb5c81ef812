import Foundation
import GRDB
import LimelightModel
import LimelightPlatform
import LimelightQuery

/// The steps a search runs in turn, and how a crowded one lists its results.
extension SearchEngine {
  /// One SQL statement and its arguments.
  typealias Statement = SQLCompiler.Statement

  /// One step of a search: a statement that lists results in order, and
  /// what lists the same when the words are in more names or texts than the
  /// crowding's limit.
  struct Pass {
    var statement: Statement
    /// With no crowding, `instead` is taken whatever the indexes hold.
    var whenCrowded: (crowding: Crowding?, instead: Crowded)?
    /// It lists hidden items only: skipped when the index holds none (the
    /// usual case; a word with a filter no item passes read every text
    /// holding the word once more for them).
    var onlyHidden = false
    /// The crowding of a step whose words find no more than this one's:
    /// when that one is crowded, so is this, uncounted (a two-letter
    /// prefix's texts are gathered from every word it begins: 25 ms at
    /// 300,000 entries to count those of `gz *`, after `gz` was crowded).
    var crowdedWith: Crowding?
  }

  /// How a crowded step lists its results.
  enum Crowded {
    /// These statements, in turn.
    case statements([Statement])
    /// The statement made for the items the filters' terms hold
    /// (``FilterNarrowing/nameTerms``) when those are few, given what they
    /// count; the other statements otherwise. A common word with a filter
    /// few of its items pass (`gz kind:image`) read every text holding it,
    /// twice (the visible, then the hidden): 190 ms at 100,000 entries.
    case fewFiltered(Crowding, narrowed: Statement, otherwise: [Statement])
    /// One statement for each rank band of the name index (``ItemFacets``)
    /// the words' `match` has items in, best first, made from the band's
    /// expression.
    case byRankBand(match: String, (String) -> Statement)
    /// Filters alone (``SearchEngine/filtersAlone(conditions:arguments:narrowing:)``):
    /// the first items in their order checked row by row (`probe`, given
    /// size and offset; a `kind:` checked on the order's index); when too
    /// few pass and the filters have terms, the items holding them sorted
    /// (`holding`), after, when they are many (its crowding), stretches of
    /// the items of the kinds asked for (`ofKinds`, when any) and then of
    /// the items holding the terms (`stretch`) in order; with no terms,
    /// further stretches of the order, then every item that passes, sorted
    /// (`every`). Each reads at most ``SearchEngine/inOrderLimit`` items.
    /// With a least size (`leastSize`) that few items reach, `every` at
    /// once: the index of sizes lists them.
    case filtersAlone(
      probe: (_ size: Int, _ offset: Int) -> Statement,
      ofKinds: ((_ size: Int, _ offset: Int) -> Statement)?,
      stretch: (_ size: Int, _ offset: Int) -> Statement, leastSize: Double?,
      holding: (statement: Statement, crowding: Crowding)?, every: Statement)
  }

  /// More than `limit` rows of a full-text `index` match `match`.
  struct Crowding: Hashable {
    var index: String
    var match: String
    var limit: Int
    /// What the step leaves out of `match`'s items by the index (FTS5's
    /// NOT: the whole words of a prefix step), when it does.
    var leavingOut: String? = nil
  }
}
