/// The set of entities a container stores (SwiftData's `Schema`), resolved into tables,
/// columns, relationships and SQL. Listing a base brings its subclasses; listing a subclass
/// brings its base.
public final class Schema: @unchecked Sendable {
    /// Every entity, each base followed by its subclasses, in listing order.
    public let entities: [EntitySchema]
    /// The storage the schema needs (the fingerprint written into the store).
    let storage: StoredSchema
    /// The number of hierarchies (tables of entities).
    let hierarchyCount: Int
    /// Inconsistencies found in the generated metadata (a container refuses such a schema).
    let problems: [String]
    private let entitiesByType: [ObjectIdentifier: EntitySchema]
    /// The class of each of `entities`, in order: a schema of few entities finds a class's entity
    /// by comparing these, which costs less than hashing (`insert` asks once per model).
    private let entityTypes: [ObjectIdentifier]
    /// The version, for the schema of a `VersionedSchema` (`Schema(versionedSchema:)`).
    var version: Version?
    private let entitiesByName: [String: EntitySchema]
    /// The `.model` files the entities were generated from, each once, in entity order: what the
    /// store records under `"$metadata"` key `model` (`modelgen pull`, docs/CommandLine.md).
    let modelSources: [ModelSourceFile]
    /// The to-many relationships with a `minimumModelCount` or `maximumModelCount`, each once
    /// (by its declaring entity): what `save()` checks (docs/Runtime.md, "Model counts").
    let countedRelationships: [RelationshipSchema]

    /// A schema of the given model types (and their bases and subclasses).
    public convenience init(_ types: any PersistentModel.Type...) {
        self.init(types)
    }

    /// A schema of the given model types (and their bases and subclasses).
    public init(_ types: [any PersistentModel.Type]) {
        var builder = SchemaBuilder()
        for type in types { builder.add(type) }
        builder.resolve()
        entities = builder.entities
        storage = builder.storage
        problems = builder.problems
        hierarchyCount = builder.hierarchyCount
        entitiesByType = Dictionary(entities.map { (ObjectIdentifier($0.type), $0) }, uniquingKeysWith: { first, _ in first })
        entityTypes = entities.map { ObjectIdentifier($0.type) }
        entitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var sources: [ModelSourceFile] = []
        for entity in entities {
            if let source = entity.type.schemaMetadata.modelSource, !sources.contains(source) { sources.append(source) }
        }
        modelSources = sources
        countedRelationships = entities.flatMap { entity in
            entity.relationships.filter { $0.entityName == entity.name && $0.limitsModelCount }
        }
    }

    /// The resolved entity of a model class.
    public func entity(for type: ModelObject.Type) -> EntitySchema? {
        let id = ObjectIdentifier(type)
        guard entityTypes.count <= Self.entitiesFoundByScan else { return entitiesByType[id] }
        // The first entity of the class, as the dictionary keeps.
        for index in entityTypes.indices where entityTypes[index] == id { return entities[index] }
        return nil
    }

    /// Up to how many entities `entity(for:)` compares classes instead of hashing one.
    static let entitiesFoundByScan = 16

    /// The resolved entity of a model class, or an error naming it.
    func requireEntity(for type: ModelObject.Type) throws -> EntitySchema {
        guard let entity = entitiesByType[ObjectIdentifier(type)] else { throw missingEntityError(for: type) }
        return entity
    }

    /// Why `type` has no entity here: an error naming it, or, when an entity of its name is here with
    /// another class (a version's class where the container has the current one), naming both
    /// classes and the schema's version.
    func missingEntityError(for type: ModelObject.Type) -> ModelStoreError {
        let name = type.schemaMetadata.name
        if let entity = entitiesByName[name], entity.type != type {
            return .entityClassMismatch(entity: name, modelClass: String(reflecting: type), schemaClass: String(reflecting: entity.type),
                                        version: version.map { "\($0)" })
        }
        return .unknownEntity(String(describing: type))
    }

    /// The resolved entity named `name`.
    public func entity(named name: String) -> EntitySchema? {
        entitiesByName[name]
    }
}

/// Names the runtime gives to its own columns and tables (never a valid model identifier).
enum StorageNames {
    /// The primary key column of every entity table.
    public static let primaryKey = "$pk"
    /// The type column (the row's entity name).
    public static let type = "$type"
    /// Join-table column holding the key of the side that names the table.
    public static let source = "$source"
    /// Join-table column holding the key of the other side.
    public static let target = "$target"
    /// The table holding the schema fingerprint.
    public static let metadataTable = "$metadata"

    /// The column of a property: its name for a root entity, `Entity.name` for a subclass
    /// (sibling subclasses may declare the same name).
    static func column(property: String, entity: String, isRoot: Bool) -> String {
        isRoot ? property : entity + "." + property
    }
}
