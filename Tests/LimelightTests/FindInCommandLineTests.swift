import LimelightExit
import LimelightSearch
import Testing

@testable import LimelightCLI

/// find-in's command line is defined once (``FindInFlag``); the argument
/// parser and the quick reading that most searches take must read every
/// argument vector alike.
@Suite struct FindInCommandLineTests {
  /// What argument vectors are made of: words, every spelling of every
  /// option with good and bad values, and mistakes.
  static let pieces: [[String]] =
    [
      ["report"], ["two", "words"], ["-excluded"], ["kind:pdf"], ["(a", "OR", "b)"], ["3"],
      ["--"], ["-0i"], ["-i0"], ["--unknown"], ["-2020"], ["-hello"], ["-insight"],
      ["--limit", "x"],
      ["--limit"], ["--in"], ["--open", "2"], ["--limit=-1"], ["--json=yes"], ["-"],
    ]
    + FindInFlag.allCases.flatMap { flag in
      flag.names.map { name in flag.takesValue ? [name, "5"] : [name] }
        + (flag.takesValue ? [[flag.names[0] + "=docs"], [flag.names[0] + "=9"]] : [])
    }

  /// A reproducible stream of numbers (a linear congruential generator).
  struct Numbers: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state
    }
  }

  static func vectors() -> [[String]] {
    var numbers = Numbers(state: 42)
    var vectors = pieces + pieces.flatMap { a in pieces.map { a + $0 } }
    for _ in 0..<3000 {
      let count = Int.random(in: 0...5, using: &numbers)
      vectors.append((0..<count).flatMap { _ in pieces.randomElement(using: &numbers)! })
    }
    return vectors
  }

  @Test func theQuickReadingAgreesWithTheParser() {
    var quickCount = 0
    for arguments in Self.vectors() {
      let quick = FindInOptions.quick(arguments)
      let parsed = try? FindInCommand.parse(arguments)
      guard let parsed else {
        // Help, a missing or bad value: the parser's messages, never a search.
        // One deliberate difference: "-2020" excludes a word, where the
        // parser sees the short options -2 and -0.
        let exclusion = arguments.prefix { $0 != "--" }.contains {
          $0.count > 1 && $0.hasPrefix("-") && !$0.hasPrefix("--")
            && FindInFlag.byName[$0] == nil
            && !$0.dropFirst().allSatisfy { FindInFlag.shortLetters.contains($0) || $0 == "h" }
        }
        #expect(quick == nil || exclusion, "\(arguments)")
        continue
      }
      guard let quick else {
        // Only an option the table does not know falls to the parser, which
        // reports it.
        let unknown = arguments.prefix { $0 != "--" }.contains {
          $0.hasPrefix("--") && $0.count > 2
            && FindInFlag.byName[String($0.prefix { $0 != "=" })] == nil
        }
        #expect(unknown, "the quick reading leaves \(arguments) to the parser")
        #expect(throws: CommandFailure.self) { try parsed.options(arguments: arguments) }
        continue
      }
      quickCount += 1
      var declared = parsed.declared
      // The parser keeps each "--open N"'s number among the words.
      let options = arguments.prefix { $0 != "--" }
      for (at, argument) in options.enumerated()
      where argument == "--open" && at + 1 < options.count && Int(options[at + 1]) != nil {
        if let word = declared.words.firstIndex(of: options[at + 1]) {
          declared.words.remove(at: word)
        }
      }
      declared.pick = quick.pick
      #expect(declared.words.sorted() == quick.words.sorted(), "\(arguments)")
      declared.words = quick.words
      #expect(declared == quick, "\(arguments)")
    }
    #expect(quickCount > 1000)
  }

  @Test func everyFlagIsInTheHelp() {
    let help = FindInCommand.helpMessage(columns: 200)
    for flag in FindInFlag.allCases {
      for name in flag.names { #expect(help.contains(name), "\(name)") }
      #expect(help.contains(flag.help), "\(flag)")
    }
  }
}
