import CLinux

#if canImport(Glibc)
  import Glibc
#endif

/// The formats read by C libraries (poppler, TagLib, libarchive) or other
/// programs (antiword, catdoc). Their
/// importers run in the `limelight-import` helper process, one file per run,
/// so that a crash or a hang in a library costs that file alone.
public enum HelperFormats {
  public static let pdf = ["application/pdf"]
  public static let audio = ["audio/*", "application/ogg", "video/x-ms-asf"]
  public static let archives = [
    "application/zip", "application/x-tar", "application/x-compressed-tar",
    "application/x-bzip-compressed-tar", "application/x-bzip2-compressed-tar",
    "application/x-xz-compressed-tar", "application/x-zstd-compressed-tar",
    "application/x-lzma-compressed-tar", "application/x-7z-compressed", "application/x-rar",
    "application/vnd.rar", "application/x-cpio", "application/x-iso9660-image",
    "application/vnd.debian.binary-package", "application/x-rpm", "application/x-archive",
    "application/x-xar", "application/x-lha", "application/x-cd-image",
  ]
  /// Video containers whose headers tell duration and dimensions (read in
  /// Swift, but by seeking through untrusted sizes: contained too).
  public static let video = [
    "video/mp4", "video/quicktime", "video/x-m4v", "video/3gpp", "video/3gpp2",
    "video/x-matroska", "video/webm", "video/x-msvideo", "video/vnd.avi", "video/avi",
  ]
  /// A single compressed file, read as what it holds (a compressed tar is
  /// an archive: its more specific type goes to the archives).
  public static let compressed = [
    "application/gzip", "application/x-bzip", "application/x-bzip2", "application/x-xz",
    "application/zstd", "application/x-zstd", "application/x-lzma", "application/x-lzip",
    "application/x-compress",
  ]
  /// Word, Excel and PowerPoint files of before 2007, read by Debian's
  /// tools for them (antiword, catdoc).
  public static let legacyOffice = [
    "application/msword", "application/vnd.ms-excel", "application/vnd.ms-powerpoint",
  ]
  public static var all: [String] { pdf + audio + archives + video + compressed + legacyOffice }

  /// The argument that makes `limelightd` its own import helper: what
  /// follows it is `limelight-import`'s.
  public static let helperFlag = "--import-helper"

  /// The command that runs `limelight-import`, before its own arguments. The
  /// watcher runs itself with ``helperFlag``: the pages of one program are
  /// shared by the watcher and its helpers, and counted once (two helpers
  /// each mapped 6 to 8 MB of a program of their own). Any other program
  /// runs `limelight-import` from beside its executable.
  public static func helperCommand() -> [String] {
    if let own = ownExecutable(), own.hasSuffix("/limelightd") { return [own, helperFlag] }
    return [besideExecutable("limelight-import") ?? "limelight-import"]
  }

  static func ownExecutable() -> String? {
    var target = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &target, target.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: target.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  static func besideExecutable(_ name: String) -> String? {
    var target = [CChar](repeating: 0, count: 4096)
    guard limelight_path_beside_executable(name, &target, target.count) == 0 else { return nil }
    return String(decoding: target.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
