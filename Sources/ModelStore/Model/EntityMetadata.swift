internal import SchemaEvolution

/// What generated code declares about one entity: its name, its place in the hierarchy and its
/// own stored properties. `Schema` resolves tables, columns and inverses from it. A hook of
/// generated code (SPI `ModelStoreGenerated`), not API.
@_spi(ModelStoreGenerated) public struct EntityMetadata: Sendable {
    /// The entity (and class) name; also the value of the row's type column.
    public let name: String
    /// The base class, for a subclass.
    public let base: ModelObject.Type?
    /// Direct subclasses (only a base has them: the hierarchy is flat).
    public let subclasses: [ModelObject.Type]
    /// The key path of the class's `id` when it is the model's `persistentModelID` (the hierarchy
    /// declares no `id` attribute): `#Predicate` compares it as the identifier it is.
    public let identifierKeyPath: (AnyKeyPath & Sendable)?
    /// The entity's own stored properties in declaration order (not the base's, not transient ones),
    /// each with its `AttributeIndex` or `RelationshipIndex` (numbered after the base's).
    public let properties: [PropertyMetadata]
    /// `.unique` attributes and `#Unique` groups, each a list of property names.
    public let uniqueConstraints: [[String]]
    /// `#Index` groups, each a list of property names.
    public let indexes: [[String]]
    /// For a subclass: key paths rooted at the subclass for the base's properties
    /// (`\BusinessTrip.name`), so predicates and sorts written on the subclass resolve.
    public let inheritedKeyPaths: [InheritedKeyPath]
    /// The name the entity had in an earlier schema (`@Entity(originalName: "Old")`): a store
    /// written with that name is renamed on open (its table, type column values, subclass columns).
    public let originalName: String?
    /// The `.model` file the entity was generated from, which the store records (`modelgen pull`
    /// reads it back; docs/CommandLine.md); nil for a frozen version's entity.
    public let modelSource: ModelSourceFile?

    /// Creates entity metadata (called by generated code only).
    public init(name: String, base: ModelObject.Type?, subclasses: [ModelObject.Type], identifierKeyPath: (AnyKeyPath & Sendable)? = nil,
                properties: [PropertyMetadata], uniqueConstraints: [[String]] = [], indexes: [[String]] = [],
                modelSource: ModelSourceFile? = nil, inheritedKeyPaths: [InheritedKeyPath] = [], originalName: String? = nil) {
        self.modelSource = modelSource
        self.inheritedKeyPaths = inheritedKeyPaths
        self.originalName = originalName
        self.name = name
        self.base = base
        self.subclasses = subclasses
        self.identifierKeyPath = identifierKeyPath
        self.properties = properties
        self.uniqueConstraints = uniqueConstraints
        self.indexes = indexes
    }
}

/// A `.model` file as generated code records it: its path below the generator's input folder and
/// its lines. A store keeps the files of its schema's entities in its `"$metadata"` table (key
/// `model`), written when it is created or migrated and whenever the text changes, so that
/// `modelgen pull` gives the model back from the store alone (docs/CommandLine.md).
@_spi(ModelStoreGenerated) public struct ModelSourceFile: Sendable, Hashable, Codable {
    /// The path below the input folder (`Trips.model`, `Travel/Trips.model`).
    public let path: String
    /// The text, lines joined with `\n` (with a final newline).
    public let text: String

    /// Records a file (called by generated code only).
    public init(path: String, lines: [String]) {
        self.path = path
        self.text = lines.joined(separator: "\n") + "\n"
    }
}

/// A base property's key path rooted at a subclass.
@_spi(ModelStoreGenerated) public struct InheritedKeyPath: Sendable {
    /// The base property's name.
    public let name: String
    /// The key path on the subclass.
    public let keyPath: AnyKeyPath & Sendable

    /// Creates the pair (called by generated code only).
    public init(_ name: String, _ keyPath: AnyKeyPath & Sendable) {
        self.name = name
        self.keyPath = keyPath
    }
}

/// One stored property of an entity.
@_spi(ModelStoreGenerated) public struct PropertyMetadata: Sendable {
    /// The property name.
    public let name: String
    /// The property's `AttributeIndex` (an attribute) or `RelationshipIndex` (a relationship).
    public let index: Int
    /// The key path to the property on the entity's class (what `#Predicate` and `SortDescriptor` use).
    public let keyPath: AnyKeyPath & Sendable
    /// Attribute or relationship details.
    public let kind: Kind

    /// Attribute or relationship.
    public enum Kind: Sendable {
        case attribute(AttributeMetadata)
        case relationship(RelationshipMetadata)
    }

    /// The attribute details, for an attribute.
    public var attribute: AttributeMetadata? {
        if case .attribute(let attribute) = kind { return attribute }
        return nil
    }

    /// The relationship details, for a relationship.
    public var relationship: RelationshipMetadata? {
        if case .relationship(let relationship) = kind { return relationship }
        return nil
    }

