/// The identity of a model: its store, its entity and its row once saved (SwiftData's
/// `PersistentIdentifier`). A model not yet saved has a temporary identifier; it becomes
/// permanent at `save()`. A permanent identifier names its store (`storeIdentifier`), so it finds
/// nothing in another store of the same schema (docs/Runtime.md, "Identifiers").
///
/// 24 bytes: the store and entity names in one object shared by the identifiers of an entity's
/// models in a context (`IdentifierNames`, `ModelHome.names`), the key and whether it is
/// temporary; `didSave` lists one per saved model (it was 56 bytes with both names' strings
/// inline, docs/Benchmarks.md, "Writes"). Equality, hashing and the `Codable` form are by value,
/// as when the names were fields of their own.
public struct PersistentIdentifier: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The store's and the entity's names.
    let names: IdentifierNames
    /// The row's primary key, or (temporary) the temporary number's bits.
    private let key: Int64
    /// Whether the identifier is temporary (the model is not saved yet).
    public let isTemporary: Bool

    /// The identifier of the store the model is saved in (a UUID the store records in its
    /// `"$metadata"` table); nil for a temporary identifier, for one decoded from an encoding made
    /// before identifiers named their store, and for models of a read-only store written before.
    public var storeIdentifier: String? { names.store }
    /// The entity (class) name of the model.
    public var entityName: String { names.entityName }
    /// The row's primary key, once saved.
    public var rowID: Int64? { isTemporary ? nil : key }
    /// For a temporary identifier: a number unique among live unsaved models (0 for a permanent one).
    var temporaryNumber: UInt { isTemporary ? UInt(UInt64(bitPattern: key)) : 0 }

    init(names: IdentifierNames, rowID: Int64) {
        self.names = names
        self.key = rowID
        self.isTemporary = false
    }

    init(entityName: String, rowID: Int64, store: String?) {
        self.init(names: IdentifierNames(store: store, entityName: entityName), rowID: rowID)
    }

    init(entityName: String, temporaryNumber: UInt) {
        self.names = IdentifierNames(store: nil, entityName: entityName)
        self.key = Int64(bitPattern: UInt64(temporaryNumber))
        self.isTemporary = true
    }

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

    public static func == (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        guard lhs.key == rhs.key, lhs.isTemporary == rhs.isTemporary else { return false }
        return lhs.names === rhs.names || (lhs.names.entityName == rhs.names.entityName && lhs.names.store == rhs.names.store)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storeIdentifier)
        hasher.combine(entityName)
        hasher.combine(key)
        hasher.combine(isTemporary)
    }

    // The encoding is the one the four stored properties this type had gave (synthesized).
    private enum CodingKeys: String, CodingKey {
        case storeIdentifier, entityName, rowID, temporaryNumber
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let store = try container.decodeIfPresent(String.self, forKey: .storeIdentifier)
        let entityName = try container.decode(String.self, forKey: .entityName)
        let rowID = try container.decodeIfPresent(Int64.self, forKey: .rowID)
        let temporaryNumber = try container.decode(UInt.self, forKey: .temporaryNumber)
        names = IdentifierNames(store: store, entityName: entityName)
        if let rowID {
            key = rowID
            isTemporary = false
            // Only a permanent identifier has a key, and only a temporary one a number: no
            // identifier encodes both.
            if temporaryNumber != 0 {
                throw DecodingError.dataCorruptedError(forKey: .temporaryNumber, in: container,
                                                       debugDescription: "a permanent identifier with a temporary number")
            }
        } else {
            key = Int64(bitPattern: UInt64(temporaryNumber))
            isTemporary = true
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(storeIdentifier, forKey: .storeIdentifier)
        try container.encode(entityName, forKey: .entityName)
        try container.encodeIfPresent(rowID, forKey: .rowID)
        try container.encode(temporaryNumber, forKey: .temporaryNumber)
    }
}

/// The store's and the entity's names of identifiers (`PersistentIdentifier.names`), one object
/// shared by the identifiers a context makes for an entity's models (`ModelHome.names`).
final class IdentifierNames: Sendable {
    let store: String?
    let entityName: String

    init(store: String?, entityName: String) {
        self.store = store
        self.entityName = entityName
    }
}
