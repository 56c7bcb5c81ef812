/// KRunner's D-Bus runner interface (`org.kde.krunner1`): Plasma's launcher
/// asks for matches as the user types and runs the one chosen, with its
/// default action or one of ours.
public final class KRunnerRunner: BusObject {
  public let interface = "org.kde.krunner1"
  let results: DesktopResults

  /// The actions a match offers beside its default (open): id, text, icon.
  static let actions: [(id: String, text: String, icon: String)] = [
    ("open", "Open", "document-open"),
    ("folder", "Open containing folder", "document-open-folder"),
  ]

  /// KRunner's match types: a possible match ranks below an exact one.
  static let possibleMatch: Int32 = 30

  public init(results: DesktopResults) { self.results = results }

  public func answer(_ call: BusCall, into reply: BusReply) throws {
    switch call.member {
    case "Actions":
      reply.container("a", "(sss)") {
        for action in Self.actions {
          reply.container("r", "sss") {
            reply.append(action.id)
            reply.append(action.text)
            reply.append(action.icon)
          }
        }
      }
    case "Match":
      let query = try call.string()
      let uris = results.search(query.split(separator: " ").map(String.init))
      reply.container("a", "(sssida{sv})") {
        for (rank, uri) in uris.enumerated() {
          guard let result = results.result(uri) else { continue }
          reply.container("r", "sssida{sv}") {
            reply.append(uri)
            reply.append(result.displayName)
            reply.append(results.iconNames(of: result).first ?? "")
            reply.append(Self.possibleMatch)
            // Best first: KRunner sorts by relevance, 0 to 1.
            reply.append(max(0.1, 0.9 - Double(rank) * 0.01))
            var properties: [(String, BusVariant)] = [
              ("subtext", .string(results.description(of: result))),
              ("urls", .strings([uri])),
            ]
            if result.path == nil { properties.append(("actions", .strings(["open"]))) }
            reply.append(properties)
          }
        }
      }
    case "Run":
      let uri = try call.string()
      let action = try call.string()
      switch action {
      case "", "open": try results.open(uri)
      case "folder": try results.open(uri, containingFolder: true)
      default: throw BusError.invalidArguments("no action named '\(action)'")
      }
    case "Teardown":
      break
    default:
      throw BusError.unknownMethod(call, of: self)
    }
  }

  public let introspection = """
     <interface name="org.kde.krunner1">
      <method name="Actions">
       <arg name="matches" type="a(sss)" direction="out"/>
      </method>
      <method name="Match">
       <arg name="query" type="s" direction="in"/>
       <arg name="matches" type="a(sssida{sv})" direction="out"/>
      </method>
      <method name="Run">
       <arg name="matchId" type="s" direction="in"/>
       <arg name="actionId" type="s" direction="in"/>
      </method>
      <method name="Teardown"/>
     </interface>
    """
}
