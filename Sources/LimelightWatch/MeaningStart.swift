import Foundation
import LimelightMeaning
import LimelightModel
import LimelightPlatform
import LimelightStore
import Logging
import Synchronization

/// Meaning search's start in a watcher: the model loaded for the query
/// service and the third pass (``MeaningPass``), or, while none is
/// installed, looked for again every ``lookSeconds``: a model installed
/// while the watcher runs (`scripts/install-meaning`, as `limelight status`
/// advises) is taken up without a restart. A model that is there and does
/// not load is tried again only once its files change.
public final class MeaningStart: Sendable {
  let store: IndexStore
  let location: IndexLocation
  let logger: Logger
  let watcher: WatcherActivity
  /// Where the engine and its model are looked for.
  let folders: [RawPath]
  private let pass = Mutex<MeaningPass?>(nil)
  private let stopping = StopFlag()
  /// The files of the last model that failed to load, as they were then.
  private let failed = Mutex<[FileStatus?]?>(nil)

  /// Seconds between looks for a model: two `stat` calls each.
  public static let lookSeconds = 10.0

  public init(
    store: IndexStore, location: IndexLocation, logger: Logger, watcher: WatcherActivity,
    folders: [RawPath] = MeaningEngine.searchFolders()
  ) {
    (self.store, self.location, self.logger, self.watcher) = (store, location, logger, watcher)
    self.folders = folders
  }

  /// Loads the model and starts the third pass: the model for the query
  /// service (one of its own, so that a search never waits for the pass's
  /// passage to be embedded; the model's file is mapped, its pages
  /// shared), or nil, with why in `limelight status` and the log.
  public func loadNow() -> MeaningEngine? {
    do throws(MeaningEngine.Unavailable) {
      let model = try MeaningEngine.load(from: folders)
      let passModel = try MeaningEngine.load(from: folders)
      Thread.detachNewThread { model.prepareOrdinaryPassages() }
      let started = MeaningPass(
        store: store, engine: passModel, location: location, logger: logger, watcher: watcher)
      pass.withLock { $0 = started }
      started.start()
      // A watcher stopping meanwhile stops the pass it has not heard of.
      if stopping.isStopped { started.stop() }
      return model
    } catch {
      let files = installedFiles()
      if files != nil { failed.withLock { $0 = files } }
      logger.notice("meaning search is off: \(error)")
      MeaningReport(off: error.description).write(location)
      return nil
    }
  }

  /// When ``loadNow()`` found no model, looks for one on a thread of its
  /// own until one loads or ``stop()``, and hands it to `loaded`.
  public func keepLooking(_ loaded: @escaping @Sendable (MeaningEngine) -> Void) {
    guard pass.withLock({ $0 == nil }) else { return }
    let thread = Thread { [self] in
      while !stopping.sleep(seconds: Self.lookSeconds) {
        // Not installed, or the files that failed to load have not changed.
        guard let files = installedFiles(), failed.withLock({ $0 }) != files else { continue }
        logger.info("meaning search: a model was installed; loading it")
        if let model = loadNow() {
          logger.notice("meaning search is on: the model was loaded")
          loaded(model)
          return
        }
      }
    }
    thread.name = "meaning-look"
    thread.start()
  }

  /// Stops looking for a model, and the third pass.
  public func stop() {
    stopping.stop()
    pass.withLock { $0?.stop() }
  }

  /// The installed engine's and model's files as they are now, or nil
  /// when none is installed.
  func installedFiles() -> [FileStatus?]? {
    guard let (engine, model) = try? MeaningEngine.installed(in: folders) else { return nil }
    return [FileSystem.followedStatus(engine), FileSystem.followedStatus(model)]
  }
}
