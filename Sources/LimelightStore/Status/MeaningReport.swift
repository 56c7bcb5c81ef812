import Foundation
import LimelightModel

/// How the watcher's meaning search goes, for `limelight status`: kept
/// beside the socket (``RuntimeNote``), written when it changes.
public struct MeaningReport: Codable, Sendable, Equatable {
  /// Why meaning search is off (limelight.conf, no model installed, a model
  /// that does not load); nil while it is on.
  public var off: String?
  /// Items the third pass embeds a second, while it runs.
  public var rate: Double?

  public init(off: String? = nil, rate: Double? = nil) { (self.off, self.rate) = (off, rate) }

  static let noteName = "meaning.json"

  public func write(_ location: IndexLocation) { RuntimeNote.write(self, Self.noteName, location) }

  public static func read(_ location: IndexLocation) -> MeaningReport? {
    RuntimeNote.read(MeaningReport.self, noteName, location)
  }
}
