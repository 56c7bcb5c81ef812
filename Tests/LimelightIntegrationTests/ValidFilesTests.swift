import Foundation
import LimelightPlatform
import Testing

/// Valid files are never errors, whoever made them, and `limelight status`
/// tells the kinds of trouble apart: damaged files, locked documents.
@Suite struct ValidFilesTests {
  let instance: Instance

  init() throws {
    instance = try Instance()
  }

  /// Runs a program of the system's, in the instance's home.
  /// `succeeding`: the exit statuses that mean it worked (qpdf's 3: it
  /// warned, and wrote the file).
  @discardableResult
  func system(_ program: String, _ arguments: [String], succeeding: Set<Int32> = [0]) throws
    -> Int32
  {
    let result = try instance.run(program, arguments)
    #expect(succeeding.contains(result.status), "\(program) \(arguments): \(result.stderr)")
    return result.status
  }

  /// Half a second of silence as a WAV file, written by Python's own module.
  func silence(_ relative: String) throws {
    let script = """
      import sys, wave
      with wave.open(sys.argv[1], "wb") as w:
          w.setnchannels(1); w.setsampwidth(2); w.setframerate(44100)
          w.writeframes(b"\\0\\0" * 22050)
      """
    try instance.mkdir((relative as NSString).deletingLastPathComponent)
    try system("/usr/bin/python3", ["-c", script, instance.path(relative)])
  }

