import LimelightImport

/// A Compound File (OLE2), the container of Word, Excel and PowerPoint files
/// of before 2007, read from memory: its streams by name. Every sector chain
/// is followed at most once around, and every read is bounded by the file,
/// so a damaged file ends in an error, never a loop or a read past the end.
struct CompoundFile {
  static let signature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]
  private static let endOfChain: UInt32 = 0xFFFF_FFFE
  private static let unused: UInt32 = 0xFFFF_FFFF

  private struct Entry {
    var name: String
    var isStream: Bool
    var start: UInt32
    var size: Int
  }

  private let bytes: [UInt8]
  private let sectorSize: Int
  private let fat: [UInt32]
  private let miniFAT: [UInt32]
  private let miniStream: [UInt8]
  private let miniCutoff: Int
  private let entries: [Entry]

  init(_ bytes: [UInt8]) throws {
    guard bytes.count >= 512, bytes.starts(with: Self.signature) else {
      throw ImportFailure.malformed("not a compound document")
    }
    self.bytes = bytes
    let shift = Int(bytes.littleEndian(0x1E, 2))
    guard shift == 9 || shift == 12 else {
      throw ImportFailure.malformed("a compound document with \(1 << min(shift, 30))-byte sectors")
    }
    sectorSize = 1 << shift
    miniCutoff = Int(bytes.littleEndian(0x38, 4))
    // The sectors that hold the allocation table: 109 listed in the header,
    // the rest in a chain of their own.
    var fatSectors = (0..<109).map { UInt32(bytes.littleEndian(0x4C + 4 * $0, 4)) }
    var difat = UInt32(bytes.littleEndian(0x44, 4))
    var seen = Set<UInt32>()
    while difat < Self.endOfChain, seen.insert(difat).inserted {
      let base = (Int(difat) + 1) * sectorSize
      guard base + sectorSize <= bytes.count else { break }
      let perSector = sectorSize / 4 - 1
      fatSectors += (0..<perSector).map { UInt32(bytes.littleEndian(base + 4 * $0, 4)) }
      difat = UInt32(bytes.littleEndian(base + 4 * perSector, 4))
    }
    var fat: [UInt32] = []
    for sector in fatSectors.prefix(Int(bytes.littleEndian(0x2C, 4))) where sector < Self.endOfChain
    {
      let base = (Int(sector) + 1) * sectorSize
      guard base + sectorSize <= bytes.count else {
        throw ImportFailure.malformed("an allocation table past the end of the file")
      }
      fat += (0..<sectorSize / 4).map { UInt32(bytes.littleEndian(base + 4 * $0, 4)) }
    }
    self.fat = fat
    let directory = try Self.chain(
      from: UInt32(bytes.littleEndian(0x30, 4)), fat: fat, bytes: bytes, sectorSize: sectorSize)
    var entries: [Entry] = []
    for base in stride(from: 0, to: directory.count - 127, by: 128) {
      let nameBytes = min(Int(directory.littleEndian(base + 0x40, 2)), 64)
      let units = stride(from: 0, to: max(nameBytes - 2, 0), by: 2).map {
        UInt16(directory.littleEndian(base + $0, 2))
      }
      let type = directory[base + 0x42]
      entries.append(
        Entry(
          name: String(decoding: units, as: UTF16.self), isStream: type == 2,
          start: UInt32(directory.littleEndian(base + 0x74, 4)),
          size: Int(directory.littleEndian(base + 0x78, 4))))
    }
    guard let root = entries.first else {
      throw ImportFailure.malformed("a compound document without a directory")
    }
    self.entries = entries
    let miniTable = try Self.chain(
      from: UInt32(bytes.littleEndian(0x3C, 4)), fat: fat, bytes: bytes, sectorSize: sectorSize)
    miniFAT = stride(from: 0, to: miniTable.count, by: 4).map {
      UInt32(miniTable.littleEndian($0, 4))
    }
    miniStream = try Self.chain(from: root.start, fat: fat, bytes: bytes, sectorSize: sectorSize)
  }

  /// The stream of this name (compared without case, as the format does),
  /// or nil when the file has none.
  func stream(_ name: String) throws -> [UInt8]? {
    let wanted = name.lowercased()
    guard let entry = entries.first(where: { $0.isStream && $0.name.lowercased() == wanted })
    else { return nil }
    let data: [UInt8]
    if entry.size < miniCutoff {
      data = try Self.chain(
        from: entry.start, fat: miniFAT, bytes: miniStream, sectorSize: 64, header: 0)
    } else {
      data = try Self.chain(from: entry.start, fat: fat, bytes: bytes, sectorSize: sectorSize)
    }
    guard data.count >= entry.size else {
      throw ImportFailure.malformed("the stream \(name) ends early")
    }
    return Array(data.prefix(entry.size))
  }

  /// The sectors of one chain, joined. The big sectors are counted from
  /// after the header (one sector long); the small ones from the start of
  /// the mini stream (`header` 0).
  private static func chain(
    from start: UInt32, fat: [UInt32], bytes: [UInt8], sectorSize: Int, header: Int? = nil
  ) throws -> [UInt8] {
    let header = header ?? sectorSize
    var data: [UInt8] = []
    var sector = start
    var steps = 0
    while sector != endOfChain && sector != unused {
      let base = header + Int(sector) * sectorSize
      guard Int(sector) < fat.count, base + sectorSize <= bytes.count, steps <= fat.count else {
        throw ImportFailure.malformed("a broken sector chain")
      }
      data += bytes[base..<base + sectorSize]
      sector = fat[Int(sector)]
      steps += 1
    }
    return data
  }
}
