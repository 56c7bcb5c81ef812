import Foundation
import LimelightImport
import LimelightModel
import LimelightPlatform
import Testing
import ZIPFoundation

/// Every format an importer reads: sample files made here, what `find-in` finds
/// inside them, what `limelight show` reports, and malformed variants that
/// cost only themselves.
@Suite struct ImporterTests {
  let instance: Instance

  init() throws {
    instance = try Instance()
    try instance.write(
      "Web/page.html",
      """
      <html><head><title>Quarterly Harbour Report</title>
      <meta name="keywords" content="shipping, tides">
      <meta name="description" content="How the harbour did this quarter.">
      <script>var hiddenscriptword = 1;</script><style>.stylistword{}</style></head>
      <body><h1>Harbour</h1><p>Cargo volumes rose&nbsp;by a third &amp; more.</p></body></html>
      """)
    try instance.write(
      "Mail/message.eml",
      """
      From: Ada Lovelace <ada@example.org>
      To: Charles Babbage <charles@example.org>
      Subject: =?utf-8?Q?Analytical_engine_=E2=80=94_notes?=
      Date: Tue, 1 Jul 2003 10:52:37 +0200
      MIME-Version: 1.0
      Content-Type: multipart/alternative; boundary="XYZ"

      --XYZ
      Content-Type: text/plain; charset=utf-8
      Content-Transfer-Encoding: quoted-printable

      The engine weaves algebraic patterns like the Jacquard loom =
      weaves flowers.
      --XYZ
      Content-Type: text/html

      <p>htmlonlyword</p>
      --XYZ--

      """)
    try instance.write(
      "Mail/archive.mbox",
      """
      From alice@example.org Mon Jan  1 00:00:00 2024
      From: Alice <alice@example.org>
      Subject: Greenhouse tomatoes

      The greenhouse needs watering.

      From bob@example.org Tue Jan  2 00:00:00 2024
      From: Bob <bob@example.org>
      Subject: Beekeeping

      Swarm season starts early this year.

      """)
    try Self.zip(
      instance.path("Office/letter.docx"),
      [
        "[Content_Types].xml": "<Types/>",
        "word/document.xml":
          "<w:document><w:body><w:p><w:r><w:t>Dear</w:t></w:r><w:r><w:t xml:space=\"preserve\"> committee,</w:t></w:r></w:p><w:p><w:r><w:t>the zeppelin budget</w:t></w:r></w:p></w:body></w:document>",
        "docProps/core.xml":
          "<cp:coreProperties><dc:title>Funding Letter</dc:title><dc:creator>Grace Hopper</dc:creator><cp:keywords>airships; grants</cp:keywords><dcterms:created>2021-04-05T06:07:08Z</dcterms:created></cp:coreProperties>",
        "docProps/app.xml": "<Properties><Pages>2</Pages></Properties>",
      ])
    try Self.zip(
      instance.path("Office/sheet.xlsx"),
      ["xl/sharedStrings.xml": "<sst><si><t>Marmalade</t></si><si><t>inventory</t></si></sst>"])
    try Self.zip(
      instance.path("Office/deck.pptx"),
      [
        "ppt/slides/slide1.xml": "<p:sld><a:p><a:r><a:t>Photosynthesis</a:t></a:r></a:p></p:sld>",
        "ppt/slides/slide2.xml": "<p:sld><a:p><a:r><a:t>chlorophyll</a:t></a:r></a:p></p:sld>",
      ])
    try Self.zip(
      instance.path("Office/notes.odt"),
      [
        "mimetype": "application/vnd.oasis.opendocument.text",
        "content.xml":
          "<office:document-content><office:body><office:text><text:h>Volcano</text:h><text:p>Basalt columns cool slowly.</text:p></office:text></office:body></office:document-content>",
        "meta.xml":
          "<office:document-meta><office:meta><dc:title>Field Notes</dc:title><meta:initial-creator>Mary Anning</meta:initial-creator><meta:keyword>geology</meta:keyword><meta:creation-date>2006-08-15T13:56:07.51</meta:creation-date><meta:document-statistic meta:page-count=\"3\"/></office:meta></office:document-meta>",
      ])
    try Self.zip(
      instance.path("Books/novel.epub"),
      [
        "mimetype": "application/epub+zip",
        "META-INF/container.xml":
          "<container><rootfiles><rootfile full-path=\"OEBPS/content.opf\" media-type=\"application/oebps-package+xml\"/></rootfiles></container>",
        "OEBPS/content.opf":
          "<package><metadata><dc:title>The Lighthouse Keeper</dc:title><dc:creator>Emily Stone</dc:creator><dc:date>1927-05</dc:date></metadata><manifest><item id=\"c1\" href=\"chapter1.xhtml\" media-type=\"application/xhtml+xml\"/></manifest><spine><itemref idref=\"c1\"/></spine></package>",
        "OEBPS/chapter1.xhtml": "<html><body><p>The albatross circled twice.</p></body></html>",
      ])
    try instance.write(
      "Apps/org.example.Browser.desktop",
      """
      [Desktop Entry]
      Type=Application
      Name=Firefly Browser
      Name[de]=Glühwurm-Browser
      GenericName=Web Browser
      Comment=Browse the World Wide Web
      Keywords=Internet;WWW;
      Icon=firefly
      Exec=firefly %u
      """)
    try instance.write("Pictures/photo.jpg", bytes: Self.jpegWithExif())
    try instance.write("Pictures/tiny.png", bytes: Self.png(width: 3, height: 2))
    // Malformed and hostile variants.
    try instance.write("Office/broken.docx", bytes: Array("PK\u{3}\u{4}not really a zip".utf8))
    try instance.write("Pictures/truncated.jpg", bytes: Array(Self.jpegWithExif().prefix(40)))
    try Self.zip(
      instance.path("Office/bomb.docx"),
      ["word/document.xml": String(repeating: "<w:t>a</w:t>", count: 6_000_000)])
    try instance.indexOnce()
  }

