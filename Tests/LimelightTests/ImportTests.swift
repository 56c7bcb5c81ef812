import Foundation
import LimelightModel
import LimelightPlatform
import Testing

@testable import LimelightImport

@Suite struct TextDecoderTests {
  @Test func utf8AndByteOrderMarks() {
    #expect(TextDecoder.decode(Array("héllo".utf8), truncated: false, charset: nil) == "héllo")
    #expect(
      TextDecoder.decode([0xEF, 0xBB, 0xBF] + Array("bom".utf8), truncated: false, charset: nil)
        == "bom")
    let utf16: [UInt8] = [0xFF, 0xFE, 0x68, 0x00, 0x69, 0x00]
    #expect(TextDecoder.decode(utf16, truncated: false, charset: nil) == "hi")
  }

  @Test func legacyEncodings() {
    #expect(
      TextDecoder.decode([0x63, 0x61, 0x66, 0xE9], truncated: false, charset: "iso-8859-1")
        == "café")
    #expect(
      TextDecoder.decode([0x63, 0x61, 0x66, 0xE9], truncated: false, charset: "unknown-8bit")
        == "café")
    #expect(TextDecoder.decode([0x80, 0x20, 0x31], truncated: false, charset: nil) == "€ 1")
  }

  @Test func binaryIsRefused() {
    #expect(
      TextDecoder.decode([0x7F, 0x45, 0x4C, 0x46, 0x00, 0x01], truncated: false, charset: nil)
        == nil)
  }

  @Test func aSequenceCutByTheCapIsDropped() {
    let bytes = Array("abc é".utf8).dropLast()
    #expect(TextDecoder.decode(Array(bytes), truncated: true, charset: nil) == "abc ")
  }
}

@Suite struct FileImporterTests {
  let mime = MIMEDatabase()

  func withFile(_ name: String, _ bytes: [UInt8], _ body: (RawPath) throws -> Void) throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("limelight-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    try body(RawPath(url.path))
  }

  @Test func textFilesGetTypeTextAndDescription() throws {
    try withFile("notes.md", Array("# Title Here\n\nBody text.\n".utf8)) { path in
      let importer = FileImporter(mime: mime, maxTextBytes: 1 << 20)
      let record = importer.record(for: path, status: FileSystem.status(path)!, hidden: false)
      #expect(record.attributes.contentType == "text/markdown")
      #expect(record.attributes.title == "Title Here")
      #expect(record.attributes.textContent?.contains("Body text.") == true)
      #expect(record.attributes.contentDescription == "# Title Here Body text.")
      #expect(record.attributes.kind != nil)
    }
  }

  /// A drawing as Inkscape saves one: Dublin Core metadata (a title, a
  /// description, keywords, a creator and a publisher), a text element, and
  /// path data that is no text of it.
  @Test func drawingsGiveTheirMetadataNotTheirPaths() throws {
    let svg = """
      <?xml version="1.0" encoding="UTF-8" standalone="no"?>
      <!-- Created with Inkscape (http://www.inkscape.org/) -->
      <svg xmlns="http://www.w3.org/2000/svg" xmlns:dc="http://purl.org/dc/elements/1.1/" \
      xmlns:cc="http://web.resource.org/cc/" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" \
      width="210mm" height="297mm">
        <metadata><rdf:RDF><cc:Work rdf:about="">
          <dc:title></dc:title>
          <dc:description>Mechanical horse jumping over a clock</dc:description>
          <dc:subject><rdf:Bag><rdf:li>mammal</rdf:li><rdf:li>robot</rdf:li></rdf:Bag></dc:subject>
          <dc:publisher><cc:Agent><dc:title>Open Clip Art Library</dc:title></cc:Agent></dc:publisher>
          <dc:creator><cc:Agent><dc:title>John Atkeson</dc:title></cc:Agent></dc:creator>
          <dc:format>image/svg+xml</dc:format>
        </cc:Work></rdf:RDF></metadata>
        <title>Tempus Fugit</title>
        <style>.a { fill: #ff0000 }</style>
        <path d="M 314.24352,649.34614 C 314.10118,649.08014 313.98473,648.60114 z"/>
        <text x="10" y="20"><tspan>Time</tspan> <tspan>flies</tspan></text>
      </svg>
      """
    try withFile("mechorse.svg", Array(svg.utf8)) { path in
      let importer = FileImporter(mime: mime, maxTextBytes: 1 << 20)
      let record = importer.record(for: path, status: FileSystem.status(path)!, hidden: false)
      let attributes = record.attributes
      #expect(attributes.contentType == "image/svg+xml")
      #expect(attributes.title == "Tempus Fugit")
      #expect(attributes.authors == ["John Atkeson"])
      #expect(attributes.keywords == ["mammal", "robot"])
      #expect(attributes.contentDescription == "Mechanical horse jumping over a clock")
      #expect(attributes.textContent == "Mechanical horse jumping over a clock\nTime flies")
    }
  }

