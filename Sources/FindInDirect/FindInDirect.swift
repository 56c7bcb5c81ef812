import LimelightCLI
import LimelightPicker

/// `find-in` searching the index on its own, for when no watcher serves the
/// search (see the FindIn client) and for what the service does not serve:
/// `--live`, `--open`, `-i`, help and completion scripts. The command line is
/// ``FindInCommand``'s.
@main
enum FindInDirect {
  static func main() {
    FindInCommand.picker = { options in
      try Picker(words: options.words, store: options.store).run()
    }
    FindInCommand.main(Array(CommandLine.arguments.dropFirst()))
  }
}
