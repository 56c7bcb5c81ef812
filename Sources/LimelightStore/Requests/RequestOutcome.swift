import Foundation

/// How the watcher carried out a request, stored with it. Each case says its
/// own sentence (`description`), and commands choose their exit status on the
/// value (`failed`), never on the words: rewording a sentence changes no
/// status.
public indirect enum RequestOutcome: Codable, Equatable, Sendable, CustomStringConvertible {
  /// Every root read again (`reindex-request --all`).
  case reindexedEveryRoot
  /// The paths read again; those under no root were left alone.
  case reindexed(outsideRoots: [String])
  case paused
  case resumed
  /// The whole index erased and the roots crawled again.
  case erasedAndCrawled
  /// A domain of Limelight's own erased and read again.
  case erasedAndReadAgain
  /// No registered reindex extension answers for the domain.
  case noExtension(domain: String)
  /// The domain's extension was unregistered while the request waited for it.
  case extensionUnregistered(domain: String)
  /// A run of a domain's reindex extension.
  case extensionRun(ExtensionRunOutcome)
  /// What happened in one domain, for a request that several domains answer.
  case inDomain(String, RequestOutcome)
  /// Several things that happened, in order.
  case each([RequestOutcome])
  /// A sentence stored by a version that kept no values.
  case note(String)

  /// Whether the request did not get what it asked for: an extension missing,
  /// gone, or failing (a path under no root is said, but is not a failure).
  public var failed: Bool {
    switch self {
    case .noExtension, .extensionUnregistered: true
    case .extensionRun(let run): run.failed
    case .inDomain(_, let outcome): outcome.failed
    case .each(let outcomes): outcomes.contains(where: \.failed)
    default: false
    }
  }

  /// The paths of a request that are under no root.
  public var outsideRoots: [String] {
    if case .reindexed(let outside) = self { return outside }
    return []
  }

  public var description: String {
    switch self {
    case .reindexedEveryRoot: "reindexed every root"
    case .reindexed(let outside):
      outside.isEmpty ? "reindexed" : "not under any root: " + outside.joined(separator: ", ")
    case .paused: "paused"
    case .resumed: "resumed"
    case .erasedAndCrawled: "erased and crawled again"
    case .erasedAndReadAgain: "erased and read again"
    case .noExtension(let domain): "no reindex extension answers for \(domain)"
    case .extensionUnregistered(let domain):
      "\(domain): its reindex extension is no longer registered"
    case .extensionRun(let run): run.description
    case .inDomain(let domain, let outcome): "\(domain): \(outcome)"
    case .each(let outcomes): outcomes.map(\.description).joined(separator: "; ")
    case .note(let text): text
    }
  }

  /// The stored form: JSON.
  var stored: String {
    String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self)
  }

  /// The value of a stored form; text that is not one is a `note`.
  static func stored(_ text: String?) -> RequestOutcome? {
    guard let text else { return nil }
    return (try? JSONDecoder().decode(RequestOutcome.self, from: Data(text.utf8))) ?? .note(text)
  }
}

/// How one run of a reindex extension went, kept as its last outcome and
/// told to the requests it answered.
public enum ExtensionRunOutcome: Codable, Equatable, Sendable, CustomStringConvertible {
  /// Which items a run was asked for.
  public enum Scope: Codable, Equatable, Sendable, CustomStringConvertible {
    /// The whole domain (`reindex-all`).
    case all
    /// This many ids (`reindex ID…`).
    case ids(Int)

    public var description: String {
      switch self {
      case .all: "reindex-all"
      case .ids(let count): "reindex of \(count) ids"
      }
    }
  }

  /// Registered just now: its whole domain is to be reindexed.
  case registered
  /// The run printed its items: how many were indexed and deleted.
  case indexed(Scope, indexed: Int, deleted: Int)
  /// The run failed; it is tried again after a wait.
  case retrying(Scope, reason: String, seconds: Int)
  /// The run failed once too often; the work is dropped until the next request.
  case gaveUp(Scope, reason: String, attempts: Int)
  /// A sentence stored by a version that kept no values.
  case note(String)

  public var failed: Bool {
    switch self {
    case .retrying, .gaveUp: true
    default: false
    }
  }

  public var description: String {
    switch self {
    case .registered: "registered; reindexing the domain"
    case .indexed(let scope, let indexed, let deleted):
      "\(scope): \(indexed) items indexed, \(deleted) deleted"
    case .retrying(let scope, let reason, let seconds):
      "\(scope) failed: \(reason); retrying in \(seconds) s"
    case .gaveUp(let scope, let reason, let attempts):
      "\(scope) failed: \(reason); gave up after \(attempts) attempts"
    case .note(let text): text
    }
  }

  /// The stored form: JSON.
  var stored: String {
    String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self)
  }

  /// The value of a stored form; text that is not one is a `note`.
  static func stored(_ text: String?) -> ExtensionRunOutcome? {
    guard let text else { return nil }
    return (try? JSONDecoder().decode(ExtensionRunOutcome.self, from: Data(text.utf8)))
      ?? .note(text)
  }
}
