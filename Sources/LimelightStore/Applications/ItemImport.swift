import Foundation
import GRDB
import LimelightModel
import LimelightPlatform

/// Applies a stream of protocol lines (``ItemLine``) to the index in batches:
/// every line up to an `endBatch` (or the end) is checked first and then
/// written in one transaction with the batch's client state, so a malformed
/// line leaves its batch unapplied and the batches before it in place.
public struct ItemImport {
  public let store: IndexStore
  /// The name client states are kept under (`CSSearchableIndex(name:)`).
  public var indexName: String
  /// When set, every line must stay within this domain (an extension's own).
  public var confinedTo: String?
  /// The most bytes of lines a batch may hold (``ItemLine/batchLimit``).
  public var batchLimit = ItemLine.batchLimit
  let mime: MIMEDatabase

  /// What an import did.
  public struct Summary: Sendable, Equatable {
    public var indexed = 0
    public var deleted = 0
    public var batches = 0
    public init() {}
  }

  /// Why an import stopped; batches before `line`'s were committed.
  public struct Failure: Error, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var summary: Summary
    public var description: String { "line \(line): \(message)" }
  }

  public init(
    store: IndexStore, indexName: String = "default", confinedTo: String? = nil,
    mime: MIMEDatabase = MIMEDatabase()
  ) {
    self.store = store
    self.indexName = indexName
    self.confinedTo = confinedTo
    self.mime = mime
  }

  /// Reads lines (numbered from 1) until they end, committing batch by batch.
  /// `finalClientState` is stored with the last batch.
  public func run(
    _ lines: some Sequence<Result<[UInt8], LineReader.TooLong>>, finalClientState: Data? = nil,
    expectedClientState: Data? = nil
  ) throws(Failure) -> Summary {
    var summary = Summary()
    var pending: [(line: Int, item: ItemLine)] = []
    var pendingBytes = 0
    var number = 0
    for next in lines {
      number += 1
      let bytes: [UInt8]
      switch next {
      case .success(let line): bytes = line
      case .failure:
        throw Failure(
          line: number, message: "longer than \(Self.describe(bytes: ItemLine.lineLimit))",
          summary: summary)
      }
      guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
      pendingBytes += bytes.count
      guard pendingBytes <= batchLimit else {
        throw Failure(
          line: number,
          message: "the batch holds more than \(Self.describe(bytes: batchLimit)) of lines: "
            + "end batches sooner with endBatch lines",
          summary: summary)
      }
      let parsed: ItemLine
      do {
        parsed = try ItemLine.parse(String(decoding: bytes, as: UTF8.self), mime: mime)
        try confine(parsed)
      } catch {
        throw Failure(line: number, message: error.description, summary: summary)
      }
      if case .endBatch(let state, let expected) = parsed {
        try commit(
          pending, state: state.map { Data($0.utf8) }, expected: expected.map { Data($0.utf8) },
          line: number, summary: &summary)
        pending.removeAll()
        pendingBytes = 0
      } else {
        pending.append((number, parsed))
      }
    }
    if !pending.isEmpty || finalClientState != nil {
      try commit(
        pending, state: finalClientState, expected: expectedClientState, line: number,
        summary: &summary)
    }
    return summary
  }

  /// A size as the messages say it: in MiB from one up, else in bytes.
  static func describe(bytes: Int) -> String {
    bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
  }

  func confine(_ line: ItemLine) throws(ItemLine.Invalid) {
    guard let confinedTo else { return }
    let domain: String
    switch line {
    case .item(let item): domain = item.domain
    case .delete(_, let named), .deleteDomain(let named): domain = named
    case .endBatch: return
    }
    guard LimelightModel.domain(domain, isWithin: confinedTo) else {
      throw ItemLine.Invalid("the domain '\(domain)' is not within \(confinedTo)")
    }
  }

  func commit(
    _ lines: [(line: Int, item: ItemLine)], state: Data?, expected: Data?, line: Int,
    summary: inout Summary
  ) throws(Failure) {
    var batch = Summary()
    do {
      try store.write { writer in
        if let expected {
          let current = try writer.clientState(name: indexName)
          guard current == expected else {
            throw ItemLine.Invalid(
              "the stored client state is not the expected one (another import ran meanwhile)")
          }
        }
        // A large batch writes many FTS pages in one transaction: a larger
        // page cache keeps them from spilling to the WAL and being read back
        // (a sixth off a 20,000-item push). The connection's own comes back after.
        let cacheSize =
          lines.count > 1000 ? try Int.fetchOne(writer.db, sql: "PRAGMA cache_size") : nil
        if cacheSize != nil { try writer.db.execute(sql: "PRAGMA cache_size = -65536") }
        defer {
          if let cacheSize { try? writer.db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
        }
        let now = Date()
        for (_, item) in lines {
          switch item {
          case .item(let item):
            try writer.upsert(applicationItem: item, now: now)
            batch.indexed += 1
          case .delete(let ids, let domain):
            batch.deleted += try writer.deleteApplicationItems(ids: ids, domain: domain)
          case .deleteDomain(let domain):
            batch.deleted += try writer.deleteDomain(domain)
          case .endBatch: break
          }
        }
        if let state { try writer.setClientState(state, name: indexName) }
        try writer.purgeExpired(now: now)
      }
    } catch let error as ItemLine.Invalid {
      throw Failure(line: line, message: error.description, summary: summary)
    } catch {
      throw Failure(line: line, message: "cannot write to the index: \(error)", summary: summary)
    }
    summary.indexed += batch.indexed
    summary.deleted += batch.deleted
    summary.batches += 1
  }
}
