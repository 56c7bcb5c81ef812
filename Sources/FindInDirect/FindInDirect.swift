import LimelightCLI
import LimelightPicker

/// `find-in` searching the index on its own, for when no watcher serves the
/// search (see the FindIn client) and for what the service does not serve:
/// `--live`, `--open`, `-i`, help and completion scripts. The command line is
/// ``FindInCommand``'s.
@main
enum FindInDirect {
  static func main() {
    FindInCommand.picker = { words in try Picker(words: words).run() }
    FindInCommand.main(Array(CommandLine.arguments.dropFirst()))
  }
}
