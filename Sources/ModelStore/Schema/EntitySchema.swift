/// One entity resolved against its schema (SwiftData's `Schema.Entity`): its name in the API; its
/// table, columns, relationships and the SQL the context runs for it inside the runtime. Built once
/// by `Schema` and never changed afterwards.
public final class EntitySchema: @unchecked Sendable {
    /// The entity (class) name, also the row's type column value.
    public let name: String
    /// The generated class.
    let type: ModelObject.Type
    /// The generated metadata.
    let metadata: EntityMetadata
    /// The base entity's name, for a subclass.
    var baseName: String?
    /// The position of the entity's hierarchy among the schema's hierarchies.
    var hierarchyIndex = 0
    /// The table of the hierarchy (the root entity's name).
    var tableName: String = ""
    /// This entity and its subclasses: the type column values a fetch of this entity matches.
    var typeNames: [String] = []
    /// The value columns of the stored attributes, in `AttributeIndex` order: the base's first, then
    /// the entity's own, each in declaration order; a struct attribute has one per field (nested
    /// structs flattened), after a presence column for an optional struct. A row's value columns are
    /// these, then the to-one key columns (`keySlots`).
    var attributes: [AttributeColumn] = []
    /// The stored attributes by `AttributeIndex` (the base's first), each with its columns in `attributes`.
    var storedAttributes: [StoredAttribute] = []
    /// Relationships in slot order (the base's, then the entity's own).
    var relationships: [RelationshipSchema] = []
    /// Slots of the to-one relationships stored as key columns, in column order.
    var keySlots: [Int] = []
    /// One `.unloaded` slot per relationship, shared by the models that have not set one yet
    /// (`RelationshipGraph.ensureSlots`: an inserted model allocates no slots of its own until a
    /// relationship is set; the array is copied on that first write).
    var unloadedSlots: ContiguousArray<RelationshipValue> = []
    /// Relationship details for the in-memory graph, in slot order.
    var relationshipInfos: [RelationshipInfo] = []
    /// What delete rules read of each relationship, in slot order (`relationshipInfos`' routes).
    var relationshipRoutes: [RelationshipRoute] = []
    /// The routes a save follows from a deleted model or row (`.cascade` and `.deny`), in slot order.
    var followedOnDelete: [RelationshipRoute] = []
    /// Whether a column of the entity is preserved on deletion (a deleted row has a tombstone).
    var preservesValuesOnDeletion = false
    /// The result column of each stored attribute's first column in the hierarchy's select list,
    /// by `AttributeIndex` (a `RowDecoder`'s positions for a full row).
    var attributeResultColumns: [Int32] = []
    /// The result column of each value column (`attributes`, in order) in the hierarchy's select
    /// list: what a full row's decoder reads (the cells a fetch loads: `StoreStatement.loadCells`).
    var valueResultColumns: [Int32] = []
    /// Each stored attribute's first column among the value columns, by `AttributeIndex` (a
    /// `RowDecoder`'s or `RowEncoder`'s positions for a row's values).
    var attributeValuePositions: [Int32] = []
    /// Result-column positions of the key columns (for `keySlots`) in the hierarchy's select list.
    var keyResultColumns: [Int32] = []
    /// Property names by key path (own, base and inherited-on-subclass key paths).
    var propertyNamesByKeyPath: [AnyKeyPath: String] = [:]
    /// Unique groups (column names) that make an insert an upsert.
    var uniqueColumnGroups: [[String]] = []
    /// `SELECT` of every column of the hierarchy (`$pk`, `$type`, attributes, keys) `FROM` its table.
    var selectSQL = ""
    /// ` ORDER BY` the row key: the order of a fetch with no sort descriptor
    /// (`SortSQL.orderBy` of no terms), made once.
    var keyOrderSQL = ""
    /// `SELECT "$pk" FROM` the hierarchy's table: the rows `fetchCount` counts (`countSQL`).
    var keySelectSQL: String { "SELECT \(SQLQuote.identifier(StorageNames.primaryKey)) FROM \(SQLQuote.identifier(tableName))" }
    /// The columns of `selectSQL`, in order (unquoted).
    var selectColumns: [String] = []
    /// The entity's position in `Schema.entities` (indexes per-container tables such as `EntitySQL`).
    var index = 0

    init(type: ModelObject.Type) {
        self.type = type
        self.metadata = type.schemaMetadata
        self.name = metadata.name
    }

    /// `fetchCount`'s statement: the number of rows of `select` (a `keySelectSQL` with its
    /// conditions and window).
    static func countSQL(around select: String) -> String {
        "SELECT count(*) FROM (\(select)) AS \(SQLQuote.identifier("$rows"))"
    }

    /// The column of the attribute or to-one relationship named `property`, for SQL built
    /// from key paths (predicates, sorts). Nil for a to-many relationship, a struct attribute
    /// (its fields have columns: `palette.primary`) or an unknown name.
    func column(forProperty property: String) -> String? {
        if let attribute = attributes.first(where: { $0.name == property }) { return attribute.column }
        if let relationship = relationships.first(where: { $0.name == property }), case .keyColumn(let column) = relationship.storage {
            return column
        }
        return nil
    }

