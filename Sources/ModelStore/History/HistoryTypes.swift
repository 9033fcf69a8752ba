import Foundation

// Persistent history with SwiftData's types and names: a store's transactions, in commit order,
// each with its changes. `ModelContext.fetchHistory` and `deleteHistory` read and trim it.

/// A bookmark in a store's history (SwiftData's `HistoryToken`): tokens compare in commit order
/// and are `Codable`, so an app can persist the last one it processed.
public protocol HistoryToken: Comparable, Codable, Hashable, Identifiable, Sendable {
    associatedtype TokenType: Codable, Hashable, Sendable
    /// The store the token belongs to.
    var storeIdentifier: String { get }
    /// The token's value in its store.
    var tokenValue: TokenType? { get }
}

/// The token of a transaction in a ModelStore store (SwiftData's `DefaultHistoryToken`).
/// Tokens of one store grow with every saved transaction and are never reused. Tokens of
/// different stores order by value first, then by store identifier.
public struct DefaultHistoryToken: HistoryToken {
    /// The identifier of the store (a UUID made when the store first recorded history).
    public let storeIdentifier: String
    /// The position of the transaction in the store's history.
    let value: Int64

    /// The position of the transaction in the store's history.
    public var tokenValue: Int64? { value }
    /// The token's value.
    public var id: Int64 { value }

    init(storeIdentifier: String, value: Int64) {
        self.storeIdentifier = storeIdentifier
        self.value = value
    }

    public static func < (lhs: DefaultHistoryToken, rhs: DefaultHistoryToken) -> Bool {
        (lhs.value, lhs.storeIdentifier) < (rhs.value, rhs.storeIdentifier)
    }
}

/// A saved transaction of a store's history (SwiftData's `HistoryTransaction`).
public protocol HistoryTransaction: Hashable, Identifiable, Sendable {
    associatedtype TokenType: Comparable, Hashable, Identifiable, Sendable
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The `author` of the context that saved it.
    var author: String? { get }
    /// Its inserts, updates and deletes, in the order the save wrote them.
    var changes: [HistoryChange] { get }
    /// The store it was saved to.
    var storeIdentifier: String { get }
    /// When it was saved.
    var timestamp: Date { get }
    /// Its bookmark.
    var token: TokenType { get }
    /// Its identifier in the store.
    var transactionIdentifier: TransactionIdentifier { get }
}

/// One `save()` as history records it (SwiftData's `DefaultHistoryTransaction`).
public struct DefaultHistoryTransaction: HistoryTransaction {
    public typealias TokenType = DefaultHistoryToken
    public typealias TransactionIdentifier = Int64

    /// The store it was saved to.
    public let storeIdentifier: String
    /// The writing process's bundle identifier, or its name where there is no bundle (Linux).
    public let bundleIdentifier: String
    /// The writing process's identifier (pid), as text.
    public let processIdentifier: String
    /// The transaction's number in the store (the token's value).
    public let transactionIdentifier: Int64
    /// Its bookmark: `$0.token > lastToken` fetches what came after.
    public let token: DefaultHistoryToken
    /// The saving context's `author`.
    public let author: String?
    /// Its inserts, updates and deletes, in the order the save wrote them.
    public let changes: [HistoryChange]
    /// When it was saved.
    public let timestamp: Date

    /// The transaction's number in the store.
    public var id: Int64 { transactionIdentifier }

    public static func == (lhs: DefaultHistoryTransaction, rhs: DefaultHistoryTransaction) -> Bool {
        lhs.token == rhs.token
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(token)
    }
}

/// One change of a transaction (SwiftData's `HistoryChange`). Each case holds a
/// `DefaultHistoryInsert<M>`, `DefaultHistoryUpdate<M>` or `DefaultHistoryDelete<M>` whose `M` is
/// the changed row's own class (a `BusinessTrip` row's change is a `…<BusinessTrip>`):
///
/// ```swift
/// switch change {
/// case .insert(let insert as DefaultHistoryInsert<Trip>): …
/// case .update(let update as DefaultHistoryUpdate<Trip>): update.updatedAttributes …
/// case .delete(let delete as DefaultHistoryDelete<Trip>): delete.tombstone[\.identifier] …
/// default: break
/// }
/// ```
public enum HistoryChange: Sendable {
    case insert(any HistoryInsert)
    case update(any HistoryUpdate)
    case delete(any HistoryDelete)

