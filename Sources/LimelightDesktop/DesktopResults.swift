import CLinux
import Foundation
import LimelightApplications
import LimelightExit
import LimelightModel
import LimelightPlatform
import LimelightQuery
import LimelightSearch
import LimelightStore

#if canImport(Glibc)
  import Glibc
#endif

/// What the desktop's search providers share: searching with `find-in`'s
/// engine, narrowing a search as the user types on, and describing, showing
/// and opening a result. Results are named by their URIs, which outlive a
/// search and are what the desktop hands back to open.
public final class DesktopResults {
  public let session: SearchSession
  let mime: MIMEDatabase
  /// How many results a search hands the desktop, which shows the first few.
  public var limit = 20
  /// Each result shown recently, by URI, for describing it without a lookup.
  private var known: [String: SearchResult] = [:]

  public init(environment: [String: String] = ProcessEnvironment.current) {
    session = SearchSession(environment: environment)
    mime = MIMEDatabase(environment: environment)
  }

  /// The URIs of the best matches for the terms; none for an empty or
  /// invalid query (the desktop then shows nothing from Limelight).
  public func search(_ terms: [String]) -> [String] {
    remember(found(terms, limit: limit))
  }

  /// A search narrowed as the user typed on: the results shown before that
  /// still match keep their order, and new matches follow, up to the limit.
  public func narrow(_ previous: [String], terms: [String]) -> [String] {
    let matches = found(terms, limit: max(limit, previous.count) * 4)
    let matching = Set(matches.map(\.uri))
    var kept = previous.filter { matching.contains($0) }
    let keptSet = Set(kept)
    for result in matches where kept.count < limit && !keptSet.contains(result.uri) {
      kept.append(result.uri)
    }
    _ = remember(matches)
    return kept
  }

  private func found(_ terms: [String], limit: Int) -> [SearchResult] {
    let words = terms.filter { !$0.isEmpty }
    guard !words.isEmpty else { return [] }
    do {
      return try session.search(words, limit: limit)
    } catch {
      report(error)
      return []
    }
  }

  private func remember(_ results: [SearchResult]) -> [String] {
    if known.count > 2_000 { known.removeAll() }
    for result in results { known[result.uri] = result }
    return results.map(\.uri)
  }

  /// The result a URI names: as shown, or looked up again.
  public func result(_ uri: String) -> SearchResult? {
    if let result = known[uri] { return result }
    do {
      let result = try session.result(uri: uri)
      if let result { known[uri] = result }
      return result
    } catch {
      report(error)
      return nil
    }
  }

  /// The line under a result's name: its kind and where it is.
  public func description(of result: SearchResult) -> String {
    let place = result.path.map { $0.parent.shown(home: session.location.home) } ?? result.domain
    return [result.kind ?? result.contentType ?? "", place].filter { !$0.isEmpty }
      .joined(separator: " — ")
  }

  /// Themed icon names for a result, the most specific first.
  public func iconNames(of result: SearchResult) -> [String] {
    if result.isFolder { return ["folder"] }
    if result.domain == applicationsDomain { return ["application-x-executable"] }
    return mime.iconNames(for: result.contentType ?? "application/octet-stream")
  }

  /// A result's icon as GIO serialises one: its thumbnail's path when it has
  /// one, else its themed icon names.
  public func gicon(of result: SearchResult) -> String {
    if let thumbnail = result.thumbnailPath, access(thumbnail, R_OK) == 0 { return thumbnail }
    return ". GThemedIcon " + iconNames(of: result).joined(separator: " ")
  }

  /// Opens a result as `find-in --open` does, remembering the use.
  public func open(_ uri: String, containingFolder: Bool = false) throws {
    guard let result = result(uri) else {
      throw BusError("\(uri) is no longer in the index")
    }
    do {
      try session.open(result, containingFolder: containingFolder)
    } catch {
      throw BusError(message(of: error))
    }
  }

  /// Opens the picker in a terminal with the terms typed so far.
  public func launchPicker(_ terms: [String]) throws {
    // The find-in installed with this program, else the one in PATH.
    var target = [CChar](repeating: 0, count: 4096)
    var findIn = "find-in"
    if limelight_path_beside_executable("find-in", &target, target.count) == 0 {
      let path = String(
        decoding: target.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if access(path, X_OK) == 0 { findIn = path }
    }
    for terminal in Self.terminals {
      guard let program = ApplicationFolders.executable(named: terminal.name) else { continue }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: program.string)
      process.arguments = terminal.arguments + [findIn, "-i", "--"] + terms
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      do {
        try process.run()
        return
      } catch {
        continue
      }
    }
    throw BusError("no terminal to show the picker in")
  }

  /// Terminals that run a command, the Debian alternative first.
  static let terminals: [(name: String, arguments: [String])] = [
    ("x-terminal-emulator", ["-e"]), ("gnome-terminal", ["--"]), ("konsole", ["-e"]),
    ("xterm", ["-e"]),
  ]

  func message(of error: Error) -> String {
    (error as? CommandFailure)?.message ?? "\(error)"
  }

  func report(_ error: Error) {
    let text = "limelight-search-provider: \(message(of: error))\n"
    _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
  }
}
