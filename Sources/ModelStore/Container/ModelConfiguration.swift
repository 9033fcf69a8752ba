import Foundation

/// Where and how a container stores its models (SwiftData's `ModelConfiguration`).
///
/// The URL says which store: a `file:` URL is a SQLite file (created if missing); a
/// `postgresql://` or `postgres://` URL is a PostgreSQL database. A URL of any other scheme is
/// refused when the container opens (`ModelStoreError.unsupportedStoreURL`), never taken for a path.
public struct ModelConfiguration: Sendable, Hashable {
    /// The configuration's name (SwiftData's `name`): the one given, else `"default"`. A store made
    /// without a URL is `<name>.store` in the default folder (see `url`).
    public let name: String
    /// The schema the configuration is for, when one was given (the container's schema is used).
    public let schema: Schema?
    /// The store's location. Without one given: in memory, `/dev/null` (as SwiftData); otherwise
    /// `<name>.store` in `$XDG_DATA_HOME/<executable name>/`, or `~/.local/share/<executable
    /// name>/` when `XDG_DATA_HOME` is not set (the platform's place for an app's data, as
    /// SwiftData's is Application Support; docs/Runtime.md, "Configuration").
    public let url: URL
    /// Whether the store lives in memory only (gone when the container is released).
    public let isStoredInMemoryOnly: Bool
    /// Whether contexts may write to the store. When false the store is opened read-only (a SQLite
    /// file with `SQLITE_OPEN_READONLY`, PostgreSQL sessions with `default_transaction_read_only`):
    /// `save()` with changes throws `ModelStoreError.readOnlyStore` and writes nothing.
    public let allowsSave: Bool
    /// The app-group container to store in. Only `.automatic` and `.none` (no group) apply off Apple
    /// platforms: a named group makes the container throw `ModelStoreError.unsupportedConfiguration`.
    public let groupContainer: GroupContainer
    /// The CloudKit database to mirror to. Only `.automatic` and `.none` (no mirroring) apply off
    /// Apple platforms: a private database makes the container throw `ModelStoreError.unsupportedConfiguration`.
    public let cloudKitDatabase: CloudKitDatabase
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
    /// PostgreSQL only: where the container's contexts read (fetches, counts, enumerations,
    /// relationship loads, history): the primary, or the standbys of a multi-host URL, with
    /// read-your-writes (docs/Scaling.md). nil (the default): the URL's `read_from` option, else
    /// `.primary`. A context can choose otherwise (`ModelContext.readFrom`).
    public var readFrom: ReadSource?
    /// PostgreSQL only: the longest a read on a standby waits for it to replay the container's last
    /// save before it runs on the primary instead, in seconds (default 1; docs/Scaling.md).
    public var standbyCatchUpTimeout: TimeInterval = 1
    /// Called with each statement the container's stores run: its SQL (with placeholders), how long
    /// it took and how many rows it returned or changed (GRDB's `db.trace`; Core Data's `SQLDebug`
    /// is the environment variable `MODELSTORE_SQL_DEBUG`). On any thread that runs a statement;
    /// nil (the default) costs nothing. Not part of the configuration's equality. docs/Runtime.md,
    /// "Seeing the SQL".
    public var sqlTrace: (@Sendable (SQLTraceEvent) -> Void)?
    /// Whether `sqlTrace`'s events carry the values bound to each statement (default false: the
    /// values are the app's data, as GRDB's `publicStatementArguments`).
    public var sqlTraceIncludesValues = false
    /// A unique name for an in-memory store.
    let memoryName: String

    /// A configuration named `name` for `schema` (SwiftData's designated initializer): in memory,
    /// or in `<name>.store` in the default folder (see `url`).
    public init(_ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false, allowsSave: Bool = true,
                groupContainer: GroupContainer = .automatic, cloudKitDatabase: CloudKitDatabase = .automatic) {
        let name = name ?? "default"
        self.name = name
        self.schema = schema
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.allowsSave = allowsSave
        self.groupContainer = groupContainer
        self.cloudKitDatabase = cloudKitDatabase
        self.url = isStoredInMemoryOnly ? URL(fileURLWithPath: "/dev/null") : Self.defaultURL(name: name)
        self.memoryName = isStoredInMemoryOnly ? "/modelstore-" + UUID().uuidString : ""
    }

