import Foundation
import LimelightModel
import LimelightPlatform
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `find-in` against an index built by `limelightd --once`: what a user sees.
@Suite struct FindInTests {
  let instance: Instance

  init() throws {
    instance = try Instance()
    try instance.write("Documents/notes.txt", "The quick brown fox visits the Café du Monde.\n")
    try instance.write("Documents/README.md", "# Holiday Plans\n\nVisit the lighthouse at dawn.\n")
    try instance.write("Documents/report-2024.csv", "region,total\nnorth,12\n")
    try instance.write("Code/main.py", "def lighthouse_keeper():\n    return 42\n")
    try instance.write("Code/fooBar.swift", "let answer = 42\n")
    try instance.write(".secret/hidden.txt", "lighthouse in a hidden folder\n")
    try instance.write("Music/.noindex", "")
    try instance.write("Music/song-lyrics.txt", "lighthouse song\n")
    try instance.write("node_modules/pkg/index.js", "lighthouse module\n")
    try instance.indexOnce()
  }

  @Test func findsByNamePrefixAndText() throws {
    #expect(try instance.findPaths("note") == ["Documents/notes.txt"])
    #expect(try instance.findPaths("quick", "brown") == ["Documents/notes.txt"])
    #expect(try instance.findPaths("holiday") == ["Documents/README.md"])
    // Case and accents do not matter, either way round.
    #expect(try instance.findPaths("CAFE") == ["Documents/notes.txt"])
    #expect(try instance.findPaths("café") == ["Documents/notes.txt"])
    // Path components are searchable.
    #expect(Set(try instance.findPaths("documents", "report")) == ["Documents/report-2024.csv"])
    // camelCase parts of names.
    #expect(try instance.findPaths("bar") == ["Code/fooBar.swift"])
  }

  @Test func typosAreForgivenButRankNothingDown() throws {
    #expect(try instance.findPaths("qiuck") == ["Documents/notes.txt"])  // transposed
    #expect(try instance.findPaths("holday") == ["Documents/README.md"])  // a letter missing
    #expect(Set(try instance.findPaths("lighthuoes")) == ["Documents/README.md", "Code/main.py"])
    // Three letters: too short to guess at.
    #expect(try instance.findPaths("foz").isEmpty)
    // A word that matches is never widened to its neighbours.
    #expect(try instance.findPaths("fox") == ["Documents/notes.txt"])
  }

  @Test func theNearerTypoIsTheOneMeant() throws {
    try instance.write("Notes/SpeicherDerVirtuellenKonsolen.txt", "")
    try instance.write("Notes/Virtuelles Gerät.txt", "")
    try instance.indexOnce()
    // One edit from "virtuellen", two from "virtuelles"; and the other way.
    #expect(try instance.findPaths("virtuellne") == ["Notes/SpeicherDerVirtuellenKonsolen.txt"])
    #expect(try instance.findPaths("virtuellns") == ["Notes/Virtuelles Gerät.txt"])
  }

  @Test func chineseAndJapaneseBySubstringAndRomanisation() throws {
    try instance.write("Films/星球大战.txt", "こんにちは、東京タワーの上から\n")
    try instance.indexOnce()
    let film = ["Films/星球大战.txt"]
    for query in ["星球", "球大", "大战", "xingqiu", "qiu", "こんにちは", "にちは", "東京", "konnichiha", "tawa"] {
      #expect(try instance.findPaths(query) == film, "\(query)")
    }
    #expect(try instance.findPaths("球星").isEmpty)
    // Words in other alphabets by their Latin spelling; a name from any syllable on.
    try instance.write("Trips/Москва.txt", "")
    try instance.write("Trips/Ελλάδα.txt", "")
    try instance.write("Docs/中文文档说明.txt", "")
    try instance.indexOnce()
    #expect(try instance.findPaths("moskva") == ["Trips/Москва.txt"])
    #expect(try instance.findPaths("ellada") == ["Trips/Ελλάδα.txt"])
    #expect(try instance.findPaths("wendang") == ["Docs/中文文档说明.txt"])
  }

