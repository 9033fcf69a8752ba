import Foundation

/// The identity of a model: its store, its entity and its row once saved (SwiftData's
/// `PersistentIdentifier`). A model not yet saved has a temporary identifier; it becomes
/// permanent at `save()`. A permanent identifier names its store (`storeIdentifier`), so it finds
/// nothing in another store of the same schema (docs/Runtime.md, "Identifiers").
///
/// 24 bytes and a plain value: the store and entity names in one object the process keeps for the
/// pair (`IdentifierNames`, interned, never freed, referred to without counting), the key and
/// whether it is temporary. Making, copying and dropping an identifier retain and release nothing:
/// `didSave` lists one per saved model (it was 56 bytes with both names' strings inline, then 24
/// with a counted reference to names shared per context, docs/Benchmarks.md, "Writes"; the
/// decision: docs/Runtime.md, "Identifiers"). Equality, hashing and the `Codable` form are by
/// value, as when the names were fields of their own.
public struct PersistentIdentifier: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The store's and the entity's names: the pair's interned object, alive as long as the
    /// process (`IdentifierNames.interned`), so the reference is not counted. `Unmanaged`, not
    /// `unowned(unsafe)`: reading such a field makes a counted reference (a retain and a release),
    /// reading this one does not.
    let namesReference: Unmanaged<IdentifierNames>
    /// The row's primary key, or (temporary) the temporary number's bits.
    private let key: Int64
    /// Whether the identifier is temporary (the model is not saved yet).
    public let isTemporary: Bool

    /// The identifier of the store the model is saved in (a UUID the store records in its
    /// `"$metadata"` table); nil for a temporary identifier, for one decoded from an encoding made
    /// before identifiers named their store, and for models of a read-only store written before.
    public var storeIdentifier: String? { namesReference._withUnsafeGuaranteedRef { $0.store } }
    /// The entity (class) name of the model.
    public var entityName: String { namesReference._withUnsafeGuaranteedRef { $0.entityName } }
    /// The store's and the entity's names.
    var names: IdentifierNames { namesReference.takeUnretainedValue() }
    /// The row's primary key, once saved.
    public var rowID: Int64? { isTemporary ? nil : key }
    /// For a temporary identifier: a number unique among live unsaved models (0 for a permanent one).
    var temporaryNumber: UInt { isTemporary ? UInt(UInt64(bitPattern: key)) : 0 }

    init(names: Unmanaged<IdentifierNames>, rowID: Int64) {
        namesReference = names
        self.key = rowID
        self.isTemporary = false
    }

    init(names: IdentifierNames, rowID: Int64) {
        self.init(names: .passUnretained(names), rowID: rowID)
    }

    init(entityName: String, rowID: Int64, store: String?) {
        self.init(names: IdentifierNames.interned(store: store, entityName: entityName), rowID: rowID)
    }

    /// A temporary identifier; `names` has no store.
    init(names: Unmanaged<IdentifierNames>, temporaryNumber: UInt) {
        namesReference = names
        self.key = Int64(bitPattern: UInt64(temporaryNumber))
        self.isTemporary = true
    }

    init(entityName: String, temporaryNumber: UInt) {
        self.init(names: .passUnretained(IdentifierNames.interned(store: nil, entityName: entityName)), temporaryNumber: temporaryNumber)
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
        // One object per spelling of a pair: names equal as strings but spelled otherwise
        // (canonically equivalent Unicode) are two objects, and compare equal, as strings do.
        return lhs.namesReference.toOpaque() == rhs.namesReference.toOpaque()
            || (lhs.entityName == rhs.entityName && lhs.storeIdentifier == rhs.storeIdentifier)
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
        namesReference = .passUnretained(IdentifierNames.interned(store: store, entityName: entityName))
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

/// The store's and the entity's names of identifiers (`PersistentIdentifier.names`): one object
/// per pair, as spelled, for the whole process (`interned`), never freed, so identifiers refer to
/// it without counting references and stay valid after every container is gone
/// (docs/Runtime.md, "Identifiers").
final class IdentifierNames: Sendable {
    let store: String?
    let entityName: String

    private init(store: String?, entityName: String) {
        self.store = store
        self.entityName = entityName
    }

    /// The pair's object: the one made at the pair's first use in the process. A pair spelled
    /// otherwise (canonically equivalent Unicode, equal as strings) has its own, so an identifier
    /// gives back the strings it was made or decoded with. Takes a lock and hashes both strings:
    /// callers that make many identifiers keep the object (`ModelHome.names`).
    static func interned(store: String?, entityName: String) -> IdentifierNames {
        table.intern(store: store, entityName: entityName)
    }

    private static let table = InternTable()

    /// The interned objects, by pair as spelled.
    private final class InternTable: @unchecked Sendable {
        /// A pair, equal to another spelled with the same bytes (not as strings: canonically
        /// equivalent spellings are two pairs).
        struct Spelling: Hashable {
            let store: String?
            let entityName: String

            static func == (lhs: Spelling, rhs: Spelling) -> Bool {
                guard lhs.entityName.utf8.elementsEqual(rhs.entityName.utf8) else { return false }
                guard let left = lhs.store, let right = rhs.store else { return lhs.store == nil && rhs.store == nil }
                return left.utf8.elementsEqual(right.utf8)
            }

            func hash(into hasher: inout Hasher) {
                Self.combine(entityName, into: &hasher)
                hasher.combine(store != nil)
                if let store { Self.combine(store, into: &hasher) }
            }

            private static func combine(_ string: String, into hasher: inout Hasher) {
                hasher.combine(string.utf8.count)
                let hashed: Void? = string.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
                if hashed == nil {
                    for byte in string.utf8 { hasher.combine(byte) }
                }
            }
        }

        private let lock = NSLock()
        private var entries: [Spelling: IdentifierNames] = [:]

        func intern(store: String?, entityName: String) -> IdentifierNames {
            let spelling = Spelling(store: store, entityName: entityName)
            lock.lock()
            defer { lock.unlock() }
            if let names = entries[spelling] { return names }
            let made = IdentifierNames(store: store, entityName: entityName)
            entries[spelling] = made
            return made
        }
    }
}
