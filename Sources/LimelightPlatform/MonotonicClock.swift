#if canImport(Glibc)
  import Glibc
#endif

/// Seconds on a clock that never jumps (CLOCK_MONOTONIC), for deadlines and
/// durations.
public func monotonicNow() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