  @Test func contentWinsWhenTheNameLies() throws {
    // A 1×1 PNG (signature and IHDR chunk) in a file called .txt.
    let png: [UInt8] =
      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]
      + [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1F, 0x15, 0xC4, 0x89]
      + Array(repeating: 0, count: 16)
    try withFile("fake.txt", png) { path in
      let importer = FileImporter(mime: mime, maxTextBytes: 1 << 20)
      let record = importer.record(for: path, status: FileSystem.status(path)!, hidden: false)
      #expect(record.attributes.contentType == "image/png")
      #expect(record.attributes.textContent == nil)
    }
  }

  @Test func binaryContentUnderATextNameIsNotText() throws {
    try withFile("data.txt", [0x00, 0x01, 0x02, 0xFF, 0x00, 0x10] + Array(repeating: 0, count: 64))
    { path in
      let importer = FileImporter(mime: mime, maxTextBytes: 1 << 20)
      let record = importer.record(for: path, status: FileSystem.status(path)!, hidden: false)
      #expect(record.attributes.contentType != "text/plain")
      #expect(record.attributes.textContent == nil)
    }
  }

  @Test func textIsCappedAndEmptyFilesAreFine() throws {
    try withFile("big.txt", Array(repeating: UInt8(ascii: "a"), count: 10_000)) { path in
      let importer = FileImporter(mime: mime, maxTextBytes: 100)
      let record = importer.record(for: path, status: FileSystem.status(path)!, hidden: false)
      #expect(record.attributes.textContent?.count == 100)
    }
    try withFile("empty.txt", []) { path in
      let importer = FileImporter(mime: mime, maxTextBytes: 100)
      let record = importer.record(for: path, status: FileSystem.status(path)!, hidden: false)
      #expect(record.attributes.contentType == "text/plain")
      #expect(record.extractionError == nil)
    }
  }

  /// The repository's own manual page, and the shapes of roff it lacks.
  @Test func manualPagesReadAsTheyShow() throws {
    let source = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../man/man1/find-in.1"), encoding: .utf8)
    let page = try #require(ManPageText(source: source))
    #expect(page.name == "find-in - find files and application items in the Limelight index")
    for roff in [".TH", ".SH", ".B ", "\\f", "\\-", "\\(", ".RB"] {
      #expect(!page.text.contains(roff), "\(roff)")
    }
    #expect(page.text.contains("[ --json | -0 ]"))
    let mdoc = try #require(
      ManPageText(
        source: """
          .Dd June 1, 2024
          .Dt LS 1
          .Sh NAME
          .Nm ls
          .Nd list directory contents
          .Sh DESCRIPTION
          For each operand that names a \\fIfile\\fP, \\*(Lqls\\*(Rq writes
          .Ar file
          \\(em its name \\" a comment
          """))
    #expect(mdoc.name == "ls - list directory contents")
    #expect(mdoc.text.contains("For each operand that names a file, ls writes\nfile\n— its name"))
    // Macro definitions and the requests that set up a page's links, as
    // util-linux's pages begin (they read "\$2 <\$1>\$3 MTO URL www.tmac
    // blue R < >"), are no text of it.
    let linked = try #require(
      ManPageText(
        source: """
          '\\" t
          .TH UMOUNT 8 "2022" "util-linux 2.38.1" "System Administration"
          .UC 4
          .IX Title "UMOUNT 8"
          .de  URL
          \\fI\\\\$2\\fP <\\\\$1>\\\\$3
          ..
          .als MTO URL
          .if  \\n[.g] \\{\\
          .  mso www.tmac
          .  am URL
          .    ad l
          .  .
          .  LINKSTYLE blue R < >
          .\\}
          .de Sp \\" Vertical space (when we can't use .PP)
          .if t .sp .5v
          ..
          .nr rF 0
          .rr rF
          .de XX END
          hidden words
          .END
          .ig
          ignored words
          ..
          .SH NAME
          umount \\- unmount filesystems
          .SH DESCRIPTION
          The umount command detaches the mentioned file system(s).
          """))
    #expect(
      linked.text
        == "NAME\numount - unmount filesystems\nDESCRIPTION\nThe umount command detaches the mentioned file system(s).",
      "\(linked.text)")
    // Without a header or a section it is no page: a rotated log.
    #expect(ManPageText(source: "Nov 24 kernel: started\n.profile read\n") == nil)
  }

  /// Subtitles, RTF, notebooks and FictionBook as their producers write
  /// them (SubRip and WebVTT files, an RTF as WordPad saves one, an
  /// nbformat 4 notebook as Jupyter saves one, a FictionBook 2 book).
  @Test func textFormatsGiveWhatTheyShow() throws {
    let srt =
      "1\n00:00:01,000 --> 00:00:03,000\n<i>The walrus</i> speaks\n\n2\n00:00:04,000 --> 00:00:05,000\nof ships\n"
    #expect(TextFormats.subtitles(srt) == "The walrus speaks\nof ships")
    let vtt =
      "WEBVTT\n\nNOTE a comment\nhidden words\n\n00:01.000 --> 00:04.000\nPenguins <b>march</b>\n"
    #expect(TextFormats.subtitles(vtt) == "Penguins march")
    let rtf =
      #"{\rtf1\ansi{\fonttbl{\f0 Times;}}{\info{\title Hidden}}\f0 Caf\'e9 au lait\par Second \u8364? euro{\*\generator Word;}\'93quoted\'94}"#
    #expect(TextFormats.rtf(rtf) == "Café au lait\nSecond € euro“quoted”")
    let notebook = #"""
      {"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# Tide Analysis\n", "The estuary"]},
       {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [{"name": "stdout", "output_type": "stream", "text": ["outputword\n"]}], "source": "print('barnacle')"}],
       "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
      """#
    let read = try #require(TextFormats.notebook(notebook))
    #expect(read.title == "Tide Analysis")
    #expect(read.text.contains("The estuary") && read.text.contains("barnacle"))
    #expect(!read.text.contains("outputword"))
    #expect(TextFormats.notebook("{not json") == nil)
    let book = """
      <?xml version="1.0" encoding="UTF-8"?>
      <FictionBook xmlns="http://www.gribuse.com/FictionBook2.0"><description><title-info>\
      <author><first-name>Anton</first-name><last-name>Chekhov</last-name></author>\
      <book-title>The Seagull</book-title></title-info></description>\
      <body><section><p>Nina dreams of the lake</p></section></body>\
      <binary id="c.jpg" content-type="image/jpeg">QUJDREVGR0hJSktMTU5PUA==</binary></FictionBook>
      """
    let fb2 = try #require(TextFormats.fictionBook(book))
    #expect(fb2.title == "The Seagull" && fb2.authors == ["Anton Chekhov"])
    #expect(fb2.text.trimmingCharacters(in: .whitespacesAndNewlines) == "Nina dreams of the lake")
  }

  @Test func reconcileRules() {
    #expect(
      FileImporter.reconcile(magic: "text/plain", glob: "text/markdown", mime: mime)
        == "text/markdown")
    #expect(
      FileImporter.reconcile(
        magic: "application/zip", glob: "application/vnd.oasis.opendocument.text", mime: mime)
        == "application/vnd.oasis.opendocument.text")
    #expect(
      FileImporter.reconcile(magic: "image/png", glob: "image/jpeg", mime: mime) == "image/png")
    #expect(
      FileImporter.reconcile(magic: "application/octet-stream", glob: "image/x-foo", mime: mime)
        == "image/x-foo")
    // libmagic cannot tell C from C++: the name can.
    #expect(
      FileImporter.reconcile(magic: "text/x-c++src", glob: "text/x-csrc", mime: mime)
        == "text/x-csrc")
    #expect(
      FileImporter.reconcile(magic: "text/x-c++src", glob: "text/plain", mime: mime)
        == "text/plain")
  }
}

/// The helper's exchange, both sides from one type.
@Suite struct HelperWireTests {
  @Test func requestsAndRepliesReadBackAsSent() throws {
    let request = HelperWire.Request(
      contentType: "application/pdf", textLimit: 4096,
      path: RawPath(bytes: Array("/h/odd\nname \u{FF}.pdf".utf8) + [0xFF]))
    let sent = request.encoded
    #expect(sent.last == 0)
    #expect(HelperWire.Request(encoded: Array(sent.dropLast())) == request)
    #expect(HelperWire.Request(encoded: Array("text/plain\nnone\n/x".utf8)) == nil)
    #expect(HelperWire.Request(encoded: Array("text/plain\n0\n/x".utf8)) == nil)
    let replies: [HelperWire.Reply] = [
      .attributes(Array("{\"a\":1}".utf8), text: nil),
      .attributes(Array("{}".utf8), text: Array("a text\n\"quoted\" \u{1F600}".utf8)),
      .attributes(Array("{\"a\":1}".utf8), text: []), .failure("malformed: x"),
    ]
    for reply in replies {
      let framed = reply.framed
      let length = framed.prefix(4).reduce(0) { $0 << 8 | Int($1) }
      #expect(length == framed.count - 4)
      #expect(HelperWire.Reply(body: Array(framed.dropFirst(4))) == reply)
    }
    #expect(HelperWire.Reply(body: Array("Xwhat".utf8)) == nil)
    #expect(HelperWire.Reply(body: []) == nil)
    // A JSON longer than the body, or a length cut short.
    #expect(HelperWire.Reply(body: Array("T\u{0}\u{0}\u{0}\u{9}{}".utf8)) == nil)
    #expect(HelperWire.Reply(body: Array("T\u{0}\u{0}".utf8)) == nil)
  }
}

@Suite struct MarkupTextTests {
  /// LibreOffice writes OOXML slides indented: the indentation between
  /// tags is layout, not text (a slide's text read as 90 spaces and its line).
  @Test func indentationBetweenTagsIsNotText() {
    let slide = """
      <p:sld><p:cSld><p:spTree><p:nvGrpSpPr>        <p:cNvPr id="1" name=""/>        \
      <p:nvPr/>      </p:nvGrpSpPr>      <p:sp><p:txBody><a:p><a:r><a:t>Quarterly zebrafish \
      review</a:t></a:r></a:p><a:p><a:r><a:t>second</a:t></a:r>   <a:r><a:t>run</a:t></a:r>\
      </a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>
      """
    let text = MarkupText(slide).text
    #expect(
      text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        == ["Quarterly zebrafish review", "second run"])
    #expect(!text.contains("  "))
  }

  /// Whitespace between inline elements still keeps their words apart.
  @Test func spaceBetweenInlineElementsKeepsWordsApart() {
    #expect(MarkupText("<p><b>bold</b> <i>italic</i></p>").text.contains("bold italic"))
  }

  /// The scan reads bytes: comments holding ">", entities, a carriage
  /// return before a block's end, and white space outside ASCII between
  /// tags read as a Character at a time would.
  @Test func commentsEntitiesAndWhiteSpaceReadAsCharactersWould() {
    let page = MarkupText(
      "<title>T &amp; U</title><body><!-- a > b --><p>one &amp; &#x41;&#66; &bogus; &</p>"
        + "<p>two</p><p>a\r\n</p><p>b</p><b>x</b>\u{3000}<i>y</i>\u{3000}<em>Z</em>")
    #expect(page.title == "T & U")
    #expect(page.text == "one & AB &bogus; &\ntwo\na\r\n\nb\nx y Z")
    let kept = MarkupText("<dc:Title>Ünïcode  title</dc:Title><x/>", keep: ["title"])
    #expect(kept.elements["title"] == ["Ünïcode title"])
  }
}
