import ArgumentParser
import Foundation
import LimelightCLI
import LimelightCommand
import LimelightExit
import LimelightImport
import LimelightImportCommand
import LimelightMeaning
import LimelightModel
import LimelightPlatform
import LimelightSearch
import LimelightService
import LimelightSharing
import LimelightStore
import LimelightWatch
import Logging

#if canImport(Glibc)
  import Glibc
#endif

@main
struct Limelightd: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "limelightd",
    abstract: "Index the configured folders and keep the Limelight index current.",
    discussion: """
      The first run crawls every root; later runs reconcile the index with the disk \
      without reading unchanged files again, then follow changes with inotify until \
      SIGTERM or SIGINT. Roots and exclusions come from limelight.conf(5). The index \
      lives in $XDG_DATA_HOME/limelight. See limelightd(8).
      """)

  @Option(
    name: .customLong("root"),
    help: ArgumentHelp(
      "Index this folder instead of the configured roots (repeatable).", valueName: "dir"))
  var roots: [String] = []

  @Flag(name: .long, help: "Crawl and index the roots, then exit (like updatedb).")
  var once = false

  @Option(
    name: .customLong("store"),
    help: ArgumentHelp(
      "Also send the entries to this PostgreSQL store (a postgresql:// URL, key=value pairs or"
        + " service=NAME; instead of limelight.conf's 'store').", valueName: "name"))
  var storeName: String?

  @Flag(name: [.short, .long], help: "Log every step.")
  var verbose = false

  @Flag(name: [.short, .long], help: "Log only errors.")
  var quiet = false

  func run() throws {
    let level: Logger.Level = verbose ? .debug : quiet ? .error : .info
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
    let logger = Logger(label: "limelightd")
    let location = IndexLocation.fromEnvironment()
    let configuration: Configuration
    do {
      configuration = try Configuration.load(for: location)
    } catch let error as Configuration.ParseError {
      throw CommandFailure("bad configuration: \(error)")
    }
    var rootPaths: [RawPath]
    if roots.isEmpty {
      rootPaths = configuration.resolvedRoots(home: location.home)
    } else {
      rootPaths = []
      for root in roots {
        guard let path = FileSystem.realPath(RawPath.absolute(root)) else {
          throw CommandFailure("--root \(root): no such folder")
        }
        guard FileSystem.status(path)?.isDirectory == true else {
          throw CommandFailure("--root \(root): not a folder")
        }
        rootPaths.append(path)
      }
      var custom = configuration
      custom.roots = rootPaths.map(\.string)
      rootPaths = custom.resolvedRoots(home: location.home)
    }
    let lock: WatcherLock
    do { lock = try WatcherLock(location: location) } catch {
      throw CommandFailure(error.description)
    }
    let store = try Self.openOrBuildAnew(location, logger: logger)
    // A rebuild (this start's, or the one the watcher before this process
    // began) is recorded in the new index, for `limelight status`.
    if let rebuild = IndexRebuild.take(location) { try? store.record(rebuild) }
    logger.info(
      "indexing",
      metadata: ["roots": "\(rootPaths.map(\.string).joined(separator: ", "))", "once": "\(once)"])
    var sharedStore = configuration.store
    if let storeName { sharedStore = try SearchBackends.checked(storeName) }
    // The entries go to the shared store from the local index, which keeps
    // them while the store is away.
    let sender = sharedStore.map {
      SharedStoreSender(
        store: store, storeName: $0, host: configuration.resolvedHostName, logger: logger,
        interrupted: { Watcher.stopRequested })
    }
    if sender == nil { SharedStoreReport.remove(location) }
    if !once { sender?.start() }
    defer { sender?.stop() }
    let watcher = Watcher(
      store: store, configuration: configuration, roots: rootPaths, watching: !once, logger: logger)
    // While it watches, the watcher also answers find-in (which searches on
    // its own when the service is not there).
    // Meaning search: the third pass embeds documents, and the query
    // service keeps the model loaded for find-in.
    var meaning: MeaningEngine?
    var meaningStart: MeaningStart?
    if !configuration.meaning {
      if !once {
        do {
          if try store.dropMeaning() { logger.info("meaning search is off: its vectors dropped") }
        } catch {
          logger.warning("meaning: \(error)")
        }
      }
      MeaningReport(off: "limelight.conf says meaning = no").write(location)
    } else if once {
      // Nothing is embedded, but `limelight status` says whether a
      // watcher would: "off" for want of a model, not "embeds the rest".
      do throws(MeaningEngine.Unavailable) {
        _ = try MeaningEngine.installed()
        MeaningReport().write(location)
      } catch {
        MeaningReport(off: error.description).write(location)
      }
    } else {
      meaningStart = MeaningStart(
        store: store, location: location, logger: logger, watcher: watcher.activity)
      meaning = meaningStart?.loadNow()
    }
    defer { meaningStart?.stop() }
    var service: QueryService?
    if !once {
      do { service = try QueryService.start(location: location, meaning: meaning) } catch {
        logger.warning("no query service: \(error)")
      }
    }
    // A model installed while the watcher runs is taken up by both.
    if !once { meaningStart?.keepLooking { [service] model in service?.takeUp(model) } }
    defer { service?.stop() }
    do {
      try watcher.run()
      if once, let sender {
        do { try sender.sendNow() } catch {
          throw CommandFailure(
            "\(error) (the entries stay in the local index and are sent at the next start)",
            status: ExitStatus.failed)
        }
      }
    } catch let failure as CommandFailure {
      throw failure
    } catch IndexStore.OpenError.damaged(_, let reason) {
      service?.stop()
      Watcher.rebuild(location, after: reason, logger: logger)
    } catch {
      throw CommandFailure("\(error)", status: ExitStatus.failed)
    }
    withExtendedLifetime(lock) {}
  }

  /// Opens the index, building a new one in place of a damaged one (set
  /// aside for a post-mortem) or of one too old to upgrade from (removed:
  /// it is a cache of the disk). The reindex extensions give the
  /// applications' items back either way.
  static func openOrBuildAnew(_ location: IndexLocation, logger: Logger) throws -> IndexStore {
    do {
      return try IndexStore.open(location, create: true)
    } catch IndexStore.OpenError.damaged(_, let reason) {
      let aside = IndexDamage.setAside(location)
      logger.error("the index is damaged (\(reason)): moved to \(aside.string); building a new one")
      IndexRebuild(reason: reason, time: Date()).leave(location)
    } catch IndexStore.OpenError.older {
      let reason = "the index was made by a version too old to upgrade from"
      IndexDamage.remove(location)
      logger.warning("\(reason): building a new one")
      IndexRebuild(reason: reason, time: Date(), older: true).leave(location)
    }
    return try IndexStore.open(location, create: true)
  }

  static func main() {
    // The watcher's own import helpers (see HelperFormats.helperCommand).
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == HelperFormats.helperFlag {
      ImportCommand.mainWithStatus(arguments: Array(arguments.dropFirst()))
    }
    mainWithStatus()
  }
}
