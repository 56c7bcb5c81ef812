import Foundation
import LimelightExit
import LimelightMeaning
import LimelightModel
import LimelightPlatform
import LimelightPostgres
import LimelightQuery
import LimelightStore

/// A shared PostgreSQL store as a ``SearchBackend``: every host's entries,
/// files named `file://HOST/path`. The store's errors (a server away, a
/// role refused) are the command's: exit status 2, said as the store said
/// them.
///
/// With a hot standby (`store-read`), searches, items and changes are read
/// there, and the primary is asked only where its log stands (a follower's
/// changes) and told of writes; a standby away, or lost in the middle, is
/// said on standard error and the primary read instead.
public final class StoreBackend: SearchBackend {
  /// What is read: the standby, or the primary.
  private(set) var index: PostgresIndex
  /// The store and the standby it was asked to read (``StoreBackendPool``
  /// keeps it under them).
  let names: StoreNames
  /// The store's primary, when a standby is read: its name, and its
  /// connection once one is needed.
  private let primaryName: String?
  private var primary: PostgresIndex?
  /// Where warnings of a standby away go (nil: nowhere, for a picker's
  /// screen or a desktop's provider); a kept backend's are its next search's.
  var errors: Int32?
  /// Whether the store was asked to tell of its writes.
  private var listening = false
  /// Whether its standby was lost and the primary is read instead (a kept
  /// backend is then let go: the next search tries the standby again).
  private(set) var readsPrimaryInstead = false

  /// Connects to the store `name` (checked as limelight.conf's is) for
  /// reading, or to its hot standby `standby` when one is named and can be
  /// reached; within the connection's 2 seconds when neither can be.
  public init(name: String, standby: String? = nil, errors: Int32? = STDERR_FILENO) throws {
    self.errors = errors
    names = StoreNames(store: name, standby: standby)
    let (index, onStandby) = try Self.failing { () throws(PostgresError) in
      try PostgresIndex.reading(name, standby: standby) { Self.warn($0, to: errors) }
    }
    self.index = index
    primaryName = onStandby ? name : nil
  }

  /// Reads with `body` from the standby, or from the primary when the
  /// standby was lost (its connection broken, the server stopped); from
  /// the store connected again when its own connection was lost (a
  /// server restarted since a kept connection was made), once.
  private func reading<T>(_ body: (PostgresIndex) throws(PostgresError) -> T) throws -> T {
    do {
      return try body(index)
    } catch {
      guard error.isConnectionLost else {
        throw CommandFailure(error.description, status: ExitStatus.usage)
      }
      if let primaryName {
        Self.warn("the store's standby was lost (\(error)); reading its primary", to: errors)
        index = try Self.failing { () throws(PostgresError) in try writerSide(primaryName) }
        readsPrimaryInstead = true
      } else {
        index = try Self.failing { () throws(PostgresError) in
          try PostgresIndex(reading: names.store)
        }
      }
      return try Self.failing { () throws(PostgresError) in try body(index) }
    }
  }

  /// Says `message` on `errors`, if anywhere.
  private static func warn(_ message: String, to errors: Int32?) {
    if let errors { printError(message, to: errors) }
  }

  /// The primary's connection, made at its first use.
  private func writerSide(_ name: String) throws(PostgresError) -> PostgresIndex {
    if let primary { return primary }
    let made = try PostgresIndex(reading: name)
    primary = made
    return made
  }

  /// The connection the store's writes are told on, and its last change
  /// asked of: the primary (a standby takes no `LISTEN`).
  private func notifier() throws(PostgresError) -> PostgresIndex {
    try primaryName.map(writerSide) ?? index
  }

  /// A store's error as the command's.
  static func failing<T>(_ body: () throws(PostgresError) -> T) throws(CommandFailure) -> T {
    do { return try body() } catch {
      throw CommandFailure(error.description, status: ExitStatus.usage)
    }
  }

  public func search(_ query: ReadQuery, limit: Int?) throws -> FoundResults {
    // The words each typed word may stand for, read once for the reading's
    // searches (a sentence nothing holds whole searches its subsets).
    var closeWords: [String: [String]] = [:]
    let search = ReadingSearch<SearchResult>(
      search: { node, limit, typos in
        try self.reading { index throws(PostgresError) in
          try index.search(node, limit: limit, typos: typos, closeWordsKnown: &closeWords)
        }.map(Self.result)
      }, key: \.uri, size: \.size,
      holds: { node in
        try self.reading { index throws(PostgresError) in
          try index.holdsAny(node, closeWordsKnown: &closeWords)
        }
      })
    let results = try search.results(query, limit: limit)
    return FoundResults(results: results, ran: query.node)
  }

  public func snippets(for results: [SearchResult], query: QueryNode) throws -> [String: String] {
    // The entries the results are: a file's host and path, an
    // application item's URI as its path.
    let entries = results.compactMap { result in
      result.host.map { host in
        PostgresIndex.Hit(
          host: host, path: result.path ?? RawPath(bytes: Array(result.uri.utf8)),
          name: result.displayName,
          domain: result.domain == fileDomain ? nil : result.domain)
      }
    }
    return try reading { index throws(PostgresError) in
      try index.snippets(for: entries, query: query, open: "\u{1}", close: "\u{2}")
    }
  }

  public func count(_ query: QueryNode) throws -> Int {
    try reading { index throws(PostgresError) in try index.count(query) }
  }

  public func result(uri: String) throws -> SearchResult? {
    try reading { index throws(PostgresError) in try index.hit(uri: uri) }.map(Self.result)
  }

  /// The vectors compared whole with a query's: the nearest by their
  /// sides of the model's centre (``MeaningVector/bits(of:)``). Of the ten
  /// nearest of 16,561 documents, 94 % are among the 1,000 nearest so.
  static let meaningCandidates = 1_000

