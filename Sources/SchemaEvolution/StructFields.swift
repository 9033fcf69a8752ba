/// The fields of a struct attribute (`T`, `T?` or `[T]` of a struct `T`) as the stored schema
/// records them (ModelStore's `StoredProperty.fields`), each `path: Type`, with `?` for an optional
/// field: a nested struct's entry comes before its own fields' (`position: Point`, `position.x: Double`).
/// Two versions' fields are compared by path (docs/Migrations.md, "Structs"): a field added
/// optional, removed, widened or made optional is inferred; a required field added, a field's type
/// changed, or a field made required needs a custom stage (the store knows no default of a field).
/// The generator (ModelGenKit's `SchemaDiff`) and the runtime (ModelStore's plan) both use these rules.
package struct StructFields {
    package struct Field {
        package var type: String
        package var isOptional: Bool
    }

    /// One change from an old list of fields to a new one.
    package enum Change: Equatable {
        /// A field added (with its fields, when it is a struct).
        case added(path: String, isOptional: Bool)
        /// A field removed (with its fields).
        case removed(path: String)
        /// A type changed (not widened, or a leaf became a struct or back): its stored values, and
        /// those of its fields, cannot be kept. Needs code.
        case typeChanged(path: String, from: String, to: String)
        /// A type widened (`storedTypeWidens`): inferred.
        case widened(path: String, from: String, to: String)
        /// Required → optional: inferred.
        case madeOptional(path: String)
        /// Optional → required: needs code.
        case madeRequired(path: String)

        /// Whether the change needs code (a custom stage): it cannot be inferred.
        package var needsCode: Bool {
            switch self {
            case .added(_, let isOptional): !isOptional
            case .typeChanged, .madeRequired: true
            case .removed, .widened, .madeOptional: false
            }
        }
    }

    /// The entries, as recorded.
    package let entries: [String]
    /// The paths in recorded order.
    package let paths: [String]
    package let fields: [String: Field]

    package init(_ entries: [String]) {
        self.entries = entries
        var paths: [String] = []
        var fields: [String: Field] = [:]
        for entry in entries {
            guard let colon = entry.firstRange(of: ": ") else { continue }
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

    /// Whether the field at `path` is a struct (its own fields follow it).
    package func isStruct(_ path: String) -> Bool {
        paths.contains { $0.hasPrefix(path + ".") }
    }

    /// Every change from `old` to `self`, in the order of `self`'s paths, then the removals in the
    /// order of `old`'s. A field of a struct field that is added, removed or whose type changed
    /// comes with it (no change of its own).
    package func changes(from old: StructFields) -> [Change] {
        var changes: [Change] = []
        var reset: [String] = []
        for path in paths {
            guard let field = fields[path] else { continue }
            let parent = path.lastIndex(of: ".").map { String(path[..<$0]) }
            if let parent, old.fields[parent] == nil || reset.contains(where: { parent == $0 || parent.hasPrefix($0 + ".") }) { continue }
            guard let previous = old.fields[path] else {
                changes.append(.added(path: path, isOptional: field.isOptional))
                continue
            }
            // Two structs compare by their fields; a leaf by its type.
            let bothStructs = isStruct(path) && old.isStruct(path)
            if !bothStructs, isStruct(path) != old.isStruct(path) || !storedTypeWidens(previous.type, to: field.type) {
                changes.append(.typeChanged(path: path, from: previous.type, to: field.type))
                reset.append(path)
                continue
            }
            if !bothStructs, previous.type != field.type {
                changes.append(.widened(path: path, from: previous.type, to: field.type))
            }
            if previous.isOptional != field.isOptional {
                changes.append(field.isOptional ? .madeOptional(path: path) : .madeRequired(path: path))
            }
        }
        for path in old.paths where fields[path] == nil {
            let parent = path.lastIndex(of: ".").map { String(path[..<$0]) }
            if let parent, fields[parent] == nil { continue }
            changes.append(.removed(path: path))
        }
        return changes
    }
}
