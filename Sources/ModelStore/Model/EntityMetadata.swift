/// What generated code declares about one entity: its name, its place in the hierarchy and its
/// own stored properties. `Schema` resolves tables, columns and inverses from it.
public struct EntityMetadata: Sendable {
    /// The entity (and class) name; also the value of the row's type column.
    public let name: String
    /// The base class, for a subclass.
    public let base: ModelObject.Type?
    /// Direct subclasses (only a base has them: the hierarchy is flat).
    public let subclasses: [ModelObject.Type]
    /// The entity's own stored properties in declaration order (not the base's, not transient ones).
    /// Attributes come in the order `_encode(to:)` writes them.
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

    /// Creates entity metadata (called by generated code only).
    public init(name: String, base: ModelObject.Type?, subclasses: [ModelObject.Type],
                properties: [PropertyMetadata], uniqueConstraints: [[String]] = [], indexes: [[String]] = [],
                inheritedKeyPaths: [InheritedKeyPath] = [], originalName: String? = nil) {
        self.inheritedKeyPaths = inheritedKeyPaths
        self.originalName = originalName
        self.name = name
        self.base = base
        self.subclasses = subclasses
        self.properties = properties
        self.uniqueConstraints = uniqueConstraints
        self.indexes = indexes
    }
}

/// A base property's key path rooted at a subclass.
public struct InheritedKeyPath: Sendable {
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
public struct PropertyMetadata: Sendable {
    /// The property name.
    public let name: String
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

    /// A stored attribute (a value column).
    public static func attribute<Root: ModelObject, Value: SQLStorable>(
        _ name: String, _ keyPath: KeyPath<Root, Value> & Sendable, _ options: AttributeOption...,
        originalName: String? = nil, defaultValue: Value? = nil
    ) -> PropertyMetadata {
        PropertyMetadata(name: name, keyPath: keyPath, kind: .attribute(AttributeMetadata(
            columnType: Value.columnType, storageType: Value.storageType, isOptional: Value.isOptional, options: Set(options),
            originalName: originalName, defaultValue: defaultValue?.sqlValue,
            valueType: ValueTypeName.of(Value.self), enumCases: ValueTypeName.enumCases(of: Value.self))))
    }

    /// A to-one relationship (`Target?`).
    public static func toOne<Root: ModelObject, Target: ModelObject>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Root, Target?> & Sendable,
        deleteRule: DeleteRule = .nullify, inverse: String? = nil, originalName: String? = nil
    ) -> PropertyMetadata {
        PropertyMetadata(name: name, keyPath: keyPath, kind: .relationship(RelationshipMetadata(
            destination: Target.self, isToMany: false, deleteRule: deleteRule, inverse: inverse,
            minimumModelCount: nil, maximumModelCount: nil, originalName: originalName,
            observe: ObservationHook(keyPath))))
    }

    /// A to-many relationship (`[Target]`).
    public static func toMany<Root: ModelObject, Target: ModelObject>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Root, [Target]> & Sendable,
        deleteRule: DeleteRule = .nullify, inverse: String? = nil,
        minimumModelCount: Int? = nil, maximumModelCount: Int? = nil, originalName: String? = nil
    ) -> PropertyMetadata {
        PropertyMetadata(name: name, keyPath: keyPath, kind: .relationship(RelationshipMetadata(
            destination: Target.self, isToMany: true, deleteRule: deleteRule, inverse: inverse,
            minimumModelCount: minimumModelCount, maximumModelCount: maximumModelCount,
            originalName: originalName, observe: ObservationHook(keyPath))))
    }
}

/// Options of `@Attribute`.
public enum AttributeOption: String, Hashable, Sendable {
    case unique
    case preserveValueOnDeletion
    case externalStorage
}

/// A stored attribute's column details.
public struct AttributeMetadata: Sendable {
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
}

/// What happens to related models when a model is deleted (SwiftData's delete rules).
public enum DeleteRule: String, Hashable, Sendable, Codable {
    case cascade, nullify, deny, noAction
}

/// A relationship's details.
public struct RelationshipMetadata: Sendable {
    /// The destination class.
    public let destination: ModelObject.Type
    /// `[E]` (true) or `E?` (false).
    public let isToMany: Bool
    /// The delete rule.
    public let deleteRule: DeleteRule
    /// The inverse property on the destination, if any.
    public let inverse: String?
    /// `minimumModelCount:` (kept, not enforced).
    public let minimumModelCount: Int?
    /// `maximumModelCount:` (kept, not enforced).
    public let maximumModelCount: Int?
    /// The name the property had in an earlier schema.
    public let originalName: String?
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
