/// Whether a stored value of type `old` always converts to type `new` without loss: the same type,
/// an integer into a wider one (`Int8`/`Int16`/`Int32` → `Int`/`Int64`, …), `Float` → `Double`, or
/// arrays of such elements. Types are named as the stored schema records them (`Int32`, `[Float]`).
/// The rule of both the generator (ModelGenKit's `SchemaDiff`) and the runtime (ModelStore's plan).
package func storedTypeWidens(_ old: String, to new: String) -> Bool {
    if old == new { return true }
    if let oldRange = integerRanges[old], let newRange = integerRanges[new] {
        return newRange.lowerBound <= oldRange.lowerBound && oldRange.upperBound <= newRange.upperBound
    }
    if old == "Float" && new == "Double" { return true }
    if old.hasPrefix("["), old.hasSuffix("]"), new.hasPrefix("["), new.hasSuffix("]") {
        return storedTypeWidens(String(old.dropFirst().dropLast()), to: String(new.dropFirst().dropLast()))
    }
    return false
}

/// The ranges of the integer types, as SQLite's 64-bit integers hold them.
private let integerRanges: [String: ClosedRange<Int64>] = [
    "Int8": Int64(Int8.min)...Int64(Int8.max), "Int16": Int64(Int16.min)...Int64(Int16.max),
    "Int32": Int64(Int32.min)...Int64(Int32.max), "Int64": Int64.min...Int64.max, "Int": Int64(Int.min)...Int64(Int.max),
    "UInt8": 0...Int64(UInt8.max), "UInt16": 0...Int64(UInt16.max), "UInt32": 0...Int64(UInt32.max),
]
