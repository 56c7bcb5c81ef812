import Foundation
import Testing

@testable import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Files the product reads itself are read whole: an interrupted or short
/// read is read on, and a file that changes while it is read is read again.
@Suite final class ReadWholeTests {
  let folder: String

  init() throws {
    folder = NSTemporaryDirectory() + "read-whole-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }

  func write(_ name: String, _ text: String) -> RawPath {
    _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(text.utf8))
    return RawPath(folder + "/" + name)
  }

  @Test func interruptedAndShortReadsAreReadOn() throws {
    let text = "[Limelight Extension]\nDomain=com.example.people\nExec=people --reindex\n"
    let path = write("people.extension", text)
    var calls = 0
    let bytes = try FileSystem.readPrefix(path, limit: 1 << 16) { fd, buffer, count in
      calls += 1
      switch calls % 3 {
      case 1:
        errno = EINTR
        return -1
      case 2:
        errno = EAGAIN
        return -1
      default:
        // Three bytes at a time: short reads.
        return read(fd, buffer, min(count, 3))
      }
    }
    #expect(String(decoding: bytes, as: UTF8.self) == text)
    #expect(calls > text.utf8.count / 3)
  }

  @Test func aFileChangedWhileReadIsReadAgain() throws {
    let path = write("config", "old contents\n")
    var rewritten = false
    let bytes = try FileSystem.readPrefix(path, limit: 1 << 16) { fd, buffer, count in
      let n = read(fd, buffer, count)
      if !rewritten && n == 0 {
        // Another program writes the file while it is read.
        rewritten = true
        let handle = FileHandle(forWritingAtPath: path.string)!
        handle.write(Data("new and longer contents\n".utf8))
        handle.closeFile()
      }
      return n
    }
    #expect(String(decoding: bytes, as: UTF8.self) == "new and longer contents\n")
  }

  @Test func anUnreadableDescriptorIsNeverAnEmptyOne() throws {
    let path = write("broken.extension", "[Limelight Extension]\n")
    chmod(path.string, 0)
    defer { chmod(path.string, 0o600) }
    // Root reads anything: nothing to see then.
    guard getuid() != 0 else { return }
    let files = KeyFile.readFiles(endingIn: ".extension", in: [RawPath(folder)])
    #expect(files.count == 1)
    guard case .failure(let error) = files[0].file else {
      Issue.record("an unreadable file read as \(files[0].file)")
      return
    }
    #expect(error.description.contains("Permission denied"))
  }
}
