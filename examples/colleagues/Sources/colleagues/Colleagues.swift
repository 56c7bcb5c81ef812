import ArgumentParser
import Foundation
import LimelightKit

/// An address book of colleagues: the sample application that puts its
/// content into Limelight with the Swift library, answers its reindex
/// extension, and opens its own `colleagues://person/ID` URIs.
@main
struct Colleagues: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "colleagues",
    abstract: "An address book of colleagues that Limelight can search.",
    discussion: """
      The address book is a JSON file: $COLLEAGUES_DATA, or
      $XDG_DATA_HOME/colleagues/people.json. Changes are pushed to Limelight at once;
      'reindex-all' and 'reindex ID...' print the items for Limelight's reindex
      extension (see examples/colleagues/README.md).
      """,
    subcommands: [
      Load.self, List.self, Change.self, Remove.self, Open.self, Search.self, ReindexAll.self,
      Reindex.self,
    ])
}

/// One colleague as the address book stores it.
struct Person: Codable, Equatable {
  var id: String
  var name: String
  var team: String?
  var role: String?
  var email: [String]?
  var phone: [String]?
  var skills: [String]?
}

enum AddressBook {
  static let domain = "com.example.colleagues"
  static let peopleDomain = "com.example.colleagues.people"

  static var path: String {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["COLLEAGUES_DATA"], !path.isEmpty { return path }
    let data =
      environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? (NSHomeDirectory() + "/.local/share")
    return data + "/colleagues/people.json"
  }

  static func read() throws -> [Person] {
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    do { return try JSONDecoder().decode([Person].self, from: data) } catch {
      throw ValidationError("\(path) is not an address book: \(error.localizedDescription)")
    }
  }

  static func write(_ people: [Person]) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(people).write(to: url, options: .atomic)
  }

  /// A colleague as a Limelight item.
  static func item(_ person: Person) -> SearchableItem {
    var set = SearchableItemAttributeSet(contentType: "text/vcard")
    set.displayName = person.name
    set.contentDescription = [person.team, person.role].compactMap { $0 }.joined(separator: ", ")
    set.keywords = person.skills
    set.emailAddresses = person.email
    set.phoneNumbers = person.phone
    if let team = person.team { set.custom["team"] = .string(team) }
    return SearchableItem(
      uniqueIdentifier: person.id, domainIdentifier: peopleDomain,
      uri: "colleagues://person/"
        + (person.id.addingPercentEncoding(
          withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
          ?? person.id),
      attributeSet: set)
  }

  static func index() throws -> SearchableIndex {
    try SearchableIndex(name: "colleagues", domain: domain)
  }
}

struct Load: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Replace the address book with a file's colleagues and index them in batches.",
    discussion: """
      Each batch of --batch colleagues is stored with the number loaded so far as its
      client state: after an interruption, --resume goes on after the last stored batch.
      """)

  @Argument(help: "A JSON array of colleagues.")
  var file: String

  @Option(help: "Colleagues per batch.")
  var batch = 50

  @Flag(help: "Continue an interrupted load after its last stored batch.")
  var resume = false

  func validate() throws {
    if batch < 1 { throw ValidationError("--batch must be at least 1") }
  }

  func run() async throws {
    guard let data = FileManager.default.contents(atPath: file) else {
      throw ValidationError("cannot read \(file)")
    }
    let people: [Person]
    do { people = try JSONDecoder().decode([Person].self, from: data) } catch {
      throw ValidationError("\(file) is not a list of colleagues: \(error.localizedDescription)")
    }
    try AddressBook.write(people)
    let index = try AddressBook.index()
    var done = 0
    if resume, let state = try await index.fetchLastClientState(),
      let count = Int(String(decoding: state, as: UTF8.self))
    {
      done = min(count, people.count)
    } else {
      try await index.deleteSearchableItems(withDomainIdentifiers: [AddressBook.peopleDomain])
    }
    while done < people.count {
      let next = people[done..<min(done + batch, people.count)]
      try index.beginBatch()
      try await index.indexSearchableItems(next.map(AddressBook.item))
      done += next.count
      try await index.endBatch(clientState: Data(String(done).utf8))
    }
    print("indexed \(done) colleagues")
  }
}

