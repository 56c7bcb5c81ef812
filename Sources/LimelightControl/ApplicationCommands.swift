import ArgumentParser
import Foundation
import LimelightCLI
import LimelightExit
import LimelightExtensions
import LimelightModel
import LimelightPlatform
import LimelightSearch
import LimelightStore

#if canImport(Glibc)
  import Glibc
#endif

/// `limelight index`: application items as JSON Lines on standard input.
struct Index: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Add or update application items read as JSON Lines (see limelight-items(7)).",
    discussion: """
      Each line is an item ({"id", "domain", "uri", "attributes", "expirationDate"}), a \
      deletion ({"delete": [ids], "domain": D}, {"deleteDomain": D}) or the end of a batch \
      ({"endBatch": {"clientState": S}}). The lines of a batch are checked first and then \
      written together: a malformed line is reported with its number, its batch is not \
      applied, and the batches before it stay. Exit status: 0 when every line was applied, \
      2 when a line was rejected.
      """)

  @Argument(help: ArgumentHelp("Read this file instead of standard input.", valueName: "file"))
  var file: String?

  @Option(name: .long, help: "The index name the client state is kept under.")
  var indexName = "default"

  @Option(name: .long, help: "Store this client state with the last batch.")
  var clientState: String?

  @Option(
    name: .long,
    help: "Apply the last batch only if the stored client state is this one.")
  var expectedClientState: String?

  @Flag(name: .shortAndLong, help: "Print nothing when all went well.")
  var quiet = false

  func run() throws {
    let fd: Int32
    if let file {
      fd = open(file, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else {
        throw CommandFailure("cannot read \(file): \(String(cString: strerror(errno)))")
      }
      var status = stat()
      if fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
        close(fd)
        throw CommandFailure("cannot read \(file): it is a folder")
      }
    } else {
      fd = STDIN_FILENO
    }
    defer { if file != nil { close(fd) } }
    let store = try openIndex(create: true)
    let importer = ItemImport(store: store, indexName: indexName)
    do {
      let summary = try importer.run(
        LineReader(fd: fd), finalClientState: clientState.map { Data($0.utf8) },
        expectedClientState: expectedClientState.map { Data($0.utf8) })
      if !quiet { print(Self.describe(summary)) }
    } catch {
      var message = (file ?? "standard input") + ", \(error.description)"
      if error.summary.batches > 0 {
        let count = error.summary.batches
        message +=
          "; the \(count == 1 ? "batch" : "\(count) batches") before it stayed applied"
          + " (\(error.summary.indexed) items indexed, \(error.summary.deleted) deleted)"
      } else {
        message += "; nothing was applied"
      }
      throw CommandFailure(message, status: ExitStatus.usage)
    }
  }

  static func describe(_ summary: ItemImport.Summary) -> String {
    let batches = summary.batches == 1 ? "1 batch" : "\(summary.batches) batches"
    return "indexed \(summary.indexed), deleted \(summary.deleted), in \(batches)"
  }
}

/// `limelight delete`: application items by id, by domain, or all of them.
struct Delete: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Delete application items by id, by domain, or all of them.",
    discussion: """
      Deleting a domain deletes every domain under it (com.example takes \
      com.example.notes with it). Files are never deleted this way: they leave the \
      index when they leave the disk. Exit status: 0 when something was deleted, 1 when \
      nothing matched, 2 on a usage error.
      """)

  @Option(name: .long, parsing: .upToNextOption, help: "Ids to delete (in --domain, if given).")
  var id: [String] = []

  @Option(name: .long, parsing: .upToNextOption, help: "Domains to delete, or to look in for --id.")
  var domain: [String] = []

  @Flag(name: .long, help: "Delete every application item.")
  var all = false

  func validate() throws {
    if all && (!id.isEmpty || !domain.isEmpty) {
      throw ValidationError("--all goes alone")
    }
    if !all && id.isEmpty && domain.isEmpty {
      throw ValidationError("give --id, --domain or --all")
    }
    if !id.isEmpty && domain.count > 1 { throw ValidationError("--id goes with one --domain") }
    do {
      for name in domain { try ItemLine.validate(domain: name) }
      for name in id { try ItemLine.validate(id: name) }
    } catch { throw ValidationError(error.description) }
  }

  func run() throws {
    let store = try openIndex(create: true)
    let removed = try store.write { writer -> Int in
      if all { return try writer.deleteAllApplicationItems() }
      if !id.isEmpty {
        if let scope = domain.first {
          return try writer.deleteApplicationItems(ids: id, domain: scope)
        }
        return try writer.deleteApplicationItems(ids: id)
      }
      return try domain.reduce(0) { $0 + (try writer.deleteDomain($1)) }
    }
    print("deleted \(removed)")
    if removed == 0 { throw ExitCode(ExitStatus.notFound) }
  }
}

/// `limelight client-state`: what the last batch of an index name stored.
struct ClientState: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the client state the last batch stored, to resume an import.",
    discussion: "Exit status: 0 when a state is stored, 1 when none is.")

  @Option(name: .long, help: "The index name the client state is kept under.")
  var indexName = "default"

  func run() throws {
    let store = try openIndex(create: true)
    guard let state = try store.clientState(name: indexName) else {
      throw CommandFailure(
        "no client state is stored under the index name '\(indexName)'",
        status: ExitStatus.notFound)
    }
    _ = writeAll(Array(state) + [0x0A], to: STDOUT_FILENO)
  }
}

/// `limelight extensions`: the registered reindex extensions and how they last ran.
struct Extensions: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "List the registered reindex extensions and how their last run went.",
    discussion: "See limelight-extensions(7) for the descriptors and the protocol.")

  @Flag(name: .long, help: "Print JSON Lines, one object per extension.")
  var json = false

  func run() throws {
    let location = IndexLocation.fromEnvironment()
    let (extensions, problems) = ExtensionDescriptors.load(
      from: location.descriptorFolders("extensions.d"))
    let runs = try openIndex(create: true).extensionRuns()
    let dates = ISO8601DateFormatter()
    for found in extensions {
      let run = runs.first { $0.domain == found.domain }
      if json {
        var object: [String: Any] = [
          "name": found.name, "domain": found.domain, "descriptor": found.descriptor.string,
          "exec": found.command, "timeout": found.timeLimit,
          "failures": run?.failures ?? 0, "pending": run?.hasWork ?? true,
        ]
        object["lastRun"] = run?.lastRun.map(dates.string(from:))
        object["lastSuccess"] = run?.lastSuccess.map(dates.string(from:))
        object["lastOutcome"] = run?.lastOutcome?.description
        object["nextAttempt"] = run?.nextAttempt.map(dates.string(from:))
        let data = try JSONSerialization.data(
          withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        print(String(decoding: data, as: UTF8.self))
        continue
      }
      print("\(found.name): \(found.domain)")
      print("  descriptor: \(found.descriptor.string)")
      print(
        "  exec:       \(found.command.joined(separator: " ")) (within \(Int(found.timeLimit)) s)")
      if let run {
        let last = run.lastRun.map { dates.string(from: $0) } ?? "never"
        print("  last run:   \(last)\(run.lastOutcome.map { ": \($0)" } ?? "")")
        if let next = run.nextAttempt { print("  next try:   \(dates.string(from: next))") }
        if run.hasWork && run.nextAttempt == nil { print("  pending:    yes") }
      } else {
        print("  last run:   never (limelightd runs it when it next starts)")
      }
    }
    for problem in problems { printError("limelight: ignored: \(problem)") }
    if extensions.isEmpty && !json && problems.isEmpty {
      print("no reindex extensions registered")
    }
  }
}
