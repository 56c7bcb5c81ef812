import Foundation
import GRDB
import LimelightModel
import LimelightQuery

/// The terms every item that passes a query's filters holds in the
/// full-text indexes, ANDed to its words' match so that FTS5 narrows the
/// matches before any item row is read: an extension's words in the name,
/// a folder's in the path, a kind's or a month's facet (``ItemFacets``).
/// Only ever a superset: the filters are still checked on each item.
struct FilterNarrowing {
  /// Terms for an `item_name` match.
  var names: [String] = []
  /// Terms for an `item_text` match.
  var texts: [String] = []
  /// How many phrases (quoted words) `texts` add to a match, which its
  /// ranking leaves out.
  private(set) var textPhrases = 0
  /// Facet terms for an `item_text` match, which only the items with a
  /// text hold there (``ItemFacets/textFacets(_:hasText:)``): for the steps
  /// that leave out what the name index finds, and with it every item
  /// without a text that holds the words.
  var textFacets: [String] = []
  /// How many phrases `textFacets` add.
  private(set) var textFacetPhrases = 0
  /// The kind classes asked for (`kind:`), which the index of the order of
  /// items also holds.
  var kinds: [String] = []
  /// The least size the `size:` filters set, if any: the index of sizes
  /// finds the few items that reach a large one (`size:>1G`).
  var leastSize: Double?

  /// The narrowing of the parts ANDed at the top of a query that are not
  /// text (filters, exclusions, predicates), given the rows in
  /// `content_type` of the types each `type:` pattern matches
  /// (``typeIDs(of:in:)``; a pattern missing there is not narrowed by).
  init(filters: [QueryNode], typeIDs: [String: [Int64]] = [:]) {
    for part in filters {
      guard case .filter(let filter) = part else { continue }
      switch filter {
      case .kind(let kind):
        kinds.append(kind.rawValue)
        guard let term = ItemFacets.kindTerm(kind.rawValue) else { continue }
        names.append("facets : \(SQLCompiler.quoted(term))")
        addTextFacets([term])
      case .extensions(let extensions):
        let each = extensions.compactMap(Self.words)
        guard !each.isEmpty, each.count == extensions.count else { continue }
        let terms = "(" + each.map(\.expression).joined(separator: " OR ") + ")"
        names.append("name : " + terms)
        // The text index does not know columns: anywhere is still a superset.
        texts.append(terms)
        textPhrases += each.map(\.count).reduce(0, +)
      case .inFolder(let folder):
        // The root, a folder named by punctuation alone or not in ASCII:
        // nothing to narrow by.
        guard let words = Self.words(folder.string) else { continue }
        names.append("path : \(words.expression)")
        texts.append(words.expression)
        textPhrases += words.count
      case .contentType(let pattern):
        guard let ids = typeIDs[pattern], ids.count <= ItemFacets.widestTypeList else { continue }
        // No type matches: a term no item holds.
        let terms = ids.isEmpty ? [ItemFacets.noType] : ids.compactMap(ItemFacets.typeTerm)
        guard terms.count == max(ids.count, 1) else { continue }
        names.append("facets : (" + terms.map(SQLCompiler.quoted).joined(separator: " OR ") + ")")
        addTextFacets(terms)
      case .range(.size, let lower?, _):
        leastSize = max(leastSize ?? lower, lower)
      case .range(.modified, let lower?, let upper?):
        guard let months = ItemFacets.monthTerms(from: lower, to: upper) else { continue }
        names.append("facets : (" + months.map(SQLCompiler.quoted).joined(separator: " OR ") + ")")
        addTextFacets(months)
      default:
        continue
      }
    }
  }

  /// One filter's facets, any of which its items hold: the text index
  /// knows no columns, and a text holding such a character itself only
  /// lets more through.
  private mutating func addTextFacets(_ terms: [String]) {
    let quoted = terms.map(SQLCompiler.quoted)
    textFacets.append(quoted.count == 1 ? quoted[0] : "(" + quoted.joined(separator: " OR ") + ")")
    textFacetPhrases += terms.count
  }

  /// The rows in `content_type` of the types each `type:` pattern ANDed at
  /// the top of a query matches.
  static func typeIDs(of filters: [QueryNode], in db: Database) throws -> [String: [Int64]] {
    var found: [String: [Int64]] = [:]
    for case .filter(.contentType(let pattern)) in filters where found[pattern] == nil {
      found[pattern] = try Int64.fetchAll(
        db, sql: "SELECT id FROM content_type WHERE tree GLOB ? LIMIT ?",
        arguments: ["* " + pattern + " *", ItemFacets.widestTypeList + 1])
    }
    return found
  }

  /// The `item_name` terms alone, nil without any.
  var nameTerms: String? { names.isEmpty ? nil : names.joined(separator: " AND ") }

  /// An `item_name` expression narrowed.
  func names(_ expression: String) -> String {
    names.isEmpty ? expression : "(\(expression)) AND " + names.joined(separator: " AND ")
  }

  /// An `item_name` match narrowed (its check stays).
  func names(_ match: SQLCompiler.NameMatch) -> SQLCompiler.NameMatch {
    var narrowed = match
    narrowed.match = names(match.match)
    return narrowed
  }

  /// An `item_text` match narrowed; by the facets too (``textFacets``)
  /// when `facets`, for a step that leaves out what the name index finds.
  func text(_ match: SQLCompiler.TextMatch, facets: Bool = false) -> SQLCompiler.TextMatch {
    let terms = texts + (facets ? textFacets : [])
    guard !terms.isEmpty else { return match }
    var narrowed = match
    narrowed.match = "(\(match.match)) AND " + terms.joined(separator: " AND ")
    narrowed.unrankedPhrases += textPhrases + (facets ? textFacetPhrases : 0)
    return narrowed
  }

  /// The words of an ASCII text ANDed, as FTS5's tokenizer makes them of the
  /// folded names and paths it indexes (ASCII only: folding a part of a text
  /// apart from the rest may not give what the whole folds to), and how
  /// many. Nil without words.
  static func words(_ text: String) -> (expression: String, count: Int)? {
    guard text.unicodeScalars.allSatisfy(\.isASCII) else { return nil }
    let tokens = SQLCompiler.tokens(of: text.lowercased())
    if tokens.isEmpty { return nil }
    return ("(" + tokens.map(SQLCompiler.quoted).joined(separator: " AND ") + ")", tokens.count)
  }
}
