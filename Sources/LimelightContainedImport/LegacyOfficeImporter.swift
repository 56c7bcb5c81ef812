import Foundation
import LimelightImport
import LimelightModel
import LimelightSubprocess

/// Word, Excel and PowerPoint files of before 2007 (`.doc`, `.xls`, `.ppt`).
/// Their document properties (title, author, keywords, …) are read from the
/// compound file here, and so is a presentation's text. The text of Word and
/// Excel files comes from the Debian tools made for them: antiword for Word
/// 97 and later (catdoc for older ones, which antiword refuses) and xls2csv
/// (from catdoc). Each runs as a child of the helper, within the helper's
/// limits, with its output capped at the text limit.
public struct LegacyOfficeImporter: ContentImporter {
  public let contentTypes = HelperFormats.legacyOffice

  /// Seconds a tool may take on one file: less than the helper's own limit,
  /// so that the tool is stopped by its parent, not left behind by it.
  let timeLimit: Double

  public init(timeLimit: Double = 8) { self.timeLimit = timeLimit }

  /// How one tool is run on a file, and how it says it could not read it.
  struct Tool {
    var name: String
    var arguments: [String]
    /// Standard error that means failure, for tools that exit 0 anyway.
    var refusals: [String] = []
  }

  /// The tools for a type, in the order they are tried.
  static func tools(for type: String) -> [Tool] {
    switch type {
    case "application/msword":
      return [
        // UTF-8 out, paragraphs on one line each.
        Tool(name: "antiword", arguments: ["-m", "UTF-8.txt", "-w", "0"]),
        Tool(
          name: "catdoc", arguments: ["-d", "utf-8", "-w"],
          refusals: ["is not OLE file", "not a Word"]),
      ]
    case "application/vnd.ms-excel":
      // A cell a field, tab-separated, unquoted; sheets apart by a blank line.
      return [
        Tool(
          name: "xls2csv", arguments: ["-d", "utf-8", "-q", "0", "-c", "\t", "-b", "\n"],
          refusals: ["is not OLE file", "not an Excel"])
      ]
    default:
      return []
    }
  }

  public func importContent(_ request: ImportRequest, into attributes: inout AttributeSet) throws {
    let type =
      request.contentTypeTree.first { contentTypes.contains($0) } ?? "application/msword"
    // Word files older than 97 are no compound files; the tools still read them.
    let container = Result {
      try CompoundFile(request.contents(limit: request.limits.maxDocumentBytes))
    }
    if let summary = try? container.get().stream(SummaryInformation.streamName),
      let properties = SummaryInformation(summary)
    {
      properties.apply(to: &attributes)
    }
    if type == "application/vnd.ms-powerpoint" {
      // A presentation that is no compound file says why.
      try readPresentation(container.get(), request: request, into: &attributes)
      return
    }
    var failures: [String] = []
    for tool in Self.tools(for: type) {
      let outcome: ChildProcess.Outcome
      do {
        outcome = try ChildProcess(
          arguments: [Array(tool.name.utf8)] + tool.arguments.map { Array($0.utf8) } + [
            Array(request.path.bytes)
          ],
          timeLimit: timeLimit, outputLimit: request.limits.maxTextBytes, memoryLimit: 512 << 20
        ).run()
      } catch {
        failures.append("\(tool.name) could not be started (\(error.description))")
        continue
      }
      let said = String(decoding: outcome.errors, as: UTF8.self)
      if outcome.ending == .printedTooMuch
        || outcome.failure == nil
          && !tool.refusals.contains(where: said.contains)
      {
        // What was printed up to the cap is the text within the limit.
        let text = Self.cleaned(outcome.output, limit: request.limits.maxTextBytes)
        guard !text.isEmpty else { return }
        attributes.textContent = text
        if attributes.contentDescription == nil {
          attributes.contentDescription = AttributeSet.summary(of: text)
        }
        return
      }
      let reason =
        outcome.failure
        ?? said.split(whereSeparator: \.isNewline).last.map(String.init) ?? "refused it"
      failures.append("\(tool.name) \(reason)")
    }
    throw ImportFailure.malformed(failures.joined(separator: "; "))
  }

  /// A presentation's text and slide count, read from its records.
  func readPresentation(
    _ container: CompoundFile, request: ImportRequest, into attributes: inout AttributeSet
  ) throws {
    guard let stream = try container.stream(PowerPointText.streamName) else {
      throw ImportFailure.malformed("no PowerPoint Document stream")
    }
    let presentation = PowerPointText(stream, limit: request.limits.maxTextBytes)
    attributes.extra["pageCount"] = .number(Double(presentation.slides))
    guard !presentation.paragraphs.isEmpty else { return }
    let text = presentation.paragraphs.joined(separator: "\n")
    attributes.textContent = String(text.utf8.prefix(request.limits.maxTextBytes)) ?? text
    if attributes.contentDescription == nil {
      attributes.contentDescription = AttributeSet.summary(of: text)
    }
  }

  /// The text a tool printed: valid UTF-8 within `limit` bytes, without
  /// the blank lines and spaces it pads with.
  static func cleaned(_ output: [UInt8], limit: Int) -> String {
    let text = String(decoding: output.prefix(limit), as: UTF8.self)
    return text.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
      .joined(separator: "\n")
  }
}
