import Foundation
import LimelightModel
import LimelightPlatform
import LimelightSubprocess
import Synchronization

/// The formats read by C libraries, imported by the `limelight-import` helper
/// kept running (`--serve`): one request a file, each within its own time
/// limit and reply cap, so that a crash or a hang in a library costs that
/// file alone while the helper's start is paid once per many files.
///
/// Request: the content type, a newline, the text limit in bytes, a newline,
/// the path's bytes and a NUL. Reply (framed by ``ServedProcess``): the
/// attributes as a JSON object and the text apart, or why the file could
/// not be read (``HelperWire``).
public struct HelperImporter: ContentImporter {
  public var contentTypes: [String] { HelperFormats.all }
  let pool: HelperPool

  public init(pool: HelperPool = .shared) { self.pool = pool }

  public func importContent(_ request: ImportRequest, into attributes: inout AttributeSet) throws {
    let message = HelperWire.Request(
      contentType: request.contentTypeTree.first ?? "", textLimit: request.limits.maxTextBytes,
      path: request.path)
    let body: [UInt8]
    do {
      body = try pool.exchange(
        message.encoded, timeLimit: 10, replyLimit: request.limits.maxTextBytes * 2 + (1 << 20))
    } catch {
      throw ImportFailure.program("limelight-import", error.description)
    }
    let json: [UInt8]
    let text: [UInt8]?
    switch HelperWire.Reply(body: body) {
    case .failure(let reason):
      // The helper's own importer said why, in full ("malformed: …").
      throw ImportFailure.reported(reason)
    case .attributes(let bytes, let bytesOfText): (json, text) = (bytes, bytesOfText)
    case nil: throw ImportFailure.program("limelight-import", "answered out of protocol")
    }
    guard var object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any]
    else { throw ImportFailure.program("limelight-import", "answered out of protocol") }
    if let text { object["textContent"] = String(decoding: text, as: UTF8.self) }
    try ProgramImporter.apply(object, to: &attributes, request: request, name: "limelight-import")
  }
}

/// Helpers kept running, one per worker thread at most, each answering one
/// request at a time.
public final class HelperPool: Sendable {
  /// The helpers of this process (``HelperFormats/helperCommand()``).
  public static let shared = HelperPool(command: HelperFormats.helperCommand() + ["--serve"])

  let command: [String]
  let idle = Mutex<[ServedHelper]>([])
  /// A helper is replaced after this many files (what leaks in a library
  /// stays bounded).
  static let requestsPerHelper = 500

  public init(command: [String]) { self.command = command }

  /// One request to a free helper (started if none is). A helper that had
  /// served other files before it failed is given the benefit of the doubt:
  /// the request is tried once more on a fresh one, so that what went wrong
  /// is the file's fault and not what earlier files left behind.
  func exchange(_ request: [UInt8], timeLimit: Double, replyLimit: Int) throws(ServedProcess
    .Failure) -> [UInt8]
  {
    let helper =
      idle.withLock { $0.popLast() }
      ?? ServedHelper(
        ServedProcess(
          arguments: command.map { Array($0.utf8) }, environment: ChildProcess.cleanEnvironment,
          memoryLimit: 1 << 30))
    defer {
      if helper.process.served >= Self.requestsPerHelper { helper.process.stop() }
      helper.lastUsed = monotonicNow()
      idle.withLock { $0.append(helper) }
    }
    let experienced = helper.process.isRunning && helper.process.served > 0
    do {
      return try helper.process.exchange(request, timeLimit: timeLimit, replyLimit: replyLimit)
    } catch {
      guard experienced, error != .timedOut, error != .repliedTooMuch else { throw error }
      return try helper.process.exchange(request, timeLimit: timeLimit, replyLimit: replyLimit)
    }
  }
}

/// A served helper that moves between threads, used by one at a time (the
/// pool hands it out under its lock).
final class ServedHelper: @unchecked Sendable {
  let process: ServedProcess
  /// When it last answered (monotonic seconds).
  var lastUsed = 0.0
  init(_ process: ServedProcess) { self.process = process }
}

extension HelperPool {
  /// How long a helper waits for work before it is stopped: an idle watcher
  /// keeps no helper's memory (the next file starts one again).
  public static let idleSeconds = 30.0

  /// Stops the helpers that have had nothing to do for `seconds`.
  public func stopIdle(after seconds: Double = HelperPool.idleSeconds) {
    let now = monotonicNow()
    idle.withLock { helpers in
      for helper in helpers where helper.process.isRunning && now - helper.lastUsed >= seconds {
        helper.process.stop()
      }
    }
  }

  /// When the next running helper will have been idle long enough, if any runs.
  public var nextIdleStop: Double? {
    idle.withLock { helpers in
      helpers.filter(\.process.isRunning).map { $0.lastUsed + Self.idleSeconds }.min()
    }
  }
}