    /// A stored attribute: one column, or for a struct one per field (`fieldKeyPaths`: the key path
    /// of each field's column from the entity, `\Theme.palette.primary`, in column order, presence
    /// columns left out).
    public static func attribute<Root: ModelObject, Value: SQLStorable>(
        _ index: AttributeIndex, _ keyPath: KeyPath<Root, Value> & Sendable, _ options: AttributeOption...,
        originalName: String? = nil, defaultValue: Value? = nil, fieldKeyPaths: [AnyKeyPath & Sendable] = []
    ) -> PropertyMetadata {
        let columns = ColumnMetadata.columns(of: Value.self, fieldKeyPaths: fieldKeyPaths, keyPath: keyPath)
        return PropertyMetadata(name: index.name.description, index: index.index, keyPath: keyPath, kind: .attribute(AttributeMetadata(
            columnType: Value.columnType, storageType: Value.storageType, isOptional: Value.isOptional, options: Set(options),
            originalName: originalName, defaultValue: defaultValue?.sqlValue,
            valueType: ValueTypeName.of(Value.self), enumCases: ValueTypeName.enumCases(of: Value.self),
            fields: StructFields.entries(of: Value.self), columns: columns, hasPlaceholder: Value._placeholder != nil)))
    }

    /// A to-one relationship (`Target?`).
    public static func toOne<Root: ModelObject, Target: ModelObject>(
        _ index: RelationshipIndex, _ keyPath: ReferenceWritableKeyPath<Root, Target?> & Sendable,
        deleteRule: DeleteRule = .nullify, inverse: String? = nil, originalName: String? = nil
    ) -> PropertyMetadata {
        PropertyMetadata(name: index.name.description, index: index.index, keyPath: keyPath, kind: .relationship(RelationshipMetadata(
            destination: Target.self, isToMany: false, deleteRule: deleteRule, inverse: inverse,
            minimumModelCount: nil, maximumModelCount: nil, originalName: originalName,
            isOptional: true, observe: ObservationHook(keyPath))))
    }

    /// A to-many relationship (`[Target]`).
    public static func toMany<Root: ModelObject, Target: ModelObject>(
        _ index: RelationshipIndex, _ keyPath: ReferenceWritableKeyPath<Root, [Target]> & Sendable,
        deleteRule: DeleteRule = .nullify, inverse: String? = nil,
        minimumModelCount: Int? = nil, maximumModelCount: Int? = nil, originalName: String? = nil
    ) -> PropertyMetadata {
        PropertyMetadata(name: index.name.description, index: index.index, keyPath: keyPath, kind: .relationship(RelationshipMetadata(
            destination: Target.self, isToMany: true, deleteRule: deleteRule, inverse: inverse,
            minimumModelCount: minimumModelCount, maximumModelCount: maximumModelCount,
            originalName: originalName, isOptional: false, observe: ObservationHook(keyPath))))
    }

    /// An optional to-many relationship (`[Target]?`): stored as a to-many (nil and `[]` alike).
    public static func toMany<Root: ModelObject, Target: ModelObject>(
        _ index: RelationshipIndex, _ keyPath: ReferenceWritableKeyPath<Root, [Target]?> & Sendable,
        deleteRule: DeleteRule = .nullify, inverse: String? = nil,
        minimumModelCount: Int? = nil, maximumModelCount: Int? = nil, originalName: String? = nil
    ) -> PropertyMetadata {
        PropertyMetadata(name: index.name.description, index: index.index, keyPath: keyPath, kind: .relationship(RelationshipMetadata(
            destination: Target.self, isToMany: true, deleteRule: deleteRule, inverse: inverse,
            minimumModelCount: minimumModelCount, maximumModelCount: maximumModelCount,
            originalName: originalName, isOptional: true, observe: ObservationHook(keyPath))))
    }
}

/// Options of `@Attribute`.
@_spi(ModelStoreGenerated) public enum AttributeOption: String, Hashable, Sendable {
    case unique
    case preserveValueOnDeletion
    case externalStorage
}

/// A stored attribute's details.
@_spi(ModelStoreGenerated) public struct AttributeMetadata: Sendable {
    /// The column type.
    public let columnType: SQLColumnType
    /// What the column holds (the column type of stores with more types than SQLite).
    public let storageType: StorageType
    /// Whether the value may be nil.
    public let isOptional: Bool
    /// `@Attribute` options.
    public let options: Set<AttributeOption>
    /// The name the property had in an earlier schema (renames migrate).
    public let originalName: String?
    /// A constant default (a literal default of the `.model` file), used to fill the column
    /// when a migration adds it.
    public let defaultValue: SQLValue?
    /// The Swift value type without optionality, as the stored schema records it (`Int32`,
    /// `String`, `[String]`, `enum(String)`; see `ValueTypeName`).
    public let valueType: String
    /// For an enum type: the raw values of its cases in declaration order (nil otherwise).
    public let enumCases: [SQLValue]?
    /// For a struct, an optional struct or an array of structs: its fields, as the stored schema
    /// records them (see `StructFields`); nil otherwise.
    let fields: [String]?
    /// The attribute's columns: one, or for a struct one per field (and first a presence column
    /// for an optional struct).
    let columns: [ColumnMetadata]
    /// Whether the type has a placeholder (else a fetch with `propertiesToFetch` always reads it).
    let hasPlaceholder: Bool
}

