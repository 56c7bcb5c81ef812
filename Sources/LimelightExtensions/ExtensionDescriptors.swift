import LimelightModel
import LimelightPlatform

/// A reindex extension (the `CSIndexExtensionRequestHandler` of Limelight): a
/// program an application registers for its domain, which the watcher runs
/// to print that domain's items again. See limelight-extensions(7).
public struct ReindexExtension: Sendable, Equatable {
  /// The descriptor's file name without `.extension`.
  public var name: String
  /// The descriptor file.
  public var descriptor: RawPath
  /// The domain it answers for, with every domain under it.
  public var domain: String
  /// `Exec`: the program and its first arguments.
  public var command: [String]
  /// Seconds a run may take.
  public var timeLimit: Double

  /// Whether a request for `requested` concerns this extension (one domain
  /// holds the other).
  public func answers(for requested: String) -> Bool {
    LimelightModel.domain(requested, isWithin: domain)
      || LimelightModel.domain(domain, isWithin: requested)
  }
}

/// Reads the descriptors named `NAME.extension` in `extensions.d/` folders
/// (the system's first; the user's win for the same name):
///
/// ```
/// [Limelight Extension]
/// Domain=com.example.colleagues
/// Exec=/usr/libexec/colleagues/index-for-limelight
/// Timeout=60
/// ```
public enum ExtensionDescriptors {
  public static let group = "Limelight Extension"
  public static let defaultTimeout = 60.0
  public static let longestTimeout = 3600.0

  /// One descriptor that could not be used, and why.
  public typealias Problem = DescriptorProblem

  /// The extensions of the descriptors in these folders and the descriptors
  /// that are wrong. Two descriptors for one domain: the later (by folder,
  /// then name) is a problem and is left out.
  public static func load(from folders: [RawPath]) -> ([ReindexExtension], [Problem]) {
    var extensions: [ReindexExtension] = []
    var problems: [Problem] = []
    for (path, read) in KeyFile.readFiles(endingIn: ".extension", in: folders) {
      let name = String(path.lastComponent.string.dropLast(".extension".count))
      let file: KeyFile
      switch read {
      case .success(let whole): file = whole
      case .failure(let error):
        problems.append(Problem(path: path, reason: error.description))
        continue
      }
      switch parse(file, name: name, path: path) {
      case .success(let found):
        if let other = extensions.first(where: { $0.domain == found.domain }) {
          problems.append(
            Problem(
              path: path,
              reason: "\(found.domain) is already served by \(other.descriptor.string)"))
        } else {
          extensions.append(found)
        }
      case .failure(let problem): problems.append(Problem(path: path, reason: problem.reason))
      }
    }
    return (extensions, problems)
  }

  struct Invalid: Error {
    var reason: String
  }

  static func parse(_ file: KeyFile, name: String, path: RawPath) -> Result<
    ReindexExtension, Invalid
  > {
    guard file.groups[group] != nil else { return .failure(Invalid(reason: "no [\(group)] group")) }
    guard let domain = file[group, "Domain"], !domain.isEmpty else {
      return .failure(Invalid(reason: "no Domain"))
    }
    do { try ItemLine.validate(domain: domain) } catch {
      return .failure(Invalid(reason: error.description))
    }
    guard let exec = file[group, "Exec"], let command = KeyFile.arguments(of: exec),
      !command.isEmpty
    else { return .failure(Invalid(reason: "no Exec, or an unterminated quote in it")) }
    var timeout = defaultTimeout
    if let text = file[group, "Timeout"] {
      guard let seconds = Double(text), seconds >= 1, seconds <= longestTimeout else {
        return .failure(
          Invalid(reason: "Timeout must be a number of seconds from 1 to \(Int(longestTimeout))"))
      }
      timeout = seconds
    }
    return .success(
      ReindexExtension(
        name: name, descriptor: path, domain: domain, command: command, timeLimit: timeout))
  }
}
