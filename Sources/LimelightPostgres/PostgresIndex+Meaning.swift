import Foundation
import LimelightMeaning
import LimelightModel
import LimelightPlatform
import LimelightQuery

/// Meaning search in the store: each host sends the vectors its third pass
/// made, and a search compares a query's with theirs.
extension PostgresIndex {
  /// A vector of an entry of this host: its path (an application item's
  /// URI), and the vector, a signed byte a dimension.
  public typealias SentMeaning = (path: RawPath, vector: [UInt8])

  /// Keeps the vectors of entries written in this transaction: those the
  /// items carry, and none for those that carry none (their text changed,
  /// or they are no document).
  func writeMeaning(of items: ArraySlice<SharedItem>) throws(PostgresError) {
    let without = items.filter { $0.meaning == nil }.map { PostgresQuery.hex($0.path.bytes) }
    if !without.isEmpty {
      for table in ["item_meaning", "item_meaning_vector"] {
        try connection.execute(
          "DELETE FROM \(table) WHERE host = $1 AND path = ANY ($2::bytea[])",
          [host, PostgresQuery.array(without)])
      }
    }
    try upsertMeaning(items.compactMap { item in item.meaning.map { (item.path, $0) } })
  }

  /// Keeps `vectors` of this host's entries the store holds (one not sent
  /// yet comes with its entry), and records `through`, the number of the
  /// last vector its index sent, in one transaction.
  public func writeMeaning(_ vectors: [SentMeaning], through: Int64) throws(PostgresError) {
    // No lock, no notice: a vector takes no change number, and followers
    // have nothing to be told.
    try connection.transaction { () throws(PostgresError) in
      try upsertMeaning(vectors)
      try connection.execute(
        "UPDATE host SET meaning_through = $2::bigint WHERE name = $1", [host, String(through)])
    }
  }

  /// Drops every vector of this host (its index keeps none: `meaning =
  /// no`), recording `through` as sent.
  public func dropMeaning(through: Int64) throws(PostgresError) {
    try connection.transaction { () throws(PostgresError) in
      for table in ["item_meaning", "item_meaning_vector"] {
        try connection.execute("DELETE FROM \(table) WHERE host = $1", [host])
      }
      try connection.execute(
        "UPDATE host SET meaning_through = $2::bigint WHERE name = $1", [host, String(through)])
    }
  }

  /// The number of the last vector this host's index sent (0: none).
  public func meaningThrough() throws(PostgresError) -> Int64 {
    try connection.execute("SELECT meaning_through FROM host WHERE name = $1", [host]).rows.first?
      .first.flatMap { $0 }.flatMap { Int64($0) } ?? 0
  }

  /// Whether the store holds any vector of this host.
  public func holdsMeaning() throws(PostgresError) -> Bool {
    try connection.execute(
      "SELECT EXISTS (SELECT 1 FROM item_meaning WHERE host = $1)", [host]
    ).rows.first?.first == "t"
  }

  private func upsertMeaning(_ vectors: [SentMeaning]) throws(PostgresError) {
    guard !vectors.isEmpty else { return }
    let parameters = [
      host, PostgresQuery.array(vectors.map { PostgresQuery.hex($0.path.bytes) }),
      PostgresQuery.array(vectors.map { MeaningVector.bits(of: $0.vector) }),
      PostgresQuery.array(vectors.map { PostgresQuery.hex($0.vector) }),
    ]
    for (table, column, value) in [
      ("item_meaning", "bits", "r.bits::bit(384)"), ("item_meaning_vector", "vector", "r.vector"),
    ] {
      try connection.execute(
        """
        INSERT INTO \(table) (host, path, \(column))
        SELECT $1, r.path, \(value)
        FROM unnest($2::bytea[], $3::text[], $4::bytea[]) AS r(path, bits, vector)
        WHERE EXISTS (SELECT FROM item WHERE item.host = $1 AND item.path = r.path)
        ON CONFLICT (host, path) DO UPDATE SET \(column) = excluded.\(column)
        """, parameters)
    }
  }

  /// A vector the store holds: its entry, and the vector.
  public struct StoredMeaning: Sendable {
    public var host: String
    public var path: RawPath
    public var vector: [UInt8]
  }

