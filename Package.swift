// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Limelight",
  platforms: [.macOS(.v14)],
  products: [
    // What applications link to put their items into Limelight and search it.
    .library(name: "Limelight", targets: ["LimelightKit"]),
    .executable(name: "limelightd", targets: ["limelightd"]),
    .executable(name: "find-in", targets: ["FindIn"]),
    .executable(name: "find-in-direct", targets: ["FindInDirect"]),
    .executable(name: "reindex-request", targets: ["ReindexRequest"]),
    .executable(name: "limelight", targets: ["LimelightControl"]),
    .executable(name: "limelight-import", targets: ["LimelightImportHelper"]),
    .executable(name: "limelight-search-provider", targets: ["LimelightSearchProvider"]),
    .executable(name: "colleagues", targets: ["colleagues"]),
  ],
  dependencies: [
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
  ],
  targets: [
    // libmagic, from Debian's libmagic-dev.
    .systemLibrary(name: "CMagic", pkgConfig: "libmagic", providers: [.apt(["libmagic-dev"])]),
    // zlib, from Debian's zlib1g-dev: inflating ZIP members within limits.
    .systemLibrary(name: "CInflate", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
    // poppler's GLib interface, cairo and gdk-pixbuf (from libpoppler-glib-dev and
    // libgdk-pixbuf-2.0-dev): PDF and images, loaded by the import helper alone.
    .target(name: "CGraphics", linkerSettings: [.linkedLibrary("dl")]),
    // TagLib's C interface (libtagc0-dev): audio tags.
    .systemLibrary(name: "CTagLib", pkgConfig: "taglib_c", providers: [.apt(["libtagc0-dev"])]),
    // TagLib's C++ interface (libtag1-dev), for what its C one lacks: a
    // file opened for reading only.
    .target(
      name: "CTagLibStream", linkerSettings: [.linkedLibrary("tag")]),
    // libarchive (libarchive-dev): archive members.
    .systemLibrary(
      name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
    // MeCab (libmecab-dev): Japanese readings of kanji, with its IPA dictionary.
    .systemLibrary(name: "CMeCab", providers: [.apt(["libmecab-dev"])]),
    // sd-bus, from Debian's libsystemd-dev: the desktop's search providers on D-Bus.
    .systemLibrary(
      name: "CSystemdBus", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
    // The text index's ranking function, in C: FTS5's auxiliary functions
    // are a C interface (SQLite's headers come with libsqlite3-dev).
    .target(
      name: "CTextRank", linkerSettings: [.linkedLibrary("sqlite3"), .linkedLibrary("m")]),
    // Linux headers the Glibc module leaves out (extended attributes).
    .systemLibrary(name: "CLinux"),
    // The operating system as every part meets it, with no Foundation so
    // that find-in's client can use it: raw byte paths, the file system,
    // file URIs, reading lines, the monotonic clock, the XDG base
    // directories, the process environment.
    .target(name: "LimelightPlatform", dependencies: ["CLinux"]),
    // Exit statuses, command failures and writing to a descriptor, with no
    // Foundation: every executable's way of ending, find-in's client's too.
    .target(name: "LimelightExit"),
    // The argument parser's side of every command: parse, run, and end with
    // the documented status and a one-line message.
    .target(
      name: "LimelightCommand",
      dependencies: [
        "LimelightExit", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    // The item model, the MIME database and the configuration: no SQLite,
    // no I/O beyond reading files.
    .target(name: "LimelightModel", dependencies: ["LimelightPlatform", "CMeCab"]),
    // The applications installed (desktop entries) and the folders that hold them.
    .target(name: "LimelightApplications", dependencies: ["LimelightPlatform", "LimelightModel"]),
    // The query language: words, filters and predicates as a QueryNode,
    // which each store compiles to its own queries.
    .target(name: "LimelightQuery", dependencies: ["LimelightPlatform", "LimelightModel"]),
    // The index: schema, migrations, writes, generations, durable requests,
    // and search: the only module that speaks SQL.
    .target(
      name: "LimelightStore",
      dependencies: [
        "LimelightPlatform", "LimelightModel", "LimelightQuery", "CInflate", "CZstd", "CTextRank",
        "CLinux",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ]),
    // Running helper programs within a time limit, an output cap and a memory cap.
    .target(name: "LimelightSubprocess", dependencies: ["LimelightPlatform", "CLinux"]),
    // The shared thumbnail cache (names, files, drawing one): no index.
    .target(
      name: "LimelightThumbnails",
      dependencies: ["LimelightPlatform", "LimelightModel", "LimelightSubprocess", "CInflate"]),
    // Turning a file into an item: content type, tags, text, and what each
    // format holds (one importer per family of content types).
    .target(
      name: "LimelightImport",
      dependencies: [
        "LimelightPlatform", "LimelightModel", "LimelightSubprocess", "LimelightThumbnails",
        "LimelightApplications", "CMagic", "CLinux", "CInflate",
      ]),
    // The importers built on C libraries (PDF, audio, archives): linked only
    // into the limelight-import helper, which the watcher runs once per file.
    .target(
      name: "LimelightContainedImport",
      dependencies: [
        "LimelightPlatform", "LimelightImport", "LimelightModel", "LimelightSubprocess",
        "CGraphics", "CTagLib", "CTagLibStream", "CArchive",
      ]),
    // limelight-import's command, which limelightd also runs as its own
    // import helper (one program's pages for the watcher and its helpers).
    .target(
      name: "LimelightImportCommand",
      dependencies: [
        "LimelightPlatform", "LimelightExit", "LimelightModel", "LimelightImport",
        "LimelightContainedImport", "LimelightThumbnails",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    // limelight-import: the import helper as a program of its own.
    .executableTarget(
      name: "LimelightImportHelper", dependencies: ["LimelightCommand", "LimelightImportCommand"]),
    // libpq (libpq5), loaded when a PostgreSQL store is first named.
    .target(name: "CPostgres", linkerSettings: [.linkedLibrary("dl")]),
    // The PostgreSQL store: an index that several hosts share on a server
    // (libpq), with the same query language.
    .target(
      name: "LimelightPostgres",
      dependencies: [
        "LimelightPlatform", "LimelightModel", "LimelightQuery", "LimelightMeaning", "CPostgres",
      ]),
    // The watcher's sending of its entries to a shared PostgreSQL store,
    // from the local index, which keeps them while the store is away.
    .target(
      name: "LimelightSharing",
      dependencies: [
        "LimelightPlatform", "LimelightModel", "LimelightStore", "LimelightPostgres", "CLinux",
        .product(name: "Logging", package: "swift-log"),
      ]),
    // The library applications link to (Core Spotlight's API in Limelight's
    // terms): SearchableItem, SearchableIndex, SearchQuery.
    .target(
      name: "LimelightKit",
      dependencies: ["LimelightModel", "LimelightStore", "LimelightQuery", "LimelightSearch"]),
    // Reindex extensions: the programs applications register to print their
    // domains' items again, run within limits, retried with back-off.
    .target(
      name: "LimelightExtensions",
      dependencies: [
        "LimelightPlatform", "LimelightModel", "LimelightStore", "LimelightSubprocess",
        .product(name: "Logging", package: "swift-log"),
      ]),
    // Meaning search's embedding model, loaded with dlopen from the folder
    // scripts/install-meaning fills: everything runs without it.
    .target(
      name: "LimelightMeaning", dependencies: ["LimelightPlatform", "CLinux"],
      linkerSettings: [.linkedLibrary("dl")]),
    // Crawling, inotify, reconciliation, the thumbnail queue: the watcher's engine.
    .target(
      name: "LimelightWatch",
      dependencies: [
        "LimelightPlatform", "LimelightExit", "LimelightModel", "LimelightStore",
        "LimelightImport", "LimelightThumbnails", "LimelightApplications", "LimelightExtensions",
        "LimelightMeaning", "CLinux", .product(name: "Logging", package: "swift-log"),
      ]),
    // Searching as find-in does, for every front end and the query service:
    // options, the search, printing, live follow, opening results, sessions
    // for front ends that stay up.
    .target(
      name: "LimelightSearch",
      dependencies: [
        "LimelightPlatform", "LimelightExit", "LimelightModel", "LimelightQuery",
        "LimelightStore", "LimelightApplications", "LimelightPostgres", "LimelightMeaning",
      ]),
    // find-in's declarations for the argument parser, shared by the commands
    // that search, and opening the index from the environment.
    .target(
      name: "LimelightCLI",
      dependencies: [
        "LimelightCommand", "LimelightExit", "LimelightSearch", "LimelightModel",
        "LimelightStore", "LimelightQuery",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    // The exchange between find-in and the watcher's query service, and its
    // client: no Foundation, so that find-in starts in well under a millisecond.
    .target(
      name: "LimelightQueryClient", dependencies: ["LimelightPlatform", "LimelightExit", "CLinux"]),
    // The watcher's query service: find-in searches run in the process that
    // has the index open.
    .target(
      name: "LimelightService",
      dependencies: [
        "LimelightPlatform", "LimelightExit", "LimelightModel", "LimelightSearch",
        "LimelightQueryClient", "LimelightStore", "LimelightMeaning", "CLinux",
      ]),
    // limelightd: the watcher, its query service, its sharing and its import helper.
    .executableTarget(
      name: "limelightd",
      dependencies: [
        "LimelightPlatform", "LimelightCommand", "LimelightExit", "LimelightModel",
        "LimelightStore", "LimelightSearch", "LimelightImport", "LimelightWatch", "LimelightCLI",
        "LimelightService", "LimelightSharing", "LimelightImportCommand", "LimelightMeaning",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    // find-in: hands the search to the watcher, or runs find-in-direct.
    .executableTarget(
      name: "FindIn",
      dependencies: ["LimelightQueryClient"],
      // Without the dynamic loader's work the client starts as fast as a C
      // program (about 0.5 ms instead of 2).
      linkerSettings: [.unsafeFlags(["-static-executable"], .when(configuration: .release))]),
    // find-in -i: the as-you-type picker on a terminal.
    .target(
      name: "LimelightPicker",
      dependencies: [
        "LimelightPlatform", "LimelightExit", "LimelightSearch", "LimelightStore",
        "LimelightModel", "CLinux",
      ]),
    // find-in-direct: find-in's searches run in a process of their own.
    .executableTarget(
      name: "FindInDirect", dependencies: ["LimelightCLI", "LimelightPicker"]),
    // reindex-request: asks an application's extension to index its items again.
    .executableTarget(
      name: "ReindexRequest",
      dependencies: [
        "LimelightPlatform", "LimelightCommand", "LimelightExit", "LimelightModel",
        "LimelightStore", "LimelightSearch", "LimelightCLI", "LimelightExtensions",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    // limelight: status, show, erase, pause and the items applications write.
    .executableTarget(
      name: "LimelightControl",
      dependencies: [
        "LimelightPlatform", "LimelightCommand", "LimelightExit", "LimelightModel",
        "LimelightStore", "LimelightSearch", "LimelightCLI", "LimelightExtensions",
        "LimelightPostgres", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    // The desktop's search providers (GNOME Shell, KRunner) on the session bus.
    .target(
      name: "LimelightDesktop",
      dependencies: [
        "LimelightPlatform", "LimelightExit", "LimelightSearch", "LimelightQuery",
        "LimelightStore", "LimelightModel", "LimelightApplications", "CSystemdBus", "CLinux",
      ]),
    // limelight-search-provider: the providers as a program the desktop starts.
    .executableTarget(
      name: "LimelightSearchProvider",
      dependencies: [
        "LimelightCommand", "LimelightExit", "LimelightSearch", "LimelightDesktop",
        "LimelightCLI", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    // The sample application: an address book of colleagues that uses the
    // library and answers its reindex extension.
    .executableTarget(
      name: "colleagues",
      dependencies: [
        "LimelightKit", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "examples/colleagues/Sources/colleagues"),
    .testTarget(
      name: "LimelightTests",
      dependencies: [
        "LimelightSearch", "LimelightExit", .product(name: "GRDB", package: "GRDB.swift"),
        "LimelightModel", "LimelightStore", "LimelightQuery", "LimelightImport", "LimelightWatch",
        "LimelightCLI", "LimelightQueryClient", "LimelightExtensions",
        "LimelightPlatform", "LimelightThumbnails", "LimelightApplications", "LimelightService",
        "LimelightMeaning",
      ]),
    .testTarget(
      name: "LimelightIntegrationTests",
      dependencies: [
        "LimelightPlatform", "CLinux",
        "limelightd", "FindIn", "FindInDirect", "ReindexRequest", "LimelightImportHelper",
        "colleagues", "LimelightSearchProvider",
        "LimelightQueryClient",
        "LimelightControl",
        "LimelightModel", "LimelightQuery", "LimelightStore", "LimelightPostgres",
        "LimelightImport", "LimelightThumbnails", "ZIPFoundation", "CTextRank",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
