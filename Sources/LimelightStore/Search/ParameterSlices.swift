/// Runs `body` over `values` in slices small enough for one statement's bound
/// parameters, with the `?,?,…` list that fits each slice (for `IN (…)`).
func forEachParameterSlice<Value>(
  of values: [Value], size: Int = 400, _ body: (_ slice: [Value], _ marks: String) throws -> Void
) rethrows {
  for start in stride(from: 0, to: values.count, by: size) {
    let slice = Array(values[start..<min(start + size, values.count)])
    try body(slice, Array(repeating: "?", count: slice.count).joined(separator: ","))
  }
}