struct List: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "List the colleagues.")
  func run() async throws {
    for person in try AddressBook.read() { print("\(person.id)\t\(person.name)") }
  }
}

struct Change: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "set",
    abstract: "Change a colleague (name, team, role, email, phone or skills) and reindex it.")

  @Argument(help: "The colleague's id.") var id: String
  @Argument(help: "name, team, role, email, phone or skills.") var field: String
  @Argument(help: "The new value (lists: comma-separated).") var value: String

  func run() async throws {
    var people = try AddressBook.read()
    guard let at = people.firstIndex(where: { $0.id == id }) else {
      throw ValidationError("no colleague \(id)")
    }
    let list = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    switch field {
    case "name": people[at].name = value
    case "team": people[at].team = value
    case "role": people[at].role = value
    case "email": people[at].email = list
    case "phone": people[at].phone = list
    case "skills": people[at].skills = list
    default: throw ValidationError("unknown field '\(field)'")
    }
    try AddressBook.write(people)
    try await AddressBook.index().indexSearchableItems([AddressBook.item(people[at])])
  }
}

struct Remove: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Remove a colleague.")
  @Argument(help: "The colleague's id.") var id: String

  func run() async throws {
    var people = try AddressBook.read()
    guard people.contains(where: { $0.id == id }) else {
      throw ValidationError("no colleague \(id)")
    }
    people.removeAll { $0.id == id }
    try AddressBook.write(people)
    try await AddressBook.index().deleteSearchableItems(
      withIdentifiers: [id], inDomain: AddressBook.peopleDomain)
  }
}

struct Open: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Show the colleague a colleagues:// URI names (the URI handler).")
  @Argument(help: "colleagues://person/ID") var uri: String

  func run() async throws {
    let prefix = "colleagues://person/"
    guard uri.hasPrefix(prefix),
      let id = String(uri.dropFirst(prefix.count)).removingPercentEncoding
    else { throw ValidationError("not a colleagues:// URI: \(uri)") }
    guard let person = try AddressBook.read().first(where: { $0.id == id }) else {
      throw ValidationError("no colleague \(id)")
    }
    print(person.name)
    if let team = person.team { print("team:   \(team)") }
    if let role = person.role { print("role:   \(role)") }
    for email in person.email ?? [] { print("email:  \(email)") }
    for phone in person.phone ?? [] { print("phone:  \(phone)") }
  }
}

struct Search: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Search the colleagues through Limelight (find-in's query language).")
  @Argument(help: "Words, filters or a predicate.") var words: [String]

  func run() async throws {
    let query = SearchQuery(
      queryString: words.joined(separator: " ") + " domain:" + AddressBook.domain,
      attributes: ["emailAddresses"])
    for try await item in query.results() {
      let emails = item.attributeSet.emailAddresses?.joined(separator: ", ") ?? ""
      print("\(item.attributeSet.displayName ?? item.uniqueIdentifier)\t\(emails)")
    }
  }
}

/// The reindex extension's `reindex-all`: every colleague as a protocol line.
struct ReindexAll: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reindex-all", abstract: "Print every colleague for Limelight (the extension).")
  func run() async throws {
    for person in try AddressBook.read() { print(AddressBook.item(person).jsonLine) }
  }
}

/// The reindex extension's `reindex ID...`: those colleagues, and deletions
/// for the ids that are gone.
struct Reindex: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print these colleagues for Limelight (the extension).")
  @Argument(help: "Ids.") var ids: [String]

  func run() async throws {
    let people = try AddressBook.read()
    var gone: [String] = []
    for id in ids {
      if let person = people.first(where: { $0.id == id }) {
        print(AddressBook.item(person).jsonLine)
      } else {
        gone.append(id)
      }
    }
    if !gone.isEmpty {
      print(SearchableItem.deletionLine(identifiers: gone, domain: AddressBook.peopleDomain))
    }
  }
}
