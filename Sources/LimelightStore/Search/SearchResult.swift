import Foundation
import GRDB
import LimelightModel
import LimelightPlatform

/// One item found by a query.
public struct SearchResult: Sendable {
  public var rowID: Int64
  /// The index's own id (unique in the index).
  public var id: String
  /// The id its application gave an application item (unique in its domain).
  public var localID: String?
  public var domain: String
  public var uri: String
  public var path: RawPath?
  public var displayName: String
  public var contentType: String?
  public var kind: String?
  public var modified: Date?
  public var size: Int64?
  public var isFolder: Bool
  /// Where its thumbnail is, in the cache file managers share; nil when it has none.
  public var thumbnailPath: String?
  /// Lower is better: the rank that ordered the results.
  public var score: Double
  /// The host that holds it, for an entry of a shared store.
  public var host: String? = nil
  /// The words of the query it does not hold, when nothing held them all
  /// (``ReadingSearch``).
  public var unmatched: [String] = []
  /// Found by meaning alone (``SearchEngine/meaningMatches(_:words:ordinary:selection:centring:filters:limit:readAhead:)``),
  /// not by its words.
  public var byMeaning = false

  public init(
    rowID: Int64, id: String, localID: String?, domain: String, uri: String, path: RawPath?,
    displayName: String, contentType: String?, kind: String?, modified: Date?, size: Int64?,
    isFolder: Bool, thumbnailPath: String?, score: Double, host: String? = nil
  ) {
    (self.rowID, self.id, self.localID, self.domain, self.uri) = (rowID, id, localID, domain, uri)
    (self.path, self.displayName, self.contentType, self.kind) = (
      path, displayName, contentType, kind
    )
    (self.modified, self.size, self.isFolder) = (modified, size, isFolder)
    (self.thumbnailPath, self.score, self.host) = (thumbnailPath, score, host)
  }
}

extension SearchEngine {
  /// A result as a row of ``SearchEngine/columns`` (and its `score`) reads.
  static func result(_ row: Row) -> SearchResult {
    let pathData: Data? = row[ItemTable.path]
    return SearchResult(
      rowID: row[ItemTable.rowID], id: row[ItemTable.id], localID: row[ItemTable.localID],
      domain: row[ItemTable.domain],
      uri: row[ItemTable.uri],
      path: pathData.map { RawPath(bytes: Array($0)) }, displayName: row[ItemTable.displayName],
      contentType: row[ItemTable.contentType], kind: row[ItemTable.kind],
      modified: (row[ItemTable.modified] as Double?).map { Date(timeIntervalSince1970: $0) },
      size: row[ItemTable.size], isFolder: row[ItemTable.isFolder],
      thumbnailPath: row[ItemTable.thumbnailPath],
      score: row["score"])
  }
}
