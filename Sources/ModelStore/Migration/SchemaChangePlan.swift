internal import SchemaEvolution

/// What it takes to turn a store described by one stored schema into one described by another:
/// which changes cannot be inferred, and the table work (tables created, migrated, dropped; join
/// tables rebuilt; rows whose values move from a key column into a join table).
///
/// Entities and properties are matched by name, then by `originalName` (a rename). Changes are
/// checked on the entities (Swift value types, optionality, relationship kinds) and carried out on
/// the tables. `mode` says what to do with a change that cannot be inferred: `.inferred` only
/// records it (the migration must not run), `.custom` applies it anyway (a custom stage's code
/// moves the data): a column whose type changes is refilled with its default, NULL or a zero value.
struct SchemaChangePlan {
    enum Mode {
        /// Only inferred changes may run.
        case inferred
        /// A custom stage: changes that cannot be inferred run too.
        case custom
    }

    /// Changes that cannot be inferred (`Entity.property: what changed`).
    private(set) var notInferable: [String] = []
    /// Changes no migration applies, custom or not (an entity moved to another hierarchy).
    private(set) var unsupported: [String] = []
    /// Columns that become required without a default: in a custom stage, the stored rows must
    /// all have a value by then (checked before the change).
    private(set) var nullChecks: [NullCheck] = []
    /// New entity tables (no old table holds their entities).
    private(set) var createdTables: [StoredTable] = []
    /// Entity tables that exist before and after, and change.
    private(set) var migratedTables: [TableMigration] = []
    /// Join tables to build, each with where its rows come from.
    private(set) var builtJoinTables: [(table: StoredTable, rows: JoinRows?)] = []
    /// Old tables (entity or join tables) that no new table continues.
    private(set) var droppedTables: [String] = []
    /// Renamed entities, old name → new name.
    private(set) var entityRenames: [String: String] = [:]
    /// Renamed attributes: the entity types whose tombstones hold them (new names), old and new name.
    private(set) var attributeRenames: [(entityTypes: [String], old: String, new: String)] = []
    /// Unique groups the old tables did not enforce on these values: checked for duplicates, then created.
    private(set) var addedUniques: [UniqueGroup] = []
    /// Tables (new names) that lose rows: references to those rows are repaired after.
    private(set) var tablesLosingRows: Set<String> = []

    /// A column whose stored NULLs must be gone before it becomes required.
    struct NullCheck {
        let table: String
        let column: String
        /// The type column values of the rows concerned (nil: every row).
        let types: [String]?
        /// `Entity.property`, for messages.
        let label: String
    }

    /// A unique group to create on a table.
    struct UniqueGroup {
        let table: String
        let columns: [String]
        /// `Entity.property` or `Entity (a, b)`, for messages.
        let label: String
    }

    /// Where the rows of a rebuilt join table come from.
    enum JoinRows {
        /// An old join table; `flipped` when its `$source` is the new table's `$target`.
        case joinTable(String, flipped: Bool)
        /// An old to-one key column: (`$pk`, key) pairs of its non-NULL rows; `keyIsTarget` when
        /// the key goes into `$target` (the relationship became to-many on the key's side).
        case keyColumn(table: String, column: String, keyIsTarget: Bool)
    }

    // MARK: Building

    /// The schema the store has.
    let old: StoredSchema
    /// The schema wanted.
    let new: StoredSchema
    private let mode: Mode
    /// The old schema's entities (synthesized from its tables for a format-1 description).
    private let oldEntities: [String: StoredEntity]
    private let newEntities: [String: StoredEntity]
    /// New entity name → the old entity it continues.
    private var entityOrigin: [String: StoredEntity] = [:]
    /// "Entity.property" (new names) → what the property was.
    private var propertyFate: [String: PropertyFate] = [:]
    /// "Entity.property" (new names) of a kept struct attribute → the paths of its fields whose
    /// type changed (their columns are refilled, custom stage only).
    private var resetFields: [String: [String]] = [:]

    /// What became of a property of the new schema.
    private enum PropertyFate {
        /// New: no old property continues into it.
        case added
        /// The old property (of the old entity) continues into it, values kept (a rename, a widening).
        case kept(entity: StoredEntity, property: StoredProperty)
        /// Kept, NULLs replaced by the default (optional → required with a default).
        case defaulted(entity: StoredEntity, property: StoredProperty, literal: String)
        /// Its old values cannot become the new ones: refilled (custom stage only).
        case reset
    }

