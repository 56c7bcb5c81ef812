import Foundation
import Testing

/// `find-in` asked in a person's words, over files whose dates, kinds and
/// people are set, from a fixed moment: Friday 27 November 2026.
@Suite struct PhraseQueryTests {
  let instance: Instance
  static let now = ["--now", "2026-11-27T12:00:00Z"]

  init() throws {
    instance = try Instance()
    try instance.write("Documents/report.pdf", Self.pdf)
    try instance.write("Documents/old-report.pdf", Self.pdf)
    try instance.write("Documents/yesterday.txt", "A note named for a day.\n")
    try instance.write(
      "Documents/asyncio-guide.md", "# Asyncio\n\nHow to use asyncio event loops.\n")
    try instance.write("Documents/loops.md", "Event loops without the library.\n")
    try instance.write(
      "Mail/budget.eml",
      Self.mail(
        from: "Anna Berg <anna@example.org>", to: "Bob <bob@example.org>",
        subject: "The budget for 2027"))
    try instance.write(
      "Mail/reply.eml",
      Self.mail(
        from: "Bob <bob@example.org>", to: "Anna Berg <anna@example.org>",
        subject: "Re: the budget for 2027"))
    try instance.write(
      "Mail/party.eml",
      Self.mail(
        from: "Anna Berg <anna@example.org>", to: "Bob <bob@example.org>",
        subject: "Party on Friday"))
    try setModified("Documents/report.pdf", "2026-11-18T10:00:00Z")
    try setModified("Documents/old-report.pdf", "2025-03-02T10:00:00Z")
    try setModified("Documents/yesterday.txt", "2024-01-01T10:00:00Z")
    try setModified("Documents/asyncio-guide.md", "2026-11-26T09:00:00Z")
    try setModified("Mail/budget.eml", "2026-11-19T08:00:00Z")
    try instance.indexOnce()
  }

  static let pdf = """
    %PDF-1.4
    1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
    2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj
    trailer << /Root 1 0 R >>
    %%EOF

    """

  static func mail(from: String, to: String, subject: String) -> String {
    """
    Return-Path: <x@example.org>
    From: \(from)
    To: \(to)
    Subject: \(subject)
    Date: Thu, 19 Nov 2026 08:00:00 +0000
    Message-ID: <\(UUID().uuidString)@example.org>
    Content-Type: text/plain; charset=utf-8

    \(subject): see the figures.

    """
  }

  func setModified(_ relative: String, _ moment: String) throws {
    let date = try #require(ISO8601DateFormatter().date(from: moment))
    try FileManager.default.setAttributes(
      [.modificationDate: date], ofItemAtPath: instance.path(relative))
  }

  func find(_ words: String...) throws -> [String] {
    instance.relativePaths(
      try instance.run("find-in", Self.now + words, environment: ["TZ": "UTC"]).lines)
  }

  /// One instance for every shape (each indexes the same tree: the suite
  /// runs beside many others on two cores).
  @Test func everyShapeOverOneTree() throws {
    try kindsAndDates()
    try aReadingNeverHidesANameMatch()
    try peopleAndEmail()
    try wordsThatCarryNoMeaningDoNotBlock()
    try explainPrintsTheReading()
    try badDatesAreErrorsWithExitTwo()
  }

  func kindsAndDates() throws {
    #expect(try find("pdfs from last week") == ["Documents/report.pdf"])
    #expect(try find("pdf files from March 2025") == ["Documents/old-report.pdf"])
    #expect(Set(try find("pdfs")) == ["Documents/report.pdf", "Documents/old-report.pdf"])
    #expect(try find("documents from yesterday") == ["Documents/asyncio-guide.md"])
    #expect(Set(try find("Dokumente", "vor", "2026")) == ["Documents/old-report.pdf"])
    #expect(try find("先週のpdf") == ["Documents/report.pdf"])
  }

  func aReadingNeverHidesANameMatch() throws {
    // "yesterday" is a date, and the file of that name comes first.
    let found = try find("yesterday")
    #expect(found.first == "Documents/yesterday.txt")
    #expect(found.contains("Documents/asyncio-guide.md"))
  }

  func peopleAndEmail() throws {
    #expect(try find("emails from anna about the budget") == ["Mail/budget.eml"])
    #expect(try find("emails to anna") == ["Mail/reply.eml"])
    #expect(Set(try find("kind:email", "from:annna")) == ["Mail/budget.eml", "Mail/party.eml"])
    #expect(Set(try find("kind:email", "from:ber")) == ["Mail/budget.eml", "Mail/party.eml"])
    #expect(try find("E-Mails von Bob") == ["Mail/reply.eml"])
  }

  func wordsThatCarryNoMeaningDoNotBlock() throws {
    #expect(try find("how to use asyncio") == ["Documents/asyncio-guide.md"])
    // Not every word matches: what holds most of them, saying what it lacks.
    let result = try instance.run(
      "find-in", Self.now + ["--json", "event", "loops", "zorblatpgalpha"])
    #expect(result.status == 0)
    let lines = result.lines.map {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(lines.count == 2)
    #expect(lines.allSatisfy { ($0?["unmatched"] as? [String]) == ["zorblatpgalpha"] })
  }

  func explainPrintsTheReading() throws {
    let plain = try instance.run("find-in", Self.now + ["--explain", "pdfs from last week"])
    #expect(plain.status == 0)
    #expect(plain.stdout == "kind:pdf modified:2026-11-16..2026-11-22\n")
    let json = try instance.run(
      "find-in", Self.now + ["--explain", "--json", "how to use asyncio"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["query"] as? String == "asyncio")
    #expect(object["ignored"] as? [String] == ["how", "to", "use"])
    // The reading is a query find-in takes as it is, with the same results.
    #expect(try find("kind:pdf", "modified:2026-11-16..2026-11-22") == ["Documents/report.pdf"])
  }

  func badDatesAreErrorsWithExitTwo() throws {
    for query in ["pdfs from February 30", "from 22 to 4 January"] {
      let result = try instance.run("find-in", Self.now + [query])
      #expect(result.status == 2, "\(query)")
      #expect(result.stderr.contains("not a date") || result.stderr.contains("empty range"))
    }
    let now = try instance.run("find-in", ["--now", "yesterday", "pdfs"])
    #expect(now.status == 2)
  }
}
