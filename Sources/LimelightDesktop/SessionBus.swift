import CSystemdBus
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An object a service puts on the bus: one interface, its introspection, and
/// what each of its methods answers.
public protocol BusObject: AnyObject {
  /// The D-Bus interface it implements, e.g. `org.gnome.Shell.SearchProvider2`.
  var interface: String { get }
  /// The `<interface>` element of its introspection data.
  var introspection: String { get }
  /// Answers one method call of its interface: reads the arguments from
  /// `call` and writes the reply's values into `reply`.
  func answer(_ call: BusCall, into reply: BusReply) throws
}

/// A failed call, sent back to the caller as a D-Bus error.
public struct BusError: Error {
  public var name: String
  public var message: String

  public init(name: String = "org.freedesktop.DBus.Error.Failed", _ message: String) {
    (self.name, self.message) = (name, message)
  }

  public static func invalidArguments(_ message: String) -> BusError {
    BusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message)
  }

  /// A call to a method the object's interface does not have.
  public static func unknownMethod(_ call: BusCall, of object: BusObject) -> BusError {
    BusError(
      name: "org.freedesktop.DBus.Error.UnknownMethod",
      "\(object.interface) has no method \(call.member ?? "")")
  }
}

/// A connection to the user's session bus (sd-bus), serving objects until it
/// has been idle for a while: the service is started on demand by the bus.
public final class SessionBus {
  private var bus: OpaquePointer?
  /// The objects and their sd-bus slots, kept alive as long as the connection.
  private var exported: [(object: Exported, slot: OpaquePointer?)] = []
  private var lastActivity = Date()

  /// Connects to the bus `DBUS_SESSION_BUS_ADDRESS` names (or the user's).
  public init() throws {
    let status = sd_bus_open_user(&bus)
    guard status >= 0, bus != nil else {
      throw BusError("cannot connect to the session bus: \(String(cString: strerror(-status)))")
    }
  }

  deinit { sd_bus_flush_close_unref(bus) }

  /// Serves an object at a path.
  public func export(_ object: BusObject, at path: String) throws {
    let box = Exported(object: object) { [unowned self] in self.lastActivity = Date() }
    var slot: OpaquePointer?
    let status = sd_bus_add_object(
      bus, &slot, path, SessionBus.dispatch, Unmanaged.passUnretained(box).toOpaque())
    guard status >= 0 else {
      throw BusError("cannot serve \(path): \(String(cString: strerror(-status)))")
    }
    exported.append((box, slot))
  }

  /// Takes a well-known name, once every object is in place.
  public func requestName(_ name: String) throws {
    let status = sd_bus_request_name(bus, name, 0)
    guard status >= 0 else {
      throw BusError("cannot own the name \(name): \(String(cString: strerror(-status)))")
    }
  }

  /// Answers calls until the connection closes or, when `idleExit` is given,
  /// no call came for that many seconds.
  public func serve(idleExit: TimeInterval?) throws {
    while true {
      let processed = sd_bus_process(bus, nil)
      if processed < 0 {
        if processed == -ECONNRESET || processed == -ENOTCONN { return }
        throw BusError("the session bus failed: \(String(cString: strerror(-processed)))")
      }
      if processed > 0 { continue }
      var wait = UInt64.max
      if let idleExit {
        let left = idleExit - Date().timeIntervalSince(lastActivity)
        if left <= 0 { return }
        wait = UInt64(left * 1_000_000) + 1
      }
      let waited = sd_bus_wait(bus, wait)
      if waited < 0 && waited != -EINTR {
        if waited == -ECONNRESET || waited == -ENOTCONN { return }
        throw BusError("the session bus failed: \(String(cString: strerror(-waited)))")
      }
    }
  }

  /// sd-bus's entry for every call to an exported path.
  private static let dispatch: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata else { return 0 }
    let box = Unmanaged<Exported>.fromOpaque(userdata).takeUnretainedValue()
    return box.handle(message)
  }

  /// An exported object, and what to tell when it is called.
  private final class Exported {
    let object: BusObject
    let touched: () -> Void

    init(object: BusObject, touched: @escaping () -> Void) {
      (self.object, self.touched) = (object, touched)
    }

    /// 1 when the call was answered here; 0 leaves it to sd-bus (its own
    /// interfaces, or an unknown one).
    func handle(_ message: OpaquePointer) -> Int32 {
      touched()
      let call = BusCall(message)
      if call.interface == "org.freedesktop.DBus.Introspectable" && call.member == "Introspect" {
        return reply(to: message) { $0.append(introspectionXML) }
      }
      guard call.interface == object.interface || call.interface == nil else { return 0 }
      return reply(to: message) { try object.answer(call, into: $0) }
    }

    var introspectionXML: String {
      """
      <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
       "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
      <node>
       <interface name="org.freedesktop.DBus.Introspectable">
        <method name="Introspect"><arg name="xml" type="s" direction="out"/></method>
       </interface>
       <interface name="org.freedesktop.DBus.Peer">
        <method name="Ping"/>
        <method name="GetMachineId"><arg name="id" type="s" direction="out"/></method>
       </interface>
      \(object.introspection)
      </node>
      """
    }

    /// Builds and sends the method return, or the error the answer threw.
    func reply(to message: OpaquePointer, _ fill: (BusReply) throws -> Void) -> Int32 {
      var reply: OpaquePointer?
      guard sd_bus_message_new_method_return(message, &reply) >= 0, let reply else {
        return -ENOMEM
      }
      defer { sd_bus_message_unref(reply) }
      do {
        let writer = BusReply(reply)
        try fill(writer)
        if let failure = writer.failure { throw failure }
        return sd_bus_send(nil, reply, nil) < 0 ? -EIO : 1
      } catch {
        let failure =
          error as? BusError ?? BusError("\(error)")
        var busError = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&busError) }
        sd_bus_error_set(&busError, failure.name, failure.message)
        return sd_bus_reply_method_error(message, &busError) < 0 ? -EIO : 1
      }
    }
  }
}
