import Foundation
import LimelightApplications
import LimelightExit
import LimelightModel
import LimelightPlatform
import LimelightQuery
import LimelightStore

/// Opens a result and records the use for ranking (what `NSUserActivity`
/// tells Spotlight): an installed application is started from its launcher,
/// anything else goes to the desktop's handler, `xdg-open`.
public enum Opener {
  /// Opens a result (or its containing folder) and records the use in
  /// this host's index: `index` when it is open for writing already, else
  /// opened for that. A shared store's result opens as this host's own
  /// item; another host's cannot be opened here.
  public static func open(
    _ result: SearchResult, location: IndexLocation, index: IndexStore? = nil,
    containingFolder: Bool = false
  ) throws {
    var result = result
    if let host = result.host {
      let here = (try? Configuration.load(for: location))?.resolvedHostName ?? HostName.system
      guard host == here || HostName.isThisHost(host) else {
        throw CommandFailure(
          "\(result.uri) is on \(host), not on this host: it cannot be opened here")
      }
    }
    let writable = try index ?? SearchBackends.openIndex(location, writable: true)
    if result.host != nil {
      let uri = result.path.map(FileURI.uri(for:)) ?? result.uri
      guard let own = try SearchEngine(store: writable).result(uri: uri) else {
        throw CommandFailure("\(uri) is not in this host's index")
      }
      result = own
    }
    if containingFolder {
      try openContainingFolder(result, store: writable)
    } else {
      try open(result, store: writable)
    }
  }

  public static func open(_ result: SearchResult, store: IndexStore) throws {
    if result.domain == applicationsDomain, let id = ApplicationFolders.id(fromURI: result.uri) {
      try launch(id: id, location: store.location)
    } else {
      try xdgOpen(result.uri)
    }
    try store.recordUse(id: result.id)
  }

  /// Opens the folder that holds a file (the file manager then shows it) and
  /// records the use; an item that is not a file has no folder to show.
  public static func openContainingFolder(_ result: SearchResult, store: IndexStore) throws {
    guard let path = result.path else {
      throw CommandFailure("\(result.uri) is not a file: it has no containing folder")
    }
    try xdgOpen(FileURI.uri(for: path.parent))
    try store.recordUse(id: result.id)
  }

  /// Hands a URI to the desktop's handler and waits for its answer.
  static func xdgOpen(_ uri: String) throws {
    let status = try run(["xdg-open", uri], wait: true)
    guard status == 0 else {
      throw CommandFailure("xdg-open could not open \(uri) (status \(status))")
    }
  }

  /// Starts the application of a launcher id, as a desktop's menu would.
  static func launch(id: String, location: IndexLocation) throws {
    let configuration = (try? Configuration.load(for: location)) ?? .defaults
    let folders = ApplicationFolders(configuration: configuration, location: location)
    guard let file = folders.file(forID: id),
      let entry = KeyFile(text: FileSystem.readText(file, limit: 1 << 20) ?? "")
        .groups["Desktop Entry"]
    else { throw CommandFailure("the application \(id) is no longer installed") }
    guard let exec = entry["Exec"], let words = KeyFile.arguments(of: exec), !words.isEmpty,
      var command = expand(words, entry: entry, file: file), !command.isEmpty
    else { throw CommandFailure("\(file.string) has no command to run (Exec)") }
    if entry["Terminal"] == "true",
      ApplicationFolders.executable(named: "x-terminal-emulator") != nil
    {
      command = ["x-terminal-emulator", "-e"] + command
    }
    _ = try run(command, wait: false)
  }

  /// An `Exec` argument vector with its field codes expanded for a launch
  /// without files: file and URL codes vanish, `%i`, `%c`, `%k` and `%%` are
  /// replaced (the Desktop Entry specification). Nil for an unknown code.
  static func expand(_ words: [String], entry: KeyFile.Group, file: RawPath) -> [String]? {
    var result: [String] = []
    for word in words {
      switch word {
      case "%f", "%F", "%u", "%U", "%d", "%D", "%n", "%N", "%v", "%m": continue
      case "%i":
        if let icon = entry["Icon"] { result += ["--icon", icon] }
        continue
      default: break
      }
      var out = ""
      var iterator = word.makeIterator()
      while let ch = iterator.next() {
        guard ch == "%" else {
          out.append(ch)
          continue
        }
        switch iterator.next() {
        case "%": out.append("%")
        case "c": out += entry["Name"] ?? ""
        case "k": out += file.string
        case "f", "F", "u", "U", "d", "D", "n", "N", "v", "m", "i": break
        default: return nil
        }
      }
      result.append(out)
    }
    return result
  }

  /// Runs a program found in `PATH`, its output discarded. Returns its exit
  /// status when waiting, else 0 once it started.
  static func run(_ command: [String], wait: Bool) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = command
    process.standardInput = FileHandle.nullDevice
    if !wait {
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
    }
    do {
      try process.run()
    } catch {
      throw CommandFailure("cannot run \(command[0]): \(error.localizedDescription)")
    }
    guard wait else { return 0 }
    process.waitUntilExit()
    return process.terminationStatus
  }
}