    /// The identifier of the changed model (of the deleted model, for a delete).
    public var changedPersistentIdentifier: PersistentIdentifier {
        switch self {
        case .insert(let insert): return insert.changedPersistentIdentifier
        case .update(let update): return update.changedPersistentIdentifier
        case .delete(let delete): return delete.changedPersistentIdentifier
        }
    }
}

/// An inserted model (SwiftData's `HistoryInsert`).
public protocol HistoryInsert<Model>: Sendable {
    associatedtype Model: PersistentModel
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The change's identifier (unique in the store, ordered like the changes).
    var changeIdentifier: ChangeIdentifier { get }
    /// The inserted model's identifier.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The identifier of the transaction it belongs to.
    var transactionIdentifier: TransactionIdentifier { get }
}

/// A changed model and which of its properties changed (SwiftData's `HistoryUpdate`).
public protocol HistoryUpdate<Model>: Sendable {
    associatedtype Model: PersistentModel
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    typealias PropertyUpdate = PartialKeyPath<Model> & Sendable
    /// The change's identifier (unique in the store, ordered like the changes).
    var changeIdentifier: ChangeIdentifier { get }
    /// The changed model's identifier.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The identifier of the transaction it belongs to.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The properties whose stored value changed: attributes, and to-one relationships whose
    /// key changed; many-to-many relationships whose links changed.
    var updatedAttributes: [any PartialKeyPath<Model> & Sendable] { get }
}

/// A deleted model and its preserved values (SwiftData's `HistoryDelete`).
public protocol HistoryDelete<Model>: Sendable {
    associatedtype Model: PersistentModel
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The change's identifier (unique in the store, ordered like the changes).
    var changeIdentifier: ChangeIdentifier { get }
    /// The deleted model's identifier.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The identifier of the transaction it belongs to.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The values of its `@Attribute(.preserveValueOnDeletion)` properties when it was deleted.
    var tombstone: HistoryTombstone<Model> { get }
}

/// Where a change is in the store's history: its transaction, then its position there.
public struct DefaultHistoryChangeIdentifier: Comparable, Hashable, Sendable, Codable {
    /// The transaction's identifier (its token's value).
    public let transactionIdentifier: Int64
    /// The position of the change in its transaction.
    public let index: Int64

    public static func < (lhs: DefaultHistoryChangeIdentifier, rhs: DefaultHistoryChangeIdentifier) -> Bool {
        (lhs.transactionIdentifier, lhs.index) < (rhs.transactionIdentifier, rhs.index)
    }
}

/// An inserted model (SwiftData's `DefaultHistoryInsert`).
public struct DefaultHistoryInsert<Model: PersistentModel>: HistoryInsert, Hashable {
    public let changeIdentifier: DefaultHistoryChangeIdentifier
    public let changedPersistentIdentifier: PersistentIdentifier
    public var transactionIdentifier: Int64 { changeIdentifier.transactionIdentifier }
}

/// A changed model (SwiftData's `DefaultHistoryUpdate`).
public struct DefaultHistoryUpdate<Model: PersistentModel>: HistoryUpdate, Hashable {
    public let changeIdentifier: DefaultHistoryChangeIdentifier
    public let changedPersistentIdentifier: PersistentIdentifier
    public var transactionIdentifier: Int64 { changeIdentifier.transactionIdentifier }
    /// The changed properties, as key paths on `Model`.
    public let updatedAttributes: [any PartialKeyPath<Model> & Sendable]

    public static func == (lhs: DefaultHistoryUpdate, rhs: DefaultHistoryUpdate) -> Bool {
        lhs.changeIdentifier == rhs.changeIdentifier && lhs.changedPersistentIdentifier == rhs.changedPersistentIdentifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(changeIdentifier)
        hasher.combine(changedPersistentIdentifier)
    }
}

/// A deleted model (SwiftData's `DefaultHistoryDelete`).
public struct DefaultHistoryDelete<Model: PersistentModel>: HistoryDelete, Hashable {
    public let changeIdentifier: DefaultHistoryChangeIdentifier
    public let changedPersistentIdentifier: PersistentIdentifier
    public var transactionIdentifier: Int64 { changeIdentifier.transactionIdentifier }
    /// Its preserved values.
    public let tombstone: HistoryTombstone<Model>

    public static func == (lhs: DefaultHistoryDelete, rhs: DefaultHistoryDelete) -> Bool {
        lhs.changeIdentifier == rhs.changeIdentifier && lhs.changedPersistentIdentifier == rhs.changedPersistentIdentifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(changeIdentifier)
        hasher.combine(changedPersistentIdentifier)
    }
}

