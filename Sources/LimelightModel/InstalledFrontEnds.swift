import LimelightPlatform

/// Where Limelight's front ends are installed for this user, as the desktop
/// would find them: the GNOME Shell search provider, the KRunner runner, the
/// D-Bus service that starts them, the systemd user unit and the shells'
/// completions (`scripts/install` puts them there).
public struct InstalledFrontEnds: Codable, Equatable, Sendable {
  /// The provider's `.ini`, found in `$XDG_DATA_DIRS` only (as GNOME Shell reads it).
  public var gnomeShell: String?
  public var krunner: String?
  public var dbusService: String?
  public var systemdUnit: String?
  /// The shells with completions for `find-in`: bash, zsh, fish.
  public var completions: [String] = []

  /// What the folders of the environment hold.
  public static func find(_ base: BaseDirectories) -> InstalledFrontEnds {
    let dataHome = base.dataHome
    let configHome = base.configHome
    let dataDirs = base.dataDirectories
    let everyData = base.everyDataDirectory
    func first(_ candidates: [String]) -> String? {
      candidates.first { FileSystem.status(RawPath($0)) != nil }
    }
    var found = InstalledFrontEnds()
    found.gnomeShell = first(
      dataDirs.map { $0 + "/gnome-shell/search-providers/org.limelight.SearchProvider.ini" })
    found.krunner = first(
      everyData.map { $0 + "/krunner/dbusplugins/org.limelight.KRunner.desktop" })
    found.dbusService = first(
      everyData.map { $0 + "/dbus-1/services/org.limelight.SearchProvider.service" })
    // systemd's user unit path: the user's, the administrator's, the packages'.
    let unitFolders =
      [configHome + "/systemd/user", dataHome + "/systemd/user", "/etc/systemd/user"]
      + dataDirs.map { String($0.dropLast("/share".count)) + "/lib/systemd/user" }
      + ["/usr/local/lib/systemd/user", "/usr/lib/systemd/user"]
    found.systemdUnit = first(unitFolders.map { $0 + "/limelightd.service" })
    let shells: [(String, [String])] = [
      ("bash", everyData.map { $0 + "/bash-completion/completions/find-in" }),
      (
        "zsh",
        everyData.flatMap {
          [$0 + "/zsh/site-functions/_find-in", $0 + "/zsh/vendor-completions/_find-in"]
        }
      ),
      ("fish", everyData.map { $0 + "/fish/vendor_completions.d/find-in.fish" }),
    ]
    found.completions = shells.filter { first($0.1) != nil }.map(\.0)
    return found
  }

  /// One line for `limelight status`.
  public var summary: String {
    var parts: [String] = []
    if gnomeShell != nil { parts.append("GNOME Shell search") }
    if krunner != nil { parts.append("KRunner") }
    if (gnomeShell != nil || krunner != nil) && dbusService == nil {
      parts.append("(no D-Bus service file: the providers cannot start)")
    }
    if systemdUnit != nil { parts.append("systemd user unit") }
    if !completions.isEmpty {
      parts.append("completions for " + completions.joined(separator: ", "))
    }
    return parts.isEmpty ? "none installed (see scripts/install)" : parts.joined(separator: ", ")
  }
}
