/// The coarse classes that `kind:` filters on. Append only: the order of
/// the cases gives each its term in the name index (``ItemFacets``), and the
/// manual, help and completions list them from here.
public enum KindClass: String, CaseIterable, Sendable {
  case image, audio, video, text, pdf, document, spreadsheet, presentation, archive, code, folder,
    app, email

  /// Other words users type for the same class.
  public static func named(_ word: String) -> KindClass? {
    switch word.lowercased() {
    case "image", "images", "picture", "pictures", "photo", "photos": return .image
    case "audio", "music", "sound", "sounds", "song", "songs": return .audio
    case "video", "videos", "movie", "movies": return .video
    case "text", "txt": return .text
    case "pdf", "pdfs": return .pdf
    case "document", "documents", "doc", "docs": return .document
    case "spreadsheet", "spreadsheets", "sheet": return .spreadsheet
    case "presentation", "presentations", "slides": return .presentation
    case "archive", "archives", "zip": return .archive
    case "code", "source", "sources": return .code
    case "folder", "folders", "directory", "dir": return .folder
    case "app", "apps", "application", "applications": return .app
    case "email", "emails", "e-mail", "e-mails", "mail", "message", "messages": return .email
    default: return nil
    }
  }

  private static let documents: Set<String> = [
    "application/pdf", "application/msword", "application/rtf", "text/rtf", "text/markdown",
    "application/vnd.oasis.opendocument.text", "application/epub+zip", "text/x-tex",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/x-abiword", "application/vnd.ms-works", "application/x-mobipocket-ebook",
    "application/vnd.oasis.opendocument.text-template", "text/html", "application/xhtml+xml",
    "application/postscript", "text/x-rst", "text/org", "application/x-troff-man", "text/troff",
  ]
  private static let emails: Set<String> = [
    "message/rfc822", "application/mbox", "message/news", "application/vnd.ms-outlook",
  ]
  private static let spreadsheets: Set<String> = [
    "application/vnd.oasis.opendocument.spreadsheet", "application/vnd.ms-excel", "text/csv",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "text/tab-separated-values",
    "application/x-gnumeric",
  ]
  private static let presentations: Set<String> = [
    "application/vnd.oasis.opendocument.presentation", "application/vnd.ms-powerpoint",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  ]
  private static let archives: Set<String> = [
    "application/zip", "application/x-tar", "application/gzip", "application/x-7z-compressed",
    "application/vnd.rar", "application/x-rar", "application/x-xz", "application/x-bzip2",
    "application/x-bzip", "application/x-compressed-tar", "application/x-xz-compressed-tar",
    "application/x-bzip-compressed-tar", "application/zstd", "application/x-zstd-compressed-tar",
    "application/x-lzma", "application/x-cpio", "application/vnd.debian.binary-package",
    "application/x-rpm", "application/x-iso9660-image", "application/x-archive",
    "application/x-lzip",
    "application/java-archive",
  ]
  private static let codeTypes: Set<String> = [
    "application/x-shellscript", "text/x-shellscript", "application/javascript", "text/javascript",
    "application/x-javascript", "application/json", "application/x-perl", "text/x-perl",
    "application/x-ruby", "text/x-ruby", "application/x-php", "text/x-php", "application/sql",
    "text/x-sql", "text/css", "application/x-m4", "text/x-makefile", "text/x-cmake",
    "application/x-yaml", "application/toml", "application/xml", "text/xml", "application/x-python",
    "application/typescript", "text/x-go", "text/rust", "text/x-rust", "text/x-swift",
    "text/x-java", "text/x-kotlin", "text/x-scala", "text/x-csharp", "text/x-haskell",
    "text/x-lua", "text/x-tcl", "text/x-fortran", "text/x-pascal", "text/x-asm", "text/x-patch",
    "text/x-diff", "application/x-awk", "text/x-meson", "text/x-dsrc", "text/x-erlang",
    "text/x-elixir", "text/x-nim", "text/x-ocaml", "text/x-zig", "text/x-dart", "text/x-julia",
    "text/x-groovy", "text/x-protobuf", "text/x-hcl", "text/x-c", "text/x-c++",
    "text/x-objective-c", "text/x-msdos-batch",
  ]

  /// The classes of a content type, given the type with its ancestors.
  public static func classes(for contentTypeTree: [String]) -> Set<KindClass> {
    guard let type = contentTypeTree.first else { return [] }
    var result: Set<KindClass> = []
    if type == "inode/directory" { result.insert(.folder) }
    if type == "application/x-desktop" { result.insert(.app) }
    if emails.contains(type) { result.insert(.email) }
    if type.hasPrefix("image/") { result.insert(.image) }
    if type.hasPrefix("audio/") { result.insert(.audio) }
    if type.hasPrefix("video/") { result.insert(.video) }
    if type == "application/pdf" { result.insert(.pdf) }
    if documents.contains(type) { result.insert(.document) }
    if spreadsheets.contains(type) { result.insert(.spreadsheet) }
    if presentations.contains(type) { result.insert(.presentation) }
    if archives.contains(type) || contentTypeTree.contains("application/x-compressed-tar") {
      result.insert(.archive)
    }
    let isSource =
      codeTypes.contains(type)
      || (type.hasPrefix("text/x-") && (type.hasSuffix("src") || type.hasSuffix("hdr")))
      || contentTypeTree.contains("application/x-executable") && type.hasPrefix("text/")
      || type.hasPrefix("text/x-python")
      // libmagic names a script by its interpreter: text/x-script.python.
      || type.hasPrefix("text/x-script.")
    if isSource { result.insert(.code) }
    if contentTypeTree.contains("text/plain") && !result.contains(.image) { result.insert(.text) }
    return result
  }
}
