import Foundation

/// Owns a store and its schema (SwiftData's `ModelContainer`). Sendable: share it between
/// tasks and give each task its own `ModelContext`.
public final class ModelContainer: Sendable {
    /// The entities the container stores.
    public let schema: Schema
    /// The store's configuration.
    public let configurations: [ModelConfiguration]
    /// Keeps an in-memory database alive while the container lives.
    private let keeper: ConnectionKeeper
    /// Serializes the saves of this container's contexts: SQLite has one writer at a time, and
    /// writers polling its busy handler can starve past the busy timeout ("database is locked").
    let writeLock = NSLock()
    /// The main actor's context, made on first use.
    private let mainContextBox = MainContextBox()

    /// The context bound to the main actor (SwiftData's `mainContext`), made on first use and
    /// kept as long as the container.
    @MainActor public var mainContext: ModelContext {
        if let context = mainContextBox.context { return context }
        let context = ModelContext(self, ownedByContainer: true)
        mainContextBox.context = context
        return context
    }

    /// A container for the given model types (and their bases and subclasses).
    public convenience init(for types: any PersistentModel.Type..., configurations: ModelConfiguration...) throws {
        try self.init(for: Schema(types), configurations: configurations)
    }

    /// A container for `schema`.
    public convenience init(for schema: Schema, configurations: ModelConfiguration...) throws {
        try self.init(for: schema, configurations: configurations)
    }

    /// A container for `schema` (only the first configuration is used).
    public init(for schema: Schema, configurations: [ModelConfiguration]) throws {
        guard schema.problems.isEmpty else { throw ModelStoreError.invalidSchema(schema.problems.joined(separator: "; ")) }
        let configuration = configurations.first ?? ModelConfiguration()
        self.schema = schema
        self.configurations = [configuration]
        let connection = try ModelContainer.openConnection(configuration)
        try StoreMigrator.prepare(connection, for: schema)
        keeper = ConnectionKeeper(configuration.isStoredInMemoryOnly ? connection : nil)
    }

    /// The configuration in use.
    var configuration: ModelConfiguration { configurations[0] }

    /// A new connection to the store (each context has its own).
    func makeConnection() throws -> Connection {
        try ModelContainer.openConnection(configuration)
    }

    private static func openConnection(_ configuration: ModelConfiguration) throws -> Connection {
        try Connection(path: configuration.openPath, isFile: !configuration.isStoredInMemoryOnly,
                       busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
    }
}

/// Holds the main context. Only read and written on the main actor.
private final class MainContextBox: @unchecked Sendable {
    @MainActor var context: ModelContext?
    nonisolated init() {}
}

/// Holds the connection that keeps an in-memory database alive. It is never used after
/// creation (only closed when the container goes away), so sharing it is safe.
private final class ConnectionKeeper: @unchecked Sendable {
    let connection: Connection?
    init(_ connection: Connection?) { self.connection = connection }
}
