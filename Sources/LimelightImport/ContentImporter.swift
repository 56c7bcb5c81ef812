import LimelightModel
import LimelightPlatform

/// What an importer is given: one regular file, already typed.
public struct ImportRequest {
  public var path: RawPath
  /// The content type and its ancestors, most specific first.
  public var contentTypeTree: [String]
  /// The first bytes of the file (up to ``FileImporter/headSize``).
  public var head: [UInt8]
  public var size: Int64
  public var limits: ImportLimits

  /// The whole file, refused above `limit` bytes.
  public func contents(limit: Int) throws -> [UInt8] {
    if head.count < FileImporter.headSize { return head }
    guard size <= Int64(limit) else { throw ImportFailure.tooLarge(size, limit: limit) }
    return try FileSystem.readPrefix(path, limit: limit)
  }
}

/// The bounds every importer keeps to, whatever the file claims.
public struct ImportLimits: Sendable {
  /// The most text kept for one item.
  public var maxTextBytes: Int
  /// The largest document (e-mail, web page, office file) read whole.
  public var maxDocumentBytes = 64 << 20
  /// The most bytes expanded out of one compressed member or document.
  public var maxExpandedBytes = 64 << 20
  /// The most members of an archive or parts of a document looked at.
  public var maxMembers = 10_000

  public init(maxTextBytes: Int) { self.maxTextBytes = maxTextBytes }
}

/// Why an importer gave up on a file (the file is still indexed by name).
public enum ImportFailure: Error, CustomStringConvertible {
  case tooLarge(Int64, limit: Int)
  case malformed(String)
  /// A document that needs a password (an encrypted PDF): not damaged,
  /// indexed by its name and what the file system tells.
  case locked(String)
  /// An importer program failed: its name and how.
  case program(String, String)
  /// The reason an importer in another process gave, as it described it.
  case reported(String)

  public var description: String {
    switch self {
    case .tooLarge(let size, let limit):
      return "\(size) bytes is over the \(limit)-byte limit for this type"
    case .malformed(let why): return "malformed: \(why)"
    case .locked(let why): return "locked: \(why)"
    case .program(let name, let why): return "importer \(name) \(why)"
    case .reported(let why): return why
    }
  }
}

/// Reads what one family of content types holds into an item's attributes.
public protocol ContentImporter {
  /// The content types it reads (their subtypes too).
  var contentTypes: [String] { get }
  func importContent(_ request: ImportRequest, into attributes: inout AttributeSet) throws
}