  /// The `count` vectors whose sides of the model's centre differ least
  /// from those of `query` (a vector as ``MeaningVector/quantized(_:)``
  /// makes it), fewest first; none for a reader not granted them.
  public func meaningCandidates(of query: [UInt8], count: Int) throws(PostgresError)
    -> [StoredMeaning]
  {
    do {
      // Every entry's sides are read: the connection's searches read an
      // index (which for this was every vector in the order of its key,
      // 177 ms at 165,000 against 60 for the whole table). The nearest
      // entries first (alike ones by their key: copies of a document share
      // a vector, and the same query finds the same), their vectors then,
      // by key.
      let rows = try connection.transaction { () throws(PostgresError) in
        try connection.execute("SET LOCAL enable_seqscan = on")
        return try connection.execute(
          """
          SELECT v.host, encode(v.path, 'hex'), encode(v.vector, 'hex')
          FROM (SELECT host, path FROM item_meaning
            ORDER BY bit_count(bits # $1::bit(384)), host, path LIMIT $2::int) AS near
          JOIN item_meaning_vector AS v USING (host, path)
          """, [MeaningVector.bits(of: query), String(count)]
        ).rows
      }
      return rows.map { row in
        StoredMeaning(
          host: row[0] ?? "", path: RawPath(bytes: Self.bytes(fromHex: row[1] ?? "")),
          vector: Self.bytes(fromHex: row[2] ?? ""))
      }
    } catch  where error.state == "42501" {
      // A reader granted what an older version named: no meaning search.
      return []
    }
  }

  /// Which of `stems` (``WordEvidence/stems(of:)``) each entry of
  /// `entries` (host and path) holds among its words (name, keywords, path
  /// and text), as one of its forms (``WordEvidence/forms(of:)``), by the
  /// entry's URI; entries holding none, or that the reader may not see,
  /// are left out. Each stem's entries are read from the words' indexes,
  /// narrowed by the primary key to the entries asked about: making
  /// each near entry's words again from its text took 80 to 130 ms of a
  /// description at 355,000 entries (300 texts), a stem's look-up takes 5
  /// to 15.
  public func stemsHeld(_ stems: [String], by entries: [(host: String, path: RawPath)])
    throws(PostgresError) -> [String: Set<String>]
  {
    guard !stems.isEmpty, !entries.isEmpty else { return [:] }
    var parameters = [
      PostgresQuery.array(entries.map(\.host)),
      PostgresQuery.array(entries.map { PostgresQuery.hex($0.path.bytes) }),
    ]
    // A branch a stem, its forms a query of their own (planned with its
    // words: an index scan of each, the rows then those of the keys).
    var branches: [String] = []
    for (number, stem) in stems.enumerated() {
      parameters.append(
        WordEvidence.forms(of: stem).map(PostgresWords.quoted).joined(separator: " | "))
      let query = "$\(parameters.count)::tsquery"
      branches.append(
        """
        SELECT \(number) AS stem, host, path FROM item
        WHERE host = ANY ($1::text[]) AND path = ANY ($2::bytea[])
          AND (name_vector @@ \(query) OR \(PostgresQuery.pathWords) @@ \(query)
            OR coalesce(\(PostgresQuery.textsHolding(query)), false))
        """)
    }
    let rows = try connection.execute(
      """
      SELECT held.stem, held.host, encode(held.path, 'hex')
      FROM (\(branches.joined(separator: " UNION ALL "))) AS held
      WHERE (held.host, held.path) IN (SELECT * FROM unnest($1::text[], $2::bytea[]))
      """, parameters
    ).rows
    var held: [String: Set<String>] = [:]
    for row in rows {
      guard let number = row[0].flatMap({ Int($0) }), stems.indices.contains(number) else {
        continue
      }
      let path = RawPath(bytes: Self.bytes(fromHex: row[2] ?? ""))
      held[Self.uri(host: row[1] ?? "", path: path), default: []].insert(stems[number])
    }
    return held
  }

  /// The entries at `entries` (host and path) that `filters` let through
  /// and the reader may see, in no order.
  public func hits(at entries: [(host: String, path: RawPath)], filteredBy filters: QueryNode)
    throws(PostgresError) -> [Hit]
  {
    guard !entries.isEmpty else { return [] }
    var compiled = PostgresQuery(closeWords: nil)
    let condition = try compiled.condition(filters)
    var parameters = compiled.parameters
    parameters.append(PostgresQuery.array(entries.map(\.host)))
    parameters.append(PostgresQuery.array(entries.map { PostgresQuery.hex($0.path.bytes) }))
    return try hits(
      """
      WHERE (host, path) IN (
          SELECT * FROM unnest($\(parameters.count - 1)::text[], $\(parameters.count)::bytea[]))
        AND \(condition)
      """, parameters)
  }
}
