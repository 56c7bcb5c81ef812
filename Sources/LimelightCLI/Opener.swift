import Foundation
import LimelightQuery
import LimelightStore

/// Opens a result with the desktop's handler and records the use for ranking
/// (what `NSUserActivity` tells Spotlight).
public enum Opener {
  public static func open(_ result: SearchResult, store: IndexStore) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["xdg-open", result.uri]
    do {
      try process.run()
    } catch {
      throw CommandFailure("cannot run xdg-open: \(error.localizedDescription)")
    }
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CommandFailure(
        "xdg-open could not open \(result.uri) (status \(process.terminationStatus))")
    }
    try store.recordUse(id: result.id)
  }
}