  @Test func wordsInsideDocumentsAreFound() throws {
    let expectations: [(String, String)] = [
      ("cargo", "Web/page.html"), ("weaves", "Mail/message.eml"),
      ("swarm", "Mail/archive.mbox"), ("greenhouse", "Mail/archive.mbox"),
      ("zeppelin", "Office/letter.docx"), ("marmalade", "Office/sheet.xlsx"),
      ("chlorophyll", "Office/deck.pptx"), ("basalt", "Office/notes.odt"),
      ("albatross", "Books/novel.epub"),
      // Properties are searchable too: titles, authors, keywords, camera.
      ("harbour report", "Web/page.html"), ("tides", "Web/page.html"),
      ("lovelace", "Mail/message.eml"), ("hopper", "Office/letter.docx"),
      ("airships", "Office/letter.docx"), ("anning", "Office/notes.odt"),
      ("lighthouse keeper", "Books/novel.epub"), ("pentax", "Pictures/photo.jpg"),
    ]
    for (query, path) in expectations {
      #expect(
        try instance.findPaths(query.split(separator: " ").map(String.init)) == [path], "\(query)")
    }
    // Launchers by their name, generic name and keywords.
    for query in ["firef", "web browser", "www"] {
      #expect(
        try instance.findPaths(query.split(separator: " ").map(String.init)) == [
          "Apps/org.example.Browser.desktop"
        ], "\(query)")
    }
    // Scripts, styles and markup are not text.
    for word in ["hiddenscriptword", "stylistword", "body", "w:t"] {
      #expect(try instance.findPaths([word]).isEmpty, "\(word)")
    }
    // Words run across formatting runs stay whole.
    #expect(try instance.findPaths(["dear", "committee"]) == ["Office/letter.docx"])
  }

  @Test func attributesShowEverythingAFormatTells() throws {
    let letter = try instance.show("Office/letter.docx")
    #expect(letter["title"] as? String == "Funding Letter")
    #expect(letter["authors"] as? [String] == ["Grace Hopper"])
    #expect(letter["pageCount"] as? Int == 2)
    #expect((letter["keywords"] as? [String])?.contains("grants") == true)
    // Documents' own creation dates (with a zone, without one, a month alone).
    #expect(letter["contentCreationDate"] as? String == "2021-04-05T06:07:08Z")
    #expect(
      try instance.show("Office/notes.odt")["contentCreationDate"] as? String
        == "2006-08-15T13:56:07Z")
    #expect(
      try instance.show("Books/novel.epub")["contentCreationDate"] as? String
        == "1927-05-01T00:00:00Z")
    #expect(try instance.findPaths("created:1927") == ["Books/novel.epub"])
    let mail = try instance.show("Mail/message.eml")
    #expect(mail["title"] as? String == "Analytical engine — notes")
    #expect(mail["authors"] as? [String] == ["Ada Lovelace <ada@example.org>"])
    #expect(mail["recipients"] as? [String] == ["Charles Babbage <charles@example.org>"])
    #expect((mail["contentCreationDate"] as? String)?.hasPrefix("2003-07-01T08:52:37") == true)
    let odt = try instance.show("Office/notes.odt")
    #expect(odt["title"] as? String == "Field Notes")
    #expect(odt["pageCount"] as? Int == 3)
    let page = try instance.show("Web/page.html")
    #expect(page["title"] as? String == "Quarterly Harbour Report")
    #expect(page["contentDescription"] as? String == "How the harbour did this quarter.")
    let photo = try instance.show("Pictures/photo.jpg")
    #expect(photo["pixelWidth"] as? Int == 640)
    #expect(photo["pixelHeight"] as? Int == 480)
    #expect(photo["cameraMake"] as? String == "PENTAX")
    #expect(photo["cameraModel"] as? String == "K-1")
    #expect(photo["orientation"] as? Int == 6)
    #expect((photo["latitude"] as? Double).map { abs($0 - 48.8583) < 0.001 } == true)
    #expect((photo["longitude"] as? Double).map { abs($0 + 2.2945) < 0.001 } == true)
    #expect((photo["contentCreationDate"] as? String)?.hasPrefix("2024-07-14") == true)
    let png = try instance.show("Pictures/tiny.png")
    #expect(png["pixelWidth"] as? Int == 3 && png["pixelHeight"] as? Int == 2)
    // By URI and by id too; the terminal form lists the same attributes.
    let uri = try #require(instance.find("zeppelin").first)
    #expect(try instance.run("limelight", ["show", uri]).stdout.contains("Funding Letter"))
    let id = try #require(letter["id"] as? String)
    #expect(try instance.run("limelight", ["show", id]).stdout.contains("pageCount"))
    #expect(try instance.run("limelight", ["show", "Nowhere/at-all.txt"]).status == 1)
  }

  /// TIFF images as Pillow writes them, with the directory after the
  /// pixels (a scan of 3,000 × 2,000, a camera's frame with its EXIF
  /// fields): their size, camera and date, as a JPEG's.
  @Test func tiffImagesGiveTheirSizeAndCamera() throws {
    let script = """
      import sys
      from PIL import Image
      exif = Image.Exif()
      exif[0x010F] = "NIKON"; exif[0x0110] = "D750"; exif[0x0132] = "2021:05:04 10:11:12"
      Image.new("RGB", (640, 480)).save(sys.argv[1] + "/frame.tiff", exif=exif)
      Image.new("L", (3000, 2000)).save(sys.argv[1] + "/scan.tif", compression="tiff_lzw")
      """
    try instance.mkdir("Scans")
    let made = try instance.run("/usr/bin/python3", ["-c", script, instance.path("Scans")])
    try #require(made.status == 0, "Pillow (python3-pil) wrote no TIFF: \(made.stderr)")
    try instance.indexOnce()
    let frame = try instance.show("Scans/frame.tiff")
    #expect(frame["pixelWidth"] as? Int == 640 && frame["pixelHeight"] as? Int == 480)
    #expect(frame["cameraMake"] as? String == "NIKON")
    #expect(frame["cameraModel"] as? String == "D750")
    #expect((frame["contentCreationDate"] as? String)?.hasPrefix("2021-05-04") == true)
    let scan = try instance.show("Scans/scan.tif")
    #expect(scan["pixelWidth"] as? Int == 3000 && scan["pixelHeight"] as? Int == 2000)
    #expect(scan["extractionError"] as? String == nil)
    #expect(try instance.findPaths("nikon") == ["Scans/frame.tiff"])
  }

  /// A workbook as openpyxl (and pandas through it) writes one: every
  /// cell's text inline, no shared strings.
  @Test func workbooksWrittenByOpenpyxlGiveTheirCells() throws {
    let instance = try Instance()
    let path = instance.path("Office/pantry.xlsx")
    try FileManager.default.createDirectory(
      atPath: instance.path("Office"), withIntermediateDirectories: true)
    let process = Process()
    // Debian's Python, which has Debian's openpyxl.
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [
      "-c",
      """
      import openpyxl, sys
      book = openpyxl.Workbook()
      sheet = book.active
      sheet["A1"] = "Marmalade jars"
      sheet["B1"] = 42
      sheet["C1"] = 4711
      book.create_sheet("Cellar")["C3"] = "quince jelly"
      book.properties.title = "Pantry Stock"
      book.properties.creator = "Isabella Beeton"
      book.save(sys.argv[1])
      """,
      path,
    ]
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "openpyxl (python3-openpyxl) wrote no workbook")
    try instance.indexOnce()
    #expect(try instance.findPaths("marmalade") == ["Office/pantry.xlsx"])
    #expect(try instance.findPaths("quince", "jelly") == ["Office/pantry.xlsx"])
    // Numbers are cells' words too, as in OpenDocument and Excel 97 files.
    #expect(try instance.findPaths("4711") == ["Office/pantry.xlsx"])
    let shown = try instance.show("Office/pantry.xlsx")
    #expect(shown["title"] as? String == "Pantry Stock")
    #expect(shown["authors"] as? [String] == ["Isabella Beeton"])
    #expect(!(shown["extractionError"] is String))
  }

  /// Office files of before 2007: a workbook as xlwt (the Python library
  /// pandas wrote `.xls` with) writes one, read by catdoc's xls2csv; a
  /// `.doc` that is RTF inside (as AbiWord and WordPad save it) read as RTF;
  /// a damaged `.doc`, `.xls` and `.ppt`, each with the tool's reason.
  @Test func legacyOfficeFilesGiveTheirTextThroughDebiansTools() throws {
    let instance = try Instance()
    try FileManager.default.createDirectory(
      atPath: instance.path("Office"), withIntermediateDirectories: true)
    let process = Process()
    // Debian's Python, which has Debian's xlwt.
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [
      "-c",
      """
      import xlwt, sys
      book = xlwt.Workbook()
      book.add_sheet("Hangars").write(0, 0, "Zeppelin moorings")
      sheet = book.add_sheet("Keller")
      sheet.write(2, 1, "Quittengelee für Überstunden")
      sheet.write(3, 1, 1852)
      book.save(sys.argv[1])
      """,
      instance.path("Office/hangars.xls"),
    ]
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "xlwt (python3-xlwt) wrote no workbook")
    try instance.write(
      "Office/minutes.doc",
      "{\\rtf1\\ansi\\deff0 {\\fonttbl {\\f0 Times;}} Minutes of the dirigible committee\\par}\n")
    // The head of the workbook: an OLE file cut short.
    let workbook = try #require(
      FileManager.default.contents(atPath: instance.path("Office/hangars.xls")))
    for name in ["broken.doc", "broken.xls", "broken.ppt"] {
      try instance.write("Office/" + name, bytes: Array(workbook.prefix(1536)))
    }
    try instance.indexOnce()
    #expect(try instance.findPaths("zeppelin", "moorings") == ["Office/hangars.xls"])
    #expect(try instance.findPaths("quittengelee") == ["Office/hangars.xls"])
    #expect(try instance.findPaths("uberstunden") == ["Office/hangars.xls"])
    let workbookShown = try instance.show("Office/hangars.xls")
    #expect(workbookShown["contentType"] as? String == "application/vnd.ms-excel")
    #expect(!(workbookShown["extractionError"] is String))
    #expect(try instance.findPaths("dirigible") == ["Office/minutes.doc"])
    for name in ["broken.doc", "broken.xls", "broken.ppt"] {
      let error = try instance.show("Office/" + name)["extractionError"] as? String
      #expect(error?.hasPrefix("malformed: ") == true, "\(name): \(error ?? "no error")")
    }
    #expect(try instance.run("limelight", ["status"]).stdout.contains("broken.doc: malformed"))
  }

  @Test func malformedFilesCostOnlyThemselves() throws {
    for path in ["Office/broken.docx", "Pictures/truncated.jpg", "Office/bomb.docx"] {
      let item = try instance.show(path)
      #expect(item["displayName"] as? String == (path as NSString).lastPathComponent)
      #expect(item["extractionError"] is String, "\(path)")
    }
    let bomb = try instance.show("Office/bomb.docx")
    #expect((bomb["extractionError"] as? String)?.contains("limit") == true)
    // The status lists them too.
    let status = try instance.run("limelight", ["status"]).stdout
    #expect(status.contains("broken.docx: malformed"))
    #expect(status.contains("bomb.docx: "))
  }

  /// Truncated and corrupted variants of every sample, straight into the
  /// importer: none may trap (a trap would take the watcher down).
  @Test func mutatedSamplesNeverCrashTheImporter() throws {
    let importer = FileImporter(mime: MIMEDatabase(), maxTextBytes: 1 << 20)
    var random = SeededRandom(seed: 42)
    let samples = [
      "page.html": "Web/page.html", "message.eml": "Mail/message.eml",
      "archive.mbox": "Mail/archive.mbox", "letter.docx": "Office/letter.docx",
      "notes.odt": "Office/notes.odt", "novel.epub": "Books/novel.epub",
      "photo.jpg": "Pictures/photo.jpg", "tiny.png": "Pictures/tiny.png",
    ]
    for (name, relative) in samples.sorted(by: { $0.key < $1.key }) {
      let original = Array(FileManager.default.contents(atPath: instance.path(relative))!)
      var variants: [[UInt8]] = stride(from: 0, to: original.count, by: max(1, original.count / 40))
        .map { Array(original.prefix($0)) }
      for _ in 0..<120 {
        var mutated = original
        for _ in 0..<(1 + Int(random.next() % 4)) {
          let at = Int(random.next() % UInt64(mutated.count))
          mutated[at] =
            [0, 0xFF, 0x7F, UInt8(truncatingIfNeeded: random.next())][Int(random.next() % 4)]
        }
        variants.append(mutated)
      }
      for (n, bytes) in variants.enumerated() {
        let path = instance.path("Mutants/\(n)-\(name)")
        try instance.write("Mutants/\(n)-\(name)", bytes: bytes)
        let record = importer.record(
          for: RawPath(path), status: FileSystem.status(RawPath(path))!, hidden: false)
        #expect(record.attributes.displayName == "\(n)-\(name)")
      }
    }
  }

  // MARK: - Sample files

  static func zip(_ path: String, _ members: [String: String]) throws {
    try? FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
    for name in members.keys.sorted() {
      let data = Data(members[name]!.utf8)
      try archive.addEntry(
        with: name, type: .file, uncompressedSize: Int64(data.count),
        compressionMethod: .deflate
      ) { position, size in
        data.subdata(in: Int(position)..<Int(position) + size)
      }
    }
  }

  static func png(width: UInt32, height: UInt32) -> [UInt8] {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    bytes += Array("IHDR".utf8) + width.bigEndianBytes + height.bigEndianBytes
    bytes += [8, 2, 0, 0, 0, 0, 0, 0, 0]
    return bytes
  }

  /// A JPEG with an EXIF block (big-endian TIFF): make, model, orientation,
  /// date taken, and a GPS position (the Eiffel Tower), then a 640×480 frame.
  static func jpegWithExif() -> [UInt8] {
    var tiff: [UInt8] = Array("MM".utf8) + [0, 42] + UInt32(8).bigEndianBytes
    // IFD0 at 8: Make, Model, Orientation, ExifIFD, GPS IFD.
    let ifd0Count = 5
    let ifd0Size = 2 + ifd0Count * 12 + 4
    var data: [UInt8] = []
    let dataStart = 8 + ifd0Size
    func entry(_ tag: UInt16, _ type: UInt16, _ count: UInt32, _ value: [UInt8]) -> [UInt8] {
      tag.bigEndianBytes + type.bigEndianBytes + count.bigEndianBytes + value
    }
    /// The count and value field of an ASCII entry: inline when it fits in four bytes.
    func ascii(_ text: String) -> (UInt32, [UInt8]) {
      let bytes = Array(text.utf8) + [0]
      if bytes.count <= 4 {
        return (UInt32(bytes.count), bytes + Array(repeating: 0, count: 4 - bytes.count))
      }
      let offset = UInt32(dataStart + data.count)
      data += bytes
      return (UInt32(bytes.count), offset.bigEndianBytes)
    }
    let make = ascii("PENTAX")
    let model = ascii("K-1")
    let exifOffset = UInt32(dataStart + data.count)
    // Exif IFD: DateTimeOriginal.
    let taken = Array("2024:07:14 18:03:22".utf8) + [0]
    let exifIFDSize = 2 + 12 + 4
    let takenOffset = exifOffset + UInt32(exifIFDSize)
    data +=
      UInt16(1).bigEndianBytes + entry(0x9003, 2, UInt32(taken.count), takenOffset.bigEndianBytes)
    data += [0, 0, 0, 0] + taken
    // GPS IFD: N 48°51'29.88", W 2°17'40.2".
    let gpsOffset = UInt32(dataStart + data.count)
    let gpsIFDSize = 2 + 4 * 12 + 4
    let latOffset = gpsOffset + UInt32(gpsIFDSize)
    let lonOffset = latOffset + 24
    func rationals(_ values: [(UInt32, UInt32)]) -> [UInt8] {
      values.flatMap { $0.0.bigEndianBytes + $0.1.bigEndianBytes }
    }
    data += UInt16(4).bigEndianBytes
    data += entry(1, 2, 2, Array("N".utf8) + [0, 0, 0])
    data += entry(2, 5, 3, latOffset.bigEndianBytes)
    data += entry(3, 2, 2, Array("W".utf8) + [0, 0, 0])
    data += entry(4, 5, 3, lonOffset.bigEndianBytes)
    data += [0, 0, 0, 0]
    data += rationals([(48, 1), (51, 1), (2988, 100)]) + rationals([(2, 1), (17, 1), (402, 10)])
    tiff += UInt16(ifd0Count).bigEndianBytes
    tiff += entry(0x010F, 2, make.0, make.1)
    tiff += entry(0x0110, 2, model.0, model.1)
    tiff += entry(0x0112, 3, 1, UInt16(6).bigEndianBytes + [0, 0])
    tiff += entry(0x8769, 4, 1, exifOffset.bigEndianBytes)
    tiff += entry(0x8825, 4, 1, gpsOffset.bigEndianBytes)
    tiff += [0, 0, 0, 0] + data
    let app1 = Array("Exif".utf8) + [0, 0] + tiff
    var jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1] + UInt16(app1.count + 2).bigEndianBytes + app1
    jpeg += [0xFF, 0xC0, 0, 17, 8] + UInt16(480).bigEndianBytes + UInt16(640).bigEndianBytes
    jpeg += [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    jpeg += [0xFF, 0xD9]
    return jpeg
  }
}

extension FixedWidthInteger {
  fileprivate var bigEndianBytes: [UInt8] {
    withUnsafeBytes(of: self.bigEndian) { Array($0) }
  }
}

extension Instance {
  /// `limelight show --json` of a home-relative path, as a dictionary.
  func show(_ relative: String) throws -> [String: Any] {
    let result = try run("limelight", ["show", "--json", path(relative)])
    guard result.status == 0,
      let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        as? [String: Any]
    else { throw ShowFailure(message: "limelight show \(relative): \(result.stderr)") }
    return object
  }

  func findPaths(_ words: [String]) throws -> [String] {
    relativePaths(try run("find-in", words).lines)
  }
}

struct ShowFailure: Error { var message: String }

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct SeededRandom {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