  @Test func japaneseNamesByTheirJapaneseReading() throws {
    // Kanji beside kana are Japanese; kanji alone, in a name, both; the
    // text's kanji, without kana, Chinese (its readings find the note, not
    // the forecast).
    let notes = ["天気予報を見る.txt", "天気.txt", "コンピュータ入門.md", "東京の地図.txt"]
    for name in notes { try instance.write("Notes/" + name, "") }
    try instance.write("Notes/forecast.txt", "天気")
    try instance.indexOnce()
    let weather = ["Notes/天気.txt", "Notes/天気予報を見る.txt"]
    #expect(Set(try instance.findPaths("tenki")) == Set(weather))
    #expect(try instance.findPaths("tenkiyohou") == ["Notes/天気予報を見る.txt"])
    #expect(try instance.findPaths("yoho") == ["Notes/天気予報を見る.txt"])
    #expect(try instance.findPaths("konpyuta") == ["Notes/コンピュータ入門.md"])
    #expect(try instance.findPaths("nyumon") == ["Notes/コンピュータ入門.md"])
    #expect(try instance.findPaths("toukyou") == ["Notes/東京の地図.txt"])
    #expect(try instance.findPaths("tokyo") == ["Notes/東京の地図.txt"])
    #expect(try instance.findPaths("tianqi").first == "Notes/天気.txt")
  }