  /// The documents nearest a description, as the local index finds them
  /// (``MeaningSearch``'s floors, ``MeaningSelection`` with the documents'
  /// ordinariness, and the query's words as evidence, ``WordEvidence``), of
  /// those the store orders nearest by their bits; the average document's
  /// similarity is the query's to the model's centre, which the store need
  /// not read every vector for.
  public func nearest(
    to asked: MeaningQuery, filteredBy filters: QueryNode, limit: Int
  ) throws -> [SearchResult] {
    let query = asked.vector
    let (centring, selection) = asked.selection.comparing(
      by: asked.centring, dimensions: query.count)
    let stored = try reading { index throws(PostgresError) in
      try index.meaningCandidates(of: query, count: Self.meaningCandidates)
    }
    let byURI = Dictionary(
      stored.map { (PostgresIndex.uri(host: $0.host, path: $0.path), $0) },
      uniquingKeysWith: { first, _ in first })
    func entries(_ uris: [String]) -> [(host: String, path: RawPath)] {
      uris.compactMap { uri in byURI[uri].map { ($0.host, $0.path) } }
    }
    let average =
      stored.count > SearchEngine.meaningAverageOf ? MeaningVector.averageSimilarity(of: query) : 0
    let centred = centring.map { (centring: $0, query: $0.asked(query)) }
    var languages: [String: Int32] = [:]
    let candidates = selection.candidates(
      near: byURI.map { uri, stored in
        let raw = MeaningVector.similarity(query, stored.vector)
        var similarity = raw
        if let (centring, asked) = centred {
          let placed = centring.place(stored.vector)
          similarity = centring.similarity(raw: raw, placed, asked)
          languages[uri] = placed.language
        }
        return (key: uri, raw: raw, similarity: similarity)
      }, average: average, most: SearchEngine.meaningCandidates)
    guard !candidates.isEmpty else { return [] }
    let stems = WordEvidence.stems(of: asked.words)
    let held = try reading { index throws(PostgresError) in
      try index.stemsHeld(stems, by: entries(candidates.map(\.key)))
    }
    let near = selection.chosen(
      candidates,
      shares: WordEvidence.shares(held: held, stems: stems, documents: candidates.count),
      ordinariness: Dictionary(
        candidates.compactMap { candidate in
          byURI[candidate.key].map {
            (
              candidate.key,
              $0.vector.withUnsafeBytes { bytes in
                MeaningSelection.ordinariness(
                  of: bytes.bindMemory(to: Int8.self), means: asked.ordinary)
              }
            )
          }
        }, uniquingKeysWith: { first, _ in first }),
      inQueryLanguage: MeaningSelection.inQueryLanguage(
        candidates.map(\.key), languages: languages,
        query: centred.flatMap { $0.centring.language(of: $0.query) },
        everyStemLooked: !stems.isEmpty))
    let score = Dictionary(near.map { ($0.key, $0.score) }, uniquingKeysWith: { first, _ in first })
    let hits = try reading { index throws(PostgresError) in
      try index.hits(at: entries(near.map(\.key)), filteredBy: filters)
    }
    return hits.map(Self.result).map { result in
      var result = MeaningSearch.markedAsMeaning(result)
      result.score = 1 - (score[result.uri] ?? 0)
      return result
    }.sorted { ($0.score, $0.uri) < ($1.score, $1.uri) }.prefix(limit).map { $0 }
  }

  /// The store is written by watchers that crawled first.
  public func buildingNote() -> String? { nil }

  /// The first asking also listens for the store's writes, before the
  /// number is read: no write after it goes untold. With a standby, the
  /// primary tells the number and where its log stood, and the standby is
  /// waited for (a second at most) until it has replayed that far, so
  /// that every change up to the number can be read there; one further
  /// behind is read from the primary for this once.
  public func lastChange() throws -> Int64 {
    try Self.failing { () throws(PostgresError) in
      let told = try notifier()
      if !listening {
        try told.listenForChanges()
        listening = true
      }
      guard primaryName != nil else { return try index.lastChange() }
      let (change, position) = try told.lastChangeAndPosition()
      behind = try !index.waitForReplay(of: position, timeout: 1)
      return change
    }
  }

  /// Whether the standby had not replayed the primary's last change: the
  /// changes up to it are read from the primary.
  private var behind = false

  /// Woken by the store when any host's write commits (told by the
  /// primary: a standby takes no `LISTEN`).
  public func waitForChange(timeout: Double) throws {
    _ = try Self.failing { () throws(PostgresError) in
      try notifier().waitForChange(timeout: timeout)
    }
  }

  public func changes(after seen: Int64, matching query: QueryNode) throws -> (
    matching: [SearchResult], touched: [String]
  ) {
    let (matching, touched) =
      try behind
      ? Self.failing { () throws(PostgresError) in
        try notifier().changes(after: seen, matching: query)
      }
      : reading { index throws(PostgresError) in try index.changes(after: seen, matching: query) }
    return (matching.map(Self.result), touched)
  }

  /// A store's entry as a result: its id is its URI.
  static func result(_ hit: PostgresIndex.Hit) -> SearchResult {
    SearchResult(
      rowID: 0, id: hit.uri, localID: nil, domain: hit.domain ?? fileDomain, uri: hit.uri,
      path: hit.domain == nil ? hit.path : nil,
      displayName: hit.name, contentType: hit.contentType, kind: hit.kind,
      modified: hit.modified, size: hit.size, isFolder: hit.isFolder, thumbnailPath: nil,
      score: -hit.rank, host: hit.host)
  }
}