  @Test func shortTaglessAudioOfTwoEncodersIsNoError() throws {
    try silence("Sounds/silence.wav")
    // oggenc (Vorbis) and opusenc (Opus), both without tags.
    try system(
      "/usr/bin/oggenc",
      ["-Q", "-o", instance.path("Sounds/stamp.ogg"), instance.path("Sounds/silence.wav")])
    try system(
      "/usr/bin/opusenc",
      ["--quiet", instance.path("Sounds/silence.wav"), instance.path("Sounds/stamp.opus")])
    try instance.indexOnce()
    for path in ["Sounds/stamp.ogg", "Sounds/stamp.opus", "Sounds/silence.wav"] {
      let item = try instance.show(path)
      #expect(item["extractionError"] as? String == nil, "\(path): \(item)")
      #expect((item["contentType"] as? String)?.hasPrefix("audio/") == true, "\(path): \(item)")
      // Half a second long, not the whole seconds TagLib counts (none).
      let duration = (item["duration"] as? NSNumber)?.doubleValue ?? 0
      #expect(abs(duration - 0.5) < 0.01, "\(path): \(item)")
    }
    let status = try instance.run("limelight", ["status"]).stdout
    let errors = status.split(separator: "\n").first { $0.hasPrefix("errors:") }
    #expect(
      errors?.dropFirst("errors:".count).trimmingCharacters(in: .whitespaces) == "0", "\(status)")
  }

  @Test func rtfInformationIsRead() throws {
    try instance.write(
      "Docs/plans.rtf",
      #"{\rtf1\ansi{\fonttbl{\f0 Times;}}{\info{\title Harbour Plans}{\author Grace Hopper}"#
        + #"{\subject The new breakwater}{\keywords harbour, pier}}"#
        + #"\f0 The quay is extended by forty metres.\par}"#)
    try instance.indexOnce()
    let item = try instance.show("Docs/plans.rtf")
    #expect(item["title"] as? String == "Harbour Plans", "\(item)")
    #expect(item["authors"] as? [String] == ["Grace Hopper"], "\(item)")
    #expect(item["keywords"] as? [String] == ["harbour", "pier"], "\(item)")
    #expect(try instance.findPaths(["hopper"]) == ["Docs/plans.rtf"])
    #expect(try instance.findPaths(["quay"]) == ["Docs/plans.rtf"])
    // The information is not the body's text.
    #expect((item["textContent"] as? String)?.contains("Hopper") != true)
  }

  @Test func aPlainCFileIsC() throws {
    try instance.write(
      "Code/util.c",
      """
      #include <stdio.h>

      /* Adds two numbers. */
      int add(int a, int b) { return a + b; }

      int main(void) {
        printf("%d\\n", add(2, 3));
        return 0;
      }

      """)
    try instance.write("Code/Widget.C", "class Widget {};\n")
    try instance.indexOnce()
    #expect(try instance.show("Code/util.c")["contentType"] as? String == "text/x-csrc")
    #expect(try instance.show("Code/Widget.C")["contentType"] as? String == "text/x-c++src")
  }

  /// Key files that share the launchers' type but describe themes (as the
  /// icon and sound themes Debian ships them): found by their name, no error.
  @Test func themeDescriptorsAreNoErrors() throws {
    try instance.write(
      "Icons/Quokka/index.theme",
      "[Icon Theme]\nName=Quokka Glyphs\nComment=Round icons\nDirectories=16x16\n\n[16x16]\nSize=16\n"
    )
    try instance.write("Icons/Quokka/cursor.theme", "[Icon Theme]\nInherits=Quokka\n")
    try instance.write(
      "Sounds/Wombat/index.theme", "[Sound Theme]\nName=Wombat\nDirectories=stereo\n")
    try instance.indexOnce()
    for path in [
      "Icons/Quokka/index.theme", "Icons/Quokka/cursor.theme", "Sounds/Wombat/index.theme",
    ] {
      #expect(try instance.show(path)["extractionError"] as? String == nil, "\(path)")
    }
    #expect(try instance.findPaths(["quokka", "glyphs"]) == ["Icons/Quokka/index.theme"])
  }

  /// A MIDI file, which TagLib does not read: a valid file, found by its
  /// name and type, no error.
  @Test func audioTagLibDoesNotKnowIsNoError() throws {
    // A format-0 file: one track, one note on and off, the end of the track.
    let track: [UInt8] = [0x00, 0x90, 0x3C, 0x40, 0x60, 0x80, 0x3C, 0x40, 0x00, 0xFF, 0x2F, 0x00]
    let midi: [UInt8] =
      Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 0x60] + Array("MTrk".utf8)
      + [0, 0, 0, UInt8(track.count)] + track
    try instance.write("Music/numbat tune.mid", bytes: midi)
    try instance.indexOnce()
    let item = try instance.show("Music/numbat tune.mid")
    #expect(item["extractionError"] as? String == nil, "\(item)")
    #expect(try instance.findPaths(["numbat", "tune"]) == ["Music/numbat tune.mid"])
  }

  @Test func silentWavesAreNoErrors() throws {
    // The 44 bytes Python's `wave` module writes for no frames (mono,
    // 16 bits, 44.1 kHz) and those `sox -n -c 2 x.wav trim 0 0` writes.
    func wave(channels: UInt8, blockAlign: UInt8) -> [UInt8] {
      Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WAVEfmt ".utf8)
        + [0x10, 0, 0, 0, 1, 0, channels, 0, 0x44, 0xAC, 0, 0]
        + le32(44_100 * Int(blockAlign)) + [blockAlign, 0, 0x10, 0]
        + Array("data".utf8) + [0, 0, 0, 0]
    }
    func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    try instance.write("Sounds/quiet python.wav", bytes: wave(channels: 1, blockAlign: 2))
    try instance.write("Sounds/quiet sox.wav", bytes: wave(channels: 2, blockAlign: 4))
    // A header cut before its format is damaged.
    try instance.write(
      "Sounds/cut short.wav", bytes: Array(wave(channels: 1, blockAlign: 2)[..<16]))
    try instance.indexOnce()
    for name in ["quiet python", "quiet sox"] {
      let item = try instance.show("Sounds/\(name).wav")
      #expect(item["extractionError"] as? String == nil, "\(item)")
      #expect(item["audioSampleRate"] as? Int == 44_100, "\(item)")
    }
    let cut = try instance.show("Sounds/cut short.wav")
    #expect((cut["extractionError"] as? String)?.hasPrefix("malformed") == true, "\(cut)")
  }

  /// A big-endian WAVE file (`RIFX`, as SciPy's test data holds them:
  /// WAVE_FORMAT_EXTENSIBLE, 16 bits), which TagLib gives no stream for.
  @Test func bigEndianWavesAreNoErrors() throws {
    func be(_ value: Int, _ width: Int) -> [UInt8] {
      (0..<width).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) }
    }
    // Format 0xFFFE, 1 channel, 8 kHz, 16,000 bytes a second, 2-byte
    // blocks, 16 bits; then the extension: 22 bytes, 16 valid bits, the
    // channel mask, the PCM sub-format's GUID.
    let format =
      be(0xFFFE, 2) + be(1, 2) + be(8000, 4) + be(16_000, 4) + be(2, 2) + be(16, 2)
      + be(22, 2) + be(16, 2) + be(4, 4)
      + [0, 0, 0, 1, 0, 0, 0, 0x10, 0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x71]
    let frames = [UInt8](repeating: 0, count: 16_000 * 3 / 2)
    let body =
      Array("WAVE".utf8) + Array("fmt ".utf8) + be(format.count, 4) + format
      + Array("data".utf8) + be(frames.count, 4) + frames
    let wave = Array("RIFX".utf8) + be(body.count, 4) + body
    try instance.write("Sounds/tone be.wav", bytes: wave)
    // A header cut before its format is damaged still.
    try instance.write("Sounds/tone cut.wav", bytes: Array(wave[..<16]))
    try instance.indexOnce()
    try expectSound(
      "Sounds/tone be.wav", rate: 8000, channels: 1, seconds: 1.5, damaged: "Sounds/tone cut.wav")
  }

  /// A FLAC file whose picture block says it is empty (as a tagger wrote
  /// the file of mutagen's issue 106): TagLib rejects the file, which
  /// plays. One cut short after its metadata is damaged.
  @Test func flacWithABadTagBlockIsNoError() throws {
    func be(_ value: UInt64, _ width: Int) -> [UInt8] {
      (0..<width).reversed().map { UInt8((value >> UInt64(8 * $0)) & 0xFF) }
    }
    // 44.1 kHz, 2 channels, 16 bits, 88,200 samples: two seconds.
    let packed: UInt64 = 44_100 << 44 | 1 << 41 | 15 << 36 | 88_200
    let streamInfo =
      be(4096, 2) + be(4096, 2) + be(0, 3) + be(0, 3) + be(packed, 8)
      + [UInt8](repeating: 0, count: 16)
    let metadata =
      Array("fLaC".utf8) + [0] + be(UInt64(streamInfo.count), 3) + streamInfo
      + [0x86] + be(0, 3)  // the last block: a picture of no bytes
    let frame: [UInt8] =
      [0xFF, 0xF8, 0x69, 0x18, 0x00, 0x00, 0x7C] + [UInt8](repeating: 0, count: 64)
    try instance.write("Music/duet.flac", bytes: metadata + frame)
    try instance.write("Music/cut duet.flac", bytes: metadata)
    try instance.indexOnce()
    try expectSound(
      "Music/duet.flac", rate: 44_100, channels: 2, seconds: 2, damaged: "Music/cut duet.flac")
  }

  /// Reading a sound does not open it for writing (TagLib's C interface
  /// did): its close told every watcher of the folder that it was written,
  /// and the watcher read each sound of a folder of them again.
  @Test func readingASoundTellsNoWatcherItWasWritten() throws {
    func le(_ value: Int, _ width: Int) -> [UInt8] {
      (0..<width).map { UInt8((value >> (8 * $0)) & 0xFF) }
    }
    // PCM, 1 channel, 8 kHz, 8 bits: half a second.
    let format = le(1, 2) + le(1, 2) + le(8000, 4) + le(8000, 4) + le(1, 2) + le(8, 2)
    let frames = [UInt8](repeating: 128, count: 4000)
    let body =
      Array("WAVE".utf8) + Array("fmt ".utf8) + le(format.count, 4) + format
      + Array("data".utf8) + le(frames.count, 4) + frames
    try instance.write("Sounds/beep.wav", bytes: Array("RIFF".utf8) + le(body.count, 4) + body)
    let inotify = try Inotify()
    _ = try inotify.addWatch(RawPath(instance.path("Sounds"))).get()
    try instance.indexOnce()
    let item = try instance.show("Sounds/beep.wav")
    #expect(item["audioSampleRate"] as? Int == 8000, "\(item)")
    let written = inotify.readEvents().filter { $0.has(IN_CLOSE_WRITE) || $0.has(IN_MODIFY) }
    #expect(written.isEmpty, "\(written.map { ($0.name?.string ?? "", $0.mask) })")
  }

  /// Expects `path` read as a sound of `rate` Hz, `channels` channels and
  /// `seconds`, with no error, and the file `cut` from it reported damaged.
  func expectSound(_ path: String, rate: Int, channels: Int, seconds: Double, damaged cut: String)
    throws
  {
    let item = try instance.show(path)
    #expect(item["extractionError"] as? String == nil, "\(item)")
    #expect(item["audioSampleRate"] as? Int == rate, "\(item)")
    #expect(item["audioChannelCount"] as? Int == channels, "\(item)")
    #expect((item["duration"] as? NSNumber)?.doubleValue == seconds, "\(item)")
    let damaged = try instance.show(cut)
    #expect((damaged["extractionError"] as? String)?.hasPrefix("malformed") == true, "\(damaged)")
  }

  @Test func encryptedPDFsAreLockedNotDamaged() throws {
    let pdf = """
      %PDF-1.4
      1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
      2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
      3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj
      trailer << /Root 1 0 R >>
      %%EOF

      """
    try instance.write("Docs/plain.pdf", pdf)
    // qpdf, as a person locks a PDF: a user password, AES-256.
    try system(
      "/usr/bin/qpdf",
      [
        "--encrypt", "secret", "owner", "256", "--", instance.path("Docs/plain.pdf"),
        instance.path("Docs/salary.pdf"),
      ], succeeding: [0, 3])
    try instance.remove("Docs/plain.pdf")
    try instance.write("Docs/broken.pdf", "%PDF-1.4\nnot really a PDF\n")
    try instance.indexOnce()
    let locked = try instance.show("Docs/salary.pdf")
    #expect((locked["extractionError"] as? String)?.hasPrefix("locked:") == true, "\(locked)")
    #expect(try instance.findPaths(["salary"]) == ["Docs/salary.pdf"])
    let status = try instance.run("limelight", ["status"]).stdout
    #expect(status.contains("1 damaged"), "\(status)")
    #expect(status.contains("locked:") && status.contains("1 encrypted document"), "\(status)")
    let lines = status.split(separator: "\n").filter { $0.hasPrefix("errors:") }
    #expect(lines.count == 1 && lines[0].contains(" 1: 1 damaged"), "\(status)")
    // The damaged file is listed under the errors, before the locked line.
    let all = status.split(separator: "\n").map(String.init)
    let errors = all.firstIndex { $0.hasPrefix("errors:") } ?? -1
    #expect(all.indices.contains(errors + 1) && all[errors + 1].contains("broken.pdf"), "\(status)")
    #expect(all.firstIndex { $0.hasPrefix("locked:") } == errors + 2, "\(status)")
    let json = try instance.run("limelight", ["status", "--json"]).stdout
    #expect(json.contains("\"locked\":1") && json.contains("\"damaged\":1"), "\(json)")
    let verbose = try instance.run("limelight", ["status", "--verbose"]).stdout
    #expect(
      verbose.contains("locked (encrypted): 1") && verbose.contains("salary.pdf"), "\(verbose)")
  }

  /// A presentation with no slides and a workbook with no cells, packaged
  /// as Office writes them (the main part, no slide or sheet parts).
  @Test func emptyOfficeDocumentsAreNoErrors() throws {
    let script = """
      import sys, zipfile
      def package(path, main, body, title):
          with zipfile.ZipFile(path, "w") as z:
              z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
              z.writestr("_rels/.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>')
              z.writestr("docProps/core.xml", '<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>' + title + '</dc:title></cp:coreProperties>')
              z.writestr(main, body)
      package(sys.argv[1] + "/no-slides.pptx", "ppt/presentation.xml", '<?xml version="1.0"?><p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:sldSz cx="9144000" cy="6858000"/></p:presentation>', "Empty deck")
      package(sys.argv[1] + "/no-cells.xlsx", "xl/workbook.xml", '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets/></workbook>', "Blank ledger")
      """
    try instance.mkdir("Office")
    try system("/usr/bin/python3", ["-c", script, instance.path("Office")])
    try instance.indexOnce()
    for path in ["Office/no-slides.pptx", "Office/no-cells.xlsx"] {
      let item = try instance.show(path)
      #expect(item["extractionError"] as? String == nil, "\(path): \(item)")
    }
    #expect(try instance.findPaths(["empty", "deck"]) == ["Office/no-slides.pptx"])
  }

  /// Messages as Python's `email` package writes them: one with no body
  /// at all, one whose only part is an attachment (found by its file name,
  /// as in RFC 2231's form for a name out of ASCII), one in HTML alone.
  @Test func messagesWithoutAPlainBodyAreNoErrors() throws {
    let script = """
      import sys
      from email.message import EmailMessage
      folder = sys.argv[1]
      m = EmailMessage(); m["From"] = "a@example.org"; m["Subject"] = "Nothing inside"
      open(folder + "/empty.eml", "wb").write(bytes(m))
      m = EmailMessage(); m["From"] = "Ann <ann@example.org>"; m["Subject"] = "Scans"
      m.add_attachment(b"%PDF-1.4", maintype="application", subtype="pdf", filename="invoice-kestrel.pdf")
      m.add_attachment(b"x", maintype="image", subtype="png", filename="Überweisung.png")
      open(folder + "/attached.eml", "wb").write(bytes(m))
      m = EmailMessage(); m["From"] = "a@example.org"; m["Subject"] = "Newsletter"
      m.set_content("<html><body><p>The puffin <b>census</b></p></body></html>", subtype="html")
      open(folder + "/html.eml", "wb").write(bytes(m))
      """
    try instance.mkdir("Mail")
    try system("/usr/bin/python3", ["-c", script, instance.path("Mail")])
    try instance.indexOnce()
    for path in ["Mail/empty.eml", "Mail/attached.eml", "Mail/html.eml"] {
      let item = try instance.show(path)
      #expect(item["extractionError"] as? String == nil, "\(path): \(item)")
    }
    #expect(
      try instance.show("Mail/attached.eml")["attachmentNames"] as? [String] == [
        "invoice-kestrel.pdf", "Überweisung.png",
      ])
    #expect(try instance.findPaths(["kestrel"]) == ["Mail/attached.eml"])
    #expect(try instance.findPaths(["überweisung"]) == ["Mail/attached.eml"])
    #expect(try instance.findPaths(["puffin", "census"]) == ["Mail/html.eml"])
    #expect(try instance.findPaths(["nothing", "inside"]) == ["Mail/empty.eml"])
  }

  /// An empty file holds nothing to be damaged, whatever its name (a test
  /// suite's `emptyfile.mp3`, `fake-image.jpg`); Go's compiler objects,
  /// which it names `.a`, are object code, not damaged archives. A damaged
  /// archive is still damaged.
  @Test func emptyAndMisnamedFilesAreNoErrors() throws {
    try instance.mkdir("Odd")
    try instance.write("Odd/emptyfile.mp3", "")
    try instance.write("Odd/fake-image.jpg", "")
    try instance.write(
      "Odd/test_go1.8_4.a",
      "go object darwin amd64 devel +5101231425 X:framepointer\n"
        + String(repeating: "\u{1}\u{7f}", count: 400))
    try instance.write(
      "Odd/damaged.a",
      "!<arch>\n\u{1}\u{2}garbage that is no member header at all, none whatsoever, not one\n")
    // Compressions of nothing, as `gzip < /dev/null` makes them, and one
    // cut short, which is damaged.
    let script = """
      import sys, gzip, bz2, lzma
      for name, module in (("gz", gzip), ("bz2", bz2), ("xz", lzma)):
          open(sys.argv[1] + "/nothing.log." + name, "wb").write(module.compress(b""))
      open(sys.argv[1] + "/cut.log.gz", "wb").write(gzip.compress(b"wagtail " * 5000)[:60])
      """
    try system("/usr/bin/python3", ["-c", script, instance.path("Odd")])
    try instance.indexOnce()
    for path in [
      "Odd/emptyfile.mp3", "Odd/fake-image.jpg", "Odd/test_go1.8_4.a", "Odd/nothing.log.gz",
      "Odd/nothing.log.bz2", "Odd/nothing.log.xz",
    ] {
      let item = try instance.show(path)
      #expect(item["extractionError"] as? String == nil, "\(path): \(item)")
    }
    #expect(
      try instance.show("Odd/test_go1.8_4.a")["contentType"] as? String
        == "application/x-object")
    #expect(try instance.show("Odd/emptyfile.mp3")["contentType"] as? String == "audio/mpeg")
    #expect(try instance.show("Odd/damaged.a")["extractionError"] as? String != nil)
    #expect(try instance.show("Odd/cut.log.gz")["extractionError"] as? String != nil)
  }
}