  @Test func initialsOfNames() throws {
    try instance.write("Pictures/Natural Bridges State Park.jpg", "")
    try instance.indexOnce()
    #expect(try instance.findPaths("nbsp") == ["Pictures/Natural Bridges State Park.jpg"])
    #expect(
      try instance.findPaths("natural", "park") == ["Pictures/Natural Bridges State Park.jpg"])
  }

  @Test func skipsHiddenExcludedAndMarkedFolders() throws {
    let found = Set(try instance.findPaths("lighthouse"))
    #expect(found == ["Documents/README.md", "Code/main.py"])
  }

  @Test func namesRankBeforeContent() throws {
    try instance.write("lighthouse.txt", "nothing else\n")
    try instance.indexOnce()
    #expect(try instance.findPaths("lighthouse").first == "lighthouse.txt")
  }

  /// Where it matched (name, keywords, path, text), then how (a whole word before
  /// a prefix), then the shorter name (without its extension; a file before a
  /// folder of the same name), then shallow before deep.
  @Test func rankingOrderOnFixedFixtures() throws {
    let ranked = try Instance()
    try ranked.config("index-hidden = yes\n")
    try ranked.write("Beacon/notes.txt", "beacon in the text only\n")
    try ranked.write("Deep/er/still/beacon.txt", "")
    try ranked.write("beacon.txt", "")
    try ranked.write("beaconing-station.txt", "")
    try ranked.write("beacon and a much longer name.txt", "")
    try ranked.write("titled.md", "# Beacon\n")
    try ranked.write("text.txt", "a beacon on the hill, beacon beacon\n")
    try ranked.write(".beacon-hidden.txt", "")
    try ranked.indexOnce()
    let order = try ranked.findPaths("beacon")
    #expect(
      order == [
        "beacon.txt", "Deep/er/still/beacon.txt", "Beacon", "beacon and a much longer name.txt",
        "beaconing-station.txt", "titled.md", "Beacon/notes.txt", "text.txt",
        ".beacon-hidden.txt",
      ])
    // The same query twice gives the same order.
    #expect(try ranked.findPaths("beacon") == order)
  }

  @Test func typosAndAbbreviationsOfNames() throws {
    let names = try Instance()
    try names.write("Documents/README.md", "")
    try names.write("Photos/Yellowstone-summer.jpg", "")
    try names.write("Photos/Yosemite.jpg", "")
    try names.write("Notes/content.txt", "")
    try names.write("Notes/constant.txt", "")
    try names.indexOnce()
    // One edit in a word of six letters, never two.
    #expect(try names.findPaths("contnt") == ["Notes/content.txt"])
    #expect(try names.findPaths("rdme") == ["Documents/README.md"])
    #expect(try names.findPaths("yelowstnoe") == ["Photos/Yellowstone-summer.jpg"])  // two edits
    #expect(try names.findPaths("yosmite") == ["Photos/Yosemite.jpg"])  // one edit
    #expect(try names.findPaths("ysmt").isEmpty)  // three letters left out is too many
    // A word that only begins words of texts is still a name's typo or
    // abbreviation, first; a word a text holds whole is taken as typed.
    try names.write("Notes/field log.txt", "the yosmiteland ranger and the rdmes")
    try names.write("Notes/other log.txt", "contnt as written")
    try names.indexOnce()
    #expect(
      try names.findPaths("yosmit") == ["Photos/Yosemite.jpg", "Notes/field log.txt"])
    #expect(try names.findPaths("rdme") == ["Documents/README.md", "Notes/field log.txt"])
    #expect(try names.findPaths("contnt") == ["Notes/other log.txt"])
  }

  @Test func exitStatusTellsWhetherAnythingMatched() throws {
    #expect(try instance.run("find-in", ["fox"]).status == 0)
    let none = try instance.run("find-in", ["zyzzyva"])
    #expect(none.status == 1)
    #expect(none.stdout.isEmpty)
    let empty = try instance.run("find-in", [])
    #expect(empty.status == 2)
    #expect(empty.stderr.contains("empty"))
  }

  @Test func filters() throws {
    #expect(try instance.findPaths("kind:code").sorted() == ["Code/fooBar.swift", "Code/main.py"])
    #expect(try instance.findPaths("ext:md") == ["Documents/README.md"])
    #expect(try instance.findPaths("ext:.CSV") == ["Documents/report-2024.csv"])
    #expect(
      try instance.findPaths("42", "in:Code").sorted() == ["Code/fooBar.swift", "Code/main.py"])
    #expect(try instance.findPaths("42", "in:\(instance.home)/Code", "ext:py") == ["Code/main.py"])
    #expect(try instance.run("find-in", ["--in", "Documents", "visit"]).lines.count == 2)
    #expect(try instance.findPaths("kind:folder", "code") == ["Code"])
    #expect(try instance.findPaths("type:text/markdown") == ["Documents/README.md"])
    #expect(try instance.findPaths("type:text/*", "fox") == ["Documents/notes.txt"])
  }

  @Test func sizeAndDateFilters() throws {
    try instance.write("big.bin", String(repeating: "x", count: 5000))
    let old = instance.path("Documents/report-2024.csv")
    var times = [
      timespec(tv_sec: 1_704_110_400, tv_nsec: 0), timespec(tv_sec: 1_704_110_400, tv_nsec: 0),
    ]  // 2024-01-01 12:00 UTC
    #expect(utimensat(AT_FDCWD, old, &times, 0) == 0)
    try instance.indexOnce()
    #expect(try instance.findPaths("size:>4k") == ["big.bin"])
    #expect(try instance.findPaths("size:4k..5k") == ["big.bin"])
    #expect(try instance.findPaths("report", "modified:2024") == ["Documents/report-2024.csv"])
    #expect(
      try instance.findPaths("report", "modified:<2025-01-01") == ["Documents/report-2024.csv"])
    #expect(try instance.findPaths("report", "modified:today").isEmpty)
    #expect(try instance.findPaths("notes", "modified:today") == ["Documents/notes.txt"])
    #expect(try instance.findPaths("notes", "modified:week") == ["Documents/notes.txt"])
    let bad = try instance.run("find-in", ["notes", "modified:someday"])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("modified:someday"))
  }

  @Test func openRecordsTheUseAndLiftsTheItem() throws {
    // A stand-in xdg-open that notes what it was asked to open.
    let bin = instance.base + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let opened = instance.base + "/opened"
    try "#!/bin/sh\necho \"$1\" >> '\(opened)'\n".write(
      toFile: bin + "/xdg-open", atomically: true, encoding: .utf8)
    #expect(chmod(bin + "/xdg-open", 0o755) == 0)
    try instance.write("Documents/lighthouse-notes.txt", "x\n")
    try instance.write("Code/lighthouse-tool.txt", "x\n")
    try instance.indexOnce()
    let before = try instance.findPaths("name:lighthouse")
    #expect(before.count == 2)
    let second = before[1]
    let result = try instance.run("find-in", ["--open", "2", "name:lighthouse"])
    #expect(result.status == 0, "\(result.stderr)")
    let uri = try String(contentsOfFile: opened, encoding: .utf8).trimmingCharacters(in: .newlines)
    #expect(FileURI.path(from: uri)?.string == instance.path(second))
    #expect(result.stdout == uri + "\n")
    // Opened items rank first from now on, and used: finds them.
    #expect(try instance.findPaths("name:lighthouse").first == second)
    #expect(try instance.findPaths("used:today") == [second])
    #expect(try instance.run("find-in", ["--open", "9", "name:lighthouse"]).status == 2)
    #expect(try instance.run("find-in", ["--open", "zyzzyva"]).status == 1)
  }

  @Test func spotlightPredicates() throws {
    try instance.write("Pictures/Natural Bridges State Park.txt", "photos\n")
    try instance.indexOnce()
    #expect(
      try instance.findPaths(
        "kMDItemDisplayName == \"natural*\"c && kMDItemContentType == \"text/*\"")
        == ["Pictures/Natural Bridges State Park.txt"])
    #expect(
      try instance.findPaths("displayName == \"park\"cw") == [
        "Pictures/Natural Bridges State Park.txt"
      ])
    #expect(try instance.findPaths("textContent == \"fox\"") == ["Documents/notes.txt"])
    #expect(try instance.findPaths("* == \"caf*\"cd") == ["Documents/notes.txt"])
    #expect(
      Set(
        try instance.findPaths(
          "kMDItemFSSize < 25 && contentType == \"text/*\" && !(displayName == \"*.py\")"))
        == [
          "Documents/report-2024.csv", "Code/fooBar.swift",
          "Pictures/Natural Bridges State Park.txt",
        ])
    #expect(
      try instance.findPaths(
        "kMDItemContentModificationDate >= $time.today(-1) && displayName == \"notes.txt\"")
        == ["Documents/notes.txt"])
    let bad = try instance.run("find-in", ["kMDItemNoSuch == \"x\""])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("kMDItemNoSuch"))
  }

  @Test func malformedFiltersAreUsageErrors() throws {
    let badKind = try instance.run("find-in", ["kind:spaceship"])
    #expect(badKind.status == 2)
    #expect(badKind.stderr.contains("spaceship"))
    #expect(try instance.run("find-in", ["ext:"]).status == 2)
    #expect(try instance.run("find-in", ["type:nonsense"]).status == 2)
    #expect(try instance.run("find-in", ["--limit", "-3", "fox"]).status == 2)
    #expect(try instance.run("find-in", ["--no-such-flag-really"]).status != 0)
  }

  @Test func phrasesExclusionsAndAlternatives() throws {
    #expect(try instance.findPaths("\"brown fox\"") == ["Documents/notes.txt"])
    #expect(try instance.findPaths("\"fox brown\"").isEmpty)
    #expect(try instance.findPaths("lighthouse", "-keeper") == ["Documents/README.md"])
    #expect(
      Set(try instance.findPaths("fox", "OR", "holiday")) == [
        "Documents/notes.txt", "Documents/README.md",
      ])
    #expect(
      Set(try instance.findPaths("(fox", "OR", "holiday)", "-dawn")) == ["Documents/notes.txt"])
  }

  @Test func outputModes() throws {
    let json = try instance.run("find-in", ["--json", "fox"])
    #expect(json.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(json.lines[0].utf8)) as? [String: Any]
    for key in ["uri", "path", "id", "domain", "displayName", "contentType", "kind", "score"] {
      #expect(object?[key] != nil, "missing \(key)")
    }
    #expect(object?["path"] as? String == instance.path("Documents/notes.txt"))
    #expect(object?["contentType"] as? String == "text/plain")
    #expect(object?["domain"] as? String == "limelight.files")

    let nul = try instance.run("find-in", ["-0", "lighthouse"])
    #expect(nul.stdoutBytes.filter { $0 == 0 }.count == 2)
    #expect(!nul.stdoutBytes.contains(UInt8(ascii: "\n")))

    #expect(try instance.run("find-in", ["--limit", "1", "lighthouse"]).lines.count == 1)
    #expect(try instance.run("find-in", ["--count", "lighthouse"]).stdout == "2\n")
    #expect(try instance.run("find-in", ["--count", "zyzzyva"]).status == 1)
  }

  @Test func contentTypesFromContentAndName() throws {
    let json = try instance.run("find-in", ["--json", "holiday"]).stdout
    #expect(json.contains("\"contentType\":\"text/markdown\""))
    let python = try instance.run("find-in", ["--json", "main.py"]).stdout
    #expect(python.contains("\"contentType\":\"text/x-python"))
  }

  @Test func worksWithoutAnIndex() throws {
    let fresh = try Instance()
    let result = try fresh.run("find-in", ["anything"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("no index"))
  }
}

