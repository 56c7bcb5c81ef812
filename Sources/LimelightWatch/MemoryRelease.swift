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

  /// Gives back the free pages a slice of the second pass left in malloc's
  /// heap: its texts, read, folded and packed, free up holes the next
  /// slice's do not fill exactly, and malloc keeps them (45 MB of heap
  /// held 27 in use). At 300,000 entries the watcher's mean over the pass
  /// fell from 78 to 72 MB, and the pass took no longer (290 s, 295 without).
  static func afterSlice() {
    _ = malloc_trim(0)
  }
}
