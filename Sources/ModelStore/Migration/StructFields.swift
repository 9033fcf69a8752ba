/// The fields of a struct attribute (`T`, `T?` or `[T]` of a struct `T`) as the stored schema
/// records them (`StoredProperty.fields`), each `path: Type`, with `?` for an optional field: a
/// nested struct's entry comes before its own fields' (`position: Point`, `position.x: Double`).
/// Two versions' fields are compared by path (docs/Migrations.md, "Structs"): a field added
/// optional, removed, widened or made optional is inferred; a required field added, a field's type
/// changed, or a field made required needs a custom stage (the store knows no default of a field).
/// The generator (ModelGenKit's `SchemaDiff`) applies the same rules to the same lists.
struct StructFields {
    struct Field {
        var type: String
        var isOptional: Bool
    }

    /// The paths in recorded order.
    let paths: [String]
    let fields: [String: Field]

    init(_ entries: [String]) {
        var paths: [String] = []
        var fields: [String: Field] = [:]
        for entry in entries {
            guard let colon = entry.range(of: ": ") else { continue }
            let path = String(entry[..<colon.lowerBound])
            var type = String(entry[colon.upperBound...])
            let isOptional = type.hasSuffix("?")
            if isOptional { type.removeLast() }
            paths.append(path)
            fields[path] = Field(type: type, isOptional: isOptional)
        }
        self.paths = paths
        self.fields = fields
    }

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

    /// Whether the field at `path` is a struct (its own fields follow it).
    func isStruct(_ path: String) -> Bool {
        paths.contains { $0.hasPrefix(path + ".") }
    }

    /// What changed from `old` to `self`: the changes that need a custom stage (`field a.b type
    /// Int → String`), and the paths whose stored values cannot be kept (a type changed: the
    /// field's columns, and those of its fields, are refilled).
    func changesNeedingCode(from old: StructFields) -> (changes: [String], reset: [String]) {
        var changes: [String] = []
        var reset: [String] = []
        for path in paths {
            guard let field = fields[path] else { continue }
            let parent = path.lastIndex(of: ".").map { String(path[..<$0]) }
            // A field of a struct field that is new, or whose type changed, comes with it.
            if let parent, old.fields[parent] == nil || reset.contains(where: { parent == $0 || parent.hasPrefix($0 + ".") }) { continue }
            guard let previous = old.fields[path] else {
                if !field.isOptional { changes.append("new required field \(path)") }
                continue
            }
            // Two structs compare by their fields; a leaf by its type.
            let bothStructs = isStruct(path) && old.isStruct(path)
            if !bothStructs, isStruct(path) != old.isStruct(path) || !ValueTypeName.widens(previous.type, to: field.type) {
                changes.append("field \(path) type \(previous.type) → \(field.type)")
                reset.append(path)
                continue
            }
            if previous.isOptional && !field.isOptional {
                changes.append("field \(path) optional → required")
            }
        }
        return (changes, reset)
    }
}
