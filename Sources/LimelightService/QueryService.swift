import CLinux
import Foundation
import LimelightExit
import LimelightMeaning
import LimelightModel
import LimelightPlatform
import LimelightQueryClient
import LimelightSearch
import LimelightStore
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The watcher's query service: answers `find-in` over a Unix socket in the
/// instance's runtime folder, with the index already open and its pages warm,
/// so that a search costs the query and not a process start with an index
/// open (see `QueryServiceWire` for the exchange). The results are written by
/// the same code as `find-in-direct`'s, to the client's own descriptors, so
/// the output is the same byte for byte.
public final class QueryService: Sendable {
  public let socketPath: RawPath
  let location: IndexLocation
  let listener: Int32
  /// Meaning search's model, loaded once for every search (nil: off), or
  /// taken up later (``takeUp(_:)``).
  let meaning: Mutex<MeaningEngine?>
  /// Open read-only connections to the index, one per search in progress.
  let stores = Mutex<[(store: IndexStore, searches: Int)]>([])
  /// The shared stores' connections kept between searches, closed with
  /// the local ones.
  let storeBackends = StoreBackendPool()
  /// Searches a connection runs before its prepared statements are let go:
  /// each shape of query keeps one, and the shapes users type have no end.
  static let searchesPerStatementCache = 1000
  let inProgress = Atomic<Int>(0)
  /// A quiet spell after the last search closes the kept connections
  /// (``closeKeptConnections()``).
  let quiet: QuietSpell
  /// How long without a search before the kept connections go.
  public static let quietSpellSeconds = 60.0
  /// This process's values of ``sharedVariables``, which do not change while it runs.
  let ownEnvironment = ProcessEnvironment.current.filter {
    QueryService.sharedVariables.contains($0.key)
  }
  /// Searches served at once; more clients search on their own.
  static let concurrentSearches = 4
  /// Variables whose value shapes a search through process-wide state (the
  /// time zone, and the locale's calendar: where `modified:week` starts): a
  /// client whose values differ searches on its own.
  static let sharedVariables = ["TZ", "LANG", "LC_ALL", "LC_TIME"]

  /// Why the service could not start.
  public struct StartError: Error, CustomStringConvertible {
    public let description: String
  }

  /// Meaning search's model from now on: one installed after the
  /// watcher started (``LimelightWatch/MeaningStart``).
  public func takeUp(_ model: MeaningEngine) {
    meaning.withLock { $0 = model }
  }

