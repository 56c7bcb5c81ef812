import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// What `find-in` and the watcher's query service say to each other over a
/// Unix socket. This module stays free of Foundation so that the `find-in`
/// client starts in well under a millisecond.
///
/// The exchange:
/// 1. The client sends a request: `LLQ1`, the body's length (4 bytes, little
///    endian), then the body, NUL-terminated fields: the current folder, the
///    argument count, the arguments, the environment (`NAME=value`). Its
///    standard output and standard error travel with it (`SCM_RIGHTS`).
/// 2. The service answers `F` (run the search yourself: an option it does not
///    serve, a different environment, too busy) or `R` (ready).
/// 3. After `R` the client commits with `G`; only then does the service write
///    results to the client's descriptors. A client that gave up closes
///    instead, and nothing is written.
/// 4. The service ends with `D` and the exit status (one byte).
public enum QueryServiceWire {
  public static let magic: [UInt8] = Array("LLQ1".utf8)
  public static let fallback = UInt8(ascii: "F")
  public static let ready = UInt8(ascii: "R")
  public static let go = UInt8(ascii: "G")
  public static let done = UInt8(ascii: "D")
  /// A request larger than this is refused (arguments and environment are small).
  public static let maximumBody = 1 << 20
  /// The socket's name in the instance's runtime folder.
  public static let socketName = "query.socket"

  /// One search as the client asked for it.
  public struct Request: Equatable, Sendable {
    public var currentDirectory: [UInt8]
    public var arguments: [[UInt8]]
    public var environment: [[UInt8]]

    public init(currentDirectory: [UInt8], arguments: [[UInt8]], environment: [[UInt8]]) {
      self.currentDirectory = currentDirectory
      self.arguments = arguments
      self.environment = environment
    }

    /// The request on the wire, header included.
    public func encoded() -> [UInt8] {
      var body: [UInt8] = []
      for field in [currentDirectory, Array(String(arguments.count).utf8)] + arguments + environment
      {
        body += field.filter { $0 != 0 }
        body.append(0)
      }
      let length = UInt32(body.count)
      return magic + (0..<4).map { UInt8(truncatingIfNeeded: length >> ($0 * 8)) } + body
    }

    /// The body's length from a header, or nil when it is not one.
    public static func bodyLength(header: ArraySlice<UInt8>) -> Int? {
      guard header.count >= 8, Array(header.prefix(4)) == magic else { return nil }
      let bytes = Array(header.dropFirst(4).prefix(4))
      let length = bytes.enumerated().reduce(0) { $0 | Int($1.element) << ($1.offset * 8) }
      return length <= maximumBody ? length : nil
    }

    /// Reads a body; nil when it is malformed.
    public init?(body: ArraySlice<UInt8>) {
      var fields = body.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
      guard fields.last == [], fields.count >= 3 else { return nil }
      fields.removeLast()
      guard let count = Int(String(decoding: fields[1], as: UTF8.self)), count >= 0,
        fields.count >= 2 + count
      else { return nil }
      currentDirectory = fields[0]
      arguments = Array(fields[2..<(2 + count)])
      environment = Array(fields[(2 + count)...])
    }
  }

  /// The Unix socket address of `path`, or nil when it is too long for one.
  public static func address(of path: [UInt8]) -> sockaddr_un? {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: path)
      raw[path.count] = 0
    }
    return address
  }

  /// The socket of the instance that these environment variables describe,
  /// found by the same rules as `IndexLocation` finds the runtime folder.
  public static func socketPath(environment: (String) -> String?) -> String {
    let base = BaseDirectories(lookup: environment)
    if let runtime = base.runtimeDirectory {
      return runtime + "/limelight/" + socketName
    }
    return base.dataHome + "/limelight/run/" + socketName
  }
}
