/// What a fetch with `FetchDescriptor.propertiesToFetch` reads of each entity of the fetched
/// hierarchy: the hierarchy's select list with the columns of the other attributes as `NULL` (so
/// every column keeps its position and nothing else of the fetch changes), the decoders' positions
/// (-1 for an attribute not read), and which attributes each new model then lacks.
struct PartialRow {
    /// `SELECT …` of the hierarchy's columns, unread ones as `NULL`, `FROM` its table.
    let sql: String
    /// `RowDecoder` positions by `EntitySchema.index` (every member of the hierarchy).
    let positions: [Int: [Int32]]
    /// The attributes not read, by `EntitySchema.index` (no entry when all were).
    let unfetched: [Int: UnfetchedAttributes]

    var selectSQL: String { sql }

    /// The partial row of a fetch of `entity` naming `keyPaths`; nil when `keyPaths` is empty (all
    /// attributes are read). Attributes whose type has no placeholder are read anyway.
    init?<T>(entity: EntitySchema, schema: Schema, keyPaths: [PartialKeyPath<T>]) {
        guard !keyPaths.isEmpty else { return nil }
        var wanted: Set<String> = []
        for keyPath in keyPaths {
            guard let name = entity.property(forKeyPath: keyPath) else { continue }
            if let attribute = entity.storedAttribute(named: name) {
                wanted.insert(attribute.name + "@" + attribute.entityName)
            } else if let column = entity.attribute(named: name) {
                wanted.insert(column.propertyName + "@" + column.entityName)
            }
        }
        self = Self.select(entity: entity, schema: schema) { attribute in
            !attribute.metadata.hasPlaceholder || wanted.contains(attribute.name + "@" + attribute.entityName)
        }
    }

    private init(sql: String, positions: [Int: [Int32]], unfetched: [Int: UnfetchedAttributes]) {
        self.sql = sql
        self.positions = positions
        self.unfetched = unfetched
    }

    /// The select of `entity`'s hierarchy reading the attributes `isRead` accepts.
    static func select(entity: EntitySchema, schema: Schema, isRead: (StoredAttribute) -> Bool) -> PartialRow {
        let root = entity.baseName.flatMap { schema.entity(named: $0) } ?? entity
        let members = root.typeNames.compactMap { schema.entity(named: $0) }
        var unreadColumns: Set<String> = []
        var positions: [Int: [Int32]] = [:]
        var unfetched: [Int: UnfetchedAttributes] = [:]
        for member in members {
            var missing = PositionSet()
            var memberPositions = member.attributeResultColumns
            for (index, attribute) in member.storedAttributes.enumerated() where !isRead(attribute) {
                missing.insert(index)
                memberPositions[index] = -1
                if attribute.entityName == member.name {
                    for column in member.attributes[attribute.columns] { unreadColumns.insert(column.column) }
                }
            }
            positions[member.index] = memberPositions
            if !missing.isEmpty { unfetched[member.index] = UnfetchedAttributes(missing) }
        }
        let list = root.selectColumns.map { unreadColumns.contains($0) ? "NULL" : SQLQuote.identifier($0) }
        let sql = "SELECT " + list.joined(separator: ", ") + " FROM " + SQLQuote.identifier(root.tableName)
        return PartialRow(sql: sql, positions: positions, unfetched: unfetched)
    }

    /// The attributes a registered model still lacks after a fetch read `partial` of its row
    /// (all of it when `partial` is nil).
    static func stillUnfetched(_ missing: UnfetchedAttributes?, after partial: PartialRow?, entity: EntitySchema) -> UnfetchedAttributes? {
        guard let missing, let partial, let unread = partial.unfetched[entity.index] else { return nil }
        let still = PositionSet(missing.positions.sorted.filter { unread.contains($0) })
        return still.isEmpty ? nil : UnfetchedAttributes(still)
    }
}