  /// Listens on the instance's socket (replacing a stale one: the caller holds
  /// the watcher's lock) and serves clients on background threads.
  public static func start(
    location: IndexLocation, meaning: MeaningEngine? = nil,
    quietSpell: Double = quietSpellSeconds
  ) throws -> QueryService {
    let path = location.runtimeDirectory.appending(QueryServiceWire.socketName)
    guard var address = QueryServiceWire.address(of: path.bytes) else {
      throw StartError(description: "\(path.string): too long for a socket path")
    }
    try location.createPrivateDirectories()
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else {
      throw StartError(description: "socket: \(String(cString: strerror(errno)))")
    }
    _ = path.withCString { unlink($0) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, path.withCString({ chmod($0, 0o600) }) == 0, listen(fd, 64) == 0 else {
      let reason = String(cString: strerror(errno))
      close(fd)
      throw StartError(description: "\(path.string): \(reason)")
    }
    let service = QueryService(
      socketPath: path, location: location, listener: fd, meaning: meaning,
      quietSpell: quietSpell)
    Thread.detachNewThread { service.acceptLoop() }
    return service
  }

  init(
    socketPath: RawPath, location: IndexLocation, listener: Int32, meaning: MeaningEngine?,
    quietSpell: Double
  ) {
    self.meaning = Mutex(meaning)
    self.socketPath = socketPath
    self.location = location
    self.listener = listener
    quiet = QuietSpell(seconds: quietSpell)
  }

  /// Closes the connections kept for the next searches and gives their
  /// memory back to the system: each holds up to 4 MiB of the index's
  /// pages and a prepared statement for each shape of query it ran, which
  /// a watcher idling for days should not keep resident. The next search
  /// opens one again (a few milliseconds).
  func closeKeptConnections() {
    let closing = stores.withLock { kept in
      defer { kept.removeAll() }
      return kept.count
    }
    if closing + storeBackends.removeAll() > 0 { _ = malloc_trim(0) }
  }

  /// Removes the socket, so that clients search on their own from now on.
  public func stop() {
    _ = socketPath.withCString { unlink($0) }
  }

  func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE {
          if errno != EINTR { usleep(10_000) }
          continue
        }
        return
      }
      _ = fcntl(client, F_SETFD, FD_CLOEXEC)
      // Only the user who runs the watcher may search its index.
      guard limelight_peer_uid(client) == Int(getuid()) else {
        close(client)
        continue
      }
      if inProgress.add(1, ordering: .relaxed).newValue > Self.concurrentSearches {
        inProgress.subtract(1, ordering: .relaxed)
        reply(client, QueryServiceWire.fallback)
        close(client)
        continue
      }
      Thread.detachNewThread {
        self.serve(client)
        close(client)
        self.inProgress.subtract(1, ordering: .relaxed)
      }
    }
  }

  /// Reads one request, and runs it when it can be served here.
  func serve(_ client: Int32) {
    var timeout = timeval(tv_sec: 2, tv_usec: 0)
    _ = setsockopt(
      client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var descriptors: [Int32] = []
    defer { for fd in descriptors { close(fd) } }
    guard let request = receive(client, descriptors: &descriptors), descriptors.count == 2,
      let (options, context) = searchable(request, output: descriptors[0], errors: descriptors[1])
    else {
      reply(client, QueryServiceWire.fallback)
      return
    }
    // Write nothing until the client commits: one that gave up searches on its own.
    var go: UInt8 = 0
    guard reply(client, QueryServiceWire.ready), recv(client, &go, 1, 0) == 1,
      go == QueryServiceWire.go
    else { return }
    var connection: (store: IndexStore, searches: Int)
    do {
      connection =
        try stores.withLock { $0.popLast() }
        ?? (IndexStore.open(location, create: false, readOnly: true, longLived: true), 0)
    } catch {
      printError("find-in: \(error)", to: context.errors)
      reply(client, [QueryServiceWire.done, UInt8(ExitStatus.usage)])
      return
    }
    var serving = context
    serving.store = connection.store
    serving.storeBackends = storeBackends
    serving.meaning = meaning.withLock { $0 }
    serving.abandoned = { Self.hungUp(client) }
    let status = failureStatus(name: "find-in", errors: context.errors) {
      try FindInSearch(options, context: serving).run()
    }
    connection.searches += 1
    if connection.searches >= Self.searchesPerStatementCache {
      connection.store.releaseMemory()
      connection.searches = 0
    }
    stores.withLock { [connection] in $0.append(connection) }
    quiet.noteActivity { [self] in
      if inProgress.load(ordering: .relaxed) == 0 { closeKeptConnections() }
    }
    reply(client, [QueryServiceWire.done, UInt8(truncatingIfNeeded: status)])
  }

  /// The options and context of a request the service runs, or nil for one
  /// the client must run itself.
  func searchable(_ request: QueryServiceWire.Request, output: Int32, errors: Int32)
    -> (FindInOptions, FindInContext)?
  {
    let arguments = request.arguments.map { String(decoding: $0, as: UTF8.self) }
    // --live follows the index for as long as the user likes, and --open
    // writes: both stay in the client's own process, as do help and mistakes.
    guard let options = FindInOptions.quick(arguments), !options.live, !options.open,
      !options.interactive
    else {
      return nil
    }
    var environment: [String: String] = [:]
    for entry in request.environment {
      guard let eq = entry.firstIndex(of: UInt8(ascii: "=")) else { continue }
      environment[String(decoding: entry[..<eq], as: UTF8.self)] = String(
        decoding: entry[(eq + 1)...], as: UTF8.self)
    }
    guard Self.sharedVariables.allSatisfy({ environment[$0] == ownEnvironment[$0] }),
      IndexLocation.fromEnvironment(environment).databasePath == location.databasePath,
      request.currentDirectory.first == UInt8(ascii: "/")
    else { return nil }
    var context = FindInContext(environment: environment)
    context.output = output
    context.errors = errors
    context.currentDirectory = RawPath(bytes: request.currentDirectory)
    return (options, context)
  }

  /// Reads a whole request and the descriptors that came with it.
  func receive(_ client: Int32, descriptors: inout [Int32]) -> QueryServiceWire.Request? {
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var expected: Int?
    while expected.map({ data.count < 8 + $0 }) ?? true {
      var fds: [Int32] = [-1, -1, -1, -1]
      var count: Int32 = 0
      let n = chunk.withUnsafeMutableBytes {
        limelight_receive_with_fds(client, $0.baseAddress, $0.count, &fds, &count)
      }
      descriptors += fds.prefix(Int(count))
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return nil }
      data += chunk[..<n]
      if expected == nil && data.count >= 8 {
        guard let length = QueryServiceWire.Request.bodyLength(header: data[...]) else {
          return nil
        }
        expected = length
      }
    }
    guard let length = expected, data.count == 8 + length else { return nil }
    return QueryServiceWire.Request(body: data[8...])
  }

  @discardableResult
  func reply(_ client: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      == bytes.count
  }

  @discardableResult
  func reply(_ client: Int32, _ byte: UInt8) -> Bool { reply(client, [byte]) }

  /// Whether the client closed its end (it was interrupted): its terminal
  /// must not get results after its prompt came back.
  static func hungUp(_ client: Int32) -> Bool {
    var entry = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
    guard poll(&entry, 1, 0) > 0 else { return false }
    var byte: UInt8 = 0
    return recv(client, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
  }
}