    /// The property (attribute or relationship) whose key path on this entity is `keyPath`
    /// (`\Trip.name`, or `\BusinessTrip.name` for an inherited property of a subclass).
    func property(forKeyPath keyPath: AnyKeyPath) -> String? {
        propertyNamesByKeyPath[keyPath]
    }

    /// The column for a key path (see `column(forProperty:)`).
    func column(forKeyPath keyPath: AnyKeyPath) -> String? {
        property(forKeyPath: keyPath).flatMap { column(forProperty: $0) }
    }

    /// The relationship named `name`.
    func relationship(named name: String) -> RelationshipSchema? {
        relationships.first { $0.name == name }
    }

    /// The column named `name` (`name`, or `palette.primary` for a struct's field).
    func attribute(named name: String) -> AttributeColumn? {
        attributes.first { $0.name == name }
    }

    /// The columns a unique constraint or an index on property `name` covers: the property's
    /// column (an attribute or a to-one key), or every value column of a struct attribute.
    func valueColumns(ofProperty name: String) -> [String] {
        if let attribute = storedAttribute(named: name), attribute.columnCount > 1 || attribute.metadata.columns.first?.isPresence == true {
            return attributes[attribute.columns].filter { !$0.details.isPresence }.map(\.column)
        }
        return [column(forProperty: name) ?? name]
    }

    /// The stored attribute named `name`.
    func storedAttribute(named name: String) -> StoredAttribute? {
        storedAttributes.first { $0.name == name }
    }
}

/// A value column of a stored attribute.
struct AttributeColumn: Sendable {
    /// The property name, and for a struct's column the field path (`palette.primary`; a presence
    /// column is named as its struct, `palette`).
    let name: String
    /// The column name: `name`, prefixed `Entity.` for a subclass's property.
    let column: String
    /// The entity that declares it.
    let entityName: String
    /// The attribute's details.
    let metadata: AttributeMetadata
    /// Whether its value is kept in history when its row is deleted (`preserveValueOnDeletion`).
    var isPreservedOnDeletion: Bool { metadata.options.contains(.preserveValueOnDeletion) }
    /// The key path on the declaring class (for a struct's column, to the field's value; for a
    /// presence column, to the struct).
    let keyPath: AnyKeyPath & Sendable
    /// The attribute the column belongs to.
    let attributeIndex: Int
    /// The stored property's name (`palette` for all of its columns).
    let propertyName: String
    /// The column's own details (its type, whether it may be NULL, its place in a struct).
    let details: ColumnMetadata
}

/// A stored attribute: its `AttributeIndex`, and where its columns are among the row's value columns.
struct StoredAttribute {
    let name: String
    let entityName: String
    let keyPath: AnyKeyPath & Sendable
    let metadata: AttributeMetadata
    /// The position of its first column in `EntitySchema.attributes`.
    let firstColumn: Int
    /// The number of its columns (1, except for a struct).
    let columnCount: Int

    var columns: Range<Int> { firstColumn..<(firstColumn + columnCount) }

    /// Whether it is a struct (stored as columns of its fields).
    var isComposite: Bool { metadata.columns.contains { $0.isPresence || !$0.path.isEmpty } }
}

/// A relationship resolved against the schema.
final class RelationshipSchema: @unchecked Sendable {
    /// The property name.
    let name: String
    /// The entity that declares it.
    let entityName: String
    /// The destination entity.
    var destinationName: String = ""
    /// `[E]` or `E?`.
    let isToMany: Bool
    /// The delete rule.
    let deleteRule: DeleteRule
    /// The inverse property's name, if any.
    var inverseName: String?
    /// How the relationship is stored.
    var storage: Storage = .keyColumn("")
    /// The key path on the declaring class.
    let keyPath: AnyKeyPath & Sendable
    /// `minimumModelCount` (0: none) and `maximumModelCount` (0: none) of a to-many.
    let minimumModelCount: Int
    let maximumModelCount: Int
    /// `[E]?`: may be empty whatever its minimum.
    let isOptional: Bool

    /// Whether `save()` checks its count (docs/Runtime.md, "Model counts").
    var limitsModelCount: Bool { isToMany && (minimumModelCount > 0 || maximumModelCount > 0) }

    /// How a relationship is stored.
    enum Storage: Sendable, Equatable {
        /// A key column in the declaring entity's table (to-one).
        case keyColumn(String)
        /// The inverse to-one's key column in the destination's table (one-to-many).
        case inverseKeyColumn(table: String, column: String)
        /// A join table: this side's key in `ownColumn`, the other side's in `otherColumn`.
        case joinTable(table: String, ownColumn: String, otherColumn: String)
    }

    init(name: String, entityName: String, metadata: RelationshipMetadata, keyPath: AnyKeyPath & Sendable) {
        self.name = name
        self.entityName = entityName
        self.isToMany = metadata.isToMany
        self.deleteRule = metadata.deleteRule
        self.inverseName = metadata.inverse
        self.keyPath = keyPath
        self.minimumModelCount = max(metadata.minimumModelCount ?? 0, 0)
        self.maximumModelCount = max(metadata.maximumModelCount ?? 0, 0)
        self.isOptional = metadata.isOptional
    }
}
