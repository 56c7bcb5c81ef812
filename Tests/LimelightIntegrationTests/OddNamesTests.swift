import Foundation
import LimelightModel
import LimelightPlatform
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// File names that break naive indexers: spaces, newlines, bytes that are not
/// UTF-8, names at the length limit. Each is found and its URI leads back to it.
@Suite struct OddNamesTests {
  @Test func oddNamesAreFoundAndTheirURIsRoundTrip() throws {
    let instance = try Instance()
    let names: [[UInt8]] = [
      Array("with spaces plover.txt".utf8),
      Array("line\nbreak plover.txt".utf8),
      Array("latin1 caf".utf8) + [0xE9] + Array(" plover.txt".utf8),
      Array("percent%20and#hash?plover.txt".utf8),
      Array(String(repeating: "p", count: 240).utf8) + Array(" plover.txt".utf8),
      Array("ünïcödé plover.txt".utf8),
    ]
    for name in names {
      let path = RawPath(instance.home).appending(RawPath(bytes: name))
      let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
      #expect(fd >= 0)
      _ = write(fd, "plover\n", 7)
      close(fd)
    }
    try instance.indexOnce()
    let result = try instance.run("find-in", ["plover"])
    #expect(result.status == 0)
    let found = Set(result.lines.compactMap { FileURI.path(from: $0)?.lastComponent.bytes })
    #expect(found == Set(names))
    // One URI a line, whatever the names hold.
    #expect(result.lines.count == names.count)
    #expect(result.lines.allSatisfy { $0.hasPrefix("file:///") && !$0.contains(" ") })
  }

  @Test func specialFilesCostOnlyThemselves() throws {
    let instance = try Instance()
    try instance.write("regular plover.txt", "plover\n")
    #expect(mkfifo(instance.path("fifo plover"), 0o644) == 0)
    #expect(symlink(instance.path("loop-b"), instance.path("loop-a")) == 0)
    #expect(symlink(instance.path("loop-a"), instance.path("loop-b")) == 0)
    #expect(symlink(instance.home, instance.path("self-link plover")) == 0)
    try instance.indexOnce()
    let found = Set(try instance.findPaths("plover"))
    #expect(found == ["regular plover.txt", "fifo plover", "self-link plover"])
  }
}
