import CLinux
import LimelightModel
import LimelightStore

/// What a burst of work (a pass, a batch of thumbnails) leaves resident, given
/// back to the system when the burst ends: a watcher idles for days, and
/// its resident size is what people judge it by.
enum MemoryRelease {
  /// Releases SQLite's page caches and malloc's free pages; when the watcher
  /// is going `idle`, also MeCab's dictionary and the pages of its own
  /// program the burst touched (importers, merges: clean file pages the
  /// kernel would reclaim under pressure anyway, read again from the page
  /// cache if needed).
  static func afterBurst(of store: IndexStore, idle: Bool) {
    store.releaseMemory()
    if idle { JapaneseReadings.release() }
    _ = malloc_trim(0)
    if idle { limelight_page_out_program() }
  }
}
