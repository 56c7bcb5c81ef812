import Foundation
import Testing

@testable import LimelightModel
@testable import LimelightStore

/// Type-specific attributes are stored as the JSON Foundation's encoder
/// writes (sorted keys, escaped slashes), though written without it.
@Suite struct AttributeJSONTests {
  @Test func attributesAreWrittenAsFoundationWritesThem() throws {
    let samples: [[String: AttributeValue]] = [
      [
        "duration": .number(1.139), "audioSampleRate": .number(44100),
        "audioChannelCount": .number(2),
      ],
      ["compressedContentType": .string("application/x-troff-man")],
      [
        "recipients": .strings(["Anna <anna@example.org>", "Bö \"B\" \\ ü"]), "empty": .strings([]),
      ],
      ["taken": .date(Date(timeIntervalSince1970: 1_700_000_000)), "negative": .number(-3.5)],
      [
        "control": .string("tab\there\nline\r\u{08}\u{0C}\u{01}\u{1F} 日本語 😀"), "big": .number(1e20),
      ],
    ]
    for extra in samples {
      let foundation = try JSONSerialization.data(
        withJSONObject: extra.mapValues(\.jsonValue), options: [.sortedKeys])
      let ours = try #require(IndexWriter.json(extra))
      // The same text where Foundation's is fixed; the same value always.
      let decodedOurs = try JSONSerialization.jsonObject(with: Data(ours.utf8)) as? NSDictionary
      let decodedFoundation = try JSONSerialization.jsonObject(with: foundation) as? NSDictionary
      #expect(decodedOurs == decodedFoundation)
      if extra["big"] == nil && extra["duration"] == nil {
        #expect(ours == String(decoding: foundation, as: UTF8.self))
      }
    }
    #expect(IndexWriter.json([:]) == nil)
    #expect(IndexWriter.json(["bad": .number(.infinity)]) == nil)
  }
}
