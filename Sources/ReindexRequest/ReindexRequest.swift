import ArgumentParser
import LimelightCLI
import LimelightModel
import LimelightStore

@main
struct ReindexRequest: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reindex-request",
    abstract: "Ask the Limelight watcher to read paths, or everything, again.",
    discussion: """
      The request is stored in the index, so one made while limelightd is down is
      carried out when it starts. With --wait, return once the index includes it.
      Exit status: 0 when the request was stored (and, with --wait, carried out),
      1 when --timeout ran out first, 2 on a usage error. See reindex-request(1).
      """)

  @Argument(help: ArgumentHelp("Files or folders to read again.", valueName: "path"))
  var paths: [String] = []

  @Flag(name: .long, help: "Read every file under every root again.")
  var all = false

  @Flag(name: .long, help: "Wait until the index includes the request.")
  var wait = false

  @Option(name: .long, help: "With --wait, give up after this many seconds.")
  var timeout: Double?

  func validate() throws {
    if all && !paths.isEmpty { throw ValidationError("give paths or --all, not both") }
    if !all && paths.isEmpty { throw ValidationError("give at least one path, or --all") }
    if let timeout, timeout < 0 || !timeout.isFinite {
      throw ValidationError("--timeout must be a number of seconds of 0 or more")
    }
    if timeout != nil && !wait { throw ValidationError("--timeout goes with --wait") }
  }

  func run() throws {
    let location = IndexLocation.fromEnvironment()
    let store = try IndexStore.open(location, create: true)
    let id = try store.submit(all ? .all : .paths, paths: paths.map(RawPath.absolute))
    let running = location.watcherPID() != nil
    if !running {
      printError("reindex-request: limelightd is not running; the request is kept until it starts")
    }
    guard wait else { return }
    guard let done = try waitForRequest(id, in: store, timeout: timeout) else {
      throw CommandFailure("timed out waiting for the watcher", status: ExitStatus.notFound)
    }
    if let outcome = done.outcome, outcome.hasPrefix("not under") {
      printError("reindex-request: \(outcome)")
    }
  }

  static func main() { mainWithStatus() }
}
