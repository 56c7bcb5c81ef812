import Testing

@testable import LimelightPlatform

/// The key file format as the Desktop Entry specification writes it.
@Suite struct KeyFileTests {
  let file = KeyFile(
    text: #"""
      # A comment
      [Desktop Entry]
      Name = Notes\sand\tthings
      Comment=Line one\nline two\r
      Keywords=alpha;beta\;gamma; delta ;;path\\;
      Exec=sh -c "echo \\"hi\\"" %f
      Odd=keep \q as it is\
      Name=second value is ignored
      [Other]
      Name=other
      """#)

  @Test func stringsReadTheirEscapes() {
    #expect(file["Desktop Entry", "Name"] == "Notes and\tthings")
    #expect(file["Desktop Entry", "Comment"] == "Line one\nline two\r")
    #expect(file["Desktop Entry", "Odd"] == #"keep \q as it is\"#)
    #expect(file["Other", "Name"] == "other")
    #expect(file["Missing", "Name"] == nil)
  }

  @Test func listsSplitAtUnescapedSemicolons() {
    #expect(file.list("Desktop Entry", "Keywords") == ["alpha", "beta;gamma", "delta", #"path\"#])
    #expect(file.list("Desktop Entry", "Nothing") == [])
  }

  @Test func execReadsStringEscapesBeforeQuoting() throws {
    // `\\` is one backslash as a string; then, quoted, `\"` is a quote.
    let exec = try #require(file["Desktop Entry", "Exec"])
    #expect(exec == #"sh -c "echo \"hi\"" %f"#)
    #expect(KeyFile.arguments(of: exec) == ["sh", "-c", #"echo "hi""#, "%f"])
  }
}
