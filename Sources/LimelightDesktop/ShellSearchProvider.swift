/// GNOME Shell's search provider interface (`org.gnome.Shell.SearchProvider2`):
/// the overview asks for results as the user types, narrows them with each
/// further key, asks how to show the first few, and hands one back to open.
public final class ShellSearchProvider: BusObject {
  public let interface = "org.gnome.Shell.SearchProvider2"
  let results: DesktopResults

  public init(results: DesktopResults) { self.results = results }

  public func answer(_ call: BusCall, into reply: BusReply) throws {
    switch call.member {
    case "GetInitialResultSet":
      reply.append(results.search(try call.strings()))
    case "GetSubsearchResultSet":
      let previous = try call.strings()
      reply.append(results.narrow(previous, terms: try call.strings()))
    case "GetResultMetas":
      let ids = try call.strings()
      reply.container("a", "a{sv}") {
        for id in ids {
          guard let result = results.result(id) else { continue }
          reply.append([
            ("id", .string(id)), ("name", .string(result.displayName)),
            ("description", .string(results.description(of: result))),
            ("gicon", .string(results.gicon(of: result))),
            ("clipboardText", .string(result.path?.string ?? result.uri)),
          ])
        }
      }
    case "ActivateResult":
      let id = try call.string()
      _ = try call.strings()
      _ = try call.uint32()
      try results.open(id)
    case "LaunchSearch":
      let terms = try call.strings()
      _ = try call.uint32()
      try results.launchPicker(terms)
    default:
      throw BusError.unknownMethod(call, of: self)
    }
  }

  public let introspection = """
     <interface name="org.gnome.Shell.SearchProvider2">
      <method name="GetInitialResultSet">
       <arg type="as" name="terms" direction="in"/>
       <arg type="as" name="results" direction="out"/>
      </method>
      <method name="GetSubsearchResultSet">
       <arg type="as" name="previous_results" direction="in"/>
       <arg type="as" name="terms" direction="in"/>
       <arg type="as" name="results" direction="out"/>
      </method>
      <method name="GetResultMetas">
       <arg type="as" name="identifiers" direction="in"/>
       <arg type="aa{sv}" name="metas" direction="out"/>
      </method>
      <method name="ActivateResult">
       <arg type="s" name="identifier" direction="in"/>
       <arg type="as" name="terms" direction="in"/>
       <arg type="u" name="timestamp" direction="in"/>
      </method>
      <method name="LaunchSearch">
       <arg type="as" name="terms" direction="in"/>
       <arg type="u" name="timestamp" direction="in"/>
      </method>
     </interface>
    """
}
