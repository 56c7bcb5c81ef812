/// Which of an item's name, keywords and path hold each word of a text
/// match, for the ranking (`limelight_field_hits`).
extension PhraseCheck {
  /// For each part of an `.and` of one-word phrases, the best of the first
  /// three texts (name, keywords, path) that holds its word: "3" for the
  /// name, "2" keywords, "1" path, "0" none, one character each.
  public func fieldHits(_ texts: [String?]) -> String {
    FieldHits(self).hits(texts)
  }

  /// A match's parts made ready for its candidates' field hits: the
  /// ranking asks them of every candidate, thousands for a phrase of common
  /// words, so a field of ASCII (most names and paths) is read once for all
  /// the parts' words, in its bytes, with nothing made of it.
  public struct FieldHits: Sendable {
    struct Part: Sendable {
      let phrase: [String]
      let prefix: Bool
      /// The word in bytes, when the part is one word of ASCII.
      let ascii: [UInt8]?
    }

    /// nil when the match is no `.and` (no hits to tell); a part that is no
    /// phrase is nil too.
    let parts: [Part?]?

    public init(_ check: PhraseCheck) {
      guard case .and(let parts) = check else {
        self.parts = nil
        return
      }
      self.parts = parts.map { part in
        guard case .phrase(let phrase, let prefix, _) = part else { return nil }
        let bytes = phrase.count == 1 ? Array(phrase[0].utf8) : nil
        let ascii = bytes.flatMap { $0.allSatisfy { $0 < 0x80 } && !$0.isEmpty ? $0 : nil }
        return Part(phrase: phrase, prefix: prefix, ascii: ascii)
      }
    }

    /// The hits of an item whose first texts are `texts`.
    public func hits(_ texts: [String?]) -> String {
      let fields = (0..<3).map { $0 < texts.count ? Array((texts[$0] ?? "").utf8) : [] }
      return fields[0].withUnsafeBufferPointer { name in
        fields[1].withUnsafeBufferPointer { keywords in
          fields[2].withUnsafeBufferPointer { path in
            String(decoding: hits(in: [name, keywords, path]), as: UTF8.self)
          }
        }
      }
    }

    /// The hits of an item whose first texts are `texts`, in UTF-8, one
    /// character each; none when the match is no `.and`.
    func hits(in texts: [UnsafeBufferPointer<UInt8>]) -> [UInt8] {
      guard let parts else { return [] }
      var hits = [UInt8](repeating: UInt8(ascii: "0"), count: parts.count)
      var missing = parts.indices.filter { parts[$0] != nil }
      for (index, bytes) in texts.prefix(3).enumerated() where !missing.isEmpty {
        let value = UInt8(ascii: "3") - UInt8(index)
        let isASCII = PhraseCheck.firstBeyondASCII(bytes, from: 0) == nil
        if isASCII { scanASCII(bytes, missing, into: &hits, value) }
        for part in missing where hits[part] == UInt8(ascii: "0") {
          guard let found = parts[part], !(isASCII && found.ascii != nil) else { continue }
          if PhraseCheck.anchoredContains(bytes, found.phrase, prefix: found.prefix)
            ?? PhraseCheck.streamContains(bytes, found.phrase, prefix: found.prefix)
          {
            hits[part] = value
          }
        }
        missing.removeAll { hits[$0] != UInt8(ascii: "0") }
      }
      return hits
    }

    /// Marks with `value` each of the `missing` one-word parts that a text
    /// of ASCII holds: its words are its runs of letters and digits, in
    /// lower case, as ``PhraseCheck/words(of:)`` makes them.
    private func scanASCII(
      _ bytes: UnsafeBufferPointer<UInt8>, _ missing: [Int], into hits: inout [UInt8],
      _ value: UInt8
    ) {
      guard let parts else { return }
      var index = 0
      while index < bytes.count {
        guard PhraseCheck.isWordByte(bytes[index]) else {
          index += 1
          continue
        }
        let start = index
        while index < bytes.count && PhraseCheck.isWordByte(bytes[index]) { index += 1 }
        let length = index - start
        for part in missing where hits[part] == UInt8(ascii: "0") {
          guard let found = parts[part], let word = found.ascii else { continue }
          guard length == word.count || found.prefix && length > word.count else { continue }
          var same = true
          for offset in word.indices where Self.lowered(bytes[start + offset]) != word[offset] {
            same = false
            break
          }
          if same { hits[part] = value }
        }
      }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
      byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
  }
}
