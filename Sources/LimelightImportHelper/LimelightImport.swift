import ArgumentParser
import Foundation
import LimelightCLI
import LimelightContainedImport
import LimelightImport
import LimelightModel

#if canImport(Glibc)
  import Glibc
#endif

/// `limelight-import`: reads one file with the importers built on C libraries
/// (PDF, audio, archives) and prints its attributes as one JSON object. The
/// watcher runs it once per such file, so that a crash or a hang in a library
/// costs that file alone; it also shows what Limelight reads from a file.
@main
struct LimelightImportHelper: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "limelight-import",
    abstract: "Print the attributes Limelight reads from a file, as JSON.",
    discussion: """
      Without --type, the content type is found as the watcher finds it. The
      watcher runs this program for PDF, audio and archive files, with
      LIMELIGHT_CONTENT_TYPE and LIMELIGHT_MAX_TEXT_BYTES set, within a time
      and memory limit. Exit status: 0 with the attributes printed, 1 when the
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

  @Argument(help: "The file to read.")
  var file: String

  func validate() throws {
    if (thumbnail == nil) != (output == nil) {
      throw ValidationError("--thumbnail and --output go together")
    }
    if let thumbnail, thumbnail < 1 || thumbnail > 4096 {
      throw ValidationError("--thumbnail is a size from 1 to 4096 pixels")
    }
  }

  func run() throws {
    if let thumbnail, let output {
      let path = RawPath.absolute(file)
      let head = (try? FileSystem.readPrefix(path, limit: 5)) ?? []
      do {
        try ThumbnailDrawing.draw(
          input: path, output: RawPath.absolute(output), size: thumbnail,
          contentType: head == Array("%PDF-".utf8) ? "application/pdf" : "image/*")
      } catch { throw CommandFailure("\(file): \(error.description)", status: 1) }
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
      contained: [PDFImporter(), AudioImporter(), ArchiveImporter(), VideoImporter()])
    let given = type ?? environment["LIMELIGHT_CONTENT_TYPE"].flatMap { $0.isEmpty ? nil : $0 }
    let record = importer.record(
      for: path, status: status, hidden: false, contentType: given.map { mime.ancestors(of: $0) })
    if let failure = record.extractionError {
      throw CommandFailure("\(file): \(failure)", status: 1)
    }
    var object = AttributeJSON.contentObject(of: record.attributes)
    if type == nil && environment["LIMELIGHT_CONTENT_TYPE"] == nil {
      object["contentType"] = record.attributes.contentType
    }
    let data = try JSONSerialization.data(
      withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    writeAll(Array(data) + [10], to: STDOUT_FILENO)
  }

  static func main() { mainWithStatus() }
}
