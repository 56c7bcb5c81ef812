import CTagLib
import CTagLibStream
import Foundation
import LimelightImport
import LimelightModel

/// Audio through TagLib (MP3, FLAC, Ogg, Opus, M4A, WAV, …): title, artist,
/// album, track, genre, year, duration and the stream's properties.
public struct AudioImporter: ContentImporter {
  public let contentTypes = HelperFormats.audio

  /// Files up to this size are given their exact length.
  static let measuredSize = 8 << 20

  public init() {}

  public func importContent(_ request: ImportRequest, into attributes: inout AttributeSet) throws {
    taglib_set_strings_unicode(1)
    taglib_set_string_management_enabled(0)
    // A format TagLib does not know (MIDI, DSF, E-AC-3, Ogg FLAC or Theora
    // by their names): a valid file, found by its name and type, no error.
    // One it knows but cannot read is damaged.
    let stream = request.path.withCString { limelight_tag_stream_open($0) }
    defer { if let stream { limelight_tag_stream_close(stream) } }
    guard let file = stream.map(limelight_tag_stream_file), taglib_file_is_valid(file) != 0 else {
      if request.path.withCString({ limelight_tag_format_known($0) }) == 0 { return }
      // A FLAC file whose stream header is sound and whose frames follow
      // plays, whatever a tag block after it says (taggers have written
      // picture blocks of a wrong length): its stream is described.
      if let info = try FLACStreamInfo(of: request) {
        info.describe(&attributes)
        return
      }
      throw ImportFailure.malformed("an audio file TagLib cannot read")
    }
    func take(_ text: UnsafeMutablePointer<CChar>?) -> String? {
      guard let text else { return nil }
      defer { taglib_free(text) }
      let value = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
      return value.isEmpty ? nil : value
    }
    if let tag = taglib_file_tag(file) {
      attributes.title = take(taglib_tag_title(tag))
      if let artist = take(taglib_tag_artist(tag)) {
        attributes.authors = [artist]
        attributes.extra["artist"] = .string(artist)
      }
      if let album = take(taglib_tag_album(tag)) { attributes.extra["album"] = .string(album) }
      if let genre = take(taglib_tag_genre(tag)) { attributes.extra["genre"] = .string(genre) }
      if let comment = take(taglib_tag_comment(tag)) {
        attributes.contentDescription = AttributeSet.summary(of: comment)
      }
      let track = taglib_tag_track(tag)
      if track > 0 { attributes.extra["audioTrackNumber"] = .number(Double(track)) }
      let year = taglib_tag_year(tag)
      if year > 0 { attributes.extra["recordingYear"] = .number(Double(year)) }
    }
    var seconds: Int32 = 0
    // A stream under a second long is 0 seconds to TagLib, but has a rate.
    var hasStream = false
    if let properties = taglib_file_audioproperties(file) {
      seconds = taglib_audioproperties_length(properties)
      hasStream =
        seconds > 0 || taglib_audioproperties_samplerate(properties) > 0
        || taglib_audioproperties_channels(properties) > 0
      if seconds > 0 { attributes.extra["duration"] = .number(Double(seconds)) }
      let rate = taglib_audioproperties_samplerate(properties)
      if rate > 0 { attributes.extra["audioSampleRate"] = .number(Double(rate)) }
      let channels = taglib_audioproperties_channels(properties)
      if channels > 0 { attributes.extra["audioChannelCount"] = .number(Double(channels)) }
      let bitrate = taglib_audioproperties_bitrate(properties)
      if bitrate > 0 { attributes.extra["audioBitRate"] = .number(Double(bitrate)) }
    }
    // A small file's length to the millisecond, from its own header and
    // pages (read for WAVE and Ogg alone: an MP3 is not read again).
    if hasStream, request.size <= Self.measuredSize,
      let length = try AudioLength.seconds(of: request)
    {
      attributes.extra["duration"] = .number(length)
    }
    guard !hasStream && attributes.title == nil && attributes.extra["artist"] == nil else { return }
    // A WAVE file with a format and no frames is silence, not damage; one
    // big-endian (`RIFX`) is sound TagLib does not read.
    if let header = WaveHeader(request.head) {
      attributes.extra["audioSampleRate"] = .number(Double(header.sampleRate))
      attributes.extra["audioChannelCount"] = .number(Double(header.channels))
      if let length = try AudioLength.seconds(of: request), length > 0 {
        attributes.extra["duration"] = .number(length)
      }
      return
    }
    // TagLib accepts a file of the right name with nothing in it.
    throw ImportFailure.malformed("no audio stream and no tags")
  }
}
