import Foundation
import LimelightPlatform
import Testing

@testable import LimelightModel

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct RawPathTests {
  @Test func componentsAndNesting() {
    let path = RawPath("/home/me/docs/a.txt")
    #expect(path.lastComponent == RawPath("a.txt"))
    #expect(path.parent == RawPath("/home/me/docs"))
    #expect(RawPath("/a").parent == RawPath("/"))
    #expect(path.isInside(RawPath("/home/me")))
    #expect(path.isInside(RawPath("/")))
    #expect(!RawPath("/home/media").isInside(RawPath("/home/me")))
    #expect(
      path.rebased(from: RawPath("/home/me"), to: RawPath("/srv")) == RawPath("/srv/docs/a.txt"))
    #expect(path.relative(to: RawPath("/home/me")) == RawPath("docs/a.txt"))
    #expect(path.depth == 4)
  }

  @Test func ordersEqualsAndHashesByBytes() {
    let paths = ["", "/", "/a", "/a/b", "/a/b\u{0}", "/a0", "/ab", "/é", "/a/\u{FF}x"].map(
      RawPath.init)
    for left in paths {
      for right in paths {
        #expect((left < right) == left.bytes.lexicographicallyPrecedes(right.bytes))
        #expect((left == right) == (left.bytes == right.bytes))
      }
    }
    let invalid = RawPath(bytes: [0x2F, 0xFF, 0xFE])
    #expect(Set(paths + paths + [invalid, invalid]).count == paths.count + 1)
  }

  @Test func normalization() {
    #expect(RawPath("/a//b/./c/../d/").lexicallyNormalized == RawPath("/a/b/d"))
    #expect(RawPath("/../..").lexicallyNormalized == RawPath("/"))
    #expect(RawPath.absolute("/x/y/..") == RawPath("/x"))
  }
}

@Suite struct FileURITests {
  @Test(arguments: [
    ("/home/me/My Notes.txt", "file:///home/me/My%20Notes.txt"),
    ("/a/caf\u{E9}", "file:///a/caf%C3%A9"),
    ("/a/line\nbreak", "file:///a/line%0Abreak"),
    ("/a/100%#?", "file:///a/100%25%23%3F"),
  ])
  func encodes(path: String, uri: String) {
    #expect(FileURI.uri(for: RawPath(path)) == uri)
    #expect(FileURI.path(from: uri) == RawPath(path))
  }

  @Test func roundTripsBytesThatAreNotUTF8() {
    let path = RawPath(bytes: Array("/tmp/".utf8) + [0xFF, 0xE9, 0x00 + 0x41])
    let uri = FileURI.uri(for: path)
    #expect(uri == "file:///tmp/%FF%E9A")
    #expect(FileURI.path(from: uri) == path)
  }

  @Test func rejectsOtherSchemesAndBrokenEscapes() {
    #expect(FileURI.path(from: "http://example.com/x") == nil)
    #expect(FileURI.path(from: "file:///a%2") == nil)
    #expect(FileURI.path(from: "file://localhost/a%20b") == RawPath("/a b"))
  }
}

@Suite struct ConfigurationTests {
  static let shipped: String = {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../etc/limelight/limelight.conf").standardized
    return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
  }()

  @Test func shippedFileEqualsTheBuiltInDefaults() throws {
    #expect(!Self.shipped.isEmpty)
    var parsed = Configuration(
      roots: [], excludes: [], indexHidden: true, maxTextBytes: 0, settleSeconds: 0,
      rescanSeconds: 1,
      maxWatches: 9)
    try parsed.apply(Self.shipped, file: "limelight.conf")
    #expect(parsed == Configuration.defaults)
  }

