import Foundation
import LimelightExit
import LimelightModel
import LimelightPlatform
import LimelightPostgres
import LimelightQuery
import LimelightStore

/// `find-in` against a shared PostgreSQL store: the same query, output
/// formats and exit statuses as against the local index, the entries of
/// every host named `file://HOST/path`. A store that cannot be reached is
/// said so, with exit status 2, within the connection's 2 seconds.
struct SharedSearch {
  let options: FindInOptions
  let context: FindInContext
  let query: ReadQuery
  let storeName: String

  func run() throws {
    let index: PostgresIndex
    do { index = try PostgresIndex(reading: storeName) } catch { throw failure(error) }
    do { try run(index) } catch let error as PostgresError { throw failure(error) }
  }

  private func failure(_ error: PostgresError) -> CommandFailure {
    CommandFailure(error.description, status: ExitStatus.usage)
  }

  private func run(_ index: PostgresIndex) throws {
    if options.count { return try context.printCount(index.count(query.everything)) }
    let search = SharedReadingSearch(index: index)
    if options.open {
      let result = try context.picked(
        options.pick, of: search.results(query, limit: options.pick))
      try SearchSession(environment: context.environment).open(result)
      print(result.uri)
      return
    }
    let (format, shown) = options.presentation(context)
    let start = options.live ? try index.lastChange() : 0
    let results = try search.results(query, limit: shown.map { $0 + 1 })
    let printed = shown.map { Array(results.prefix($0)) } ?? results
    // Snippets only for a person at a terminal, and only of what is shown.
    var snippets: [String: String] = [:]
    if case .human = format {
      snippets = try index.snippets(
        for: printed.compactMap { search.hits[$0.uri] }, query: query.node, open: "\u{1}",
        close: "\u{2}")
    }
    let home = IndexLocation.fromEnvironment(context.environment).home
    let output = OutputBuffer(fd: context.output, abandoned: context.abandoned)
    let printer = ResultPrinter(format: format, home: home, output: output) { snippets[$0.uri] }
    printer.print(printed)
    context.noteMore(format: format, matched: results.count, shown: printed.count)
    // Followed until the reader goes away, which ends the command well.
    if options.live {
      return try LiveFollower(
        source: StoreChanges(index: index, query: query.everything), json: options.json,
        output: output
      ).follow(from: start, shown: printed.map(LiveFollower.Shown.init))
    }
    try context.end(found: results.count)
  }

  /// A store's entry as the printer takes a result.
  static func result(_ hit: PostgresIndex.Hit) -> SearchResult {
    SearchResult(
      rowID: 0, id: hit.uri, localID: nil, domain: hit.domain ?? fileDomain, uri: hit.uri,
      path: hit.domain == nil ? hit.path : nil,
      displayName: hit.name, contentType: hit.contentType, kind: hit.kind,
      modified: hit.modified, size: hit.size, isFolder: hit.isFolder, thumbnailPath: nil,
      score: -hit.rank, host: hit.host)
  }
}
