import Observation

/// A class whose instances are stored by a `ModelContainer` (SwiftData's `PersistentModel`).
///
/// Generated classes derive from the runtime's base class, `ModelObject`, which implements every
/// requirement except `Identifiable.id`: a generated base class declares the conformance, with the
/// model's declared `id` attribute, or else `id` as its `persistentModelID` (SwiftData's default).
/// Its subclasses inherit both.
public protocol PersistentModel: AnyObject, Observable, Hashable, Identifiable {
    /// The model's identity (temporary until saved).
    var persistentModelID: PersistentIdentifier { get }
    /// The context the model is registered with, if any.
    var modelContext: ModelContext? { get }
    /// Whether the model was deleted from its context.
    var isDeleted: Bool { get }
    /// Whether the model has unsaved changes.
    var hasChanges: Bool { get }
    /// The generated metadata of the entity (a hook of generated code, not API).
    @_spi(ModelStoreGenerated) static var schemaMetadata: EntityMetadata { get }
    /// Creates a model from a stored row (a hook of generated code, not API).
    @_spi(ModelStoreGenerated) init(from row: RowDecoder) throws
    /// The model as the runtime's base class (a hook of generated code, not API).
    @_spi(ModelStoreGenerated) var _$modelObject: ModelObject { get }
}