  @Test func userFileReplacesRootsAndAddsExclusions() throws {
    var config = Configuration.defaults
    try config.apply(
      "root = ~/Documents\nroot = /srv/shared\nexclude = *.log\nunexclude = *.part\nindex-hidden = yes\nmax-text-size = 4M\n",
      file: "user.conf")
    #expect(config.roots == ["~/Documents", "/srv/shared"])
    #expect(config.excludes.contains("*.log"))
    #expect(!config.excludes.contains("*.part"))
    #expect(config.excludes.contains(".git"))
    #expect(config.indexHidden)
    #expect(config.maxTextBytes == 4 << 20)
    #expect(
      config.resolvedRoots(home: RawPath("/home/me")) == [
        RawPath("/home/me/Documents"), RawPath("/srv/shared"),
      ])
  }

  @Test(arguments: [
    ("root = relative/path", 1), ("\n\nfoo = bar", 3), ("index-hidden = maybe", 1),
    ("max-text-size = lots", 1), ("just words", 1), ("settle-time = -1", 1), ("max-watches = x", 1),
  ])
  func mistakesNameTheLine(text: String, line: Int) {
    var config = Configuration.defaults
    #expect(throws: Configuration.ParseError.self) { try config.apply(text, file: "f.conf") }
    do {
      try config.apply(text, file: "f.conf")
    } catch {
      #expect(error.description.hasPrefix("f.conf:\(line):"))
    }
  }

  @Test func nestedRootsCollapse() {
    var config = Configuration.defaults
    config.roots = ["~", "~/Documents", "/srv"]
    #expect(
      config.resolvedRoots(home: RawPath("/home/me")) == [RawPath("/home/me"), RawPath("/srv")])
  }

  @Test func exclusionRules() {
    let rules = ExclusionRules(
      configuration: .defaults, alwaysExcluded: [RawPath("/home/me/.local/share/limelight")])
    let root = RawPath("/home/me")
    #expect(rules.excludes(RawPath("/home/me/src/node_modules"), root: root))
    #expect(rules.excludes(RawPath("/home/me/.hidden"), root: root))
    #expect(rules.excludes(RawPath("/home/me/a/b.o"), root: root))
    #expect(rules.excludes(RawPath("/home/me/notes.txt~"), root: root))
    #expect(!rules.excludes(RawPath("/home/me/notes.txt"), root: root))
    #expect(!rules.excludes(RawPath("/home/me/Trash-talk.txt"), root: root))
    #expect(rules.excludes(RawPath("/home/me/.local/share/limelight/index.sqlite"), root: root))
    var visible = Configuration.defaults
    visible.indexHidden = true
    let hiddenOn = ExclusionRules(configuration: visible, alwaysExcluded: [])
    #expect(!hiddenOn.excludes(RawPath("/home/me/.config"), root: root))
    #expect(hiddenOn.excludes(RawPath("/home/me/.local/share/Trash"), root: root))
    #expect(hiddenOn.excludes(RawPath("/home/me/.git"), root: root))
  }

  @Test func exclusionPatternsOfEveryShapeMatchAsFnmatchDoes() {
    let names = [
      "node_modules", ".Trash-1000", "Trash-talk", "a.o", ".o", "main.c~", "abc", "axc", "ac",
      "Build", "build", "xray", "x", "y", "pack.tar.gz", "tar", "notes.txt", "núcleo.o",
    ]
    let patterns = ["node_modules", ".Trash-*", "*.o", "*~", "a?c", "[Bb]uild", "x*y", "*.tar.*"]
    var configuration = Configuration.defaults
    configuration.excludes = patterns
    configuration.indexHidden = true
    let rules = ExclusionRules(configuration: configuration, alwaysExcluded: [])
    for name in names {
      let expected = patterns.contains { fnmatch($0, name, 0) == 0 }
      #expect(
        rules.excludes(RawPath("/home/me/dir/" + name), root: RawPath("/home/me")) == expected,
        "\(name)")
    }
    configuration.excludes = ["docs/*.tmp", "cache/thumbs/"]
    let tails = ExclusionRules(configuration: configuration, alwaysExcluded: [])
    let home = RawPath("/home/me")
    #expect(tails.excludes(RawPath("/home/me/a/cache/thumbs"), root: home))
    #expect(tails.excludes(RawPath("/cache/thumbs"), root: RawPath("/")))
    #expect(!tails.excludes(RawPath("/home/me/a/mycache/thumbs"), root: home))
    // A tail is matched below the root, not into it.
    #expect(!tails.excludes(RawPath("/cache/thumbs"), root: RawPath("/cache/thumbs")))
    #expect(!tails.excludes(RawPath("/home/me/cache/thumbs"), root: RawPath("/home/me/cache")))
    #expect(tails.excludes(RawPath("/home/me/docs/a.tmp"), root: home))
    #expect(!tails.excludes(RawPath("/home/me/docs/a.txt"), root: home))
  }

  @Test func sizes() {
    #expect(Configuration.parseSize("512") == 512)
    #expect(Configuration.parseSize("2k") == 2048)
    #expect(Configuration.parseSize("1.5M") == 1_572_864)
    #expect(Configuration.parseSize("1GB") == 1 << 30)
    #expect(Configuration.parseSize("many") == nil)
  }
}

