import Foundation
import LimelightExit
import LimelightModel
import LimelightPlatform
import LimelightSearch
import LimelightStore

#if canImport(Glibc)
  import Glibc
#endif

/// `find-in -i`: a query line and results that follow every key, on the
/// terminal; Enter opens the selected result, Alt-Enter its folder, Tab
/// prints the URIs (for `$(find-in -i)`), Esc leaves. Searches run with
/// `find-in`'s engine on an index held open for the whole session, or on
/// the shared store `find-in` would search.
public final class Picker {
  let session: SearchSession
  let environment: [String: String]
  var screen = PickerScreen()
  var results: [SearchResult] = []
  /// What makes the selected result's snippet (for the query as it ran).
  var snippetOf: ((SearchResult) -> String?)?
  let dates = ShortDateFormatter()
  /// How many results the query asks for: a screen's worth as it is typed
  /// (each key searches again), more as the selection goes down past them.
  var loaded = 0

  /// A picker for `words`, on the store `--store` names (`store`), else
  /// the one limelight.conf names, else the local index.
  public init(
    words: [String], store: String? = nil,
    environment: [String: String] = ProcessEnvironment.current
  ) {
    session = SearchSession(environment: environment, shared: true, store: store)
    self.environment = environment
    screen.query = words.joined(separator: " ")
  }

  /// What the user chose.
  enum Outcome {
    case open(SearchResult, folder: Bool)
    case print([String])
    case quit
  }

  /// Runs the picker; returns the exit status (0 when something was chosen,
  /// 1 when the user left without choosing).
  public func run() throws -> Int32 {
    guard let terminal = RawTerminal() else {
      throw CommandFailure("find-in -i needs a terminal")
    }
    // A resize interrupts the wait for keys, and the screen is drawn again.
    signal(SIGWINCH) { _ in }
    let outcome: Outcome
    do {
      outcome = try loop(terminal)
      terminal.restore()
    } catch {
      terminal.restore()
      throw error
    }
    switch outcome {
    case .quit:
      return ExitStatus.notFound
    case .print(let uris):
      let text = uris.map { $0 + "\n" }.joined()
      FileHandle.standardOutput.write(Data(text.utf8))
      return ExitStatus.success
    case .open(let result, let folder):
      try session.open(result, containingFolder: folder)
      print(result.uri)
      return ExitStatus.success
    }
  }

  func loop(_ terminal: RawTerminal) throws -> Outcome {
    var decoder = KeyDecoder()
    let color = Terminal.of(terminal.fd, environment: environment).color
    var size = terminal.size
    refresh(rows: size.rows)
    var needsDrawing = true
    while true {
      if needsDrawing {
        screen.scroll(screenRows: size.rows)
        terminal.write(screen.render(rows: size.rows, columns: size.columns, color: color))
      }
      // Keys typed faster than the screen draws are taken together, and
      // searched once.
      var keys: [PickerKey] = []
      var queryChanged = false
      repeat {
        // Idle, it wakes now and then to see whether the terminal was resized
        // (a SIGWINCH that comes while drawing interrupts no wait).
        guard let bytes = terminal.read(timeout: keys.isEmpty && !decoder.isWaiting ? 200 : 25)
        else { return .quit }
        if bytes.isEmpty {
          if decoder.isWaiting { keys += decoder.flush() }
          if keys.isEmpty { break }  // A resize.
          continue
        }
        keys += decoder.decode(bytes)
      } while keys.isEmpty || decoder.isWaiting
      for key in keys {
        // Moving or choosing acts on the results of the query typed before it.
        if queryChanged && !key.editsQuery {
          refresh(rows: size.rows)
          queryChanged = false
        }
        if let outcome = handle(key, queryChanged: &queryChanged, rows: size.rows) {
          return outcome
        }
      }
      let newSize = terminal.size
      needsDrawing = true
      if queryChanged || newSize != size {
        size = newSize
        refresh(rows: size.rows)
      } else if screen.more && screen.selected >= results.count - 1 {
        loaded += 2 * PickerScreen.listHeight(rows: size.rows)
        refresh(rows: size.rows, keepingLoaded: true)
      } else if keys.isEmpty {
        needsDrawing = false
      } else {
        updateSnippet()
      }
    }
  }