/// What happens to related models when a model is deleted (SwiftData's delete rules).
public enum DeleteRule: String, Hashable, Sendable, Codable {
    case cascade, nullify, deny, noAction
}

/// A relationship's details.
@_spi(ModelStoreGenerated) public struct RelationshipMetadata: Sendable {
    /// The destination class.
    public let destination: ModelObject.Type
    /// `[E]` (true) or `E?` (false).
    public let isToMany: Bool
    /// The delete rule.
    public let deleteRule: DeleteRule
    /// The inverse property on the destination, if any.
    public let inverse: String?
    /// `minimumModelCount:` (to-many; `save()` enforces it, docs/Runtime.md "Model counts").
    public let minimumModelCount: Int?
    /// `maximumModelCount:` (to-many; `save()` enforces it; 0 or nil: no maximum).
    public let maximumModelCount: Int?
    /// The name the property had in an earlier schema.
    public let originalName: String?
    /// `E?` or `[E]?` (an optional to-many may be empty whatever its `minimumModelCount`).
    let isOptional: Bool
    /// Tells observers of the property about reads and changes.
    let observe: ObservationHook
}

/// Calls the Observation registrar for one relationship key path on any model of its class.
struct ObservationHook: Sendable {
    let willAndDidSet: @Sendable (ModelObject, () -> Void) -> Void

    init<Root: ModelObject, Value>(_ keyPath: ReferenceWritableKeyPath<Root, Value> & Sendable) {
        willAndDidSet = { object, body in
            let root = unsafeDowncast(object, to: Root.self)
            root._$observationRegistrar.withMutation(of: root, keyPath: keyPath, body)
        }
    }
}

/// One column of a stored attribute: the attribute's own, or for a struct one per field (nested
/// structs flattened), with a presence column first for an optional struct (1, or NULL for nil).
struct ColumnMetadata: Sendable {
    /// The field names from the attribute to the column: empty for a plain attribute's column;
    /// for a presence column, the path of its struct (empty for the attribute's own struct).
    let path: [String]
    /// Whether the column holds a struct's presence rather than a value.
    let isPresence: Bool
    let columnType: SQLColumnType
    let storageType: StorageType
    /// Whether the column may be NULL (an optional value, or any column inside an optional struct).
    let isNullable: Bool
    /// The Swift type of the column's value, as `ValueTypeName` names it.
    let valueType: String
    /// For an enum: the raw values of its cases.
    let enumCases: [SQLValue]?
    /// The key paths of the fields from the attribute's struct to the column (`[\Theme.palette,
    /// \Palette.primary]`); empty for a plain attribute's column.
    let fieldPath: [AnyKeyPath & Sendable]
    /// The key path from the entity to the column's value (the attribute's for a plain attribute,
    /// the generated `fieldKeyPaths` entry for a struct's field); nil for a presence column.
    var keyPath: (AnyKeyPath & Sendable)?

    /// The columns of an attribute of type `Value` whose key path is `keyPath`; `fieldKeyPaths`
    /// are the full key paths of a struct's value columns, in column order.
    static func columns<Value: SQLStorable>(of type: Value.Type, fieldKeyPaths: [AnyKeyPath & Sendable],
                                            keyPath: AnyKeyPath & Sendable) -> [ColumnMetadata] {
        var columns: [ColumnMetadata] = []
        flatten(type, path: [], fieldPath: [], nullable: false, into: &columns)
        if Value._compositeType == nil {
            columns[0].keyPath = keyPath
        } else {
            var next = fieldKeyPaths.makeIterator()
            for index in columns.indices where !columns[index].isPresence {
                columns[index].keyPath = next.next()
            }
        }
        return columns
    }

    private static func flatten(_ type: any SQLStorable.Type, path: [String], fieldPath: [AnyKeyPath & Sendable], nullable: Bool,
                                into columns: inout [ColumnMetadata]) {
        guard let composite = type._compositeType else {
            columns.append(ColumnMetadata(path: path, isPresence: false, columnType: type.columnType, storageType: type.storageType,
                                          isNullable: nullable || type.isOptional, valueType: ValueTypeName.of(type),
                                          enumCases: ValueTypeName.enumCases(of: type), fieldPath: fieldPath, keyPath: nil))
            return
        }
        if type.isOptional {
            columns.append(ColumnMetadata(path: path, isPresence: true, columnType: .integer, storageType: .integer, isNullable: true,
                                          valueType: "Bool", enumCases: nil, fieldPath: fieldPath, keyPath: nil))
        }
        for field in composite._$fields {
            flatten(field.type, path: path + [field.name], fieldPath: fieldPath + [field.keyPath], nullable: nullable || type.isOptional,
                    into: &columns)
        }
    }
}
