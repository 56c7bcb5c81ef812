import Foundation
import LimelightModel
import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The lock that allows one watcher per index: an exclusive `flock` on a file
/// in the data folder, held for the watcher's life and released by the kernel
/// however it ends.
public final class WatcherLock {
  private let fd: Int32

  /// Why the lock could not be taken.
  public enum LockError: Error, CustomStringConvertible {
    case held(pid: String)
    case failed(SystemError)

    public var description: String {
      switch self {
      case .held(let pid):
        return "another limelightd is already running for this index"
          + (pid.isEmpty ? "" : " (pid \(pid))")
      case .failed(let error): return error.description
      }
    }
  }

  /// Takes the lock of a location or throws ``LockError/held(pid:)``.
  public init(location: IndexLocation) throws(LockError) {
    do { try location.createPrivateDirectories() } catch { throw .failed(error) }
    let path = location.lockPath
    fd = path.withCString { open($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
    guard fd >= 0 else { throw .failed(SystemError("cannot open", path: path)) }
    if flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let pid = FileSystem.readText(path, limit: 32)?.trimmingCharacters(
        in: .whitespacesAndNewlines)
      close(fd)
      throw .held(pid: pid ?? "")
    }
    _ = ftruncate(fd, 0)
    let text = "\(getpid())\n"
    _ = text.withCString { write(fd, $0, strlen($0)) }
  }

  deinit { close(fd) }
}