@Suite struct MIMEDatabaseTests {
  let mime = MIMEDatabase()

  @Test func namesSuggestTypes() {
    #expect(mime.type(forFileName: "README.md") == "text/markdown")
    #expect(mime.type(forFileName: "photo.JPG") == "image/jpeg")
    #expect(mime.type(forFileName: "backup.tar.gz") == "application/x-compressed-tar")
    #expect(mime.type(forFileName: "Makefile") == "text/x-makefile")
    #expect(mime.type(forFileName: "no-extension") == nil)
  }

  @Test func hierarchy() {
    #expect(mime.isSubclass("text/x-python", of: "text/plain"))
    #expect(mime.isSubclass("application/x-compressed-tar", of: "application/gzip"))
    #expect(mime.ancestors(of: "image/png").last == "image/*")
    #expect(!mime.isSubclass("image/png", of: "text/plain"))
    #expect(mime.canonical("text/x-c") != "")
  }

  @Test func humanKinds() {
    #expect(mime.comment(for: "image/png") == "PNG image")
    #expect(mime.comment(for: "inode/directory") != nil)
    // A type the database does not describe still has a kind.
    #expect(mime.comment(for: "application/x-no-such-type") == "no such type document")
    #expect(mime.comment(for: mime.type(forFileName: "main.swift")!) == "Swift source code")
  }

  @Test func kindClasses() {
    #expect(
      KindClass.classes(for: mime.ancestors(of: "text/x-python")).isSuperset(of: [.code, .text]))
    #expect(KindClass.classes(for: mime.ancestors(of: "image/png")) == [.image])
    #expect(KindClass.classes(for: mime.ancestors(of: "application/pdf")).contains(.pdf))
    #expect(KindClass.classes(for: ["inode/directory"]) == [.folder])
    #expect(KindClass.named("pictures") == .image)
    #expect(KindClass.named("spaceship") == nil)
  }
}

@Suite struct TextTests {
  @Test func summaryFoldsWhiteSpaceAndStopsAt300() {
    #expect(AttributeSet.summary(of: "  a\n\n b\tc  ") == "a b c")
    let long = AttributeSet.summary(of: String(repeating: "word ", count: 200))!
    #expect(long.count <= 300 && long.count >= 295)
    #expect(AttributeSet.summary(of: " \n ") == nil)
  }

  @Test func nameWords() {
    #expect(NameWords.humps("fooBarBaz2") == "foo Bar Baz 2")
    #expect(NameWords.searchableName("plain.txt") == "plain.txt")
    #expect(NameWords.searchableName("HTTPServer") == "HTTPServer")
  }

