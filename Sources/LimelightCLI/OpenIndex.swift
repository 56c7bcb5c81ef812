import LimelightModel
import LimelightStore

/// Opens the index of the environment's location; a missing index is a clear error.
public func openIndex(create: Bool = false, readOnly: Bool = false) throws -> IndexStore {
  try IndexStore.open(IndexLocation.fromEnvironment(), create: create, readOnly: readOnly)
}
