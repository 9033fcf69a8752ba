// Names the store compares without case: SQLite compares table and column names case-insensitively
// (PostgreSQL, quoting them, does not), so names that differ only in case would be one table or one
// column and the store would never open (docs/Rules.md, `duplicate-declaration` and
// `duplicate-property`).
//
// - Two entities whose names differ only in case (`Note`, `note`): one table (`duplicate-declaration`).
// - Two stored columns of one table whose names differ only in case, or are equal: a property's
//   column is its name in a root entity and `Entity.name` in a subclass; a struct property adds a
//   column per field (`palette.primary`, nested structs flattened, a presence column for an optional
//   struct); a to-one relationship has a key column named like the property (`duplicate-property`).
//   So `name` and `Name` in one entity collide, and so do a subclass `Sub`'s `x` (`Sub.x`) and a
//   struct property `sub` of its base with a field `x` (`sub.x`).
// Struct fields that differ only in case are reported at the struct (`CompositeRules`).

enum StorageNameRules {
    /// `name` as SQLite compares identifiers: ASCII letters folded to lower case, every other
    /// character as it is (`Note` and `note` are one table, `Été` and `été` are two).
    static func foldedCase(_ name: String) -> String {
        guard name.utf8.contains(where: { (65...90).contains($0) }) else { return name }
        return String(decoding: name.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    static func check(_ model: inout SemanticModel) {
        checkEntityNames(&model)
        for entity in model.entityOrder {
            guard let info = model.entities[entity], info.baseName == nil, !info.hierarchyIsBroken else { continue }
            checkColumns(ofHierarchy: entity, &model)
        }
    }

    /// `duplicate-declaration` for an entity whose name differs from an earlier one's only in case.
    private static func checkEntityNames(_ model: inout SemanticModel) {
        var seen: [String: Identifier] = [:]
        for entity in model.entityOrder {
            guard let name = model.entities[entity]?.decl.name else { continue }
            let key = foldedCase(name.name)
            if let first = seen[key] {
                model.sink.error(.duplicateDeclaration, "entity '\(name.name)' differs from entity '\(first.name)' only in case: SQLite compares table names without case, so the store would keep both in one table; rename one",
                                 at: name.range, notes: [DiagnosticNote("'\(first.name)' declared here", at: first.range)])
                continue
            }
            seen[key] = name
        }
    }

    /// A stored column and the property it belongs to.
    private struct Column {
        var name: String
        var entity: String
        var property: Identifier
        /// True for the property's own column (its name, or `Entity.name`), not a struct field's.
        var isPropertyColumn: Bool
    }

    /// `duplicate-property` for a column of the hierarchy of `root` whose name another column has,
    /// up to case.
    private static func checkColumns(ofHierarchy root: String, _ model: inout SemanticModel) {
        guard let rootInfo = model.entities[root] else { return }
        var columns: [Column] = []
        for entity in [root] + rootInfo.subclassNames {
            guard let info = model.entities[entity] else { continue }
            let prefix = entity == root ? "" : entity + "."
            for property in info.properties where !property.options.isTransient {
                let name = property.decl.name
                switch property.type {
                case .value(.composite(let structName), let isOptional)?:
                    if isOptional { columns.append(Column(name: prefix + name.name, entity: entity, property: name, isPropertyColumn: true)) }
                    var paths: [String] = []
                    flatten(structName, path: prefix + name.name, into: &paths, model: model, depth: 0)
                    columns += paths.map { Column(name: $0, entity: entity, property: name, isPropertyColumn: false) }
                case .value?, .toOne?:
                    columns.append(Column(name: prefix + name.name, entity: entity, property: name, isPropertyColumn: true))
                case .toMany?, nil:
                    continue
                }
            }
        }
        var seen: [String: Column] = [:]
        var reported: Set<String> = []
        for column in columns {
            let key = foldedCase(column.name)
            guard let first = seen[key] else {
                seen[key] = column
                continue
            }
            // Two columns of one struct property: its fields, reported at the struct.
            if first.entity == column.entity, first.property.name == column.property.name { continue }
            let label = column.entity + "." + column.property.name
            guard reported.insert(label).inserted else { continue }
            let message: String
            if first.isPropertyColumn, column.isPropertyColumn, first.entity == column.entity {
                message = "entity '\(column.entity)' declares properties '\(first.property.name)' and '\(column.property.name)', which differ only in case: SQLite compares column names without case, so the store would keep both in one column; rename one"
            } else {
                message = "property '\(column.property.name)' of entity '\(column.entity)' is stored in column '\(column.name)', and property '\(first.property.name)' of entity '\(first.entity)' in column '\(first.name)': one table holds both, and SQLite compares column names without case; rename one"
            }
            model.sink.error(.duplicateProperty, message, at: column.property.range,
                             notes: [DiagnosticNote("'\(first.property.name)' declared here", at: first.property.range)])
        }
    }

    /// The value columns of the struct `structName` stored under `path` (nested structs flattened,
    /// an optional nested struct with its presence column). Structs are acyclic (`CompositeRules`);
    /// `depth` bounds the walk all the same.
    private static func flatten(_ structName: String, path: String, into paths: inout [String], model: SemanticModel, depth: Int) {
        guard depth < 64, let info = model.structs[structName], !info.isBroken else { return }
        for field in info.fields {
            let fieldPath = path + "." + field.name
            if case .value(.composite(let nested), let isOptional)? = field.type {
                if isOptional { paths.append(fieldPath) }
                flatten(nested, path: fieldPath, into: &paths, model: model, depth: depth + 1)
            } else {
                paths.append(fieldPath)
            }
        }
    }
}
