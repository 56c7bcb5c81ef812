import Foundation
import LimelightModel
import LimelightQuery
import LimelightSearch
import LimelightStore

/// A search of the Limelight index (the `CSSearchQuery` of Core Spotlight),
/// in the query language of `find-in`: words, filters (`kind:`, `domain:`,
/// `modified:`, …) or a predicate (`keywords == "swift*"cd`). Results come
/// best first as items whose attribute set holds the attributes asked for.
///
/// ```swift
/// let query = SearchQuery(queryString: "brent domain:com.example.colleagues",
///                         attributes: ["displayName", "emailAddresses"])
/// for try await item in query.results() { print(item.uri) }
/// ```
public struct SearchQuery: Sendable {
  public var queryString: String
  /// The attributes to fill in each result's attribute set (names as
  /// `limelight show` prints them; custom attributes by their own names).
  public var fetchAttributes: [String]
  /// The most results; nil for all of them.
  public var limit: Int?

  public init(queryString: String, attributes: [String] = [], limit: Int? = 100) {
    self.queryString = queryString
    self.fetchAttributes = attributes
    self.limit = limit
  }

  /// Why a query could not run.
  public struct Failure: Error, CustomStringConvertible, Sendable {
    public var description: String
  }

  /// The results, best first.
  public func results(location: IndexLocation = IndexLocation.fromEnvironment())
    -> AsyncThrowingStream<SearchableItem, any Error>
  {
    AsyncThrowingStream { continuation in
      do {
        for item in try search(location: location) { continuation.yield(item) }
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
  }

  func search(location: IndexLocation) throws -> [SearchableItem] {
    var parser = QueryParser(
      home: location.home, clock: QueryClock(environment: ProcessInfo.processInfo.environment))
    let query: ReadQuery
    do { query = try parser.read(queryString) } catch { throw Failure(description: error.message) }
    let store: IndexStore
    do { store = try IndexStore.open(location, create: false, readOnly: true) } catch {
      throw Failure(description: String(describing: error))
    }
    // The search every front end runs (``SearchBackend``), on this host's index.
    let found = try LocalBackend(store: store).search(query, limit: limit).results
    return try found.map { result in
      var set = SearchableItemAttributeSet(contentType: result.contentType)
      set.displayName = result.displayName
      if !fetchAttributes.isEmpty,
        let details = try store.details(of: .id(result.id))
      {
        fill(&set, from: details)
      }
      return SearchableItem(
        uniqueIdentifier: result.localID ?? result.id, domainIdentifier: result.domain,
        uri: result.uri, attributeSet: set)
    }
  }

  func fill(_ set: inout SearchableItemAttributeSet, from details: ItemDetails) {
    for (name, value) in details.fields where fetchAttributes.contains(name) {
      guard let value else { continue }
      switch (name, value) {
      case ("title", .string(let text)): set.title = text
      case ("contentDescription", .string(let text)): set.contentDescription = text
      case ("keywords", .strings(let texts)): set.keywords = texts
      case ("authors", .strings(let texts)): set.authorNames = texts
      case ("thumbnailPath", .string(let text)): set.thumbnailPath = text
      case ("emailAddresses", .strings(let texts)): set.emailAddresses = texts
      case ("phoneNumbers", .strings(let texts)): set.phoneNumbers = texts
      case ("contentCreationDate", .date(let date)): set.contentCreationDate = date
      case ("contentModificationDate", .date(let date)): set.contentModificationDate = date
      case ("displayName", _), ("contentType", _): break
      case (_, .string(let text)): set.custom[name] = .string(text)
      case (_, .strings(let texts)): set.custom[name] = .strings(texts)
      case (_, .number(let number)): set.custom[name] = .number(number)
      case (_, .date(let date)): set.custom[name] = .date(date)
      }
    }
  }
}
