/// One entity resolved against its schema: its table, columns, relationships and the SQL the
/// context runs for it. Built once by `Schema` and never changed afterwards.
public final class EntitySchema: @unchecked Sendable {
    /// The entity (class) name, also the row's type column value.
    public let name: String
    /// The generated class.
    public let type: ModelObject.Type
    /// The generated metadata.
    public let metadata: EntityMetadata
    /// The base entity's name, for a subclass.
    public internal(set) var baseName: String?
    /// The position of the entity's hierarchy among the schema's hierarchies.
    var hierarchyIndex = 0
    /// The table of the hierarchy (the root entity's name).
    public internal(set) var tableName: String = ""
    /// This entity and its subclasses: the type column values a fetch of this entity matches.
    public internal(set) var typeNames: [String] = []
    /// Stored attributes in `_encode`/`_decode` order: the entity's own, then the base's.
    public internal(set) var attributes: [AttributeColumn] = []
    /// Relationships in slot order (the base's, then the entity's own).
    public internal(set) var relationships: [RelationshipSchema] = []
    /// Slots of the to-one relationships stored as key columns, in column order.
    var keySlots: [Int] = []
    /// Relationship details for the in-memory graph, in slot order.
    var relationshipInfos: [RelationshipInfo] = []
    /// Result-column positions of `attributes` in the hierarchy's select list.
    var attributeResultColumns: [Int32] = []
    /// Result-column positions of the key columns (for `keySlots`) in the hierarchy's select list.
    var keyResultColumns: [Int32] = []
    /// Property names by key path (own, base and inherited-on-subclass key paths).
    var propertyNamesByKeyPath: [AnyKeyPath: String] = [:]
    /// Unique groups (column names) that make an insert an upsert.
    var uniqueColumnGroups: [[String]] = []
    /// `SELECT` of every column of the hierarchy (`$pk`, `$type`, attributes, keys) `FROM` its table.
    public internal(set) var selectSQL = ""
    /// The entity's position in `Schema.entities` (indexes per-container tables such as `EntitySQL`).
    var index = 0

    init(type: ModelObject.Type) {
        self.type = type
        self.metadata = type.schemaMetadata
        self.name = metadata.name
    }

    /// The column of the attribute or to-one relationship named `property`, for SQL built
    /// from key paths (predicates, sorts). Nil for a to-many relationship or an unknown name.
    public func column(forProperty property: String) -> String? {
        if let attribute = attributes.first(where: { $0.name == property }) { return attribute.column }
        if let relationship = relationships.first(where: { $0.name == property }), case .keyColumn(let column) = relationship.storage {
            return column
        }
        return nil
    }

    /// The property (attribute or relationship) whose key path on this entity is `keyPath`
    /// (`\Trip.name`, or `\BusinessTrip.name` for an inherited property of a subclass).
    public func property(forKeyPath keyPath: AnyKeyPath) -> String? {
        propertyNamesByKeyPath[keyPath]
    }

    /// The column for a key path (see `column(forProperty:)`).
    public func column(forKeyPath keyPath: AnyKeyPath) -> String? {
        property(forKeyPath: keyPath).flatMap { column(forProperty: $0) }
    }

    /// The relationship named `name`.
    public func relationship(named name: String) -> RelationshipSchema? {
        relationships.first { $0.name == name }
    }

    /// The attribute named `name`.
    public func attribute(named name: String) -> AttributeColumn? {
        attributes.first { $0.name == name }
    }
}

/// A stored attribute and its column.
public struct AttributeColumn: Sendable {
    /// The property name.
    public let name: String
    /// The column name (the property name; `Entity.property` for a subclass's property).
    public let column: String
    /// The entity that declares it.
    public let entityName: String
    /// Column details.
    public let metadata: AttributeMetadata
    /// The key path on the declaring class.
    public let keyPath: AnyKeyPath & Sendable
}

/// A relationship resolved against the schema.
public final class RelationshipSchema: @unchecked Sendable {
    /// The property name.
    public let name: String
    /// The entity that declares it.
    public let entityName: String
    /// The destination entity.
    public internal(set) var destinationName: String = ""
    /// `[E]` or `E?`.
    public let isToMany: Bool
    /// The delete rule.
    public let deleteRule: DeleteRule
    /// The inverse property's name, if any.
    public internal(set) var inverseName: String?
    /// How the relationship is stored.
    public internal(set) var storage: Storage = .keyColumn("")
    /// The key path on the declaring class.
    public let keyPath: AnyKeyPath & Sendable

    /// How a relationship is stored.
    public enum Storage: Sendable, Equatable {
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
    }
}
