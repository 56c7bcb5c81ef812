import LimelightSearch

/// One result as the picker lists it.
public struct PickerRow: Equatable, Sendable {
  public var uri: String
  public var name: String
  /// Kind and date, shown on the selected row.
  public var details: String
  /// Where it is ("~/Documents"), or its domain.
  public var location: String

  public init(uri: String, name: String, details: String, location: String) {
    (self.uri, self.name, self.details, self.location) = (uri, name, details, location)
  }
}

/// What the picker shows: the query line, the results, the selected one's
/// details and snippet, and a line of keys or a message.
public struct PickerScreen: Equatable, Sendable {
  public var query = ""
  public var rows: [PickerRow] = []
  public var selected = 0
  /// The first row shown, when the list is longer than the screen.
  public var top = 0
  public var marked: Set<String> = []
  /// The selected row's snippet, with "\u{1}" and "\u{2}" around matches.
  public var snippet: String?
  /// A message instead of the key line: an error in the query, the index being built.
  public var message: String?
  /// More results than the list holds.
  public var more = false
  /// How the query was read, in the filter language, when it is not the
  /// words as typed: shown under the query line.
  public var reading: String?

  public init() {}

  static let keys = "Enter open · Alt-Enter folder · Tab print · Ctrl-T mark · Esc quit"

  /// How many rows the results have on a screen of this height (the
  /// selected one takes two lines).
  static func listHeight(rows: Int) -> Int { max(1, rows - 3) }

  /// The rows of results with the reading's line, when there is one.
  func listHeight(rows: Int) -> Int {
    max(1, Self.listHeight(rows: rows) - (reading == nil ? 0 : 1))
  }

  /// Scrolls so that the selected row is in view.
  public mutating func scroll(screenRows: Int) {
    let height = listHeight(rows: screenRows)
    if selected < top { top = selected }
    if selected >= top + height { top = selected - height + 1 }
    top = max(0, min(top, max(0, rows.count - height)))
  }

  /// The whole screen, drawn from its top left corner, each line cleared to
  /// its end; the cursor left at the end of the query.
  public func render(rows screenRows: Int, columns: Int, color: Bool) -> String {
    let style = Terminal(isTerminal: true, color: color)
    var lines: [String] = []
    let count =
      rows.isEmpty
      ? "" : "\(rows.count)\(more ? "+" : "") result\(rows.count == 1 && !more ? "" : "s")"
    let prompt = "> "
    let queryRoom = max(1, columns - prompt.count - (count.isEmpty ? 0 : count.count + 2))
    let shownQuery = Width.tail(query, columns: queryRoom)
    let padding = max(1, columns - prompt.count - Width.of(shownQuery) - count.count)
    lines.append(
      style.bold(prompt) + shownQuery
        + (count.isEmpty ? "" : String(repeating: " ", count: padding) + style.dim(count)))
    if let reading {
      lines.append(style.dim(Width.head("  = " + reading, columns: columns)))
    }
    let height = listHeight(rows: screenRows)
    for (index, row) in rows.enumerated().dropFirst(top).prefix(height) {
      let isSelected = index == selected
      let lead = (isSelected ? ">" : " ") + (marked.contains(row.uri) ? "*" : " ") + " "
      let nameRoom = columns - 3
      let name = Width.head(ResultPrinter.printable(row.name), columns: nameRoom)
      let locationRoom = nameRoom - Width.of(name) - 2
      let location =
        locationRoom > 4
        ? "  " + Width.head(ResultPrinter.printable(row.location), columns: locationRoom) : ""
      lines.append(
        isSelected
          ? style.selected(lead + name) + style.dim(location)
          : lead + style.bold(name) + style.dim(location))
      if isSelected {
        var second = "    " + style.dim(Width.head(row.details, columns: columns - 4))
        let used = 4 + Width.of(row.details) + 3
        if let snippet, columns - used > 10 {
          second +=
            "   " + ResultPrinter.highlight(Width.head(snippet, columns: columns - used), style)
        }
        lines.append(second)
      }
    }
    while lines.count < screenRows - 1 { lines.append("") }
    lines = Array(lines.prefix(max(1, screenRows - 1)))
    lines.append(style.dim(Width.head(message ?? Self.keys, columns: columns)))
    let cursorColumn = prompt.count + Width.of(shownQuery) + 1
    return "\u{1B}[?25l\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n")
      + "\u{1B}[J\u{1B}[1;\(cursorColumn)H\u{1B}[?25h"
  }
}

extension Terminal {
  /// The selected row: bold and reversed (marked by its ">" alone without colour).
  func selected(_ text: String) -> String { color ? "\u{1B}[1;7m\(text)\u{1B}[0m" : text }
}

/// How many terminal columns text takes: wide East Asian characters two,
/// combining marks none.
enum Width {
  static func of(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v == 1 || v == 2 { return 0 }  // Snippet markers.
    if (0x300...0x36F).contains(v) || (0x200B...0x200F).contains(v) || v == 0xFE0F { return 0 }
    if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v)
      || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v)
      || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
      || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v)
      || (0x20000...0x3FFFD).contains(v)
    {
      return 2
    }
    return 1
  }

  static func of(_ text: String) -> Int { text.unicodeScalars.reduce(0) { $0 + of($1) } }

  /// The start of the text that fits, with "…" when cut.
  static func head(_ text: String, columns: Int) -> String {
    guard columns > 0 else { return "" }
    guard of(text) > columns else { return text }
    var out = String.UnicodeScalarView()
    var used = 0
    for scalar in text.unicodeScalars {
      let width = of(scalar)
      if used + width > columns - 1 { break }
      out.append(scalar)
      used += width
    }
    // A cut snippet must not leave its highlight open.
    if out.filter({ $0 == "\u{1}" }).count > out.filter({ $0 == "\u{2}" }).count {
      out.append("\u{2}")
    }
    return String(out) + "…"
  }

  /// The end of the text that fits (the query as it is typed), "…" first when cut.
  static func tail(_ text: String, columns: Int) -> String {
    guard of(text) > columns else { return text }
    var out: [Unicode.Scalar] = []
    var used = 0
    for scalar in text.unicodeScalars.reversed() {
      let width = of(scalar)
      if used + width > columns - 1 { break }
      out.append(scalar)
      used += width
    }
    return "…" + String(String.UnicodeScalarView(out.reversed()))
  }
}