    init(from old: StoredSchema, to new: StoredSchema, mode: Mode) {
        self.old = old
        self.new = new
        self.mode = mode
        let entities = old.hasEntities ? old.entities : old.legacyEntities()
        oldEntities = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        newEntities = Dictionary(new.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        matchEntities()
        checkHierarchies()
        for entity in new.entities { matchProperties(of: entity) }
        checkRelationshipStorage()
        planEntityTables()
        planJoinTables()
        planTombstones()
    }

    // MARK: Matching

    private mutating func matchEntities() {
        (entityOrigin, entityRenames) = matchOrigins(
            old: oldEntities, new: new.entities, newNames: Set(newEntities.keys), name: \.name, originalName: \.originalName)
    }

    /// An entity keeps its place: a root stays a root, a subclass keeps (the continuation of) its base.
    private mutating func checkHierarchies() {
        for entity in new.entities {
            guard let origin = entityOrigin[entity.name] else { continue }
            let expectedBase = entity.base.map { entityOrigin[$0]?.name ?? "(new) " + $0 }
            if expectedBase != origin.base {
                unsupported.append("\(entity.name): base changed (\(origin.base ?? "none") → \(entity.base ?? "none")); "
                                   + "ModelStore cannot move stored rows to another hierarchy")
            }
        }
    }

    /// The old property `property` of `entity` continues, if any: same name first, then `originalName`.
    private func origin(of property: StoredProperty, in entity: StoredEntity, from origin: StoredEntity, claimed: Set<String>) -> StoredProperty? {
        if let same = origin.property(named: property.name) { return same }
        guard let originalName = property.originalName, entity.property(named: originalName) == nil,
              !claimed.contains(originalName) else { return nil }
        return origin.property(named: originalName)
    }

    private mutating func matchProperties(of entity: StoredEntity) {
        guard let originEntity = entityOrigin[entity.name] else {
            for property in entity.properties { propertyFate[entity.name + "." + property.name] = .added }
            return
        }
        var claimed: Set<String> = Set(entity.properties.compactMap { originEntity.property(named: $0.name)?.name })
        for property in entity.properties {
            let label = entity.name + "." + property.name
            guard let previous = origin(of: property, in: entity, from: originEntity, claimed: claimed) else {
                propertyFate[label] = .added
                if property.kind == .attribute && !property.isOptional && property.defaultValue == nil {
                    notInferable.append("\(label): new required property without a default value")
                    propertyFate[label] = .reset
                }
                continue
            }
            claimed.insert(previous.name)
            propertyFate[label] = fate(of: property, label: label, previous: previous, in: originEntity)
        }
    }

    /// How `property` continues `previous` (of the old entity `owner`), recording what cannot be inferred.
    private mutating func fate(of property: StoredProperty, label: String, previous: StoredProperty, in owner: StoredEntity) -> PropertyFate {
        switch (previous.kind, property.kind) {
        case (.attribute, .attribute):
            if let oldType = previous.type, let newType = property.type {
                if !storedTypeWidens(oldType, to: newType) {
                    notInferable.append("\(label): type \(oldType) → \(newType)")
                    return .reset
                }
            } else if let oldColumn = oldColumn(of: previous, in: owner), let newColumn = newColumn(ofProperty: label),
                      oldColumn.effectiveStorage.affinity != newColumn.effectiveStorage.affinity {
                // A format-1 description knows column types only.
                notInferable.append("\(label): type \(oldColumn.effectiveStorage.affinity.rawValue) → \(newColumn.effectiveStorage.affinity.rawValue)")
                return .reset
            }
            if let oldFields = previous.fields, let newFields = property.fields {
                let (changes, reset) = StructFields(newFields).changesNeedingCode(from: StructFields(oldFields))
                notInferable += changes.map { "\(label): \($0)" }
                if !reset.isEmpty { resetFields[label] = reset }
            }
            if previous.isOptional && !property.isOptional {
                if let literal = property.defaultValue {
                    return .defaulted(entity: owner, property: previous, literal: literal)
                }
                notInferable.append("\(label): optional → required without a default value")
                // In a custom stage, `willMigrate` must have given every row a value.
                if let oldTable = oldTableName(of: owner), let oldColumn = oldColumn(of: previous, in: owner) {
                    nullChecks.append(NullCheck(table: oldTable, column: oldColumn.name,
                                                types: owner.base == nil ? nil : [owner.name], label: label))
                }
            }
            return .kept(entity: owner, property: previous)
        case (.toOne, .toOne), (.toMany, .toMany), (.toOne, .toMany):
            if let oldDestination = previous.destination, let newDestination = property.destination,
               entityOrigin[newDestination]?.name != oldDestination {
                notInferable.append("\(label): destination \(oldDestination) → \(newDestination)")
                return .reset
            }
            return .kept(entity: owner, property: previous)
        case (.toMany, .toOne):
            notInferable.append("\(label): to-many → to-one")
            return .reset
        case (.attribute, _), (_, .attribute):
            notInferable.append("\(label): \(Self.kindName(previous.kind)) → \(Self.kindName(property.kind))")
            return .reset
        }
    }

    private static func kindName(_ kind: StoredProperty.Kind) -> String {
        switch kind {
        case .attribute: return "attribute"
        case .toOne: return "to-one relationship"
        case .toMany: return "to-many relationship"
        }
    }

    /// A to-many relationship that is kept keeps its storage, unless its inverse changed from
    /// to-one to to-many (a join table filled from the old key column): a join table cannot
    /// become a key column without choosing among several links.
    private mutating func checkRelationshipStorage() {
        guard old.hasEntities else { return }
        for entity in new.entities {
            for property in entity.properties where property.kind == .toMany {
                let label = entity.name + "." + property.name
                guard case .kept(_, let previous)? = propertyFate[label], previous.kind == .toMany else { continue }
                let wasJoin = usesJoinTable(previous, in: oldEntities)
                let isJoin = usesJoinTable(property, in: newEntities)
                if wasJoin && !isJoin {
                    notInferable.append("\(label): its links move from a join table to the key of \(property.destination ?? "?").\(property.inverse ?? "?") "
                                        + "(the inverse became to-one)")
                } else if !wasJoin && !isJoin {
                    // Both stored in the inverse's key column: it must be the continuation of the old inverse.
                    if let destination = property.destination, let inverse = property.inverse,
                       case .kept(_, let previousInverse)? = propertyFate[destination + "." + inverse],
                       previousInverse.name != previous.inverse {
                        notInferable.append("\(label): inverse changed (\(previous.inverse ?? "none") → \(inverse))")
                    }
                }
            }
        }
    }

    /// Whether a to-many relationship is stored in a join table (no inverse, or a to-many inverse).
    private func usesJoinTable(_ property: StoredProperty, in entities: [String: StoredEntity]) -> Bool {
        guard let inverseName = property.inverse, let destination = property.destination.flatMap({ entities[$0] }),
              let inverse = destination.property(named: inverseName) ?? inheritedProperty(inverseName, of: destination, in: entities) else {
            return true
        }
        return inverse.kind == .toMany
    }

    private func inheritedProperty(_ name: String, of entity: StoredEntity, in entities: [String: StoredEntity]) -> StoredProperty? {
        entity.base.flatMap { entities[$0] }?.property(named: name)
    }

    // MARK: Tables

    /// The old table holding `entity`'s rows.
    private func oldTableName(of entity: StoredEntity) -> String? {
        old.tables.first { !$0.isJoinTable && $0.entities.contains(entity.name) }?.name
    }

    private func oldColumn(of property: StoredProperty, in entity: StoredEntity) -> StoredColumn? {
        guard let table = oldTableName(of: entity).flatMap({ old.table(named: $0) }) else { return nil }
        return table.column(named: StorageNames.column(property: property.name, entity: entity.name, isRoot: entity.base == nil))
    }

    private func newTable(ofEntity name: String) -> StoredTable? {
        new.tables.first { !$0.isJoinTable && $0.entities.contains(name) }
    }

    private func newColumn(ofProperty label: String) -> StoredColumn? {
        let parts = label.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let entity = newEntities[parts[0]], let table = newTable(ofEntity: parts[0]) else { return nil }
        return table.column(named: StorageNames.column(property: parts[1], entity: parts[0], isRoot: entity.base == nil))
    }

    private mutating func planEntityTables() {
        var continued: Set<String> = []
        for table in new.tables where !table.isJoinTable {
            guard let root = table.entities.first, let origin = entityOrigin[root], origin.base == nil,
                  let oldTable = oldTableName(of: origin).flatMap({ old.table(named: $0) }), oldTable.entities.first == origin.name else {
                createdTables.append(table)
                continue
            }
            continued.insert(oldTable.name)
            let migration = tableMigration(from: oldTable, to: table)
            if !migration.deletedTypes.isEmpty { tablesLosingRows.insert(table.name) }
            if !migration.isIdentity { migratedTables.append(migration) }
        }
        for table in old.tables where !table.isJoinTable && !continued.contains(table.name) {
            droppedTables.append(table.name)
        }
    }

    private mutating func tableMigration(from oldTable: StoredTable, to table: StoredTable) -> TableMigration {
        var sources: [ColumnSource] = []
        for column in table.columns {
            var source = source(of: column, in: table, oldTable: oldTable)
            if source == .value("NULL"), let presence = enclosingPresence(of: column, in: table) {
                source = presentFill(for: column, in: table, presence: presence, sources: sources)
            }
            sources.append(source)
        }
        var typeRenames: [String: String] = [:]
        var continuedTypes: Set<String> = []
        for member in table.entities {
            guard let origin = entityOrigin[member] else { continue }
            continuedTypes.insert(origin.name)
            if origin.name != member { typeRenames[origin.name] = member }
        }
        let deletedTypes = oldTable.entities.filter { !continuedTypes.contains($0) }
        // Unique groups already enforced on the same values stay; the others are checked and created.
        var oldColumnOf: [String: String] = [:]
        for (column, source) in zip(table.columns, sources) {
            switch source {
            case .column(let name), .coalesce(let name, _): oldColumnOf[column.name] = name
            case .value, .valueWherePresent: break
            }
        }
        var kept: [[String]] = []
        for group in table.uniques {
            let previous = group.map { oldColumnOf[$0] }
            if previous.allSatisfy({ $0 != nil }), oldTable.uniques.contains(previous.compactMap { $0 }) {
                kept.append(group)
            } else {
                addedUniques.append(UniqueGroup(table: table.name, columns: group, label: uniqueLabel(table: table, columns: group)))
            }
        }
        return TableMigration(old: oldTable, new: table, sources: sources, typeRenames: typeRenames,
                              deletedTypes: deletedTypes, keptUniques: kept)
    }

    /// Where the values of `column` (of the new `table`) come from.
    private mutating func source(of column: StoredColumn, in table: StoredTable, oldTable: StoredTable) -> ColumnSource {
        let owner = table.owner(ofColumn: column.name)
        let fill = ColumnSource.value(fillValue(for: column, enumCases: owner.flatMap { newEntities[$0.entity]?.property(named: $0.property)?.enumCases }))
        guard let owner else { return fill }
        let (propertyName, fieldPath) = structField(of: owner)
        let label = owner.entity + "." + propertyName
        switch propertyFate[label] {
        case .kept(let entity, let property)?:
            if let fieldPath {
                return source(ofField: fieldPath, label: label, previous: property, in: entity, oldTable: oldTable) ?? fill
            }
            guard property.kind != .toMany, let previous = oldColumn(of: property, in: entity), oldTable.column(named: previous.name) != nil else {
                // An optional struct's presence, where the struct was required: every row has one.
                if property.fields != nil, property.type?.hasPrefix("[") == false,
                   newEntities[owner.entity]?.property(named: propertyName)?.isOptional == true {
                    return .value("1")
                }
                return fill
            }
            return .column(previous.name)
        case .defaulted(let entity, let property, let literal)?:
            guard let previous = oldColumn(of: property, in: entity), oldTable.column(named: previous.name) != nil else { return fill }
            return .coalesce(previous.name, default: literal)
        case .added?, .reset?, nil:
            return fill
        }
    }

    /// The property a column of `owner` belongs to, and for a struct's column its field path
    /// (`property.field.field`: a value, or a nested optional struct's presence).
    private func structField(of owner: (entity: String, property: String)) -> (property: String, field: String?) {
        let name = owner.property
        guard let dot = name.firstIndex(of: "."), newEntities[owner.entity]?.property(named: name) == nil else { return (name, nil) }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    /// For the column of a required field (not itself a struct) of a struct attribute, nullable
    /// only because optional structs enclose it: those structs' presence columns (the attribute's
    /// own when it is optional, then each optional nested struct's on the field's path), outermost
    /// first. Nil for any other column.
    private func enclosingPresence(of column: StoredColumn, in table: StoredTable) -> [String]? {
        guard let owner = table.owner(ofColumn: column.name), case let (propertyName, path?) = structField(of: owner),
              let entity = newEntities[owner.entity], let property = entity.property(named: propertyName),
              let entries = property.fields else { return nil }
        let fields = StructFields(entries)
        guard let field = fields.fields[path], !field.isOptional, !fields.isStruct(path) else { return nil }
        var structs: [String] = property.isOptional ? [propertyName] : []
        let components = path.split(separator: ".").map(String.init)
        for length in components.indices.dropFirst() {
            let prefix = components[..<length].joined(separator: ".")
            if fields.fields[prefix]?.isOptional == true { structs.append(propertyName + "." + prefix) }
        }
        guard !structs.isEmpty else { return nil }
        return structs.map { StorageNames.column(property: $0, entity: entity.name, isRoot: entity.base == nil) }
    }

    /// What fills the column of a required field inside optional structs when it has no old values:
    /// a zero value where the structs are present, NULL where one is nil (nil rows stay nil), from
    /// the sources of their `presence` columns (which precede the field's, in `sources`).
    private func presentFill(for column: StoredColumn, in table: StoredTable, presence: [String], sources: [ColumnSource]) -> ColumnSource {
        // As for a required struct's field: a field's enum cases are not recorded.
        let zero = zeroValue(of: column, enumCases: nil)
        var varying: [String] = []
        for name in presence {
            guard let index = table.columns.firstIndex(where: { $0.name == name }), index < sources.count else { return .value("NULL") }
            switch sources[index] {
            case .value("NULL"): return .value("NULL")
            case .value: continue  // present in every row
            case .column, .coalesce, .valueWherePresent: varying.append(name)
            }
        }
        return varying.isEmpty ? .value(zero) : .valueWherePresent(zero, presence: varying)
    }

    /// Where the column of field `path` of the kept struct attribute `label` takes its values: the
    /// same field's column under the old property, or 1 for the presence of a nested struct made
    /// optional; nil when it has no old values (a new field, a field whose type changed).
    private func source(ofField path: String, label: String, previous: StoredProperty, in entity: StoredEntity,
                        oldTable: StoredTable) -> ColumnSource? {
        if let reset = resetFields[label], reset.contains(where: { path == $0 || path.hasPrefix($0 + ".") }) { return nil }
        let name = StorageNames.column(property: previous.name + "." + path, entity: entity.name, isRoot: entity.base == nil)
        if oldTable.column(named: name) != nil { return .column(name) }
        if let oldFields = previous.fields.map(StructFields.init), oldFields.isStruct(path) { return .value("1") }
        return nil
    }

    /// What fills a column with no old values: its default, NULL where allowed, else a zero value
    /// of its type (its first case for an enum; a custom stage's `didMigrate` then sets the real ones).
    /// (A required field inside optional structs is nullable, but `presentFill` gives it a zero
    /// value where the structs are present.)
    private func fillValue(for column: StoredColumn, enumCases: [String]?) -> String {
        if let literal = column.defaultLiteral { return literal }
        if !column.isRequired || column.isKey { return "NULL" }
        return zeroValue(of: column, enumCases: enumCases)
    }

    /// A zero value of the column's type: its first case for an enum.
    private func zeroValue(of column: StoredColumn, enumCases: [String]?) -> String {
        if let first = enumCases?.first { return first }
        switch column.effectiveStorage {
        case .integer: return "0"
        case .real: return "0.0"
        case .text: return "''"
        case .blob: return "X''"
        case .uuid: return "X'" + String(repeating: "0", count: 32) + "'"
        case .decimal: return "'0'"
        case .json: return "'[]'"
        }
    }

    private func uniqueLabel(table: StoredTable, columns: [String]) -> String {
        let owners = columns.compactMap { table.owner(ofColumn: $0) }
        guard let entity = owners.first?.entity else { return table.name }
        if owners.count == 1 { return entity + "." + owners[0].property }
        return entity + " (" + owners.map(\.property).joined(separator: ", ") + ")"
    }

    // MARK: Join tables

    private mutating func planJoinTables() {
        var kept: Set<String> = []
        for table in new.tables where table.isJoinTable {
            let rows = joinRows(for: table)
            if case .joinTable(let name, flipped: false)? = rows, name == table.name, old.table(named: name) == table {
                kept.insert(name)
                continue
            }
            builtJoinTables.append((table, rows))
        }
        // Join tables read by a built one are dropped after the copy.
        for table in old.tables where table.isJoinTable && !kept.contains(table.name) {
            droppedTables.append(table.name)
        }
    }

    /// Where the links of a new join table come from. Its name is its source side (`Entity.property`).
    private func joinRows(for table: StoredTable) -> JoinRows? {
        let parts = table.name.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let entity = newEntities[parts[0]], let property = entity.property(named: parts[1]) else { return nil }
        let sourceSide = sideOrigin(entity: entity.name, property: property.name)
        var targetSide: (StoredEntity, StoredProperty)?
        if let inverse = property.inverse, let destination = property.destination {
            targetSide = sideOrigin(entity: destination, property: inverse) ?? newEntities[destination]?.base.flatMap {
                sideOrigin(entity: $0, property: inverse)
            }
        }
        if let (owner, previous) = sourceSide, previous.kind == .toMany || !old.hasEntities,
           let oldJoin = old.table(named: owner.name + "." + previous.name), oldJoin.isJoinTable {
            return .joinTable(oldJoin.name, flipped: false)
        }
        if let (owner, previous) = targetSide, previous.kind == .toMany,
           let oldJoin = old.table(named: owner.name + "." + previous.name), oldJoin.isJoinTable {
            return .joinTable(oldJoin.name, flipped: true)
        }
        if let (owner, previous) = sourceSide, previous.kind == .toOne,
           let oldTable = oldTableName(of: owner), let column = oldColumn(of: previous, in: owner) {
            return .keyColumn(table: oldTable, column: column.name, keyIsTarget: true)
        }
        if let (owner, previous) = targetSide, previous.kind == .toOne,
           let oldTable = oldTableName(of: owner), let column = oldColumn(of: previous, in: owner) {
            return .keyColumn(table: oldTable, column: column.name, keyIsTarget: false)
        }
        // A format-1 description names a join table after its source side only.
        if !old.hasEntities, let oldJoin = old.table(named: table.name), oldJoin.isJoinTable {
            return .joinTable(oldJoin.name, flipped: false)
        }
        return nil
    }

    /// The old property a relationship of the new schema continues, with its old entity.
    private func sideOrigin(entity: String, property: String) -> (StoredEntity, StoredProperty)? {
        if case .kept(let owner, let previous)? = propertyFate[entity + "." + property] { return (owner, previous) }
        return nil
    }

    // MARK: Tombstones

    private mutating func planTombstones() {
        for entity in new.entities where entityOrigin[entity.name] != nil {
            let types = entity.base == nil ? (newTable(ofEntity: entity.name)?.entities ?? [entity.name]) : [entity.name]
            for property in entity.properties where property.kind == .attribute {
                if case .kept(_, let previous)? = propertyFate[entity.name + "." + property.name], previous.name != property.name {
                    attributeRenames.append((types, previous.name, property.name))
                }
            }
        }
    }
}

extension StoredSchema {
    /// The entities a format-1 description implies: one per type of each entity table, a subclass
    /// based on its table's root, its columns as attributes (value types unknown) and to-one
    /// relationships (key columns).
    func legacyEntities() -> [StoredEntity] {
        var result: [StoredEntity] = []
        for table in tables where !table.isJoinTable {
            guard let root = table.entities.first else { continue }
            for name in table.entities {
                var properties: [StoredProperty] = []
                for column in table.columns {
                    guard let owner = table.owner(ofColumn: column.name), owner.entity == name else { continue }
                    if column.isKey {
                        let destination = column.references.flatMap { reference in self.table(named: reference)?.entities.first }
                        properties.append(StoredProperty(name: owner.property, kind: .toOne, isOptional: true, destination: destination))
                    } else {
                        properties.append(StoredProperty(name: owner.property, kind: .attribute, isOptional: !column.isRequired,
                                                         defaultValue: column.defaultLiteral))
                    }
                }
                result.append(StoredEntity(name: name, base: name == root ? nil : root, originalName: nil,
                                           properties: properties, uniqueConstraints: [], indexes: []))
            }
        }
        return result
    }
}
