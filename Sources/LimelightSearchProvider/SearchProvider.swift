import ArgumentParser
import LimelightCLI
import LimelightCommand
import LimelightDesktop
import LimelightExit
import LimelightSearch

/// limelight-search-provider: Limelight's results in GNOME Shell's overview
/// and in KRunner, served on the session bus, started by the bus when the
/// desktop first asks.
@main
struct SearchProvider: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "limelight-search-provider",
    abstract: "Serve Limelight's results to GNOME Shell and KRunner over D-Bus.",
    discussion: """
      Owns the bus name \(busName) and serves org.gnome.Shell.SearchProvider2 at \
      \(shellPath) and org.kde.krunner1 at \(krunnerPath), on the session bus. The \
      bus starts it when the desktop first searches; it leaves after a while \
      without a search. See limelight-search-provider(1).
      """)

  static let busName = "org.limelight.SearchProvider"
  static let shellPath = "/org/limelight/SearchProvider"
  static let krunnerPath = "/org/limelight/KRunner"

  @Option(
    name: .customLong("idle-exit"),
    help: ArgumentHelp(
      "Leave after this many seconds without a call (0: stay).", valueName: "seconds"))
  var idleExit: Double = 300

  func validate() throws {
    if idleExit < 0 { throw ValidationError("--idle-exit must be 0 or more") }
  }

  func run() throws {
    let results = DesktopResults()
    do {
      let bus = try SessionBus()
      try bus.export(ShellSearchProvider(results: results), at: Self.shellPath)
      try bus.export(KRunnerRunner(results: results), at: Self.krunnerPath)
      try bus.requestName(Self.busName)
      try bus.serve(idleExit: idleExit > 0 ? idleExit : nil)
    } catch let error as BusError {
      throw CommandFailure(error.message)
    }
  }

  static func main() { mainWithStatus() }
}
