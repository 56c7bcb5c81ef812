import Foundation
import LimelightPlatform
import Testing

/// The local index and the shared store searched with the same queries over
/// one tree (a watcher that indexes it and sends it): both backends must
/// answer alike, in the same order, but for the differences written here
/// with their reasons.
@Suite(.enabled(if: PostgresServer.binFolder != nil, "PostgreSQL is not installed"))
struct DifferentialTests {
  /// Files of every shape the relevance benchmark's kinds look for: names
  /// of several words, CamelCase and snake_case, accents, Chinese,
  /// Japanese, Cyrillic and Greek; texts with rare and common words.
  static let files: [(String, String)] = [
    ("Documents/wombat burrows.txt", "field notes on the zorblatpgalpha colony\n"),
    ("Documents/WombatSurvey.md", "# Survey\nthe quick brown fox counted wombats\n"),
    ("Documents/Créer un répertoire.txt", "mkdir crée un répertoire\n"),
    ("Documents/repertoiremap.5", "character set description\n"),
    ("Documents/長城の歴史.txt", "万里の長城について\n"),
    ("Documents/东京旅行计划.txt", "去东京的行程\n"),
    ("Documents/Москва заметки.txt", "Красная площадь\n"),
    ("Documents/Αθήνα σημειώσεις.txt", "Ακρόπολη και Πλάκα\n"),
    ("Projects/kubernetes-deployment-guide.md", "deploy the cluster with helm\n"),
    ("Projects/quarterly_budget_review.txt", "budget lines for the quarter\n"),
    ("Projects/meeting-notes-alpha.txt", "the quick brown dog slept\n"),
    ("Projects/main.c", "int main(void) { return 0; }\n"),
    ("Projects/straße.txt", "Die Straße ist lang\n"),
    ("Music/Eine kleine Nachtmusik.txt", "Serenade Nr. 13 für Streicher\n"),
    // Both words of a phrase, not as the phrase, in a short text that
    // ranks first among those holding the words.
    ("Documents/bq.txt", "brown then quick\n"),
    // A phrase of common words (looked up by its pair in both): held
    // across a comma, and its words apart.
    ("Documents/comma.txt", "the, quick one more\n"),
    ("Documents/apart.txt", "the slow ones and quick\n"),
    // A short word followed by another is a whole word, not a prefix:
    // "go tool" is not in a text holding "a good tool".
    ("Documents/builds.txt", "the go tool builds it\n"),
    ("Documents/good.txt", "a good tool builds it\n"),
    // A word in two texts, one of them in a file whose name holds it
    // inside a longer word: found by their texts alone, both rank as texts
    // (the shorter first), below every name that holds the word.
    (
      "Documents/oillamps.txt",
      "notes on the lamp and its wick, trimmed before each evening, with oil bought"
        + " in town and kept in the shed by the door\n"
    ),
    ("Documents/shed.txt", "a lamp\n"),
    ("Documents/lamp shades.txt", "paper\n"),
  ]

  /// Queries of each kind: a word, a prefix, typos in names and texts,
  /// initials, accents left out, scripts beyond Latin, phrases, filters
  /// and exclusions.
  static let queries: [[String]] = [
    ["wombat"], ["wom"], ["wombta"], ["kubernetse"], ["kdg"], ["zorblatpgalpha"],
    ["zorblatpgalhpa"], ["creer"], ["répertoire"], ["長城"], ["东京"], ["москва"], ["αθηνα"],
    ["\"quick brown\""], ["quick"], ["ext:md", "wombat"], ["wombat", "-survey"],
    ["meeting", "alpha"], ["budget"], ["strasse"], ["nachtmusik"], ["kleine", "nacht"],
    ["\"int main\""], ["helm"], ["kind:text", "quick"], ["notes"],
    ["-\"quick brown\"", "brown"], ["\"quick brown\"", "OR", "helm"], ["\"the quick\""],
    ["\"return 0\""], ["\"the quick brown\""], ["go", "tool"], ["go", "too"], ["lamp"],
    ["type:text/*", "quick"], ["type:text/*"], ["type:image/*"], ["-type:text/*", "notes"],
  ]

  /// Queries whose results both backends find alike but order apart, and
  /// why (the store ranks as the local index does, ``ItemRank``, but for
  /// these).
  static let orderedApart: [String: String] = [
    "\"quick brown\" OR helm":
      "texts that hold one alternative or the other: the local BM25 weighs each by how rare"
      + " it is, the store by the text's length alone"
  ]

  /// Results one backend finds and the other does not, and why.
  static let foundApart: [String: (path: String, reason: String)] = [:]

  @Test func bothBackendsAnswerEveryQueryAlike() throws {
    let server = try #require(PostgresServer.shared)
    let store = try server.newDatabase()
    let instance = try Instance()
    try instance.config("store = \(store)\nhost-name = alpha\n")
    for (path, text) in Self.files { try instance.write(path, text) }
    try instance.indexOnce()

    var unexplained: [String] = []
    for query in Self.queries {
      let local = try instance.run("find-in", ["--store", "local", "--limit", "10"] + query)
      let shared = try instance.run("find-in", ["--limit", "10"] + query)
      #expect(
        local.status == shared.status,
        "\(query): exit \(local.status) and \(shared.status) \(shared.stderr)")
      // The store names a file file://HOST/path; the local index file:///path.
      let localPaths = instance.relativePaths(local.lines)
      let sharedPaths = instance.relativePaths(
        shared.lines.map { $0.replacingOccurrences(of: "file://alpha/", with: "file:///") })
      let key = query.joined(separator: " ")
      var expected = localPaths
      if let apart = Self.foundApart[key] { expected.removeAll { $0 == apart.path } }
      let alike =
        Self.orderedApart[key] == nil
        ? sharedPaths == expected : sharedPaths.sorted() == expected.sorted()
      if !alike {
        unexplained.append("\(key):\n  local \(localPaths)\n  store \(sharedPaths)")
      }
    }
    #expect(unexplained.isEmpty, "\n\(unexplained.joined(separator: "\n"))")
  }
}
