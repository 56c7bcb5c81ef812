import CSystemdBus

#if canImport(Glibc)
  import Glibc
#endif

/// A method call's header and arguments, read in the order they were sent.
public struct BusCall {
  let message: OpaquePointer

  init(_ message: OpaquePointer) { self.message = message }

  public var interface: String? {
    sd_bus_message_get_interface(message).map { String(cString: $0) }
  }
  public var member: String? { sd_bus_message_get_member(message).map { String(cString: $0) } }

  /// The next argument, a string (`s`).
  public func string() throws -> String {
    var value: UnsafePointer<CChar>?
    guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &value) > 0, let value
    else { throw BusError.invalidArguments("expected a string argument") }
    return String(cString: value)
  }

  /// The next argument, an array of strings (`as`).
  public func strings() throws -> [String] {
    var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    guard sd_bus_message_read_strv(message, &list) >= 0 else {
      throw BusError.invalidArguments("expected an array of strings")
    }
    defer {
      var cursor = list
      while let item = cursor?.pointee {
        free(item)
        cursor = cursor! + 1
      }
      free(list)
    }
    var strings: [String] = []
    var cursor = list
    while let item = cursor?.pointee {
      strings.append(String(cString: item))
      cursor = cursor! + 1
    }
    return strings
  }

  /// The next argument, an unsigned 32-bit number (`u`).
  public func uint32() throws -> UInt32 {
    var value: UInt32 = 0
    guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &value) > 0 else {
      throw BusError.invalidArguments("expected an unsigned 32-bit number")
    }
    return value
  }
}

/// A value in a `a{sv}` dictionary.
public enum BusVariant {
  case string(String)
  case strings([String])
  case double(Double)
}

/// The values of a method return, written in order. The first failure stops
/// the writing and is sent back instead.
public final class BusReply {
  let message: OpaquePointer
  private(set) var failure: BusError?

  init(_ message: OpaquePointer) { self.message = message }

  private func check(_ status: Int32) {
    if status < 0 && failure == nil {
      failure = BusError("cannot build the reply: \(String(cString: strerror(-status)))")
    }
  }

  private func type(_ code: String) -> CChar { CChar(UInt8(ascii: code.unicodeScalars.first!)) }

  public func append(_ value: String) {
    check(sd_bus_message_append_basic(message, type("s"), value))
  }

  public func append(_ value: Int32) {
    var value = value
    check(sd_bus_message_append_basic(message, type("i"), &value))
  }

  public func append(_ value: Double) {
    var value = value
    check(sd_bus_message_append_basic(message, type("d"), &value))
  }

  /// An array of strings (`as`).
  public func append(_ values: [String]) {
    container("a", "s") { for value in values { append(value) } }
  }

  /// A dictionary of variants (`a{sv}`), in the order given.
  public func append(_ entries: [(String, BusVariant)]) {
    container("a", "{sv}") {
      for (key, value) in entries {
        container("e", "sv") {
          append(key)
          switch value {
          case .string(let text): container("v", "s") { append(text) }
          case .strings(let list): container("v", "as") { append(list) }
          case .double(let number): container("v", "d") { append(number) }
          }
        }
      }
    }
  }

  /// A container (`a` array, `r` struct, `e` dictionary entry, `v` variant)
  /// holding what `body` writes.
  public func container(_ kind: String, _ contents: String, _ body: () -> Void) {
    check(sd_bus_message_open_container(message, type(kind), contents))
    body()
    check(sd_bus_message_close_container(message))
  }
}