  @Test func chineseAndJapanese() {
    #expect(SearchText.fold("星球大战") == " 星  球  大  战 ")
    #expect(SearchText.fold("plain") == "plain")
    #expect(SearchText.romanized("星球") == "xing qiu xingqiu")
    #expect(SearchText.romanized("こんにちは")?.contains("konnichiha") == true)
    #expect(SearchText.romanized("东京タワー")?.split(separator: " ").contains("tawa") == true)
    #expect(SearchText.romanized("no cjk here") == nil)
    // Read from the bytes: accents and punctuation hold no script read.
    #expect(SearchText.romanized("naïve — “quoted” ©") == nil)
    #expect(SearchText.romanized("“Москва”")?.contains("moskva") == true)
    // A name's characters with two common readings are read both ways; a
    // text's the first way only.
    let name = Set(
      (SearchText.romanized("长城旅游", fromEverySyllable: true) ?? "").split(separator: " "))
    #expect(
      name.contains { $0.hasPrefix("changcheng") } && name.contains { $0.hasPrefix("zhangcheng") })
    let music = SearchText.romanized("音乐收藏", fromEverySyllable: true) ?? ""
    #expect(music.contains("yinyueshoucang") && music.contains("yinleshoucang"))
    #expect(SearchText.romanized("音乐")?.contains("yue") == false)
    // A text's Chinese and Cyrillic are read a character at a time, as ICU
    // reads each: the same words as ICU's reading of the whole run.
    for run in ["星球大战", "中文文档", "Москва", "Привет", "файл", "пользователь", "Ёлка"] {
      let byCharacter = SearchText.characterWords(
        run, oneWord: !run.unicodeScalars.first!.properties.isIdeographic)
      #expect(
        byCharacter == SearchText.latinWords(run),
        "\(run): \(byCharacter) \(SearchText.latinWords(run))")
    }
  }

  @Test func kanjiBesideKanaAreReadAsJapanese() throws {
    try #require(JapaneseReadings.areAvailable, "MeCab's IPA dictionary (mecab-ipadic-utf8)")
    let words = { (text: String, name: Bool) in
      Set((SearchText.romanized(text, fromEverySyllable: name) ?? "").split(separator: " "))
    }
    let forecast = words("天気予報を見る", false)
    #expect(["tenki", "yohou", "yoho", "miru", "tenkiyohouwomiru"].allSatisfy(forecast.contains))
    #expect(!forecast.contains("tian"))
    #expect(words("コンピューターとシステム", false).isSuperset(of: ["konpyuta", "shisutemu"]))
    // Kanji alone could be either: a name gets both readings, a text pinyin.
    #expect(words("天気", true).isSuperset(of: ["tenki", "tianqi"]))
    #expect(words("天気", false) == ["tian", "qi", "tianqi"])
    // One word only Chinese writes makes a name Chinese throughout.
    #expect(!words("嵌入的 SQL 预处理器", true).contains("teki"))
    #expect(words("嵌入的", true).contains("teki"))
    // A name is read every likely way, a text its likeliest only.
    #expect(words("ls 用の色設定", true).isSuperset(of: ["irosettei", "shokusettei"]))
    #expect(!words("ls 用の色設定", false).contains("shokusettei"))
    // An idle watcher lets the dictionary go; the next reading loads it again.
    JapaneseReadings.release()
    #expect(words("天気予報を見る", false).contains("tenki"))
    #expect(SearchText.withoutLongVowels("toukyou") == "tokyo")
    #expect(SearchText.withoutLongVowels("ohayou") == "ohayo")
  }

  @Test func folding() {
    #expect(SearchText.fold("ＡＢＣ") == "ABC")
    #expect(SearchText.fold("Cafe\u{301}") == "Café")
    // A long text is folded run by run; it reads as the whole text folded
    // at once: an accent after a long ASCII stretch joins its letter, a
    // combining mark at the start stays, full-width letters and CJK in the
    // middle and at the end fold.
    let gap = String(repeating: "plain words ", count: 12)
    let whole = { (text: String) -> String in
      String(
        text.precomposedStringWithCompatibilityMapping.unicodeScalars.map {
          SearchText.isCJK($0) ? " \($0) " : String($0)
        }.joined())
    }
    for text in [
      "\u{301}e" + gap + "Cafe\u{301}" + gap + "ＡＢＣ",
      gap + "硬盘" + gap + "na\u{303}o x\u{323}\u{302}" + gap,
      "é" + gap + "e\u{301}\u{301}ﬁ" + String(repeating: "a", count: 63) + "\u{300}",
      gap + "Москва" + String(repeating: " ", count: 64) + "東京タワー",
    ] {
      #expect(SearchText.fold(text) == whole(text))
    }
    #expect(SearchText.hasWordCharacters("a"))
    #expect(SearchText.hasWordCharacters("星"))
    #expect(!SearchText.hasWordCharacters("*()\"-"))
  }
}
