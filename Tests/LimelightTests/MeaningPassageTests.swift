import Testing

@testable import LimelightMeaning

/// What a document is embedded from: its heading and the prose of its
/// opening, not the contents, navigation or synopsis it begins with.
@Suite struct MeaningPassageTests {
  @Test func aPageOfDocumentationIsEmbeddedFromItsProseNotItsContents() {
    let opening = """
      Table of Contents
      subprocess — Subprocess management
      run()
      CompletedProcess.returncode
      Popen Constructor
      The subprocess module allows you to spawn new processes, connect to their
      input/output/error pipes, and obtain their return codes.
      Using the subprocess Module
      The recommended approach to invoking subprocesses is to use the run() function for all use cases it can handle.
      """
    let (passage, substance) = MeaningPassage.of(
      heading: "subprocess — Subprocess management",
      description: "Table of Contents subprocess — Subprocess management run()",
      opening: opening)
    // The description repeats the text's beginning (its whitespace made
    // spaces): it is not embedded twice.
    #expect(
      passage == "subprocess — Subprocess management The subprocess module allows you to spawn"
        + " new processes, connect to their input/output/error pipes, and obtain their return"
        + " codes. The recommended approach to invoking subprocesses is to use the run()"
        + " function for all use cases it can handle.")
    #expect(!passage.contains("CompletedProcess"))
    #expect(substance == passage.dropFirst(35).filter { !$0.isWhitespace }.count)
  }

  @Test func proseWithoutSpacesAndTextWithoutProseAreEmbeddedToo() {
    // Japanese: a line of twenty ideographs or kana is prose.
    let japanese = "目次\nこのモジュールは新しいプロセスを開始し、その入出力のパイプに接続して終了コードを得ます。\n"
    #expect(
      MeaningPassage.of(heading: "サブプロセス", description: nil, opening: japanese).passage
        == "サブプロセス このモジュールは新しいプロセスを開始し、その入出力のパイプに接続して終了コードを得ます。")
    // A list with no line of prose: its opening as it is, up to the limit.
    let list = (1...200).map { "item \($0)" }.joined(separator: "\n")
    let passage = MeaningPassage.of(heading: "list", description: nil, opening: list).passage
    #expect(passage.hasPrefix("list item 1 item 2 item 3"))
    #expect(passage.count <= MeaningPassage.proseCharacters + 5)
  }

  @Test func aDescriptionTheTextDoesNotBeginWithIsEmbeddedBesideIt() {
    let prose = "A letter about the garden, the fence along the south side and the beans."
    let (passage, substance) = MeaningPassage.of(
      heading: "garden.txt", description: "Garden plan", opening: prose)
    #expect(passage == "garden.txt Garden plan " + prose)
    #expect(substance == ("Garden plan" + prose).filter { !$0.isWhitespace }.count)
    #expect(
      MeaningPassage.of(heading: "garden.txt", description: "A letter", opening: prose).passage
        == "garden.txt " + prose)
  }
}

/// A passage is cut at the tokens the model reads, not at characters: a
/// text in ideographs reaches them in fewer.
@Suite struct PassageTokensTests {
  let engine: MeaningEngine

  init() throws {
    do {
      engine = try MeaningEngine.load()
    } catch {
      Issue.record("meaning search's model is not installed beside the tests: \(error)")
      throw error
    }
  }

  @Test func aPassageIsCutAtItsTokensWhateverItsScript() throws {
    let english = String(
      repeating: "The committee agreed to paint the fence green before the summer. ", count: 20)
    let japanese = String(repeating: "委員会は夏の前に柵を緑色に塗ることに合意しました。", count: 20)
    let limit = MeaningPassage.passageTokens
    var lengths: [Int] = []
    for text in [english, japanese] {
      let cut = engine.prefix(of: text, tokens: limit)
      let tokens = try #require(engine.tokenCount(cut))
      #expect(tokens <= limit && tokens >= limit - 3, "\(tokens)")
      #expect(text.hasPrefix(cut) && cut.count < text.count)
      lengths.append(cut.count)
    }
    #expect(lengths[1] * 2 < lengths[0], "\(lengths)")
    #expect(engine.prefix(of: "A short note.", tokens: limit) == "A short note.")
  }
}
