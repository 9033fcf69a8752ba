import Foundation

/// Where and how a container stores its models (SwiftData's `ModelConfiguration`).
public struct ModelConfiguration: Sendable, Hashable {
    /// The store file (nil when in memory).
    public let url: URL?
    /// Whether the store lives in memory only (gone when the container is released).
    public let isStoredInMemoryOnly: Bool
    /// How long a connection waits for another writer before failing, in milliseconds.
    public var busyTimeoutMilliseconds: Int32 = 5000
    /// Whether saves through this configuration record persistent history (default true, as in
    /// SwiftData): `fetchHistory` reads it, and deleted models' `preserveValueOnDeletion` values
    /// live only there. Turn it off only for a store nobody reads history from.
    public var recordsHistory = true
    /// A unique name for an in-memory store.
    let memoryName: String

    /// A store in the file at `url` (created if missing).
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

    /// The path given to `sqlite3_open_v2`: the file, or a shared in-memory database (memdb VFS).
    var openPath: String {
        if isStoredInMemoryOnly { return "file:\(memoryName)?vfs=memdb" }
        return url?.path ?? "default.store"
    }
}
