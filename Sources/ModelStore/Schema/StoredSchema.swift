/// The full description of a store's schema, written as JSON into the store's `"$metadata"` table
/// (key `schema`) and compared on open to decide what migrates (docs/Migrations.md, "The stored
/// schema").
///
/// Format 2 records the entities as the model declares them (`entities`: names, bases,
/// properties with their Swift value types, relationships, unique groups, indexes), the tables
/// they are stored in (`tables`), and the schema version of the migration plan the store was last
/// opened with (`schemaVersion`). Format 1, written before schema evolution, recorded only
/// `tables`; such a store reads as "unknown version, this table layout" (`entities` empty).
struct StoredSchema: Codable, Hashable, Sendable {
    /// The format this runtime writes.
    public static let currentFormat = 2

    /// The format of this description (JSON key `version`, as format 1 named it): 1 or 2.
    public var format: Int = StoredSchema.currentFormat
    /// The version (`VersionedSchema.versionIdentifier`) of the schema the store holds, when it was
    /// opened through a migration plan that knows it; nil when unknown.
    public var schemaVersion: Schema.Version?
    /// The entities, each base followed by its subclasses (empty in format 1).
    public var entities: [StoredEntity] = []
    /// Entity tables (one per hierarchy) and join tables, in schema order.
    public var tables: [StoredTable] = []

    init(format: Int = StoredSchema.currentFormat, schemaVersion: Schema.Version? = nil,
         entities: [StoredEntity] = [], tables: [StoredTable] = []) {
        self.format = format
        self.schemaVersion = schemaVersion
        self.entities = entities
        self.tables = tables
    }

    enum CodingKeys: String, CodingKey {
        case format = "version"
        case schemaVersion
        case entities
        case tables
    }

    /// Decodes a description of format 1 or 2 (fields missing in format 1 take their empty values).
    ///
    /// - Throws: `DecodingError` when the JSON is not such a description.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decodeIfPresent(Int.self, forKey: .format) ?? 1
        schemaVersion = try container.decodeIfPresent(Schema.Version.self, forKey: .schemaVersion)
        entities = try container.decodeIfPresent([StoredEntity].self, forKey: .entities) ?? []
        tables = try container.decodeIfPresent([StoredTable].self, forKey: .tables) ?? []
    }

    /// Whether the description records entities (format 2), not only tables.
    var hasEntities: Bool { format >= 2 }

    /// Whether `other` describes the same entities and tables, in any order (the schema version
    /// and the format aside).
    func describesSameSchema(as other: StoredSchema) -> Bool {
        Set(tables) == Set(other.tables) && (hasEntities && other.hasEntities ? Set(entities) == Set(other.entities) : true)
    }

    /// The entity named `name`.
    func entity(named name: String) -> StoredEntity? {
        entities.first { $0.name == name }
    }

    /// The table named `name`.
    func table(named name: String) -> StoredTable? {
        tables.first { $0.name == name }
    }
}

/// One entity of a stored schema.
struct StoredEntity: Codable, Hashable, Sendable {
    /// The entity name (the row's type column value).
    public var name: String
    /// The base entity's name, for a subclass.
    public var base: String?
    /// The name the entity had in an earlier schema (`@Entity(originalName:)`), as declared.
    public var originalName: String?
    /// The entity's own stored properties (not its base's), in declaration order.
    public var properties: [StoredProperty]
    /// Unique groups (`.unique` attributes and `#Unique`), each a list of property names.
    public var uniqueConstraints: [[String]]
    /// `#Index` groups, each a list of property names.
    public var indexes: [[String]]

    init(name: String, base: String?, originalName: String?, properties: [StoredProperty],
         uniqueConstraints: [[String]], indexes: [[String]]) {
        self.name = name
        self.base = base
        self.originalName = originalName
        self.properties = properties
        self.uniqueConstraints = uniqueConstraints
        self.indexes = indexes
    }

    /// The property named `name`.
    func property(named name: String) -> StoredProperty? {
        properties.first { $0.name == name }
    }
}

/// One stored property of an entity: an attribute or a relationship.
struct StoredProperty: Codable, Hashable, Sendable {
    /// Attribute, to-one or to-many relationship.
    public enum Kind: String, Codable, Hashable, Sendable {
        case attribute
        case toOne
        case toMany
    }

    /// The property name.
    public var name: String
    /// What the property is.
    public var kind: Kind
    /// The name it had in an earlier schema (`originalName:`), as declared.
    public var originalName: String?

