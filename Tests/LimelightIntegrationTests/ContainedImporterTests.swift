import Foundation
import LimelightImport
import LimelightModel
import LimelightPlatform
import LimelightThumbnails
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The formats read by C libraries (PDF, audio, archives), which run in the
/// limelight-import helper, and importers of third parties registered by
/// descriptors: what they find, and that their failures cost one file.
@Suite struct ContainedImporterTests {
  let instance: Instance

  init() throws {
    instance = try Instance()
    try instance.write(
      "Docs/report.pdf",
      bytes: Self.pdf(
        title: "Tidal Survey", author: "Marie Tharp", subject: "Currents of the bay",
        keywords: "oceanography, tides", lines: ["Soundings near the narwhal reef", "page one"]))
    try instance.write("Docs/truncated.pdf", bytes: Array(try Self.pdfBytes().prefix(200)))
    try instance.write("Docs/fake.pdf", "%PDF-1.4\nnot really a document\n")
    try instance.write(
      "Music/song.wav",
      bytes: Self.wav(
        seconds: 2,
        tags: [
          "TIT2": "Harbour Lights", "TPE1": "The Pelicans", "TALB": "Coastlines",
          "TCON": "Folk", "TRCK": "3", "TYER": "1999",
        ]))
    // An MP3 that claims a tag and holds noise.
    var random = SeededRandom(seed: 7)
    try instance.write(
      "Music/noise.mp3",
      bytes: Array("ID3".utf8) + [3, 0, 0, 0x7F, 0x7F, 0x7F, 0x7F]
        + (0..<4096).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    for (name, text) in [("alpha.txt", "a"), ("beta/gamma-manifest.txt", "b")] {
      try instance.write("Source/tree/\(name)", text)
    }
    try Self.tar(["-cf", instance.path("Archives/tree.tar"), "-C", instance.path("Source"), "tree"])
    try Self.tar([
      "-czf", instance.path("Archives/tree.tar.gz"), "-C", instance.path("Source"), "tree",
    ])
    try ImporterTests.zip(
      instance.path("Archives/bundle.zip"), ["inner/walrus-notes.txt": "x", "readme.txt": "y"])
    try instance.write("Videos/clip.mp4", bytes: Self.mp4(seconds: 12.5, width: 1280, height: 720))
    try instance.write(
      "Videos/talk.webm",
      bytes: Self.webm(title: "Puffin Talk", seconds: 90, width: 640, height: 360))
    try instance.write(
      "Videos/old.avi", bytes: Self.avi(frames: 250, fps: 25, width: 320, height: 240))
    try instance.write(
      "Videos/cut.mp4", bytes: Array(Self.mp4(seconds: 1, width: 2, height: 2).prefix(40)))
    try instance.write(
      "Archives/damaged.tar.gz", bytes: [0x1F, 0x8B, 8, 0] + Array(repeating: 7, count: 300))
  }

  @Test func wordsAndPropertiesFromPDFAudioAndArchives() throws {
    try instance.indexOnce()
    for (query, path) in [
      ("narwhal", "Docs/report.pdf"), ("tidal survey", "Docs/report.pdf"),
      ("tharp", "Docs/report.pdf"), ("oceanography", "Docs/report.pdf"),
      ("harbour lights", "Music/song.wav"), ("pelicans", "Music/song.wav"),
      ("coastlines", "Music/song.wav"),
    ] {
      #expect(
        try instance.findPaths(query.split(separator: " ").map(String.init)) == [path], "\(query)")
    }
    // Members of archives, by name, in each kind of archive.
    #expect(
      Set(try instance.findPaths(["gamma", "manifest"]))
        == ["Archives/tree.tar", "Archives/tree.tar.gz", "Source/tree/beta/gamma-manifest.txt"])
    #expect(try instance.findPaths(["walrus"]) == ["Archives/bundle.zip"])

