/// The identity of a model: its store, its entity and its row once saved (SwiftData's
/// `PersistentIdentifier`). A model not yet saved has a temporary identifier; it becomes
/// permanent at `save()`. A permanent identifier names its store (`storeIdentifier`), so it finds
/// nothing in another store of the same schema (docs/Runtime.md, "Identifiers").
public struct PersistentIdentifier: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The identifier of the store the model is saved in (a UUID the store records in its
    /// `"$metadata"` table); nil for a temporary identifier, for one decoded from an encoding made
    /// before identifiers named their store, and for models of a read-only store written before.
    public let storeIdentifier: String?
    /// The entity (class) name of the model.
    public let entityName: String
    /// The row's primary key, once saved.
    public let rowID: Int64?
    /// For a temporary identifier: a number unique among live unsaved models.
    let temporaryNumber: UInt

    init(entityName: String, rowID: Int64, store: String?) {
        self.storeIdentifier = store
        self.entityName = entityName
        self.rowID = rowID
        self.temporaryNumber = 0
    }

    init(entityName: String, temporaryNumber: UInt) {
        self.storeIdentifier = nil
        self.entityName = entityName
        self.rowID = nil
        self.temporaryNumber = temporaryNumber
    }

    /// Whether the identifier is temporary (the model is not saved yet).
    public var isTemporary: Bool { rowID == nil }

    /// Whether the identifier can name a row of the store `store`: it names that store, or no
    /// store at all (an encoding made before identifiers named their store). `model(for:)` and
    /// `registeredModel(for:)` accept both; predicates compare identifiers exactly.
    func canName(rowOf store: String?) -> Bool {
        storeIdentifier == nil || storeIdentifier == store
    }

    public var description: String {
        if let rowID { return "\(entityName)/\(rowID)" }
        return "\(entityName)/temporary-\(temporaryNumber)"
    }
}
