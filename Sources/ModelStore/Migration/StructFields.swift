internal import SchemaEvolution

// `StructFields` (SchemaEvolution) holds the fields of a struct attribute as the stored schema
// records them (`StoredProperty.fields`) and the rules that compare two versions of them
// (docs/Migrations.md, "Structs"); the generator (ModelGenKit's `SchemaDiff`) uses the same type.
extension StructFields {
    /// The fields of a struct attribute of type `type` (nil for a type that holds no struct).
    static func entries(of type: Any.Type) -> [String]? {
        if let optional = type as? any OptionalValueType.Type { return entries(of: optional.wrappedValueType) }
        if let array = type as? any ArrayValueType.Type { return entries(of: array.elementValueType) }
        guard let composite = (type as? any SQLStorable.Type)?._compositeType else { return nil }
        var result: [String] = []
        append(composite, prefix: "", into: &result)
        return result
    }

    private static func append(_ composite: any CompositeAttribute.Type, prefix: String, into result: inout [String]) {
        for field in composite._$fields {
            let path = prefix + field.name
            result.append(path + ": " + ValueTypeName.of(field.type) + (field.type.isOptional ? "?" : ""))
            if let nested = field.type._compositeType { append(nested, prefix: path + ".", into: &result) }
        }
    }

    /// What changed from `old` to `self`: the changes that need a custom stage (`field a.b type
    /// Int → String`), and the paths whose stored values cannot be kept (a type changed: the
    /// field's columns, and those of its fields, are refilled).
    func changesNeedingCode(from old: StructFields) -> (changes: [String], reset: [String]) {
        var changes: [String] = []
        var reset: [String] = []
        for change in self.changes(from: old) {
            switch change {
            case .added(let path, isOptional: false): changes.append("new required field \(path)")
            case .typeChanged(let path, let from, let to):
                changes.append("field \(path) type \(from) → \(to)")
                reset.append(path)
            case .madeRequired(let path): changes.append("field \(path) optional → required")
            case .added, .removed, .widened, .madeOptional: break
            }
        }
        return (changes, reset)
    }
}
