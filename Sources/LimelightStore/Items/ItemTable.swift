import GRDB

/// The columns of the `item` table, named once: the writers fill a row by
/// these, the readers read one by these, and `SchemaTests` checks that
/// they are the table's columns, every one of them. (The SQL of the
/// searches names them as the schema writes them.)
enum ItemTable {
  /// The row's number: the key of the item's words, text and vector.
  static let rowID = Column("rowid")
  /// The index's own id of the item.
  static let id = Column("id")
  /// The domain of an application's item; files are in `fileDomain`.
  static let domain = Column("domain")
  /// An application item's URI (empty for a file, whose URI is made from its path).
  static let storedURI = Column("storedURI")
  /// A file's path, as bytes.
  static let path = Column("path")
  static let displayName = Column("displayName")
  static let title = Column("title")
  static let contentType = Column("contentType")
  static let kind = Column("kind")
  static let kindClasses = Column("kindClasses")
  static let keywords = Column("keywords")
  static let contentDescription = Column("contentDescription")
  static let thumbnailPath = Column("thumbnailPath")
  static let authors = Column("authors")
  static let customAttributes = Column("customAttributes")
  static let size = Column("size")
  static let created = Column("created")
  static let modified = Column("modified")
  static let lastUsed = Column("lastUsed")
  static let added = Column("added")
  static let expirationDate = Column("expirationDate")
  static let device = Column("device")
  static let inode = Column("inode")
  static let mtimeNs = Column("mtimeNs")
  static let ctimeNs = Column("ctimeNs")
  static let isFolder = Column("isFolder")
  static let hidden = Column("hidden")
  static let depth = Column("depth")
  static let useCount = Column("useCount")
  static let generation = Column("generation")
  static let extractionError = Column("extractionError")
  static let localID = Column("localID")
  /// Whether its content waits for the second pass.
  static let contentPending = Column("contentPending")
  /// The URI: a file's made from its path (generated).
  static let uri = Column("uri")
  /// Whether it changed in the last week (``ItemRank/isRecent(_:now:)``).
  static let recent = Column("recent")
  /// A name match's whole rank (generated from ``ItemRank``).
  static let nameRank = Column("nameRank")
  /// What every match gains or loses besides its score (generated from ``ItemRank``).
  static let boost = Column("boost")
  /// The row of its content type and tree in `content_type`.
  static let typeID = Column("typeID")
  /// Where its description came from (``ItemDescription/Source``), when made from its text.
  static let descriptionSource = Column("descriptionSource")

  /// Every column, in the table's order.
  static let all = [
    rowID,
    id,
    domain,
    storedURI,
    path,
    displayName,
    title,
    contentType,
    kind,
    kindClasses,
    keywords,
    contentDescription,
    thumbnailPath,
    authors,
    customAttributes,
    size,
    created,
    modified,
    lastUsed,
    added,
    expirationDate,
    device,
    inode,
    mtimeNs,
    ctimeNs,
    isFolder,
    hidden,
    depth,
    useCount,
    generation,
    extractionError,
    localID,
    contentPending,
    uri,
    recent,
    nameRank,
    boost,
    typeID,
    descriptionSource,
  ]
}