    /// Attribute: the Swift value type without optionality (`Int32`, `String`, `[String]`,
    /// `enum(String)`; see docs/Migrations.md). Nil in descriptions read from format 1.
    public var type: String?
    /// Attribute: whether the value may be nil (`T?`).
    public var isOptional: Bool
    /// Attribute: the constant default, as an SQL literal (`'text'`, `42`, `1.5`, `X'00'`).
    public var defaultValue: String?
    /// Attribute: `@Attribute` options (`unique`, `preserveValueOnDeletion`, `externalStorage`), sorted.
    public var options: [String]?
    /// Attribute of an enum type: the raw values of its cases, as SQL literals, in declaration order.
    public var enumCases: [String]?
    /// Attribute of a struct type (`S`, `S?`, `[S]`): its fields, `path: Type` each (see
    /// `StructFields`). Nil in descriptions written before they were recorded.
    public var fields: [String]?

    /// Relationship: the destination entity.
    public var destination: String?
    /// Relationship: the inverse property on the destination.
    public var inverse: String?
    /// Relationship: the delete rule.
    public var deleteRule: DeleteRule?
    /// Relationship: `minimumModelCount:`.
    public var minimumModelCount: Int?
    /// Relationship: `maximumModelCount:`.
    public var maximumModelCount: Int?

    init(name: String, kind: Kind, originalName: String? = nil, type: String? = nil, isOptional: Bool = false,
         defaultValue: String? = nil, options: [String]? = nil, enumCases: [String]? = nil, fields: [String]? = nil,
         destination: String? = nil, inverse: String? = nil, deleteRule: DeleteRule? = nil,
         minimumModelCount: Int? = nil, maximumModelCount: Int? = nil) {
        self.name = name
        self.kind = kind
        self.originalName = originalName
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.options = options
        self.enumCases = enumCases
        self.fields = fields
        self.destination = destination
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.minimumModelCount = minimumModelCount
        self.maximumModelCount = maximumModelCount
    }

    /// Whether it is a relationship.
    var isRelationship: Bool { kind != .attribute }
}

/// One table of the store.
struct StoredTable: Codable, Hashable, Sendable {
    /// The table name.
    public var name: String
    /// The entities whose rows it holds (root first); empty for a join table.
    public var entities: [String]
    /// Columns besides the primary key (and, for join tables, the two key columns).
    public var columns: [StoredColumn]
    /// Unique groups (column names).
    public var uniques: [[String]]
    /// Plain indexes (column names), including the index of each key column.
    public var indexes: [[String]]
    /// Whether it is a join table (`$source`, `$target`).
    public var isJoinTable: Bool
    /// For a join table: the tables its two columns reference.
    public var joinReferences: [String]

    /// The entity and property a column of this entity table stores: `property` for the root,
    /// `Subclass.property` for a subclass (see `StorageNames.column`).
    func owner(ofColumn column: String) -> (entity: String, property: String)? {
        guard let root = entities.first else { return nil }
        if let dot = column.firstIndex(of: "."), entities.dropFirst().contains(String(column[..<dot])) {
            return (String(column[..<dot]), String(column[column.index(after: dot)...]))
        }
        return (root, column)
    }

    /// The column named `name`.
    func column(named name: String) -> StoredColumn? {
        columns.first { $0.name == name }
    }
}

/// One column of a table.
struct StoredColumn: Codable, Hashable, Sendable {
    /// The column name.
    public var name: String
    /// The declared type (`INTEGER`, `REAL`, `TEXT`, `BLOB`: SQLite's affinity).
    public var type: String
    /// What the column holds (nil in descriptions written before it was recorded: then `type`).
    public var storage: StorageType? = nil
    /// NOT NULL (root entity) or a CHECK for the rows of `requiredFor` (subclass).
    public var isRequired: Bool
    /// The subclass whose rows must have a value (nil: every row).
    public var requiredFor: String?
    /// A constant default as an SQL literal.
    public var defaultLiteral: String?
    /// The table a key column references (nil for a value column or a dangling-allowed key).
    public var references: String?
    /// Whether this is a relationship key column.
    public var isKey: Bool
    /// The column's name in an earlier schema (`originalName:`), as declared.
    public var previousName: String? = nil

    /// What the column holds, from `storage` or, in older descriptions, from `type`.
    var effectiveStorage: StorageType {
        storage ?? SQLColumnType(rawValue: type).map(StorageType.init(affinity:)) ?? .blob
    }
}
