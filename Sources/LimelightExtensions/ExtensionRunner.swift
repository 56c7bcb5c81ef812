import Foundation
import LimelightModel
import LimelightPlatform
import LimelightStore
import LimelightSubprocess

/// One run of a reindex extension: the program started with what it is
/// asked to reindex, and its output imported into the extension's own
/// domain. Knows nothing of back-off or of who waits for the run.
struct ExtensionRunner {
  let store: IndexStore

  /// The most a run may print: more is a misbehaving program.
  static let outputLimit = 64 << 20

  /// How a run went: why it failed, if it did, and what it wrote.
  struct Ran {
    var failure: String?
    var summary = ItemImport.Summary()
  }

  /// Runs `found` for its whole domain (`all`) or for `ids`.
  func run(_ found: ReindexExtension, all: Bool, ids: [String]) -> Ran {
    let arguments = found.command + (all ? ["reindex-all"] : ["reindex"] + ids)
    var environment = ChildProcess.cleanEnvironment
    environment["LIMELIGHT_DOMAIN"] = found.domain
    let child = ChildProcess(
      arguments: arguments.map { Array($0.utf8) }, environment: environment,
      timeLimit: found.timeLimit, outputLimit: Self.outputLimit)
    var ran = Ran()
    do {
      let outcome = try child.run()
      if let reason = outcome.failure {
        ran.failure = reason
        return ran
      }
      let lines = outcome.output.split(separator: 0x0A, omittingEmptySubsequences: false).map {
        Result<[UInt8], LineReader.TooLong>.success(Array($0))
      }
      do {
        ran.summary = try ItemImport(
          store: store, indexName: "extension:" + found.domain, confinedTo: found.domain
        ).run(lines)
      } catch {
        ran.failure = "printed a bad \(error.description)"
        ran.summary = error.summary
      }
    } catch {
      ran.failure = error.description
    }
    return ran
  }
}
