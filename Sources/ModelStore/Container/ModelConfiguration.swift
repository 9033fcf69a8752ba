import Foundation

/// Where and how a container stores its models (SwiftData's `ModelConfiguration`).
///
/// The URL says which store: a `file:` URL is a SQLite file (created if missing); a
/// `postgresql://` or `postgres://` URL is a PostgreSQL database. A URL of any other scheme is
/// refused when the container opens (`ModelStoreError.unsupportedStoreURL`), never taken for a path.
public struct ModelConfiguration: Sendable, Hashable {
    /// The store's location (nil when in memory).
    public let url: URL?
    /// Whether the store lives in memory only (gone when the container is released).
    public let isStoredInMemoryOnly: Bool
    /// SQLite: how long a connection waits for another process's writer before failing, in
    /// milliseconds. (PostgreSQL waits for the rows another transaction writes itself.)
    public var busyTimeoutMilliseconds: Int32 = 5000
    /// PostgreSQL only: the most server connections the container opens at once (its pool, shared
    /// by its contexts: a context holds one only while it runs a statement or a save; one finding
    /// all of them busy waits up to 30 seconds, then its call throws).
    public var maximumConnections = 4
    /// Whether saves through this configuration record persistent history (default true, as in
    /// SwiftData): `fetchHistory` reads it, and deleted models' `preserveValueOnDeletion` values
    /// live only there. Turn it off only for a store nobody reads history from.
    public var recordsHistory = true
    /// A unique name for an in-memory store.
    let memoryName: String

    /// A store at `url`: a SQLite file (`file:` URL) or a PostgreSQL database (`postgresql:` URL).
    public init(url: URL) {
        self.url = url
        self.isStoredInMemoryOnly = false
        self.memoryName = ""
    }

    /// A store in memory, or in `default.store` in the current directory.
    public init(isStoredInMemoryOnly: Bool = false) {
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.url = isStoredInMemoryOnly ? nil : URL(fileURLWithPath: "default.store")
        self.memoryName = isStoredInMemoryOnly ? "/modelstore-" + UUID().uuidString : ""
    }

    /// The kind of store the configuration names.
    enum StoreLocation {
        /// A SQLite database: a file path, or a `file:` URI of the memdb VFS (in memory).
        case sqlite(path: String, isFile: Bool)
        /// A PostgreSQL database.
        case postgresql(URL)
    }

    /// The store the configuration names.
    ///
    /// - Throws: `ModelStoreError.unsupportedStoreURL` for a URL whose scheme is not `file`,
    ///   `postgresql` or `postgres`.
    func location() throws -> StoreLocation {
        if isStoredInMemoryOnly { return .sqlite(path: "file:\(memoryName)?vfs=memdb", isFile: false) }
        guard let url else { return .sqlite(path: "default.store", isFile: true) }
        switch url.scheme?.lowercased() {
        case "file":
            return .sqlite(path: url.path, isFile: true)
        case "postgresql", "postgres":
            return .postgresql(url)
        case let scheme:
            throw ModelStoreError.unsupportedStoreURL(scheme: scheme ?? "", url: redactingPassword(url.absoluteString))
        }
    }
}