  /// Applies a key; an outcome when it ends the picker.
  func handle(_ key: PickerKey, queryChanged: inout Bool, rows: Int) -> Outcome? {
    let page = PickerScreen.listHeight(rows: rows)
    switch key {
    case .text(let text):
      screen.query += text
      queryChanged = true
    case .backspace:
      if !screen.query.isEmpty {
        screen.query.removeLast()
        queryChanged = true
      }
    case .clearLine:
      screen.query = ""
      queryChanged = true
    case .deleteWord:
      while screen.query.last == " " { screen.query.removeLast() }
      while let last = screen.query.last, last != " " { screen.query.removeLast() }
      queryChanged = true
    case .up: screen.selected = max(0, screen.selected - 1)
    case .down: screen.selected = min(max(0, results.count - 1), screen.selected + 1)
    case .pageUp: screen.selected = max(0, screen.selected - page)
    case .pageDown: screen.selected = min(max(0, results.count - 1), screen.selected + page)
    case .mark:
      guard let uri = selectedResult?.uri else { break }
      if screen.marked.remove(uri) == nil { screen.marked.insert(uri) }
      screen.selected = min(max(0, results.count - 1), screen.selected + 1)
    case .open, .openFolder:
      guard let result = selectedResult else { break }
      if key == .openFolder && result.path == nil {
        screen.message = "\(result.displayName) is not a file: it has no folder"
        break
      }
      return .open(result, folder: key == .openFolder)
    case .print:
      let chosen = results.map(\.uri).filter(screen.marked.contains)
      if !chosen.isEmpty { return .print(chosen) }
      if let result = selectedResult { return .print([result.uri]) }
    case .quit:
      return .quit
    case .endOfInput:
      if screen.query.isEmpty { return .quit }
    }
    return nil
  }

  var selectedResult: SearchResult? {
    results.indices.contains(screen.selected) ? results[screen.selected] : nil
  }

  /// Searches for the query as typed, keeping the selection on the same item
  /// when it is still found; a screen's worth of results, or as many as were
  /// loaded (`keepingLoaded`).
  func refresh(rows: Int, keepingLoaded: Bool = false) {
    let previous = selectedResult?.uri
    screen.message = nil
    let words = screen.query.split(separator: " ").map(String.init)
    let page = max(PickerScreen.listHeight(rows: rows), 10)
    let wanted = keepingLoaded ? max(loaded, page) : page
    loaded = wanted
    do {
      screen.reading = nil
      if words.isEmpty {
        results = []
        snippetOf = nil
      } else {
        let query = try session.query(words)
        if query.line != query.typed { screen.reading = query.line }
        (results, snippetOf) = try session.searchAsRun(query, limit: wanted + 1)
      }
      if let note = session.buildingNote() { screen.message = note }
    } catch {
      results = []
      snippetOf = nil
      screen.message = (error as? CommandFailure)?.message ?? "\(error)"
    }
    screen.more = results.count > wanted
    if screen.more { results.removeLast() }
    screen.rows = results.map(row)
    screen.selected = previous.flatMap { uri in results.firstIndex { $0.uri == uri } } ?? 0
    screen.top = 0
    updateSnippet()
  }

  func updateSnippet() {
    screen.snippet = nil
    guard let result = selectedResult, let snippetOf else { return }
    screen.snippet = snippetOf(result)
  }

  func row(_ result: SearchResult) -> PickerRow {
    // A shared store's entry: its host, and its folder there.
    let folder = result.path.map { path in
      result.host.map { $0 + ":" + path.parent.string }
        ?? path.parent.shown(home: session.location.home)
    }
    let location = folder ?? result.domain
    let details = [result.kind ?? result.contentType ?? "", dates.string(result.modified)]
      .filter { !$0.isEmpty }.joined(separator: " · ")
    return PickerRow(
      uri: result.uri, name: result.displayName, details: details, location: location)
  }
}
