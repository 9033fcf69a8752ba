/// Whether a stored value of type `old` always converts to type `new` without loss: the same type,
/// an integer into a wider one (`Int8`/`Int16`/`Int32` → `Int`/`Int64`, …), `Float` → `Double`, or
/// arrays of such elements (`ScalarType.widens(to:)`). Types are named as the stored schema records
/// them (`Int32`, `[Float]`). The rule of both the generator (ModelGenKit's `SchemaDiff`) and the
/// runtime (ModelStore's plan).
package func storedTypeWidens(_ old: String, to new: String) -> Bool {
    if old == new { return true }
    if let oldType = ScalarType(storedTypeName: old), let newType = ScalarType(storedTypeName: new) {
        return oldType.widens(to: newType)
    }
    if old.hasPrefix("["), old.hasSuffix("]"), new.hasPrefix("["), new.hasSuffix("]") {
        return storedTypeWidens(String(old.dropFirst().dropLast()), to: String(new.dropFirst().dropLast()))
    }
    return false
}
