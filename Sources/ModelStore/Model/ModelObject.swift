import Observation

/// The runtime base class of every generated model class. It carries the model's identity,
/// its context and the bookkeeping of change tracking; generated subclasses add the stored
/// properties and the typed row reading and writing (`init(from:)`, `_decode(from:)`, `_encode(to:)`).
open class ModelObject: PersistentModel {
    /// The Observation registrar generated accessors call (`access` / `withMutation`). Its storage
    /// is made on the first `access` (a fetched model that is never read by an observer costs one
    /// allocation less); a change before any `access` has no observer to tell.
    public final var _$observationRegistrar: LazyObservationRegistrar { LazyObservationRegistrar(owner: self) }

    /// The registrar, once some property was read through `_$observationRegistrar.access`.
    final var registrar: ObservationRegistrar?

    /// Where the model stands with its context.
    enum Status {
        /// Not registered with any context.
        case detached
        /// Inserted, not saved yet.
        case inserted
        /// Saved in the store (registered with a context).
        case persisted
        /// Deleted, pending save.
        case deleted
        /// Deleted and saved: gone from the store.
        case removed
    }

    final var status: Status = .detached
    /// The context's shared link (a weak reference to the context, one per context).
    final var link: ContextLink?
    /// The resolved entity, once registered.
    final var entity: EntitySchema?
    /// The row's primary key, once saved.
    final var rowID: Int64?
    /// Whether saved values were changed since the last save.
    final var isDirty = false
    /// Whether in-memory relationships changed since the last save.
    final var relationshipsChanged = false
    /// The last saved row values (attributes, then to-one keys), taken at the first change.
    final var snapshot: [SQLValue]?
    /// Relationship values by slot (base relationships first, then the entity's own); empty until
    /// a relationship is first set or read (a slot past the end is `.unloaded`).
    final var slots: ContiguousArray<RelationshipSlot> = []

    /// Creates a new, unsaved model (called by generated initializers).
    public init() {}

    /// Creates a model from a stored row (generated subclasses read their attributes, then call this).
    public required init(from row: RowDecoder) throws {
        status = .persisted
    }

    /// The generated metadata of the entity (overridden by every generated class).
    open class var schemaMetadata: EntityMetadata {
        fatalError("ModelObject subclasses must override schemaMetadata")
    }

    /// Writes the stored attributes, the entity's own first, then the base's (generated).
    open func _encode(to row: RowEncoder) {}

    /// Reads the stored attributes, the entity's own first, then the base's (generated).
    open func _decode(from row: RowDecoder) throws {}

    // MARK: PersistentModel

    /// The model itself, as the runtime base class.
    public final var _$modelObject: ModelObject { self }

    /// The model's identity: temporary until saved, then its entity and row key.
    public final var persistentModelID: PersistentIdentifier {
        let name = entity?.name ?? type(of: self).schemaMetadata.name
        if let rowID { return PersistentIdentifier(entityName: name, rowID: rowID) }
        return PersistentIdentifier(entityName: name, temporaryNumber: UInt(bitPattern: ObjectIdentifier(self)))
    }

    /// `Identifiable`: the persistent identifier, as in SwiftData.
    public final var id: PersistentIdentifier { persistentModelID }

    /// The context the model is registered with (nil when detached or deleted and saved).
    public final var modelContext: ModelContext? {
        switch status {
        case .detached, .removed: return nil
        default: return link?.context
        }
    }

    /// Whether the model was deleted (pending save, or saved).
    public final var isDeleted: Bool { status == .deleted || status == .removed }

    /// Whether the model is inserted, deleted or changed and not saved yet.
    public final var hasChanges: Bool {
        switch status {
        case .inserted, .deleted: return true
        case .persisted: return isDirty || relationshipsChanged
        case .detached, .removed: return false
        }
    }

    /// Models are equal when they are the same instance (one instance per row per context).
    public static func == (lhs: ModelObject, rhs: ModelObject) -> Bool { lhs === rhs }

    /// Hashes the instance's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    // MARK: Generated accessors' entry points

    /// Called by generated attribute setters before they change a value: records the saved
    /// values (for `rollback()`) and marks the model changed.
    public final func _$willChange() {
        guard status == .persisted, !isDirty, let link, let context = link.context else { return }
        context.markDirty(self)
    }

    /// The to-one relationship at `slot` (generated getters).
    public final func _$toOne<Target: ModelObject>(_ slot: Int) -> Target? {
        guard let object = RelationshipGraph.toOne(of: self, slot: slot) else { return nil }
        return object as? Target
    }

    /// Sets the to-one relationship at `slot` and its inverse (generated setters).
    public final func _$setToOne<Target: ModelObject>(_ value: Target?, _ slot: Int) {
        RelationshipGraph.setToOne(of: self, slot: slot, to: value)
    }

    /// The to-many relationship at `slot`, loaded on first access (generated getters).
    public final func _$toMany<Target: ModelObject>(_ slot: Int) -> [Target] {
        RelationshipGraph.toMany(of: self, slot: slot).compactMap { $0 as? Target }
    }

    /// Sets the to-many relationship at `slot` and its inverses (generated setters).
    public final func _$setToMany<Target: ModelObject>(_ value: [Target], _ slot: Int) {
        RelationshipGraph.setToMany(of: self, slot: slot, to: value)
    }
}

/// A relationship's value in memory.
enum RelationshipSlot {
    /// Nothing loaded: a new model's empty relationship, or a saved model's to-many not yet loaded.
    case unloaded
    /// A saved to-one value not yet resolved: the related row's key (nil for none).
    case key(Int64?)
    /// A resolved to-one value.
    case object(ModelObject?)
    /// A loaded to-many value.
    case objects([ModelObject])
}

/// One per context: models point to it, it points weakly to the context (one weak reference
/// per context instead of one per model).
final class ContextLink {
    weak var context: ModelContext?
    init(_ context: ModelContext) { self.context = context }
}
