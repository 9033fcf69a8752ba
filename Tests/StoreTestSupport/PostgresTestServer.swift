import Foundation
import ModelStore

/// The PostgreSQL server the tests of one test process share.
///
/// When `MODELSTORE_TEST_POSTGRES_URL` is set, that server is used (its user must be allowed to
/// create databases) and nothing is started. Otherwise the first use starts a throwaway server:
///
/// - `initdb` into a new folder `/tmp/modelstore-pg-XXXXXX` (fsync off, trust authentication on the
///   socket, but scram passwords for members of `modelstore_password_auth`), as a non-root user when
///   the tests run as root (PostgreSQL refuses root): `MODELSTORE_TEST_POSTGRES_RUN_AS`, else the
///   `postgres` user Debian's package creates, else `nobody`;
/// - `postgres` listening only on a Unix socket in that folder (`listen_addresses = ''`), started by a
///   small watchdog shell in a session of its own, which stops the server (immediate shutdown) and
///   removes the folder as soon as the test process is gone, however it ended (normal exit, crash,
///   `kill -9`);
/// - at a normal exit an `atexit` hook stops the server and waits for the folder to go;
/// - folders left by a test process that no longer runs (the watchdog itself killed) are cleaned up
///   at the next start.
///
/// The server binaries come from `MODELSTORE_TEST_POSTGRES_BIN` (a folder), else the newest
/// `/usr/lib/postgresql/*/bin` (Debian), else `initdb` on the `PATH`.
public final class PostgresTestServer: Sendable {
    /// The superuser's URL, database `postgres`.
    package let url: PostgresURL
    /// Whether this process started the server (false: the server of MODELSTORE_TEST_POSTGRES_URL).
    public let isThrowaway: Bool
    /// The throwaway server's folder (data, socket, log), nil for a given server.
    public let folder: String?
    /// Seconds the throwaway server took to start (initdb + start + first connection); 0 for a given one.
    public let startSeconds: Double

    /// The role group whose members log in with a password on the throwaway server.
    public static let passwordGroup = "modelstore_password_auth"

    private static let startResult: Result<PostgresTestServer, PostgresTestServerError> = Result { () throws(PostgresTestServerError) in try start() }

    /// The server, started on first use.
    /// - Throws: `PostgresTestServerError` when it cannot be started or reached.
    public static func shared() throws -> PostgresTestServer {
        try startResult.get()
    }

    init(url: PostgresURL, isThrowaway: Bool, folder: String?, startSeconds: Double) {
        self.url = url
        self.isThrowaway = isThrowaway
        self.folder = folder
        self.startSeconds = startSeconds
    }

    /// A new empty database for one test, dropped when the returned object is released.
    /// - Throws: `PostgresError` when it cannot be created.
    public func makeDatabase() throws -> PostgresTestDatabase {
        let name = "modelstore_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let admin = try PostgresConnection(url: url)
        // FILE_COPY (PostgreSQL 15+) copies the small template faster than WAL_LOG, the default.
        let strategy = admin.serverVersion >= 150_000 ? " STRATEGY = FILE_COPY" : ""
        try admin.execute("CREATE DATABASE \(SQLQuote.identifier(name)) TEMPLATE template0 ENCODING 'UTF8'\(strategy)")
        var databaseURL = url
        databaseURL.database = name
        databaseURL.options["dbname"] = nil
        return PostgresTestDatabase(name: name, url: databaseURL, server: self)
    }

    /// An open connection as the superuser to the `postgres` database.
    /// - Throws: `PostgresError`.
    package func adminConnection() throws -> PostgresConnection {
        try PostgresConnection(url: url)
    }

    // MARK: Starting

    private static func start() throws(PostgresTestServerError) -> PostgresTestServer {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["MODELSTORE_TEST_POSTGRES_URL"], !given.isEmpty {
            do {
                let url = try PostgresURL(given)
                _ = try PostgresConnection(url: url)
                return PostgresTestServer(url: url, isThrowaway: false, folder: nil, startSeconds: 0)
            } catch {
                throw PostgresTestServerError("MODELSTORE_TEST_POSTGRES_URL cannot be used: \(error)")
            }
        }
        let started = Date()
        let binaries = try findBinaries(environment)
        ThrowawayCluster.removeStale()
        let cluster = try ThrowawayCluster.create(binaries: binaries, runAs: try runUser(environment))
        let url = PostgresURL(user: "postgres", database: "postgres", options: ["host": cluster.folder])
        do {
            try cluster.waitUntilReady(url: url)
            let admin = try PostgresConnection(url: url)
            try admin.execute("CREATE ROLE \(passwordGroup) NOLOGIN")
        } catch let error as PostgresTestServerError {
            throw error
        } catch {
            throw PostgresTestServerError("the throwaway server in \(cluster.folder) does not answer: \(error)\n\(cluster.logTail())")
        }
        return PostgresTestServer(url: url, isThrowaway: true, folder: cluster.folder, startSeconds: Date().timeIntervalSince(started))
    }