    let pdf = try instance.show("Docs/report.pdf")
    #expect(pdf["title"] as? String == "Tidal Survey")
    #expect(pdf["authors"] as? [String] == ["Marie Tharp"])
    #expect(pdf["pageCount"] as? Int == 1)
    #expect(pdf["subject"] as? String == "Currents of the bay")
    #expect((pdf["keywords"] as? [String])?.contains("tides") == true)
    // The document's own date is the item's creation date: shown once, and
    // what `created:` filters see.
    #expect((pdf["contentCreationDate"] as? String)?.hasPrefix("2024-03-01T12:00:00") == true)
    let listing = try instance.run("limelight", ["show", instance.path("Docs/report.pdf")]).stdout
    #expect(listing.components(separatedBy: "contentCreationDate").count == 2, "\(listing)")
    #expect(try instance.findPaths("created:2024-03", "tidal") == ["Docs/report.pdf"])
    let song = try instance.show("Music/song.wav")
    #expect(song["title"] as? String == "Harbour Lights")
    #expect(song["album"] as? String == "Coastlines")
    #expect(song["genre"] as? String == "Folk")
    #expect(song["duration"] as? Int == 2)
    #expect(song["audioSampleRate"] as? Int == 8000)
    for (path, duration, width, height) in [
      ("Videos/clip.mp4", 12.5, 1280, 720), ("Videos/talk.webm", 90.0, 640, 360),
      ("Videos/old.avi", 10.0, 320, 240),
    ] {
      let video = try instance.show(path)
      let seconds = (video["duration"] as? Double) ?? (video["duration"] as? Int).map(Double.init)
      #expect(seconds == duration, "\(path): \(video)")
      #expect(video["pixelWidth"] as? Int == width, "\(path)")
      #expect(video["pixelHeight"] as? Int == height, "\(path)")
    }
    #expect(try instance.findPaths(["puffin", "talk"]) == ["Videos/talk.webm"])
    let tar = try instance.show("Archives/tree.tar.gz")
    #expect((tar["memberCount"] as? Int).map { $0 >= 3 } == true)
  }

  /// The watcher's helpers are the watcher's own program: `limelightd
  /// --import-helper` is `limelight-import`, arguments, output and status.
  @Test func theWatcherIsItsOwnImportHelper() throws {
    for arguments in [
      [instance.path("Docs/report.pdf")],
      ["--type", "audio/x-wav", instance.path("Music/song.wav")],
      [instance.path("Docs")], ["--serve", "a-file"],
    ] {
      let helper = try instance.run("limelight-import", arguments)
      let watcher = try instance.run("limelightd", ["--import-helper"] + arguments)
      #expect(watcher.status == helper.status, "\(arguments)")
      #expect(watcher.stdout == helper.stdout, "\(arguments)")
      #expect(!watcher.stdout.isEmpty || !watcher.stderr.isEmpty, "\(arguments)")
    }
    let pdf = try instance.run("limelightd", ["--import-helper", instance.path("Docs/report.pdf")])
    #expect(pdf.status == 0 && pdf.stdout.contains("Tidal Survey"), "\(pdf.stderr)")
  }

  /// Files compressed by Python's own gzip, bz2 and lzma modules, and the
  /// repository's own manual page, as is and gzipped as Debian ships them.
  @Test func compressedFilesAndManualPagesReadAsWhatTheyHold() throws {
    let page = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../man/man1/find-in.1"), encoding: .utf8)
    try instance.write("Man/find-in.1", page)
    try instance.write("Man/man1/ls.1", page.replacingOccurrences(of: "find-in", with: "lookup"))
    try instance.write("Notes/changelog", "version 2: the capybara release\n")
    try instance.write("Notes/notes.txt", "the quokka notes\n")
    try instance.write("Notes/README", "read about the axolotl\n")
    try instance.write("Notes/syslog.1", "Nov 24 kernel: wombat detected\n")
    try instance.write("Notes/big.txt", String(repeating: "pangolin ", count: 3_000_000))
    try Self.compress(
      [
        ("Notes/changelog", "gzip", "Notes/changelog.gz"),
        ("Notes/notes.txt", "lzma", "Notes/notes.txt.xz"),
        ("Notes/README", "bz2", "Notes/README.bz2"),
        ("Man/man1/ls.1", "gzip", "Man/man1/ls.1.gz"),
        ("Notes/big.txt", "gzip", "Notes/big.txt.gz"),
      ], in: instance)
    try instance.indexOnce()
    for (word, path) in [
      ("capybara", "Notes/changelog.gz"), ("quokka", "Notes/notes.txt.xz"),
      ("axolotl", "Notes/README.bz2"), ("wombat", "Notes/syslog.1"),
    ] {
      #expect(try instance.findPaths(word) == [path], "\(word)")
    }
    // A manual page reads as the page: its NAME line is its title, and
    // what roff writes as requests and escapes is no text.
    for path in ["Man/find-in.1", "Man/man1/ls.1.gz"] {
      let shown = try instance.show(path)
      let title = try #require(shown["title"] as? String, "\(path)")
      #expect(title.hasSuffix("- find files and application items in the Limelight index"))
      #expect(shown["contentDescription"] as? String == title)
    }
    #expect(try instance.findPaths("lookup").first == "Man/man1/ls.1.gz")
    // A compressed text expands no further than a text is read.
    let big = try instance.show("Notes/big.txt.gz")
    #expect(big["compressedContentType"] as? String == "text/plain")
    #expect(try instance.findPaths("pangolin").contains("Notes/big.txt.gz"))
  }

  /// A report as reportlab draws one, with a line running past the page's
  /// right edge before the lines that say what each page is about: every
  /// line of every page is read.
  @Test func everyLineOfAReportlabPDFIsRead() throws {
    let path = instance.path("Docs/quarterly.pdf")
    try Self.reportlab(
      """
      import sys
      from reportlab.lib.pagesizes import A4
      from reportlab.pdfgen import canvas
      page = canvas.Canvas(sys.argv[1], pagesize=A4)
      for number, word in ((1, "kittiwake"), (2, "cormorant")):
          page.setFont("Helvetica-Bold", 16)
          page.drawString(72, 780, "Quarterly report")
          page.setFont("Helvetica", 11)
          page.drawString(72, 750, "We should revisit the proposal after the committee meets "
                          "again in the spring and the budget is agreed by everyone involved")
          page.drawString(72, 730, "The %s count of page %d is remarkable" % (word, number))
          page.drawString(72, 710, "Closing words about the breakwater")
          page.showPage()
      page.save()
      """, path)
    try instance.indexOnce()
    for word in ["kittiwake", "cormorant", "breakwater", "committee"] {
      #expect(try instance.findPaths(word) == ["Docs/quarterly.pdf"], "\(word)")
    }
    let report = try instance.show("Docs/quarterly.pdf")
    #expect(report["pageCount"] as? Int == 2)
    // reportlab's words for a title and author nobody set are no title.
    #expect(report["title"] as? String == nil)
    #expect(report["authors"] as? [String] == nil)
    #expect(try instance.findPaths("untitled").isEmpty)
  }

  /// reportlab's `drawString` of a line of a hundred words, far past the
  /// page's right edge, with two short lines 14 points under it, on two
  /// pages: the lines under it are read (poppler asked for the page alone
  /// dropped them).
  @Test func theLinesUnderAHundredWordLineAreRead() throws {
    let path = instance.path("Docs/overlong.pdf")
    try Self.reportlab(
      """
      import sys
      from reportlab.lib.pagesizes import A4
      from reportlab.pdfgen import canvas
      words = " ".join("budget committee proposal spring agreed".split()[i % 5] for i in range(100))
      page = canvas.Canvas(sys.argv[1], pagesize=A4)
      for number, word in ((1, "guillemot"), (2, "shearwater")):
          page.setFont("Helvetica", 12)
          page.drawString(72, 700, words)
          page.drawString(72, 686, "the %s of page %d" % (word, number))
          page.drawString(72, 672, "and the lighthouse beacon%d" % number)
          page.showPage()
      page.save()
      """, path)
    try instance.indexOnce()
    for word in ["guillemot", "shearwater", "beacon1", "beacon2", "committee"] {
      #expect(try instance.findPaths(word) == ["Docs/overlong.pdf"], "\(word)")
    }
  }

  /// A presentation and a letter as LibreOffice saves them in Office's
  /// formats, old and new: the text of every slide (LibreOffice's `.ppt`
  /// keeps it in the slides' drawings, where catppt found nothing), the
  /// title and author of the old formats' property sets, and the number of
  /// slides (neither LibreOffice's `.pptx` nor python-pptx's counts them in
  /// its properties).
  @Test func officeFilesAsLibreOfficeSavesThemGiveTextPropertiesAndSlides() throws {
    let sources = instance.base + "/sources"
    try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
    let namespaces = """
      xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" \
      xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" \
      xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" \
      xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" \
      xmlns:dc="http://purl.org/dc/elements/1.1/" \
      xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" office:version="1.3"
      """
    let meta =
      "<office:meta><dc:title>Wader Talk</dc:title>"
      + "<meta:initial-creator>Ola Stilt</meta:initial-creator></office:meta>"
    let slides = ["Avocets sweep the shallows", "Second slide about plovers"].map {
      "<draw:page draw:name=\"p\"><draw:frame svg:x=\"2cm\" svg:y=\"2cm\" svg:width=\"20cm\" "
        + "svg:height=\"3cm\"><draw:text-box><text:p>\($0)</text:p></draw:text-box>"
        + "</draw:frame></draw:page>"
    }.joined()
    // Flat OpenDocument files, which LibreOffice opens as it opens its own.
    for (name, type, body) in [
      ("talk.fodp", "presentation", "<office:presentation>\(slides)</office:presentation>"),
      (
        "letter.fodt", "text",
        "<office:text><text:p>The stilts wade at the heronry</text:p></office:text>"
      ),
    ] {
      try Data(
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><office:document \(namespaces) "
          + "office:mimetype=\"application/vnd.oasis.opendocument.\(type)\">\(meta)"
          + "<office:body>\(body)</office:body></office:document>").utf8
      ).write(to: URL(fileURLWithPath: sources + "/" + name))
    }
    for (format, source) in [
      ("ppt", "talk.fodp"), ("pptx", "talk.fodp"), ("doc", "letter.fodt"),
    ] {
      try Self.libreOffice(
        convert: sources + "/" + source, to: format, into: instance.path("Office"),
        profile: instance.base + "/office-profile")
    }
    try FileManager.default.removeItem(atPath: sources)
    try instance.indexOnce()
    for name in ["talk.ppt", "talk.pptx"] {
      let item = try instance.show("Office/" + name)
      #expect(item["title"] as? String == "Wader Talk", "\(name)")
      #expect(item["authors"] as? [String] == ["Ola Stilt"], "\(name)")
      #expect(item["pageCount"] as? Int == 2, "\(name)")
      #expect(item["extractionError"] as? String == nil, "\(name)")
    }
    #expect(try instance.findPaths("avocets").sorted() == ["Office/talk.ppt", "Office/talk.pptx"])
    #expect(try instance.findPaths("plovers").sorted() == ["Office/talk.ppt", "Office/talk.pptx"])
    let letter = try instance.show("Office/letter.doc")
    #expect(letter["title"] as? String == "Wader Talk")
    #expect(letter["authors"] as? [String] == ["Ola Stilt"])
    #expect(try instance.findPaths("heronry") == ["Office/letter.doc"])
  }

  /// A presentation laid out as PowerPoint saves one: the slides' text in
  /// the document's slide list (one atom in UTF-16, one in single bytes),
  /// the master's sample text apart, two slides, and the title and author
  /// in the property set. The text is read, the master's is not.
  @Test func aPresentationAsPowerPointLaysItOutGivesItsSlidesText() throws {
    func record(_ type: UInt16, _ body: [UInt8], container: Bool = false) -> [UInt8] {
      Self.le(UInt16(container ? 0x000F : 0), 2) + Self.le(type, 2) + Self.le(body.count, 4) + body
    }
    let utf16 = "Budget review\rthe kestrel survey".utf16.flatMap { Self.le($0, 2) }
    let slideList = record(
      0x0FF0,
      record(0x03F3, [UInt8](repeating: 0, count: 20)) + record(0x0F9F, Self.le(0, 4))
        + record(0x0FA0, utf16) + record(0x0FA8, Array("cormorant plans".utf8)),
      container: true)
    let master = record(
      0x03F8, record(0x0FA0, "Click to edit Master title style".utf16.flatMap { Self.le($0, 2) }),
      container: true)
    let slides = record(0x03EE, [], container: true) + record(0x03EE, [], container: true)
    let document = record(0x03E8, slideList + master + slides, container: true)
    try instance.write(
      "Office/review.ppt",
      bytes: Self.compoundFile([
        ("PowerPoint Document", document),
        (
          "\u{5}SummaryInformation",
          Self.summaryInformation([(2, "Quarterly Kestrel Review"), (4, "Ada Byron")])
        ),
      ]))
    try instance.indexOnce()
    let item = try instance.show("Office/review.ppt")
    #expect(item["extractionError"] as? String == nil, "\(item)")
    #expect(item["title"] as? String == "Quarterly Kestrel Review")
    #expect(item["authors"] as? [String] == ["Ada Byron"])
    #expect(item["pageCount"] as? Int == 2)
    for word in ["budget", "kestrel", "cormorant"] {
      #expect(try instance.findPaths(word) == ["Office/review.ppt"], "\(word)")
    }
    #expect(try instance.findPaths("master", "style").isEmpty)
  }

  /// `value`'s `width` bytes, least significant first.
  static func le<T: BinaryInteger>(_ value: T, _ width: Int) -> [UInt8] {
    (0..<width).map { UInt8(truncatingIfNeeded: Int(value) >> (8 * $0)) }
  }

  /// A compound file (OLE2) of 512-byte sectors holding `streams`, each in
  /// sectors of its own (the small-stream cutoff set to 0, which readers
  /// take from the header).
  static func compoundFile(_ streams: [(String, [UInt8])]) -> [UInt8] {
    let end: UInt32 = 0xFFFF_FFFE
    var fat: [UInt32] = [0xFFFF_FFFD, end]  // the table's own sector, the directory's
    var data: [UInt8] = []
    var directory: [UInt8] = []
    func entry(_ name: String, type: UInt8, start: UInt32, size: Int) -> [UInt8] {
      let units: [UInt8] = name.utf16.flatMap { Self.le($0, 2) } + [0, 0]
      var bytes = units + [UInt8](repeating: 0, count: 64 - units.count)
      bytes += le(units.count, 2) + [type, 1] + le(UInt32.max, 4) + le(UInt32.max, 4)
      bytes += le(UInt32.max, 4) + [UInt8](repeating: 0, count: 36)
      return bytes + le(start, 4) + le(size, 4) + le(0, 4)
    }
    directory += entry("Root Entry", type: 5, start: end, size: 0)
    for (name, bytes) in streams {
      let first = UInt32(fat.count)
      let sectors = max(1, (bytes.count + 511) / 512)
      for n in 0..<sectors { fat.append(n == sectors - 1 ? end : first + UInt32(n) + 1) }
      data += bytes + [UInt8](repeating: 0, count: sectors * 512 - bytes.count)
      directory += entry(name, type: 2, start: first, size: bytes.count)
    }
    directory += [UInt8](repeating: 0, count: 512 - directory.count % 512)
    fat += [UInt32](repeating: UInt32.max, count: 128 - fat.count)
    var header = CompoundFileHeader.signature + [UInt8](repeating: 0, count: 16)
    header += le(0x3E, 2) + le(3, 2) + le(0xFFFE, 2) + le(9, 2) + le(6, 2)
    header += [UInt8](repeating: 0, count: 6) + le(0, 4) + le(1, 4) + le(1, 4) + le(0, 4)
    header += le(0, 4) + le(end, 4) + le(0, 4) + le(end, 4) + le(0, 4) + le(0, 4)
    header += [UInt8](repeating: 0xFF, count: 4 * 108)
    return header + fat.flatMap { le($0, 4) } + directory + data
  }

  /// The signature every compound file starts with.
  enum CompoundFileHeader {
    static let signature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]
  }

  /// An OLE property set of one section: code page 1252 and these
  /// (id, text) properties as 8-bit strings.
  static func summaryInformation(_ properties: [(UInt32, String)]) -> [UInt8] {
    var values: [(UInt32, [UInt8])] = [(1, le(2, 4) + le(1252, 2) + [0, 0])]
    for (id, text) in properties {
      var bytes = Array(text.utf8) + [0]
      let length = bytes.count
      bytes += [UInt8](repeating: 0, count: (4 - length % 4) % 4)
      values.append((id, le(0x1E, 4) + le(length, 4) + bytes))
    }
    var offsets: [UInt8] = []
    var body: [UInt8] = []
    var at = 8 + 8 * values.count
    for (id, bytes) in values {
      offsets += le(id, 4) + le(at, 4)
      body += bytes
      at += bytes.count
    }
    let section = le(8 + 8 * values.count + body.count, 4) + le(values.count, 4) + offsets + body
    let header =
      le(0xFFFE, 2) + le(0, 2) + le(0, 4) + [UInt8](repeating: 0, count: 16) + le(1, 4)
      + [UInt8](repeating: 0, count: 16) + le(48, 4)
    return header + section
  }

  /// Converts `source` into `folder` with LibreOffice (Debian's), in a
  /// profile of the test's own.
  static func libreOffice(
    convert source: String, to format: String, into folder: String, profile: String
  )
    throws
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/soffice")
    process.arguments = [
      "-env:UserInstallation=file://" + profile, "--headless", "--convert-to", format,
      "--outdir", folder, source,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let made =
      folder + "/" + URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
      + "." + format
    try #require(
      process.terminationStatus == 0 && FileManager.default.fileExists(atPath: made),
      "LibreOffice (libreoffice-impress, libreoffice-writer) wrote no \(made)")
  }

  /// Runs a Python script with Debian's Python, which has Debian's
  /// reportlab, to write the PDF at `path` (its first argument).
  static func reportlab(_ script: String, _ path: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script, path]
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "reportlab (python3-reportlab) wrote no PDF")
  }

  /// Compresses files with Python's standard modules: (source, module, target).
  static func compress(_ files: [(String, String, String)], in instance: Instance) throws {
    let script = files.map { source, module, target in
      "import \(module); open('\(instance.path(target))', 'wb').write("
        + "\(module).compress(open('\(instance.path(source))', 'rb').read()))"
    }.joined(separator: "\n")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    for (source, _, _) in files {
      try FileManager.default.removeItem(atPath: instance.path(source))
    }
  }

  @Test func brokenFilesAreRecordedAndCostOnlyThemselves() throws {
    try instance.indexOnce()
    for path in [
      "Docs/truncated.pdf", "Docs/fake.pdf", "Music/noise.mp3", "Archives/damaged.tar.gz",
      "Videos/cut.mp4",
    ] {
      let item = try instance.show(path)
      #expect(item["displayName"] as? String == (path as NSString).lastPathComponent)
      let reason = try #require(item["extractionError"] as? String, "\(path): \(item)")
      // Said once, as the helper's importer said it.
      #expect(reason.components(separatedBy: "malformed").count <= 2, "\(reason)")
    }
    #expect(try instance.findPaths(["narwhal"]) == ["Docs/report.pdf"])
  }

  @Test func thirdPartyImportersRunWithinLimits() throws {
    let folder = instance.base + "/xdg/config/limelight/importers.d"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    func importer(_ name: String, type: String, timeout: String? = nil, script: String) throws {
      let program = folder + "/\(name).sh"
      try Data(("#!/bin/sh\n" + script + "\n").utf8).write(to: URL(fileURLWithPath: program))
      chmod(program, 0o755)
      var descriptor = "[Limelight Importer]\nMimeType=\(type);\nExec=\"\(program)\" --flag\n"
      if let timeout { descriptor += "Timeout=\(timeout)\n" }
      try Data(descriptor.utf8).write(to: URL(fileURLWithPath: folder + "/\(name).importer"))
    }
    try importer(
      "calendar", type: "text/calendar",
      script: """
        [ "$1" = --flag ] || exit 3
        [ -f "$2" ] || exit 4
        printf '{"title": "Standup", "keywords": ["meeting"], "textContent": "quokka agenda %s", "room": "B2"}' "$LIMELIGHT_CONTENT_TYPE"
        """)
    try importer("crash", type: "text/csv", script: "kill -SEGV $$")
    try importer("hang", type: "text/x-tex", timeout: "1", script: "sleep 30")
    try importer("garbage", type: "application/json", script: "echo 'this is not json'")
    try importer("flood", type: "text/x-log", script: "yes floodfloodflood")
    try Data("[Limelight Importer]\nExec=/bin/true\n".utf8).write(
      to: URL(fileURLWithPath: folder + "/incomplete.importer"))
    try instance.write("Events/standup.ics", "BEGIN:VCALENDAR\nEND:VCALENDAR\n")
    for (name, text) in [
      ("table.csv", "a,b\n"), ("paper.tex", "\\section{x}\n"), ("data.json", "{}\n"),
      ("server.log", "started\n"),
    ] {
      try instance.write("Broken/\(name)", text)
    }
    try instance.indexOnce()
    #expect(try instance.findPaths(["quokka"]) == ["Events/standup.ics"])
    let event = try instance.show("Events/standup.ics")
    #expect(event["title"] as? String == "Standup")
    #expect(event["room"] as? String == "B2")
    #expect((event["textContent"] as? String) == nil)  // Text is searchable, not shown.
    // The program was told the type.
    #expect(try instance.findPaths(["quokka", "calendar"]) == ["Events/standup.ics"])
    let reasons = [
      "table.csv": "crashed", "paper.tex": "took too long", "data.json": "JSON",
      "server.log": "printed too much",
    ]
    for (name, reason) in reasons {
      let item = try instance.show("Broken/\(name)")
      let error = item["extractionError"] as? String ?? ""
      #expect(error.contains(reason), "\(name): \(error)")
    }
  }

  @Test func itemsTakeCurrentThumbnailsFromTheSharedCache() throws {
    try instance.write("Pictures/fresh.png", bytes: ImporterTests.png(width: 4, height: 4))
    try instance.write("Pictures/stale.png", bytes: ImporterTests.png(width: 4, height: 4))
    let cache = instance.base + "/xdg/cache/thumbnails"
    for (name, size, matches) in [("fresh", "large", true), ("stale", "normal", false)] {
      let path = instance.path("Pictures/\(name).png")
      let uri = FileURI.uri(for: RawPath(path))
      let modified = Int64(try #require(FileSystem.status(RawPath(path))).modified / 1_000_000_000)
      let thumbnail = ThumbnailPNG.with(uri: uri, modified: matches ? modified : modified - 60)
      try FileManager.default.createDirectory(
        atPath: cache + "/" + size, withIntermediateDirectories: true)
      try Data(thumbnail).write(
        to: URL(fileURLWithPath: cache + "/\(size)/" + MD5.hex(Array(uri.utf8)) + ".png"))
    }
    try instance.indexOnce()
    let fresh = try instance.show("Pictures/fresh.png")
    #expect(
      (fresh["thumbnailPath"] as? String)?.hasSuffix(
        "/thumbnails/large/"
          + MD5.hex(
            Array(FileURI.uri(for: RawPath(instance.path("Pictures/fresh.png"))).utf8)) + ".png")
        == true)
    let stale = try instance.show("Pictures/stale.png")
    #expect(stale["thumbnailPath"] is NSNull || stale["thumbnailPath"] == nil)
    // The cache itself is never indexed.
    #expect(try instance.run("find-in", ["in:" + cache]).status == 1)
  }

  @Test func theExampleImporterInTheSourcesReadsCalendars() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path
    let example = sources + "/etc/limelight/importers.d"
    let folder = instance.base + "/xdg/config/limelight/importers.d"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let descriptor = try String(contentsOfFile: example + "/calendar.importer", encoding: .utf8)
      .replacingOccurrences(
        of: "/usr/local/lib/limelight/calendar-to-limelight",
        with: example + "/calendar-to-limelight")
    try Data(descriptor.utf8).write(to: URL(fileURLWithPath: folder + "/calendar.importer"))
    let lines = [
      "BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART:20261203T090000Z",
      "SUMMARY:Ferry to the lighthouse", "LOCATION:Pier Nine",
      "DESCRIPTION:Bring binoculars for the gan", " nets", "END:VEVENT", "END:VCALENDAR", "",
    ]
    try instance.write("Events/trip.ics", lines.joined(separator: "\r\n"))
    try instance.write("Events/broken.ics", "not a calendar\n")
    try instance.indexOnce()
    #expect(try instance.findPaths(["gannets"]) == ["Events/trip.ics"])
    let trip = try instance.show("Events/trip.ics")
    #expect(trip["title"] as? String == "Ferry to the lighthouse")
    #expect((trip["keywords"] as? [String])?.contains("Pier Nine") == true)
    #expect((trip["startDate"] as? String)?.hasPrefix("2026-12-03") == true)
    let broken = try instance.show("Events/broken.ics")
    #expect((broken["extractionError"] as? String)?.contains("not an iCalendar file") == true)
  }

  /// Truncated and corrupted variants of the helper's samples: the helper may
  /// refuse them (exit 1), but our own readers must never trap, and nothing
  /// may hang.
  @Test func mutatedSamplesNeverCrashTheHelper() throws {
    var random = SeededRandom(seed: 99)
    let samples: [(String, [UInt8])] = [
      ("clip.mp4", Self.mp4(seconds: 3, width: 64, height: 48)),
      ("talk.webm", Self.webm(title: "T", seconds: 3, width: 64, height: 48)),
      ("old.avi", Self.avi(frames: 10, fps: 5, width: 64, height: 48)),
      ("song.wav", Self.wav(seconds: 1, tags: ["TIT2": "A", "TPE1": "B"])),
      ("report.pdf", try Self.pdfBytes()),
    ]
    for (name, original) in samples {
      var variants: [[UInt8]] = stride(from: 0, to: original.count, by: max(1, original.count / 12))
        .map { Array(original.prefix($0)) }
      for _ in 0..<30 {
        var mutated = original
        for _ in 0..<(1 + Int(random.next() % 4)) {
          let at = Int(random.next() % UInt64(min(mutated.count, 512)))
          mutated[at] =
            [0, 0xFF, 0x7F, UInt8(truncatingIfNeeded: random.next())][
              Int(random.next() % 4)]
        }
        variants.append(mutated)
      }
      for (n, bytes) in variants.enumerated() {
        try instance.write("Mutants/\(n)-\(name)", bytes: bytes)
        let type = [
          "mp4": "video/mp4", "webm": "video/webm", "avi": "video/x-msvideo",
          "wav": "audio/x-wav", "pdf": "application/pdf",
        ][(name as NSString).pathExtension]!
        // Under timeout(1): a hang fails the test instead of stalling the suite.
        let result = try instance.run(
          "/usr/bin/timeout",
          [
            "20", Instance.binDirectory + "/limelight-import", "--type", type,
            instance.path("Mutants/\(n)-\(name)"),
          ])
        #expect(result.status == 0 || result.status == 1, "\(n)-\(name): \(result.stderr)")
      }
    }
  }

  // MARK: - Samples

  static func pdfBytes() throws -> [UInt8] {
    pdf(title: "T", author: "A", subject: "S", keywords: "K", lines: ["some words here"])
  }

  /// A one-page PDF with an information dictionary and lines of text in Helvetica.
  static func pdf(title: String, author: String, subject: String, keywords: String, lines: [String])
    -> [UInt8]
  {
    var stream = "BT /F1 12 Tf 72 720 Td 14 TL\n"
    for line in lines { stream += "(\(line)) Tj T*\n" }
    stream += "ET\n"
    let objects = [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        + " /Resources << /Font << /F1 5 0 R >> >> >>",
      "<< /Length \(stream.utf8.count) >>\nstream\n\(stream)endstream",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
      "<< /Title (\(title)) /Author (\(author)) /Subject (\(subject)) /Keywords (\(keywords))"
        + " /CreationDate (D:20240301120000Z) >>",
    ]
    var out = "%PDF-1.4\n"
    var offsets: [Int] = []
    for (i, object) in objects.enumerated() {
      offsets.append(out.utf8.count)
      out += "\(i + 1) 0 obj\n\(object)\nendobj\n"
    }
    let xref = out.utf8.count
    out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
    for offset in offsets { out += String(format: "%010d 00000 n \n", offset) }
    out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R /Info 6 0 R >>\n"
    out += "startxref\n\(xref)\n%%EOF\n"
    return Array(out.utf8)
  }

  /// A WAV file of silence (8 kHz, mono, 8-bit) with an ID3v2.3 tag in an `id3 ` chunk.
  static func wav(seconds: Int, tags: [String: String]) -> [UInt8] {
    func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> ($0 * 8)) & 0xFF) } }
    func be32(_ v: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((v >> ($0 * 8)) & 0xFF) } }
    func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8((v >> ($0 * 8)) & 0xFF) } }
    func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
      Array(id.utf8) + le32(body.count) + body + (body.count % 2 == 1 ? [0] : [])
    }
    var frames: [UInt8] = []
    for (id, value) in tags.sorted(by: { $0.key < $1.key }) {
      let body = [0] + Array(value.utf8)  // ISO-8859-1 text
      frames += Array(id.utf8) + be32(body.count) + [0, 0] + body
    }
    let synchsafe = (0..<4).reversed().map { UInt8((frames.count >> ($0 * 7)) & 0x7F) }
    let id3 = Array("ID3".utf8) + [3, 0, 0] + synchsafe + frames
    let format = le16(1) + le16(1) + le32(8000) + le32(8000) + le16(1) + le16(8)
    let body =
      Array("WAVE".utf8) + chunk("fmt ", format)
      + chunk("data", Array(repeating: 0x80, count: 8000 * seconds)) + chunk("id3 ", id3)
    return chunk("RIFF", body)
  }

  /// An MP4 header: `ftyp`, and `moov` with `mvhd` and one video track's `tkhd`.
  static func mp4(seconds: Double, width: Int, height: Int) -> [UInt8] {
    func be(_ v: Int, _ n: Int) -> [UInt8] {
      (0..<n).reversed().map { UInt8((v >> ($0 * 8)) & 0xFF) }
    }
    func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
      be(body.count + 8, 4) + Array(type.utf8) + body
    }
    let ticks = Int(seconds * 1000)
    let mvhd: [UInt8] =
      [0, 0, 0, 0] + be(0, 4) + be(0, 4) + be(1000, 4) + be(ticks, 4)
      + Array(repeating: 0, count: 80)
    var tkhd: [UInt8] = [0, 0, 0, 3] + be(0, 4) + be(0, 4) + be(1, 4) + be(0, 4) + be(ticks, 4)
    tkhd += Array(repeating: 0, count: 16) + Array(repeating: 0, count: 36)
    tkhd += be(width << 16, 4) + be(height << 16, 4)
    return box("ftyp", Array("isom".utf8) + be(512, 4) + Array("isomiso2mp41".utf8))
      + box("moov", box("mvhd", mvhd) + box("trak", box("tkhd", tkhd)))
      + box("mdat", Array(repeating: 0, count: 64))
  }

  /// A WebM header: EBML, then a Segment with Info (scale, duration, title)
  /// and one video track.
  static func webm(title: String, seconds: Double, width: Int, height: Int) -> [UInt8] {
    func element(_ id: [UInt8], _ body: [UInt8]) -> [UInt8] {
      // Sizes as 8-byte EBML numbers (0x01, then 7 bytes).
      id + [0x01] + (0..<7).reversed().map { UInt8((body.count >> ($0 * 8)) & 0xFF) } + body
    }
    func uint(_ v: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((v >> ($0 * 8)) & 0xFF) } }
    let duration = (seconds * 1000).bitPattern
    var info = element([0x2A, 0xD7, 0xB1], uint(1_000_000))
    info += element(
      [0x44, 0x89], (0..<8).reversed().map { UInt8((duration >> UInt64($0 * 8)) & 0xFF) })
    info += element([0x7B, 0xA9], Array(title.utf8))
    let video = element([0xB0], uint(width)) + element([0xBA], uint(height))
    let tracks = element([0xAE], element([0xD7], [1]) + element([0xE0], video))
    var segment = element([0x15, 0x49, 0xA9, 0x66], info)
    segment += element([0x16, 0x54, 0xAE, 0x6B], tracks)
    segment += element([0x1F, 0x43, 0xB6, 0x75], Array(repeating: 0, count: 32))
    return element([0x1A, 0x45, 0xDF, 0xA3], element([0x42, 0x82], Array("webm".utf8)))
      + element([0x18, 0x53, 0x80, 0x67], segment)
  }

  /// An AVI header: RIFF AVI, LIST hdrl, avih.
  static func avi(frames: Int, fps: Int, width: Int, height: Int) -> [UInt8] {
    func le(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> ($0 * 8)) & 0xFF) } }
    var avih = le(1_000_000 / fps) + le(0) + le(0) + le(0) + le(frames) + le(0) + le(1) + le(0)
    avih += le(width) + le(height) + Array(repeating: 0, count: 16)
    let hdrl = Array("hdrl".utf8) + Array("avih".utf8) + le(avih.count) + avih
    let body = Array("AVI ".utf8) + Array("LIST".utf8) + le(hdrl.count) + hdrl
    return Array("RIFF".utf8) + le(body.count) + body
  }

  static func tar(_ arguments: [String]) throws {
    try FileManager.default.createDirectory(
      atPath: (arguments[1] as NSString).deletingLastPathComponent,
      withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/tar")
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }
}

/// A thumbnail as file managers write it: PNG with `Thumb::URI` and `Thumb::MTime`.
enum ThumbnailPNG {
  static func with(uri: String, modified: Int64) -> [UInt8] {
    func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
      let n = body.count
      return [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
        + Array(type.utf8) + body + [0, 0, 0, 0]
    }
    let png = ImporterTests.png(width: 2, height: 2)
    // After the signature and IHDR (8 + 25 bytes), before the rest.
    return Array(png.prefix(33))
      + chunk("tEXt", Array("Thumb::URI".utf8) + [0] + Array(uri.utf8))
      + chunk("tEXt", Array("Thumb::MTime".utf8) + [0] + Array(String(modified).utf8))
      + Array(png.dropFirst(33))
  }
}
