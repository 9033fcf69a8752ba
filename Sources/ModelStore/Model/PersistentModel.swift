import Observation

/// A class whose instances are stored by a `ModelContainer` (SwiftData's `PersistentModel`).
/// Generated classes conform through their runtime base class, `ModelObject`.
public protocol PersistentModel: AnyObject, Observable, Hashable, Identifiable {
    /// The model's identity (temporary until saved).
    var persistentModelID: PersistentIdentifier { get }
    /// The context the model is registered with, if any.
    var modelContext: ModelContext? { get }
    /// Whether the model was deleted from its context.
    var isDeleted: Bool { get }
    /// Whether the model has unsaved changes.
    var hasChanges: Bool { get }
    /// The generated metadata of the entity.
    static var schemaMetadata: EntityMetadata { get }
    /// Creates a model from a stored row (generated).
    init(from row: RowDecoder) throws
    /// The model as the runtime's base class.
    var _$modelObject: ModelObject { get }
}

/// The compile-time version check (as swift-protobuf does): generated code declares a type
/// conforming to `ModelStoreAPIVersionCheck` whose `Version` conforms to the protocol of the API
/// version it was generated for. A runtime that drops a version makes such code fail to compile.
public protocol ModelStoreAPIVersion_1 {}

/// See `ModelStoreAPIVersion_1`.
public protocol ModelStoreAPIVersionCheck {
    associatedtype Version: ModelStoreAPIVersion_1
}
