/// The freedesktop key file format (`.desktop`, `.thumbnailer`, Limelight's
/// importer and extension descriptors): `[Group]` headers, `Key=Value` lines,
/// `#` comments. The first value of a key in a group wins. Values are read
/// with the Desktop Entry specification's escapes (`\s`, `\n`, `\t`, `\r`,
/// `\\`, and `\;` inside lists).
public struct KeyFile: Sendable, Equatable {
  public var groups: [String: Group]

  /// One `[Group]`: its keys and their values as written.
  public struct Group: Sendable, Equatable {
    /// The values as written, escapes and all.
    public var raw: [String: String] = [:]

    public init(raw: [String: String] = [:]) { self.raw = raw }

    /// A string value, its escapes read.
    public subscript(key: String) -> String? { raw[key].map { KeyFile.unescaped($0) } }

    /// A `;`-separated list value (`MimeType=a;b;`), its escapes read (`\;`
    /// is a semicolon within an item), empty items left out.
    public func list(_ key: String) -> [String] {
      KeyFile.items(of: raw[key] ?? "").map { $0.trimmedOfBlanks }
        .filter { !$0.isEmpty }
    }
  }

  public init(text: String) {
    var groups: [String: [String: String]] = [:]
    var group: String?
    for line in text.split(whereSeparator: \.isNewline) {
      let trimmed = line.trimmedOfBlanks
      if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
        group = String(trimmed.dropFirst().dropLast())
        continue
      }
      guard let group, !trimmed.hasPrefix("#"), let eq = trimmed.firstIndex(of: "=") else {
        continue
      }
      let key = trimmed[..<eq].trimmedOfBlanks
      let value = trimmed[trimmed.index(after: eq)...].trimmedOfBlanks
      if groups[group, default: [:]][key] == nil { groups[group, default: [:]][key] = value }
    }
    self.groups = groups.mapValues { Group(raw: $0) }
  }

  public subscript(group: String, key: String) -> String? { groups[group]?[key] }

  /// A value with its escapes read; an unknown escape is kept as written.
  static func unescaped(_ value: String, list: Bool = false) -> String {
    guard value.contains("\\") else { return value }
    var out = ""
    var escaped = false
    for ch in value {
      if escaped {
        switch ch {
        case "s": out.append(" ")
        case "n": out.append("\n")
        case "t": out.append("\t")
        case "r": out.append("\r")
        case "\\": out.append("\\")
        case ";" where list: out.append(";")
        default: out += "\\" + String(ch)
        }
        escaped = false
      } else if ch == "\\" {
        escaped = true
      } else {
        out.append(ch)
      }
    }
    if escaped { out.append("\\") }
    return out
  }

  /// The items of a list value, split at the semicolons that are not escaped.
  static func items(of value: String) -> [String] {
    var items: [String] = []
    var current = ""
    var escaped = false
    for ch in value {
      if escaped {
        current += "\\" + String(ch)
        escaped = false
      } else if ch == "\\" {
        escaped = true
      } else if ch == ";" {
        items.append(current)
        current = ""
      } else {
        current.append(ch)
      }
    }
    if escaped { current.append("\\") }
    items.append(current)
    return items.map { unescaped($0, list: true) }
  }

  /// The key files named `*suffix` in these folders, by file name: a later
  /// folder's file replaces an earlier one of the same name (the user's
  /// descriptors override the system's).
  public static func files(endingIn suffix: String, in folders: [RawPath]) -> [(
    path: RawPath, file: KeyFile
  )] {
    paths(endingIn: suffix, in: folders).map { path in
      (path, KeyFile(text: FileSystem.readText(path, limit: 64 << 10) ?? ""))
    }
  }

  /// The paths of the files named `*suffix` in these folders, by file
  /// name: a later folder's file replaces an earlier one of the same name.
  static func paths(endingIn suffix: String, in folders: [RawPath]) -> [RawPath] {
    var byName: [String: RawPath] = [:]
    for folder in folders {
      for name in (try? FileSystem.entries(of: folder)) ?? [] where name.string.hasSuffix(suffix) {
        byName[name.string] = folder.appending(name.string)
      }
    }
    return byName.keys.sorted().map { byName[$0]! }
  }

  /// The key files named `*suffix` in these folders, as ``files(endingIn:in:)``
  /// gives them, each read whole or with the reason it could not be: a
  /// file that cannot be read is never taken for an empty one.
  public static func readFiles(endingIn suffix: String, in folders: [RawPath]) -> [(
    path: RawPath, file: Result<KeyFile, SystemError>
  )] {
    paths(endingIn: suffix, in: folders).map { path in
      do throws(SystemError) {
        let bytes = try FileSystem.readPrefix(path, limit: 64 << 10)
        return (path, .success(KeyFile(text: String(decoding: bytes, as: UTF8.self))))
      } catch {
        return (path, .failure(error))
      }
    }
  }

  /// A `;`-separated list value (`MimeType=a;b;`), empty items left out.
  public func list(_ group: String, _ key: String) -> [String] {
    groups[group]?.list(key) ?? []
  }

  /// An `Exec` value as an argument vector, by the Desktop Entry rules: words
  /// split at spaces, double quotes group, and inside them a backslash escapes
  /// `"`, `` ` ``, `$` and `\`. Nil for an unterminated quote.
  public static func arguments(of exec: String) -> [String]? {
    var arguments: [String] = []
    var current = ""
    var inWord = false
    var quoted = false
    var escaped = false
    for ch in exec {
      if escaped {
        current.append(ch)
        escaped = false
      } else if quoted {
        if ch == "\\" {
          escaped = true
        } else if ch == "\"" {
          quoted = false
        } else {
          current.append(ch)
        }
      } else if ch == "\"" {
        quoted = true
        inWord = true
      } else if ch == " " || ch == "\t" {
        if inWord { arguments.append(current) }
        current = ""
        inWord = false
      } else {
        current.append(ch)
        inWord = true
      }
    }
    if quoted || escaped { return nil }
    if inWord { arguments.append(current) }
    return arguments
  }
}

extension StringProtocol {
  /// Without the characters at either end that `isBlank` accepts.
  public func trimming(_ isBlank: (Character) -> Bool) -> String {
    var s = Substring(self)
    while let first = s.first, isBlank(first) { s = s.dropFirst() }
    while let last = s.last, isBlank(last) { s = s.dropLast() }
    return String(s)
  }

  /// Without white space at either end.
  public func trimmingWhitespace() -> String { trimming(\.isWhitespace) }

  /// Without the spaces and tabs at either end (the key file format's blanks).
  var trimmedOfBlanks: String { trimming { $0 == " " || $0 == "\t" } }
}

/// A descriptor file (an importer's, a reindex extension's) that could not
/// be used, and why.
public struct DescriptorProblem: Sendable, CustomStringConvertible, Equatable {
  public var path: RawPath
  public var reason: String
  public var description: String { "\(path.string): \(reason)" }

  public init(path: RawPath, reason: String) {
    self.path = path
    self.reason = reason
  }
}
