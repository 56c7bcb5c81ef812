#if canImport(Glibc)
  import Glibc
#endif

/// Host names as entries of a shared store carry them (`file://HOST/path`).
public enum HostName {
  /// Whether `name` can stand as a URI's host: letters, digits, `-` and `.`.
  public static func isValid(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= 253
      && name.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || $0 == "-" || $0 == "."
      }
  }

  /// The system's host name up to its first dot, lower-cased; `localhost`
  /// when it has none a URI could carry.
  public static var system: String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    let name =
      String(decoding: bytes, as: UTF8.self).split(separator: ".").first.map(String.init) ?? ""
    return isValid(name) ? name.lowercased() : "localhost"
  }

  /// Whether `name` names this host: its system name, or `localhost`.
  public static func isThisHost(_ name: String) -> Bool {
    let lower = name.lowercased()
    return lower == "localhost" || lower == system
  }
}