/// Any string is a valid query: no crash, no SQLite or FTS5 syntax error leaking out.
@Suite struct HostileQueryTests {
  static let shared: Instance = {
    let instance = try! Instance()
    try! instance.write("notes.txt", "plain words for hostile queries\n")
    try! instance.indexOnce()
    // Shared by the suite's cases, it is never released: its folder goes
    // when the run ends.
    atexit { try? FileManager.default.removeItem(atPath: HostileQueryTests.shared.base) }
    return instance
  }()

  @Test(arguments: [
    "\"", "\"\"", "'", "*", "**", "(", ")", "(((", ")))", "NEAR(a b)", "NOT", "AND", "OR", "a OR",
    "OR b", "-", "--", "- -", "-(", "a:b", ":", "::", "col:val", "name:", "^", "a*b", "{name}:x",
    "\\", "%", "_", "'; DROP TABLE item; --", "\u{0}", "x\u{0}y", "😀", "\u{202E}evil", "a\"b\"c",
    "-\"", "\"unterminated phrase", "name:\"two words", "ext:a,b,,c", "in:/nonexistent/\u{1}",
    "kind:pdf OR (", String(repeating: "a", count: 10_000), String(repeating: "(", count: 500),
    String(repeating: "a OR ", count: 200), "NEAR", "+", "a + b", "a:", ":a", "\u{FFFF}",
  ])
  func hostileQueriesNeverBreak(query: String) throws {
    let result = try Self.shared.run("find-in", ["--", query])
    #expect([0, 1, 2].contains(result.status), "status \(result.status): \(result.stderr)")
    #expect(!result.stderr.contains("SQLite"), "\(result.stderr)")
    #expect(!result.stderr.contains("fts5"), "\(result.stderr)")
    #expect(!result.stderr.contains("Fatal"), "\(result.stderr)")
  }

}

/// What a person sees at a terminal: name, kind, date, path and a highlighted snippet.
@Suite struct TerminalViewTests {
  static let hasScript = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

  @Test(.enabled(if: hasScript, "script(1) gives the command a terminal"))
  func humanViewOnATerminal() throws {
    let instance = try Instance()
    try instance.write("Notes/trip.txt", "We saw a lighthouse near the cliffs.\n")
    try instance.write("Notes/two\nlines lighthouse.txt", "x\n")
    try instance.indexOnce()
    // script(1) runs find-in on a pseudo-terminal; NO_COLOR marks matches with brackets.
    let findIn = Instance.binDirectory + "/find-in"
    let result = try instance.run("/usr/bin/script", ["-qec", "\(findIn) lighthouse", "/dev/null"])
    let screen = result.stdout.replacingOccurrences(of: "\r", with: "")
    #expect(screen.contains("trip.txt  plain text document · "), "\(screen)")
    #expect(screen.contains("  ~/Notes/trip.txt"))
    #expect(screen.contains("We saw a [lighthouse] near the cliffs."))
    #expect(screen.contains("two?lines lighthouse.txt"))
    #expect(!screen.contains("\u{1B}["), "NO_COLOR is set: no escape sequences")
  }
}
