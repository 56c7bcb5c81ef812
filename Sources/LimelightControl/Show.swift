import ArgumentParser
import Foundation
import LimelightCLI
import LimelightExit
import LimelightModel
import LimelightPlatform
import LimelightPostgres
import LimelightSearch
import LimelightStore

struct Show: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print every attribute of an item (like mdls).",
    discussion: """
      ITEM is a path (absolute or relative), a URI as find-in prints it, or an item id. \
      Attributes the item lacks are shown as (null). A file://HOST/path URI of another \
      host is read from the shared store limelight.conf names (or --store).
      """)

  @Argument(help: "A path, URI or id.")
  var item: String

  @Flag(name: .long, help: "Print one JSON object.")
  var json = false

  @Option(
    name: .customLong("store"),
    help: ArgumentHelp(
      "Read the item from this PostgreSQL store (URL, key=value pairs or service=NAME), or"
        + " 'local' from this host's index (default: this host's index; another host's"
        + " file:// URI from limelight.conf's 'store').", valueName: "name"))
  var storeName: String?

  @Option(
    name: .customLong("store-read"),
    help: ArgumentHelp(FindInFlag.storeRead.help, valueName: "name"))
  var standbyName: String?

  func run() throws {
    // The configuration only for a URI with a host or a store named: a
    // local item is shown whatever limelight.conf says.
    let uri = FileURI.hostAndPath(from: item)
    guard uri != nil || (storeName != nil && storeName != "local") else {
      return try print(showLocal(nil))
    }
    let configuration: Configuration
    do { configuration = try Configuration.load(for: IndexLocation.fromEnvironment()) } catch {
      throw CommandFailure("bad configuration: \(error)")
    }
    let thisHost = configuration.resolvedHostName
    // This host's file://HOST/path is a path of the local index.
    let named = uri.map { named in
      named.host == thisHost || HostName.isThisHost(named.host)
        ? (host: thisHost, path: named.path) : named
    }
    let elsewhere = named.map { $0.host != thisHost } ?? false
    if let store = try SearchBackends.storeName(
      option: storeName, configuration: configuration, elsewhere: elsewhere)
    {
      let absolute = RawPath.absolute(item)
      let standby = try SearchBackends.standby(
        readOption: standbyName, store: store, configuration: configuration)
      return try showShared(
        named ?? (host: thisHost, path: FileSystem.realPath(absolute) ?? absolute), store: store,
        standby: standby)
    }
    if elsewhere, let named {
      throw CommandFailure(
        "'\(item)' is on \(named.host): name the shared store that holds it (--store, or"
          + " 'store' in limelight.conf)")
    }
    try print(showLocal(named?.path))
  }

  /// The item as the local index holds it.
  func showLocal(_ uriPath: RawPath?) throws -> [(name: String, value: AttributeValue?)] {
    let store = try openIndex(readOnly: true)
    var keys: [ItemDetails.Key] = []
    // Any scheme: files' URIs, applications' (notes://1, application:gimp.desktop).
    if item.wholeMatch(of: /[A-Za-z][A-Za-z0-9+.\-]*:.+/) != nil {
      keys.append(.uri(item))
      if let path = uriPath ?? FileURI.path(from: item) { keys.append(.path(path)) }
    }
    if !item.contains("://") {
      let absolute = RawPath.absolute(item)
      keys.append(.path(FileSystem.realPath(absolute) ?? absolute))
      keys.append(.path(absolute))
      keys.append(.id(item))
    }
    guard let details = try keys.lazy.compactMap({ try store.details(of: $0) }).first else {
      throw CommandFailure("no item for '\(item)' in the index", status: ExitStatus.notFound)
    }
    return details.fields
  }

  /// The entry a host sent to a shared store, as the store keeps it.
  /// Read from its hot standby `standby` when there is one and it
  /// answers, else from the primary.
  func showShared(
    _ target: (host: String, path: RawPath), store name: String, standby: String?
  ) throws {
    let fields: [(name: String, value: AttributeValue?)]?
    do {
      fields = try PostgresIndex.reading(name, standby: standby) { printError($0) }
        .index.details(host: target.host, path: target.path)
    } catch { throw CommandFailure(error.description) }
    guard let fields else {
      throw CommandFailure(
        "no item for '\(item)' in the shared store (\(target.host))", status: ExitStatus.notFound)
    }
    try print(fields)
  }

  func print(_ fields: [(name: String, value: AttributeValue?)]) throws {
    if json {
      var object: [String: Any] = [:]
      for (name, value) in fields { object[name] = value?.jsonValue ?? NSNull() }
      let data = try JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
      Swift.print(String(decoding: data, as: UTF8.self))
      return
    }
    let width = fields.map(\.name.count).max() ?? 0
    for (name, value) in fields {
      let shown: String
      switch value {
      case nil: shown = "(null)"
      case .string(let text)?:
        shown = "\"" + text.replacingOccurrences(of: "\n", with: "\\n") + "\""
      case .strings(let texts)?:
        shown = "(" + texts.map { "\"" + $0 + "\"" }.joined(separator: ", ") + ")"
      case .number(let number)?:
        shown = number.rounded() == number ? String(Int64(number)) : String(number)
      case .date(let date)?: shown = ISO8601DateFormatter().string(from: date)
      }
      Swift.print(name.padding(toLength: width, withPad: " ", startingAt: 0) + " = " + shown)
    }
  }
}
