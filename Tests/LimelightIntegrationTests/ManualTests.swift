import Foundation
import LimelightModel
import LimelightQuery
import Testing

/// The man pages are part of the product: they render cleanly, and every
/// option that `--help` lists is documented.
@Suite struct ManualTests {
  static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  @Test func everyPageRendersWithoutWarnings() throws {
    let pages = try FileManager.default.subpathsOfDirectory(atPath: Self.sources + "/man")
      .filter { $0.range(of: #"\.[1-8]$"#, options: .regularExpression) != nil }
    #expect(pages.count >= 9)
    for page in pages {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
      process.arguments = ["-man", "-Tutf8", "-ww", "-z", Self.sources + "/man/" + page]
      let errors = Pipe()
      process.standardError = errors
      try process.run()
      let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == 0 && said.isEmpty, "\(page): \(said)")
    }
  }

  @Test(arguments: [
    ("find-in-direct", ["--help"], "man1/find-in.1"),
    ("limelightd", ["--help"], "man8/limelightd.8"),
    ("reindex-request", ["--help"], "man1/reindex-request.1"),
    ("limelight-import", ["--help"], "man1/limelight-import.1"),
    ("limelight", ["status", "--help"], "man1/limelight.1"),
    ("limelight", ["show", "--help"], "man1/limelight.1"),
    ("limelight", ["erase", "--help"], "man1/limelight.1"),
    ("limelight", ["index", "--help"], "man1/limelight.1"),
    ("limelight", ["delete", "--help"], "man1/limelight.1"),
    ("limelight", ["client-state", "--help"], "man1/limelight.1"),
    ("limelight", ["extensions", "--help"], "man1/limelight.1"),
    ("limelight-search-provider", ["--help"], "man1/limelight-search-provider.1"),
  ])
  func everyOptionOfTheHelpIsInTheManual(tool: String, arguments: [String], page: String) throws {
    let instance = try Instance()
    let help = try instance.run(tool, arguments).stdout
    let manual = try String(contentsOfFile: Self.sources + "/man/" + page, encoding: .utf8)
    let options = Set(
      help.matches(of: /--[a-z][a-z0-9-]*/).map { String($0.output) }
        .filter { $0 != "--help" && $0 != "--version" })
    #expect(!options.isEmpty, "\(tool) \(arguments)")
    // The completions are generated from the same definitions as the help;
    // this checks that every option reaches each shell's script.
    for shell in ["bash", "zsh", "fish"] {
      let script = try instance.run(tool, ["--generate-completion-script", shell]).stdout
      for option in options {
        let name = option.dropFirst(2)
        #expect(script.contains(String(name)), "\(shell) completion of \(tool) misses \(option)")
      }
    }
    for option in options {
      let escaped = option.replacingOccurrences(of: "-", with: "\\-")
      #expect(manual.contains(escaped), "\(page) does not document \(option) of \(tool)")
    }
    // And the other way: every option the page's OPTIONS section documents
    // is one the command has (limelight(1) documents several commands).
    guard page != "man1/limelight.1" else { return }
    let section = manual.components(separatedBy: "\n.SH ").first { $0.hasPrefix("OPTIONS") } ?? ""
    let documented = Set(
      section.replacingOccurrences(of: "\\-", with: "-").matches(of: /--[a-z][a-z0-9-]*/)
        .map { String($0.output) })
    #expect(!documented.isEmpty, "\(page) has no OPTIONS")
    for option in documented.subtracting(["--help", "--version"]) {
      #expect(options.contains(option), "\(page) documents \(option), which \(tool) does not have")
    }
  }

  @Test func findInCompletesFiltersAndTheirValues() throws {
    let instance = try Instance()
    let bash = try instance.run("find-in", ["--generate-completion-script", "bash"]).stdout
    for word in ["kind:pdf", "kind:spreadsheet", "ext:", "in:", "modified:today"] {
      #expect(bash.contains(word), "\(word)")
    }
    #expect(bash.contains("--interactive"))
  }

  /// The kinds and filters that find-in(1) and README.md list by hand are
  /// the ones the code defines, in its order.
  @Test func theManualAndReadmeListTheKindsAndFiltersTheCodeHas() throws {
    let manual = try String(contentsOfFile: Self.sources + "/man/man1/find-in.1", encoding: .utf8)
    let kindParagraph = try #require(
      manual.components(separatedBy: ".BI kind: kind\n").dropFirst().first?
        .components(separatedBy: "\n.TP").first)
    let listed = kindParagraph.matches(of: /\.BR? ([a-z]+)/).map { String($0.output.1) }
    #expect(listed == KindClass.allCases.map(\.rawValue))
    for name in QueryParser.filterNames {
      #expect(manual.contains(".BI \(name):"), "find-in(1) does not document \(name):")
    }
    let readme = try String(contentsOfFile: Self.sources + "/README.md", encoding: .utf8)
      .replacingOccurrences(of: "\n", with: " ")
    let kinds = KindClass.allCases.map(\.rawValue).joined(separator: ", ")
    #expect(readme.contains("`kind:` (\(kinds))"), "README.md's kinds are not \(kinds)")
  }
}
