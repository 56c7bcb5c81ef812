import LimelightModel
import LimelightPlatform

/// Third-party importers, registered by descriptors named `NAME.importer` in
/// `importers.d/` folders (the system's first, then the user's, which wins for
/// the same name):
///
/// ```
/// [Limelight Importer]
/// MimeType=application/x-example;text/x-example;
/// Exec=/usr/lib/example/example-to-limelight --json
/// Timeout=10
/// ```
///
/// `Exec` is an argument vector; the file's path is added as the last
/// argument. See limelight-importers(7).
public enum ImporterDescriptors {
  public static let group = "Limelight Importer"
  public static let defaultTimeout = 10.0
  public static let longestTimeout = 300.0

  /// One descriptor that could not be used, and why.
  public typealias Problem = DescriptorProblem

  /// The importers of the descriptors in these folders, later folders
  /// overriding earlier ones by file name, and the descriptors that are wrong.
  public static func load(from folders: [RawPath]) -> ([ProgramImporter], [Problem]) {
    var importers: [ProgramImporter] = []
    var problems: [Problem] = []
    for (path, file) in KeyFile.files(endingIn: ".importer", in: folders) {
      switch parse(file) {
      case .success(let importer): importers.append(importer)
      case .failure(let problem): problems.append(Problem(path: path, reason: problem.reason))
      }
    }
    return (importers, problems)
  }

  struct Invalid: Error {
    var reason: String
  }

  static func parse(_ file: KeyFile) -> Result<ProgramImporter, Invalid> {
    guard file.groups[group] != nil else { return .failure(Invalid(reason: "no [\(group)] group")) }
    let types = file.list(group, "MimeType")
    guard !types.isEmpty else { return .failure(Invalid(reason: "no MimeType")) }
    guard let exec = file[group, "Exec"], let command = KeyFile.arguments(of: exec),
      !command.isEmpty
    else { return .failure(Invalid(reason: "no Exec, or an unterminated quote in it")) }
    var timeout = defaultTimeout
    if let text = file[group, "Timeout"] {
      guard let seconds = Double(text), seconds > 0, seconds <= longestTimeout else {
        return .failure(
          Invalid(reason: "Timeout must be a number of seconds from 1 to \(Int(longestTimeout))"))
      }
      timeout = seconds
    }
    return .success(ProgramImporter(contentTypes: types, command: command, timeLimit: timeout))
  }
}
