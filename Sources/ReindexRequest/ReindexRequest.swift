import ArgumentParser
import LimelightCLI
import LimelightCommand
import LimelightExit
import LimelightExtensions
import LimelightModel
import LimelightPlatform
import LimelightSearch
import LimelightStore

@main
struct ReindexRequest: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reindex-request",
    abstract:
      "Ask the Limelight watcher to read paths, everything, or an application's domain again.",
    discussion: """
      The request is stored in the index, so one made while limelightd is down is \
      carried out when it starts. With --domain, the domain's reindex extension is run \
      (for all of its items, or the ids given with --id). With --wait, return once the \
      index includes the request. Exit status: 0 when the request was stored (and, with \
      --wait, carried out), 1 when --timeout ran out first or the extension failed, 2 on \
      a usage error. See reindex-request(1).
      """)

  @Argument(help: ArgumentHelp("Files or folders to read again.", valueName: "path"))
  var paths: [String] = []

  @Flag(name: .long, help: "Read every file under every root again.")
  var all = false

  @Option(name: .long, help: "Have this domain's reindex extension reindex it.")
  var domain: String?

  @Option(
    name: .long, parsing: .upToNextOption,
    help: ArgumentHelp("With --domain, reindex only these ids.", valueName: "id"))
  var id: [String] = []

  @Flag(name: .long, help: "Wait until the index includes the request.")
  var wait = false

  @Option(name: .long, help: "With --wait, give up after this many seconds.")
  var timeout: Double?

  func validate() throws {
    let ways = [all, !paths.isEmpty, domain != nil].filter { $0 }.count
    if ways > 1 { throw ValidationError("give paths, --all or --domain, only one of them") }
    if ways == 0 { throw ValidationError("give at least one path, --all or --domain") }
    if !id.isEmpty && domain == nil { throw ValidationError("--id goes with --domain") }
    do {
      if let domain { try ItemLine.validate(domain: domain) }
      for name in id { try ItemLine.validate(id: name) }
    } catch { throw ValidationError(error.description) }
    if let timeout, timeout < 0 || !timeout.isFinite {
      throw ValidationError("--timeout must be a number of seconds of 0 or more")
    }
    if timeout != nil && !wait { throw ValidationError("--timeout goes with --wait") }
  }

  func run() throws {
    let location = IndexLocation.fromEnvironment()
    let store = try IndexStore.open(location, create: true)
    if let domain {
      let (extensions, _) = ExtensionDescriptors.load(
        from: location.descriptorFolders("extensions.d"))
      guard extensions.contains(where: { $0.answers(for: domain) }) else {
        throw CommandFailure(
          "no reindex extension answers for \(domain) (see 'limelight extensions')",
          status: ExitStatus.usage)
      }
    }
    let request =
      try domain.map { try store.submit(.domain, domain: $0, ids: id) }
      ?? store.submit(all ? .all : .paths, paths: paths.map(RawPath.absolute))
    let running = location.watcherPID() != nil
    if !running {
      printError("reindex-request: limelightd is not running; the request is kept until it starts")
    }
    guard wait else { return }
    guard let done = try waitForRequest(request, in: store, timeout: timeout) else {
      throw CommandFailure("timed out waiting for the watcher", status: ExitStatus.notFound)
    }
    if let outcome = done.outcome, !outcome.outsideRoots.isEmpty {
      printError("reindex-request: \(outcome)")
    }
    if domain != nil, let outcome = done.outcome {
      if outcome.failed {
        throw CommandFailure(outcome.description, status: ExitStatus.notFound)
      }
      print(outcome)
    }
  }

  static func main() { mainWithStatus() }
}