    /// A configuration named `name` for `schema` with the store at `url`: a SQLite file (`file:`
    /// URL, created if missing) or a PostgreSQL database (`postgresql:` URL).
    public init(_ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true,
                cloudKitDatabase: CloudKitDatabase = .automatic) {
        self.name = name ?? "default"
        self.schema = schema
        self.url = url
        self.isStoredInMemoryOnly = false
        self.allowsSave = allowsSave
        self.groupContainer = .automatic
        self.cloudKitDatabase = cloudKitDatabase
        self.memoryName = ""
    }

    /// A store in memory, or in `default.store` in the default folder (see `url`).
    public init(isStoredInMemoryOnly: Bool = false) {
        self.init(nil, schema: nil, isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    /// A configuration for the given model types (and their bases and subclasses).
    public init(for forTypes: any PersistentModel.Type..., isStoredInMemoryOnly: Bool = false) {
        self.init(nil, schema: Schema(forTypes), isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    /// Where a store named `name` goes when no URL is given: `$XDG_DATA_HOME/<executable>/<name>.store`,
    /// else `~/.local/share/<executable>/<name>.store` (the XDG Base Directory convention).
    static func defaultURL(name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            base = URL(fileURLWithPath: data, isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
        }
        return base.appendingPathComponent(ProcessInfo.processInfo.processName, isDirectory: true)
            .appendingPathComponent(name + ".store", isDirectory: false)
    }

    /// Where reads go on a PostgreSQL cluster (docs/Scaling.md, "Read routing"); the URL option
    /// `read_from` spells them `primary`, `standby`, `prefer-standby`.
    public enum ReadSource: String, Sendable, Hashable {
        /// Every read on the primary, where saves go (the default).
        case primary
        /// Reads on a standby that has replayed the container's saves, else on the primary; no
        /// reachable standby is an error.
        case standby
        /// As `.standby`, but reads run on the primary when no standby can be reached.
        case preferStandby = "prefer-standby"
    }

    /// App-group containers (SwiftData's `ModelConfiguration.GroupContainer`).
    public struct GroupContainer: Sendable, Hashable {
        let identifier: String?
        /// The app's group container when it has one; off Apple platforms there is none.
        public static let automatic = GroupContainer(identifier: nil)
        /// No group container.
        public static let none = GroupContainer(identifier: nil)
        /// The group container `groupName`: refused off Apple platforms (`ModelStoreError.unsupportedConfiguration`).
        public static func identifier(_ groupName: String) -> GroupContainer { GroupContainer(identifier: groupName) }
    }

    /// CloudKit databases (SwiftData's `ModelConfiguration.CloudKitDatabase`).
    public struct CloudKitDatabase: Sendable, Hashable {
        let containerIdentifier: String?
        /// The app's CloudKit container when its entitlements name one; off Apple platforms there is none.
        public static let automatic = CloudKitDatabase(containerIdentifier: nil)
        /// No CloudKit mirroring.
        public static let none = CloudKitDatabase(containerIdentifier: nil)
        /// The private database of `containerIdentifier`: refused off Apple platforms (`ModelStoreError.unsupportedConfiguration`).
        public static func `private`(_ containerIdentifier: String) -> CloudKitDatabase { CloudKitDatabase(containerIdentifier: containerIdentifier) }
    }

    /// Throws for what a configuration asks for that cannot apply here.
    func checkSupported() throws {
        if let group = groupContainer.identifier {
            throw ModelStoreError.unsupportedConfiguration(
                "groupContainer: .identifier(\"\(group)\"): app-group containers exist only on Apple platforms; give the store's url instead")
        }
        if let container = cloudKitDatabase.containerIdentifier {
            throw ModelStoreError.unsupportedConfiguration(
                "cloudKitDatabase: .private(\"\(container)\"): CloudKit exists only on Apple platforms; use .none or .automatic")
        }
    }

    public static func == (lhs: ModelConfiguration, rhs: ModelConfiguration) -> Bool {
        lhs.name == rhs.name && lhs.schema.map(ObjectIdentifier.init) == rhs.schema.map(ObjectIdentifier.init) && lhs.url == rhs.url
            && lhs.isStoredInMemoryOnly == rhs.isStoredInMemoryOnly && lhs.allowsSave == rhs.allowsSave
            && lhs.groupContainer == rhs.groupContainer && lhs.cloudKitDatabase == rhs.cloudKitDatabase
            && lhs.busyTimeoutMilliseconds == rhs.busyTimeoutMilliseconds && lhs.maximumConnections == rhs.maximumConnections
            && lhs.recordsHistory == rhs.recordsHistory && lhs.memoryName == rhs.memoryName
            && lhs.readFrom == rhs.readFrom && lhs.standbyCatchUpTimeout == rhs.standbyCatchUpTimeout
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(url)
        hasher.combine(memoryName)
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
