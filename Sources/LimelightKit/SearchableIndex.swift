import Foundation
import LimelightModel
import LimelightStore
import Synchronization

/// An application's way into the Limelight index (the `CSSearchableIndex` of
/// Core Spotlight): it adds, updates and deletes the application's items,
/// in batches that carry a client state so an interrupted import resumes
/// where it stopped.
///
/// ```swift
/// let index = try SearchableIndex(name: "colleagues", domain: "com.example.colleagues")
/// if let state = try await index.fetchLastClientState() { /* resume after it */ }
/// try index.beginBatch()
/// try await index.indexSearchableItems(items)
/// try await index.endBatch(clientState: Data("page-7".utf8))
/// ```
///
/// Writes go straight to the index (SQLite in WAL mode): they are visible to
/// `find-in` when the call returns, whether or not the watcher runs. Calls
/// block their thread for as long as the write takes (milliseconds).
public final class SearchableIndex: Sendable {
  /// The name client states are kept under (`limelight index --index-name`).
  public let name: String
  /// The domain this index writes in, when it is confined to one: every item
  /// must be in it or below it, and ``deleteAllSearchableItems()`` deletes it.
  public let domain: String?
  let store: IndexStore
  let mime = MIMEDatabase()
  /// The writes of the open batch, nil when none is open.
  let batch = Mutex<[Write]?>(nil)

  enum Write: Sendable {
    case index([LimelightModel.IndexItem])
    case delete(ids: [String], domain: String)
    case deleteDomains([String])
    case deleteAll
  }

  /// Opens (creating it if needed) the index of the user's Limelight
  /// (`$XDG_DATA_HOME/limelight/`), or of `location`.
  public init(
    name: String = "default", domain: String? = nil,
    location: IndexLocation = IndexLocation.fromEnvironment()
  ) throws(SearchableIndexError) {
    if let domain {
      do { try ItemLine.validate(domain: domain) } catch {
        throw .invalidDomain(domain, error.description)
      }
    }
    self.name = name
    self.domain = domain
    do { store = try IndexStore.open(location, create: true) } catch {
      throw .index(String(describing: error))
    }
  }

  /// Adds items, or replaces the items of the same ids and domains.
  public func indexSearchableItems(_ items: [SearchableItem]) async throws(SearchableIndexError) {
    var converted: [LimelightModel.IndexItem] = []
    for item in items {
      try check(item.domainIdentifier)
      converted.append(try item.modelItem(mime: mime))
    }
    try perform(.index(converted))
  }

  /// Deletes the items of these ids in a domain.
  public func deleteSearchableItems(withIdentifiers ids: [String], inDomain domain: String)
    async throws(SearchableIndexError)
  {
    try check(domain)
    for id in ids {
      do { try ItemLine.validate(id: id) } catch { throw .invalidItem(id, error.description) }
    }
    try perform(.delete(ids: ids, domain: domain))
  }

  /// Deletes the items of these domains and of every domain under them.
  public func deleteSearchableItems(withDomainIdentifiers domains: [String])
    async throws(SearchableIndexError)
  {
    for domain in domains { try check(domain) }
    try perform(.deleteDomains(domains))
  }

  /// Deletes every item of this index's domain, or, for an index confined
  /// to none, every application item.
  public func deleteAllSearchableItems() async throws(SearchableIndexError) {
    try perform(domain.map { .deleteDomains([$0]) } ?? .deleteAll)
  }

  /// Starts a batch: the writes until ``endBatch(clientState:expectedClientState:)``
  /// are applied together, with the client state, or not at all.
  public func beginBatch() throws(SearchableIndexError) {
    try batch.withLock { (open: inout [Write]?) throws(SearchableIndexError) in
      guard open == nil else { throw .batchAlreadyOpen }
      open = []
    }
  }

  /// Applies the batch's writes in one transaction and stores `clientState`
  /// with them; with `expectedClientState`, only if that is the state stored.
  public func endBatch(clientState: Data, expectedClientState: Data? = nil)
    async throws(SearchableIndexError)
  {
    let writes = try batch.withLock { (open: inout [Write]?) throws(SearchableIndexError) in
      guard let writes = open else { throw .batchNotOpen }
      open = nil
      return writes
    }
    try apply(writes, clientState: clientState, expected: expectedClientState)
  }

  /// The client state the last batch stored, nil when none did.
  public func fetchLastClientState() async throws(SearchableIndexError) -> Data? {
    do { return try store.clientState(name: name) } catch {
      throw .index(String(describing: error))
    }
  }

  // MARK: - Writing

  func check(_ domain: String) throws(SearchableIndexError) {
    do { try ItemLine.validate(domain: domain) } catch {
      throw .invalidDomain(domain, error.description)
    }
    if let scope = self.domain, !LimelightModel.domain(domain, isWithin: scope) {
      throw .invalidDomain(domain, "not within this index's domain, \(scope)")
    }
  }

  /// Queues a write in the open batch, or applies it at once.
  func perform(_ write: Write) throws(SearchableIndexError) {
    let queued = batch.withLock { open -> Bool in
      guard open != nil else { return false }
      open!.append(write)
      return true
    }
    if !queued { try apply([write], clientState: nil, expected: nil) }
  }

  struct Mismatch: Error {}

  func apply(_ writes: [Write], clientState: Data?, expected: Data?)
    throws(SearchableIndexError)
  {
    do {
      try store.write { writer in
        if let expected, try writer.clientState(name: name) != expected { throw Mismatch() }
        let now = Date()
        for write in writes {
          switch write {
          case .index(let items):
            for item in items { try writer.upsert(applicationItem: item, now: now) }
          case .delete(let ids, let domain):
            try writer.deleteApplicationItems(ids: ids, domain: domain)
          case .deleteDomains(let domains):
            for domain in domains { try writer.deleteDomain(domain) }
          case .deleteAll:
            try writer.deleteAllApplicationItems()
          }
        }
        if let clientState { try writer.setClientState(clientState, name: name) }
        try writer.purgeExpired(now: now)
      }
    } catch is Mismatch {
      throw .clientStateMismatch
    } catch {
      throw .index("cannot write to the index: \(error)")
    }
  }
}