/// What remains of a deleted model (SwiftData's `HistoryTombstone`): the values its
/// `@Attribute(.preserveValueOnDeletion)` properties had, read by key path
/// (`tombstone[\.identifier] as? UUID`) or iterated.
public struct HistoryTombstone<Model: PersistentModel>: Sendable, Sequence {
    public typealias Element = (keyPath: any PartialKeyPath<Model> & Sendable, value: any Sendable)

    /// The preserved values by property name, as stored.
    let storedValues: [(name: String, value: SQLValue)]
    let keys: ModelPropertyKeys

    /// The preserved value of the property at `keyPath` (its Swift type: `UUID`, `String`, an
    /// optional…), nil when the property was not preserved or its stored value no longer fits it.
    public subscript(keyPath: PartialKeyPath<Model>) -> (any Sendable)? {
        guard let name = keys.name(of: keyPath), let stored = storedValues.first(where: { $0.name == name }) else { return nil }
        return ModelPropertyKeys.value(stored.value, as: type(of: keyPath).valueType)
    }

    /// Every preserved value whose property the model type still has.
    public func makeIterator() -> IndexingIterator<[Element]> {
        var elements: [Element] = []
        for (name, stored) in storedValues {
            guard let keyPath = keys.keyPath(named: name, in: Model.self),
                  let value = ModelPropertyKeys.value(stored, as: type(of: keyPath).valueType) else { continue }
            elements.append((keyPath, value))
        }
        return elements.makeIterator()
    }
}

/// SwiftData's spellings of the history types, as Apple's sample code writes them
/// (`History.DefaultToken`, `History.HistoryDescriptor<History.DefaultTransaction>`, …).
public enum History {
    public typealias DefaultToken = DefaultHistoryToken
    public typealias DefaultTransaction = DefaultHistoryTransaction
    public typealias HistoryDescriptor<TransactionType: HistoryTransaction> = ModelStore.HistoryDescriptor<TransactionType>
    public typealias DefaultInsertChange<Model: PersistentModel> = DefaultHistoryInsert<Model>
    public typealias DefaultUpdateChange<Model: PersistentModel> = DefaultHistoryUpdate<Model>
    public typealias DefaultDeleteChange<Model: PersistentModel> = DefaultHistoryDelete<Model>
    public typealias Tombstone<Model: PersistentModel> = HistoryTombstone<Model>
}

/// The stored properties of a model class by name, each with its key path rooted at that class
/// (its own properties', and its base's through the generated `inheritedKeyPaths`).
struct ModelPropertyKeys: Sendable {
    private let keyPaths: [(name: String, keyPath: AnyKeyPath & Sendable)]

    init(_ type: ModelObject.Type) {
        let metadata = type.schemaMetadata
        keyPaths = metadata.properties.map { ($0.name, $0.keyPath) } + metadata.inheritedKeyPaths.map { ($0.name, $0.keyPath) }
    }

    /// The property whose key path is `keyPath`.
    func name(of keyPath: AnyKeyPath) -> String? {
        keyPaths.first { $0.keyPath == keyPath }?.name
    }

    /// The key path of the property `name`, typed for `Model`.
    func keyPath<Model>(named name: String, in model: Model.Type) -> (any PartialKeyPath<Model> & Sendable)? {
        guard let keyPath = keyPaths.first(where: { $0.name == name })?.keyPath as? PartialKeyPath<Model> else { return nil }
        // Key paths of generated models are immutable and their roots are classes: what the
        // metadata declares `AnyKeyPath & Sendable` stays Sendable typed as `PartialKeyPath<Model>`
        // (a marker protocol cannot be cast to, and adds nothing to the reference's layout).
        return unsafeBitCast(keyPath, to: (any PartialKeyPath<Model> & Sendable).self)
    }

    /// A stored value as the Swift type `type` (nil when it does not fit).
    static func value(_ stored: SQLValue, as type: Any.Type) -> (any Sendable)? {
        guard let storable = type as? any SQLStorable.Type, let value = storable.init(sqlValue: stored) else { return nil }
        // Every `SQLStorable` type of the `.model` language is a Sendable value type (numbers,
        // strings, dates, UUIDs, data, URLs, decimals, generated enums, arrays and optionals of
        // them); `Any` and `any Sendable` have the same layout (a marker protocol has no witness).
        let any: Any = value
        let sendable: any Sendable = withUnsafePointer(to: any) { $0.withMemoryRebound(to: (any Sendable).self, capacity: 1) { $0.pointee } }
        return sendable
    }
}