    static func findBinaries(_ environment: [String: String]) throws(PostgresTestServerError) -> String {
        let fileManager = FileManager.default
        if let folder = environment["MODELSTORE_TEST_POSTGRES_BIN"] {
            guard fileManager.isExecutableFile(atPath: folder + "/initdb") else {
                throw PostgresTestServerError("MODELSTORE_TEST_POSTGRES_BIN=\(folder) holds no initdb")
            }
            return folder
        }
        let debian = "/usr/lib/postgresql"
        let versions = ((try? fileManager.contentsOfDirectory(atPath: debian)) ?? []).compactMap(Int.init).sorted(by: >)
        for version in versions where fileManager.isExecutableFile(atPath: "\(debian)/\(version)/bin/initdb") {
            return "\(debian)/\(version)/bin"
        }
        for folder in (environment["PATH"] ?? "").split(separator: ":") where fileManager.isExecutableFile(atPath: "\(folder)/initdb") {
            return String(folder)
        }
        throw PostgresTestServerError("""
            no PostgreSQL server found (initdb, postgres): install Debian's postgresql package \
            (.ci/run does), set MODELSTORE_TEST_POSTGRES_BIN to their folder, or set \
            MODELSTORE_TEST_POSTGRES_URL to a server's URL
            """)
    }

    /// The user the server runs as when the tests run as root; nil when they do not.
    static func runUser(_ environment: [String: String]) throws(PostgresTestServerError) -> (uid: uid_t, gid: gid_t)? {
        guard geteuid() == 0 else { return nil }
        let candidates = environment["MODELSTORE_TEST_POSTGRES_RUN_AS"].map { [$0] } ?? ["postgres", "nobody"]
        for name in candidates {
            if let entry = getpwnam(name), entry.pointee.pw_uid != 0 {
                return (entry.pointee.pw_uid, entry.pointee.pw_gid)
            }
        }
        throw PostgresTestServerError("the tests run as root, which PostgreSQL refuses, and none of the users \(candidates.joined(separator: ", ")) exists to run it: set MODELSTORE_TEST_POSTGRES_RUN_AS")
    }
}

/// A database of its own for one test on the shared server; dropped when released.
public final class PostgresTestDatabase: Sendable {
    /// The database's name.
    public let name: String
    /// Its URL (as the superuser).
    package let url: PostgresURL
    /// The server it is on.
    public let server: PostgresTestServer

    init(name: String, url: PostgresURL, server: PostgresTestServer) {
        self.name = name
        self.url = url
        self.server = server
    }

    /// Its URL as `ModelConfiguration(url:)` takes it, with the password of the server's URL (if
    /// any) in it, unlike `url.description`; nil if it cannot be spelled as a URL. Never print it.
    public var storeURL: URL? {
        var text = url.description
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        if let password = url.password?.addingPercentEncoding(withAllowedCharacters: allowed) {
            text = text.replacingOccurrences(of: ":***@", with: ":\(password)@")
        }
        if let password = url.options["password"]?.addingPercentEncoding(withAllowedCharacters: allowed) {
            text = text.replacingOccurrences(of: "password=***", with: "password=\(password)")
        }
        return URL(string: text)
    }

    /// A new connection to it.
    /// - Throws: `PostgresError`.
    package func connect() throws -> PostgresConnection {
        try PostgresConnection(url: url)
    }

    /// Ends server backend `pid` (`pg_terminate_backend`, as an administrator or a server restart
    /// would) and waits until the server has let it go.
    /// - Throws: `PostgresError`, or `PostgresTestServerError` when there is no such backend or it
    ///   is still there after 5 seconds.
    public func terminateBackend(_ pid: Int32) throws {
        let admin = try server.adminConnection()
        guard try admin.rows("SELECT pg_terminate_backend(?::int4)", [.integer(Int64(pid))]) == [[.integer(1)]] else {
            throw PostgresTestServerError("no backend \(pid) to terminate")
        }
        for _ in 0..<500 {
            if try admin.rows("SELECT count(*) FROM pg_stat_activity WHERE pid = ?::int4", [.integer(Int64(pid))]) == [[.integer(0)]] { return }
            usleep(10_000)
        }
        throw PostgresTestServerError("backend \(pid) still runs 5 seconds after pg_terminate_backend")
    }

    deinit {
        // FORCE (PostgreSQL 13+) ends the sessions a test left open.
        if let admin = try? server.adminConnection() {
            let force = admin.serverVersion >= 130_000 ? " WITH (FORCE)" : ""
            try? admin.execute("DROP DATABASE IF EXISTS \(SQLQuote.identifier(name))\(force)")
        }
    }
}

/// Why the test server cannot be used.
public struct PostgresTestServerError: Error, CustomStringConvertible, Sendable {
    public var description: String

    init(_ description: String) { self.description = description }
}
