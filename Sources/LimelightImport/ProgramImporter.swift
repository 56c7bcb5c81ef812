import Foundation
import LimelightModel
import LimelightSubprocess

/// An importer that is a separate program: Limelight's own helper for the
/// formats read by C libraries (a crash there must not take the watcher
/// down), or a third party's, registered by a descriptor. It is run with the
/// file's path as its last argument, within a time limit, an output cap and a
/// memory cap, and prints one JSON object of attributes (see
/// limelight-importers(7)); any other outcome is the file's import failure.
public struct ProgramImporter: ContentImporter {
  public var contentTypes: [String]
  /// The program and its first arguments; the file's path is appended.
  public var command: [String]
  public var timeLimit: Double
  public var memoryLimit: UInt64

  public init(
    contentTypes: [String], command: [String], timeLimit: Double = 10,
    memoryLimit: UInt64 = 1 << 30
  ) {
    self.contentTypes = contentTypes
    self.command = command
    self.timeLimit = timeLimit
    self.memoryLimit = memoryLimit
  }

  public func importContent(_ request: ImportRequest, into attributes: inout AttributeSet) throws {
    var environment = ChildProcess.cleanEnvironment
    environment["LIMELIGHT_CONTENT_TYPE"] = request.contentTypeTree.first ?? ""
    environment["LIMELIGHT_MAX_TEXT_BYTES"] = String(request.limits.maxTextBytes)
    let child = ChildProcess(
      arguments: command.map { Array($0.utf8) } + [request.path.bytes], environment: environment,
      timeLimit: timeLimit,
      // The text, and room for the other attributes and JSON escapes.
      outputLimit: request.limits.maxTextBytes * 2 + (1 << 20), memoryLimit: memoryLimit)
    let outcome: ChildProcess.Outcome
    do { outcome = try child.run() } catch { throw ImportFailure.malformed("\(error)") }
    let name = (command.first ?? "").split(separator: "/").last.map(String.init) ?? ""
    if let failure = outcome.failure { throw ImportFailure.program(name, failure) }
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(outcome.output))
        as? [String: Any]
    else { throw ImportFailure.program(name, "printed something other than a JSON object") }
    try Self.apply(object, to: &attributes, request: request, name: name)
  }

  /// Applies what an importer program printed: any attribute but what the
  /// file is and its name; text cut at the limit.
  static func apply(
    _ object: [String: Any], to attributes: inout AttributeSet, request: ImportRequest,
    name: String
  ) throws {
    var imported = attributes
    do { try AttributeJSON.apply(object, to: &imported) } catch {
      throw ImportFailure.program(name, "\(error)")
    }
    // What a program may not change: what the file is, and its name.
    imported.displayName = attributes.displayName
    imported.contentType = attributes.contentType
    imported.contentTypeTree = attributes.contentTypeTree
    imported.kind = attributes.kind
    imported.size = attributes.size
    imported.modified = attributes.modified
    imported.keywords =
      attributes.keywords
      + imported.keywords.filter {
        !attributes.keywords.contains($0)
      }
    if let text = imported.textContent {
      imported.textContent = String(
        decoding: text.utf8.prefix(request.limits.maxTextBytes), as: UTF8.self)
      if imported.contentDescription == nil {
        imported.contentDescription = AttributeSet.summary(of: text)
      }
    }
    attributes = imported
  }
}
