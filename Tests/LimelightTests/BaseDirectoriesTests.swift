import Foundation
import LimelightPlatform
import LimelightQueryClient
import Testing

@testable import LimelightApplications
@testable import LimelightModel

/// The XDG Base Directory specification's rules, read once for every part.
@Suite struct BaseDirectoriesTests {
  let nobody: () -> String? = { nil }

  @Test func defaultsWhenUnset() {
    let base = BaseDirectories(environment: ["HOME": "/home/me"], passwordHome: nobody)
    #expect(base.home == "/home/me")
    #expect(base.dataHome == "/home/me/.local/share")
    #expect(base.configHome == "/home/me/.config")
    #expect(base.cacheHome == "/home/me/.cache")
    #expect(base.runtimeDirectory == nil)
    #expect(base.dataDirectories == ["/usr/local/share", "/usr/share"])
    #expect(base.configDirectories == ["/etc/xdg"])
    #expect(base.everyDataDirectory == ["/home/me/.local/share", "/usr/local/share", "/usr/share"])
  }

  @Test func emptyOrRelativeValuesAreUnset() {
    let environment = [
      "HOME": "/home/me/", "XDG_DATA_HOME": "", "XDG_CONFIG_HOME": "relative/config",
      "XDG_CACHE_HOME": "", "XDG_RUNTIME_DIR": "", "XDG_DATA_DIRS": "",
      "XDG_CONFIG_DIRS": "relative:also/relative",
    ]
    let base = BaseDirectories(environment: environment, passwordHome: nobody)
    #expect(base == BaseDirectories(environment: ["HOME": "/home/me"], passwordHome: nobody))
  }

  @Test func listsKeepTheirOrderAndDropRelativeEntries() {
    let base = BaseDirectories(
      environment: [
        "HOME": "/h", "XDG_DATA_DIRS": "/opt/share/::share:/usr/share",
        "XDG_CONFIG_DIRS": "/etc/mine:/etc/xdg", "XDG_RUNTIME_DIR": "/run/user/1000",
        "XDG_DATA_HOME": "/data/",
      ], passwordHome: nobody)
    #expect(base.dataDirectories == ["/opt/share", "/usr/share"])
    #expect(base.configDirectories == ["/etc/mine", "/etc/xdg"])
    #expect(base.runtimeDirectory == "/run/user/1000")
    #expect(base.dataHome == "/data")
  }

  @Test func homeFromThePasswordDatabaseThenTheRoot() {
    let fromPassword = BaseDirectories(environment: ["HOME": "relative"]) { "/var/lib/me" }
    #expect(fromPassword.dataHome == "/var/lib/me/.local/share")
    let none = BaseDirectories(environment: [:], passwordHome: nobody)
    #expect(none.home == "/")
    #expect(none.configHome == "/.config")
  }

  @Test func everyReaderAgrees() {
    let environment = [
      "HOME": "/home/me", "XDG_DATA_HOME": "", "XDG_DATA_DIRS": "/opt/share:",
      "XDG_CONFIG_DIRS": "",
    ]
    let location = IndexLocation.fromEnvironment(environment)
    #expect(location.dataDirectory == RawPath("/home/me/.local/share/limelight"))
    #expect(location.runtimeDirectory == RawPath("/home/me/.local/share/limelight/run"))
    #expect(
      location.systemConfigDirectories == [
        RawPath("/etc/xdg/limelight"), RawPath("/etc/limelight"),
      ])
    // The query client finds the service's socket where the watcher puts it.
    #expect(
      QueryServiceWire.socketPath(environment: { environment[$0] })
        == location.runtimeDirectory.appending(QueryServiceWire.socketName).string)
    let withRuntime = environment.merging(["XDG_RUNTIME_DIR": "/run/user/7"]) { $1 }
    #expect(
      QueryServiceWire.socketPath(environment: { withRuntime[$0] })
        == IndexLocation.fromEnvironment(withRuntime).runtimeDirectory
        .appending(QueryServiceWire.socketName).string)
    // Launchers and MIME types are looked for in the user's data folder by default.
    let folders = ApplicationFolders(configuration: .defaults, location: location)
    #expect(
      folders.folders == [
        RawPath("/home/me/.local/share/applications"), RawPath("/opt/share/applications"),
      ])
  }

  @Test func userMIMETypesAreReadWithoutTheVariable() throws {
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("limelight-mime-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let mime = home.appendingPathComponent(".local/share/mime")
    try FileManager.default.createDirectory(at: mime, withIntermediateDirectories: true)
    try "50:application/x-limelight-test:*.lltest\n".write(
      to: mime.appendingPathComponent("globs2"), atomically: true, encoding: .utf8)
    let database = MIMEDatabase(environment: ["HOME": home.path])
    #expect(database.type(forFileName: "report.lltest") == "application/x-limelight-test")
  }
}
