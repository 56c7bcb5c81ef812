import ArgumentParser
import Foundation
import LimelightContainedImport
import LimelightExit
import LimelightImport
import LimelightModel
import LimelightPlatform
import LimelightThumbnails

#if canImport(Glibc)
  import Glibc
#endif

/// `limelight-import`: reads one file with the importers built on C libraries
/// (PDF, audio, archives) and prints its attributes as one JSON object. The
/// watcher runs it (as `limelightd --import-helper`, see
/// ``HelperFormats/helperCommand()``) for such files, so that a crash or a hang
/// in a library costs that file alone; it also shows what Limelight reads from
/// a file.
public struct ImportCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "limelight-import",
    abstract: "Print the attributes Limelight reads from a file, as JSON.",
    discussion: """
      Without --type, the content type is found as the watcher finds it. The \
      watcher runs this program for PDF, audio, archive, compressed and legacy office files, with \
      LIMELIGHT_CONTENT_TYPE and LIMELIGHT_MAX_TEXT_BYTES set, within a time \
      and memory limit. Exit status: 0 with the attributes printed, 1 when the \
      file cannot be read, 2 on a usage error. See limelight-importers(7).
      """)

  @Option(name: .long, help: "The file's content type (default: found from its contents and name).")
  var type: String?

  @Option(name: .long, help: "The most bytes of text kept.")
  var maxTextBytes: Int?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Draw a thumbnail of at most this many pixels instead (with --output).", valueName: "size"))
  var thumbnail: Int?

  @Option(name: .long, help: ArgumentHelp("Where --thumbnail writes its PNG.", valueName: "png"))
  var output: String?

  @Flag(
    name: .long,
    help: "Answer the watcher's requests on standard input until it closes (no file then).")
  var serve = false

  @Argument(help: "The file to read.")
  var file: String?

  public init() {}

  public func validate() throws {
    if serve != (file == nil) {
      throw ValidationError(serve ? "--serve takes no file" : "give a file")
    }
    if (thumbnail == nil) != (output == nil) {
      throw ValidationError("--thumbnail and --output go together")
    }
    if let thumbnail, thumbnail < 1 || thumbnail > 4096 {
      throw ValidationError("--thumbnail is a size from 1 to 4096 pixels")
    }
  }

  public func run() throws {
    if serve { return Self.serveRequests() }
    guard let file else { return }
    if let thumbnail, let output {
      let path = RawPath.absolute(file)
      let head = (try? FileSystem.readPrefix(path, limit: 5)) ?? []
      do {
        try ThumbnailDrawing.draw(
          input: path, output: RawPath.absolute(output), size: thumbnail,
          contentType: head == Array("%PDF-".utf8) ? "application/pdf" : "image/*")
      } catch { throw CommandFailure("\(file): \(error.description)", status: ExitStatus.failed) }
      return
    }
    let environment = ProcessEnvironment.current
    let limit =
      maxTextBytes ?? environment["LIMELIGHT_MAX_TEXT_BYTES"].flatMap { Int($0) } ?? 8 << 20
    guard limit > 0 else { throw CommandFailure("--max-text-bytes must be more than 0") }
    let path = RawPath.absolute(file)
    guard let status = FileSystem.status(path), status.kind == .regular else {
      throw CommandFailure("\(file): not a readable regular file")
    }
    let mime = MIMEDatabase()
    let importer = FileImporter(
      mime: mime, maxTextBytes: limit,
      contained: ContainedImporters.all(mime: mime))
    let given = type ?? environment["LIMELIGHT_CONTENT_TYPE"].flatMap { $0.isEmpty ? nil : $0 }
    let record = importer.record(
      for: path, status: status, hidden: false, contentType: given.map { mime.ancestors(of: $0) })
    if let failure = record.extractionError {
      throw CommandFailure("\(file): \(failure)", status: ExitStatus.failed)
    }
    var object = AttributeJSON.contentObject(of: record.attributes)
    if type == nil && environment["LIMELIGHT_CONTENT_TYPE"] == nil {
      object["contentType"] = record.attributes.contentType
    }
    let data = try JSONSerialization.data(
      withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    writeAll(Array(data) + [10], to: STDOUT_FILENO)
  }

  /// The watcher's requests, one after another (see `HelperImporter`): the
  /// content type, the text limit and the path, each answered with `A` and
  /// the attributes or `F` and the reason, framed by a 4-byte length.
  static func serveRequests() {
    let mime = MIMEDatabase()
    var importers: [Int: FileImporter] = [:]
    var reader = LineReader(fd: STDIN_FILENO, separator: 0, limit: 1 << 16)
    while case .success(let bytes)? = reader.next() {
      guard let request = HelperWire.Request(encoded: bytes) else { return }
      let limit = request.textLimit
      let importer =
        importers[limit]
        ?? FileImporter(
          mime: mime, maxTextBytes: limit,
          contained: ContainedImporters.all(mime: mime))
      importers[limit] = importer
      let reply: HelperWire.Reply
      if let status = FileSystem.status(request.path), status.kind == .regular {
        let type = request.contentType
        let record = importer.record(
          for: request.path, status: status, hidden: false,
          contentType: type.isEmpty ? nil : mime.ancestors(of: type))
        if let failure = record.extractionError {
          reply = .failure(failure)
        } else {
          var attributes = record.attributes
          let text = attributes.textContent.map { Array($0.utf8) }
          attributes.textContent = nil
          let object = AttributeJSON.contentObject(of: attributes)
          let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
          reply = .attributes(Array(data), text: text)
        }
      } else {
        reply = .failure("not a readable regular file")
      }
      guard writeAll(reply.framed, to: STDOUT_FILENO) else { return }
    }
  }
}
