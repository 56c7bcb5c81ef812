import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Permissions that change under a running watcher, which is bound by them
/// as its user is (root's override is dropped for it when the tests run as
/// root): what it could not read is read once it may, what it may no
/// longer read keeps its item and says why.
@Suite struct PermissionTests {
  /// Whether permissions bind the watcher: they do for a user; root needs
  /// its override dropped, which `setpriv` does where the container lets it.
  static let permissionsBind: Bool = {
    guard geteuid() == 0 else { return true }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    process.arguments = ["--bounding-set", "-dac_override,-dac_read_search", "--", "/bin/true"]
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }()

  @Test(
    .enabled(
      if: PermissionTests.permissionsBind,
      "root whose override of permissions cannot be dropped (setpriv) reads everything"))
  func permissionsTakenAwayAndGivenBackAreSeen() throws {
    let instance = try Instance()
    try instance.write("open/notes.txt", "quokka habitats")
    try instance.write("locked/inside.txt", "wombat burrows")
    try instance.write("private.txt", "numbat termites")
    try instance.write("later.txt", "bilby burrows")
    #expect(chmod(instance.path("locked"), 0o000) == 0)
    #expect(chmod(instance.path("private.txt"), 0o000) == 0)
    // The temporary folder goes at the end whatever happens.
    defer { chmod(instance.path("locked"), 0o755) }
    try instance.startWatcher(boundByPermissions: true)

    // What cannot be read is reported; the rest is indexed, the unreadable
    // file by its name.
    #expect(try instance.findPaths("quokka") == ["open/notes.txt"])
    #expect(try instance.findPaths("private") == ["private.txt"])
    #expect(try instance.findPaths("numbat").isEmpty)
    #expect(try instance.findPaths("wombat").isEmpty)
    let failures = try instance.run("limelight", ["status", "--json"]).stdout
    #expect(failures.contains("\"failures\":2"), "\(failures)")

    // Given back: read at once, the folder crawled and watched from then on.
    #expect(chmod(instance.path("locked"), 0o755) == 0)
    #expect(chmod(instance.path("private.txt"), 0o644) == 0)
    try instance.waitForPaths(["wombat"], ["locked/inside.txt"])
    try instance.waitForPaths(["numbat"], ["private.txt"])
    try instance.write("locked/new.txt", "echidna")
    try instance.waitForPaths(["echidna"], ["locked/new.txt"])
    try instance.waitFor("no failure left") {
      try instance.run("limelight", ["status", "--json"]).stdout.contains("\"failures\":0")
    }

    // Taken away: the file keeps its item and its words, and says why.
    #expect(chmod(instance.path("later.txt"), 0o000) == 0)
    try instance.waitFor("later.txt to say it cannot be read") {
      try instance.run("limelight", ["show", instance.path("later.txt")]).stdout
        .contains("Permission denied")
    }
    #expect(try instance.findPaths("bilby") == ["later.txt"])
    try instance.expectIndexMatchesDisk()
    #expect(instance.stopWatcher() == 0)
  }
}
