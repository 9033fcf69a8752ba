/// The identity of a model: its entity and its row once saved (SwiftData's `PersistentIdentifier`).
/// A model not yet saved has a temporary identifier; it becomes permanent at `save()`.
public struct PersistentIdentifier: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The entity (class) name of the model.
    public let entityName: String
    /// The row's primary key, once saved.
    public let rowID: Int64?
    /// For a temporary identifier: a number unique among live unsaved models.
    let temporaryNumber: UInt

    init(entityName: String, rowID: Int64) {
        self.entityName = entityName
        self.rowID = rowID
        self.temporaryNumber = 0
    }

    init(entityName: String, temporaryNumber: UInt) {
        self.entityName = entityName
        self.rowID = nil
        self.temporaryNumber = temporaryNumber
    }

    /// Whether the identifier is temporary (the model is not saved yet).
    public var isTemporary: Bool { rowID == nil }

    public var description: String {
        if let rowID { return "\(entityName)/\(rowID)" }
        return "\(entityName)/temporary-\(temporaryNumber)"
    }
}
