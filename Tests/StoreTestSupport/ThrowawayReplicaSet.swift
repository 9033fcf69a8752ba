import Foundation
import Glibc
import ModelStore

/// A primary and streaming-replication standbys for one test, each in a temporary folder of its own
/// (`/tmp/modelstore-pg-XXXXXX`, its Unix socket in it), as `PostgresTestServer` starts one server:
///
/// - node 0 is made with `initdb`, the standbys with `pg_basebackup -R` from it (streaming
///   replication, `standby.signal`, `primary_conninfo` in `postgresql.auto.conf`); each node's
///   `cluster_name` is `node<i>`, the name a standby gives the primary (`synchronous_standby_names`);
/// - every node runs under the watchdog of `ThrowawayCluster`: it is stopped (immediate shutdown)
///   and its folder removed when the test process is gone, however it ended; an `atexit` hook and
///   `remove()` (also on release) do it at a normal end; folders of dead test processes are removed
///   at the next start;
/// - a test can stop (`stop`), kill (`kill`: SIGKILL to the server and all its processes, a machine
///   that died) and promote (`promote`) a node, and delay a standby's replay (`setApplyDelay`:
///   `recovery_min_apply_delay`, deterministic lag).
///
/// Settings: `Options.durable` decides per test. Off (routing, lag and read tests): `fsync`,
/// `full_page_writes` and `synchronous_commit` off, which makes start-up and writes fast. On (the
/// failover test): all three on, as a production server runs, since that test claims that no
/// acknowledged save is lost and must not rely on a setting that trades durability for speed.
/// The set is always made with them off (initdb, base backups, `Options.databases`: 20 s instead of
/// 4 on this machine's shared disk), then a durable set turns them on on every node (reload) and
/// flushes the files written so far (`sync()`) before the test starts.
public final class ThrowawayReplicaSet: @unchecked Sendable {
    /// How the set is made.
    public struct Options: Sendable {
        /// The number of standbys (nodes 1…standbys).
        public var standbys: Int
        /// `fsync`, `full_page_writes` and `synchronous_commit` on (see the type's comment).
        public var durable: Bool
        /// The node the primary names in `synchronous_standby_names` (commits wait until it has
        /// flushed them); nil: asynchronous replication.
        public var synchronousStandby: Int?
        /// `recovery_min_apply_delay` in milliseconds per standby node index.
        public var applyDelayMilliseconds: [Int: Int]
        /// Databases created on the primary (and replicated) before the set is handed over.
        public var databases: [String]

        public init(standbys: Int = 2, durable: Bool = false, synchronousStandby: Int? = nil, applyDelayMilliseconds: [Int: Int] = [:],
                    databases: [String] = []) {
            self.standbys = standbys
            self.durable = durable
            self.synchronousStandby = synchronousStandby
            self.applyDelayMilliseconds = applyDelayMilliseconds
            self.databases = databases
        }
    }

    /// One server of the set.
    public final class Node: @unchecked Sendable {
        /// 0 for the first primary, 1… for the standbys made from it.
        public let index: Int
        /// Its folder: `data/`, the socket, `postgres.log`, `owner`.
        public let folder: String
        /// Its `cluster_name`, the application name its WAL receiver gives the primary.
        public var name: String { "node\(index)" }

        init(index: Int, folder: String) {
            self.index = index
            self.folder = folder
        }

        /// The superuser's URL to `database` on this node alone.
        package func url(database: String = "postgres") -> PostgresURL {
            PostgresURL(user: "postgres", database: database, options: ["host": folder])
        }

        /// A new connection as the superuser.
        /// - Throws: `PostgresError`.
        package func connect(database: String = "postgres") throws -> PostgresConnection {
            try PostgresConnection(url: url(database: database), connectTimeout: 2)
        }

        /// The server's process id, while it runs.
        public var serverPID: pid_t? {
            guard let pid = ThrowawayCluster.pid(inFile: folder + "/data/postmaster.pid"), Glibc.kill(pid, 0) == 0 else { return nil }
            return pid
        }

        /// Whether the server runs.
        public var isRunning: Bool { serverPID != nil }

        /// Whether it is a standby now (`pg_is_in_recovery()`).
        /// - Throws: `PostgresError` when it cannot be reached.
        public func isStandby() throws -> Bool {
            try connect().rows("SELECT pg_is_in_recovery()") == [[.integer(1)]]
        }

        /// The last lines of its log.
        public func logTail() -> String { ThrowawayCluster(folder: folder).logTail() }
    }

    /// The nodes: node 0 the first primary, then the standbys.
    public let nodes: [Node]
    /// How it was made.
    public let options: Options
    /// Seconds the whole set took to start.
    public let startSeconds: Double

    private let binaries: String
    private let runAs: (uid: uid_t, gid: gid_t)?

    /// The folders the `atexit` hook removes (every set of the process).
    private static let liveFolders = LockedValue<Set<String>>([])
    private static let registerExitHook: Void = { atexit { ThrowawayReplicaSet.removeAllAtExit() } }()

    /// Starts a primary and `options.standbys` standbys, and waits until every standby streams
    /// (and the synchronous one, if any, is `sync`).
    /// - Throws: `PostgresTestServerError` (with the failing node's log) when a node cannot be made
    ///   or started within 30 seconds.
    public init(_ options: Options = Options()) throws {
        let started = Date()
        let environment = ProcessInfo.processInfo.environment
        binaries = try PostgresTestServer.findBinaries(environment)
        runAs = try PostgresTestServer.runUser(environment)
        self.options = options
        ThrowawayCluster.removeStale()
        _ = Self.registerExitHook
        var made: [Node] = []
        do {
            let primary = try Self.makeFolder(index: 0, runAs: runAs)
            made.append(primary)
            try Self.initialize(primary, binaries: binaries, runAs: runAs)
            try Self.start(primary, binaries: binaries, runAs: runAs, options: options)
            for index in stride(from: 1, through: options.standbys, by: 1) {
                let standby = try Self.makeFolder(index: index, runAs: runAs)
                made.append(standby)
                try Self.cloneStandby(standby, from: primary, binaries: binaries, runAs: runAs, options: options)
                try Self.start(standby, binaries: binaries, runAs: runAs, options: options)
            }
            nodes = made
            startSeconds = Date().timeIntervalSince(started)
            try waitForStreaming()
            for database in options.databases { try createDatabase(database) }
            if options.durable { try makeDurable() }
        } catch let error as PostgresTestServerError {
            made.forEach(Self.remove)
            throw error
        } catch {
            made.forEach(Self.remove)
            throw PostgresTestServerError("cannot set up the replica set: \(error)")
        }
    }

    deinit {
        remove()
    }

    /// Stops every node and removes the folders.
    public func remove() {
        nodes.forEach(Self.remove)
    }

    // MARK: URLs and databases

    /// The store URL of `database` over every node, libpq's multi-host form with the socket
    /// folders in the query: `postgresql:///db?host=/tmp/a,/tmp/b,/tmp/c&user=postgres&…` plus
    /// `query` (e.g. `target_session_attrs=read-write&read_from=standby`). `nodes` picks and orders
    /// the hosts (all of them by default).
    public func storeURL(database: String, query: String = "", nodes chosen: [Int]? = nil) -> URL {
        let hosts = (chosen ?? nodes.map(\.index)).map { nodes[$0].folder }.joined(separator: ",")
        let extra = query.isEmpty ? "" : "&" + query
        return URL(string: "postgresql:///\(database)?host=\(hosts)&user=postgres\(extra)")!
    }

    /// Creates database `name` on `primary` and waits until every running standby has it
    /// (a standby with an apply delay takes that long).
    /// - Throws: `PostgresError`, or `PostgresTestServerError` when a standby does not have it in 30 s.
    public func createDatabase(_ name: String, on primary: Int = 0) throws {
        try nodes[primary].connect().execute("CREATE DATABASE \(SQLQuote.identifier(name)) TEMPLATE template0 ENCODING 'UTF8'")
        for node in nodes where node.index != primary && node.isRunning {
            let deadline = Date(timeIntervalSinceNow: 30)
            while (try? node.connect(database: name)) == nil {
                guard Date() < deadline else { throw PostgresTestServerError("standby \(node.name) has no database \(name) after 30 s:\n\(node.logTail())") }
                usleep(20_000)
            }
        }
    }

    /// Waits until every running standby has replayed what `primary` has written so far.
    /// - Throws: `PostgresTestServerError` after `timeout` seconds.
    public func waitForReplay(from primary: Int = 0, timeout: TimeInterval = 30) throws {
        let connection = try nodes[primary].connect()
        // A record of its own: the function returns its end, a position a standby's replay reaches exactly.
        guard case .text(let target) = try connection.rows("SELECT pg_logical_emit_message(false, 'modelstore-test', 'sync')::text")[0][0] else { return }
        for node in nodes where node.index != primary && node.isRunning {
            let standby = try node.connect()
            let deadline = Date(timeIntervalSinceNow: timeout)
            while try standby.rows("SELECT pg_last_wal_replay_lsn() >= ?::pg_lsn", [.text(target)]) != [[.integer(1)]] {
                guard Date() < deadline else { throw PostgresTestServerError("standby \(node.name) did not replay up to \(target) in \(timeout) s") }
                usleep(5_000)
            }
        }
    }

    // MARK: Failures and promotion

    /// Stops `node` as an immediate shutdown does (SIGQUIT: no checkpoint, clients cut off) and
    /// waits until it is gone.
    public func stop(_ node: Int) {
        guard let pid = nodes[node].serverPID else { return }
        ThrowawayCluster.stop(pid)
        waitUntilGone(nodes[node])
    }

    /// Kills `node` as a machine that died: SIGKILL to the server and every one of its processes
    /// at once (no shutdown, no goodbye to clients; over a Unix socket they see the connection close).
    public func kill(_ node: Int) {
        guard let pid = nodes[node].serverPID else { return }
        let children = Self.children(of: pid)
        Glibc.kill(pid, SIGKILL)
        for child in children { Glibc.kill(child, SIGKILL) }
        waitUntilGone(nodes[node])
    }

    /// Promotes standby `node` to primary (`pg_promote`, waiting until it accepts writes).
    /// - Throws: `PostgresError`, or `PostgresTestServerError` when it did not finish in 30 s.
    public func promote(_ node: Int) throws {
        let connection = try nodes[node].connect()
        guard try connection.rows("SELECT pg_promote(true, 30)") == [[.integer(1)]] else {
            throw PostgresTestServerError("\(nodes[node].name) was not promoted within 30 s:\n\(nodes[node].logTail())")
        }
    }

    /// Sets `recovery_min_apply_delay` of standby `node` (0: none) and waits until it is in force.
    /// - Throws: `PostgresError` or a file error.
    public func setApplyDelay(_ node: Int, milliseconds: Int) throws {
        try setSetting(node, "recovery_min_apply_delay", "\(milliseconds)ms", shown: milliseconds == 0 ? "0" : "\(milliseconds)ms")
    }

    /// Sets a setting a reload changes (`max_standby_streaming_delay`, `hot_standby_feedback` …) on
    /// `node`, in its `postgresql.auto.conf`, and waits until it is in force: until `SHOW` gives
    /// `shown` (by default `value`).
    /// - Throws: `PostgresError`, a file error, or `PostgresTestServerError` when it is not in force 10 s after the reload.
    public func setSetting(_ node: Int, _ key: String, _ value: String, shown: String? = nil) throws {
        try Self.setAutoConf(nodes[node], key, "'\(value)'")
        let connection = try nodes[node].connect()
        _ = try connection.rows("SELECT pg_reload_conf()")
        let expected = shown ?? value
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline {
            // A new session reads the reloaded file for sure.
            if try nodes[node].connect().rows("SHOW \(key)") == [[.text(expected)]] { return }
            usleep(10_000)
        }
        throw PostgresTestServerError("\(key) of \(nodes[node].name) is not \(expected) 10 s after a reload")
    }

    // MARK: Making the nodes

    private static func makeFolder(index: Int, runAs: (uid: uid_t, gid: gid_t)?) throws -> Node {
        var template = Array("\(ThrowawayCluster.parent)/\(ThrowawayCluster.folderPrefix)XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw PostgresTestServerError("cannot create a folder in \(ThrowawayCluster.parent): \(String(cString: strerror(errno)))")
        }
        let folder = String(cString: created)
        liveFolders.withLock { _ = $0.insert(folder) }
        try String(getpid()).write(toFile: folder + "/owner", atomically: false, encoding: .utf8)
        if let runAs, chown(folder, runAs.uid, runAs.gid) != 0 {
            throw PostgresTestServerError("cannot give \(folder) to uid \(runAs.uid): \(String(cString: strerror(errno)))")
        }
        return Node(index: index, folder: folder)
    }

    private static func asUser(_ runAs: (uid: uid_t, gid: gid_t)?) -> [String] {
        runAs.map { ["/usr/bin/setpriv", "--reuid=\($0.uid)", "--regid=\($0.gid)", "--clear-groups", "--"] } ?? []
    }

    /// The data folder `initdb` made for the first set of this process, copied for the next ones
    /// (initdb takes seconds on a busy machine, a copy a fraction of one); in a folder of its own,
    /// removed at exit or, after a crash, at the next start (its `owner` file).
    private static let template = LockedValue<String?>(nil)

    private static func initialize(_ node: Node, binaries: String, runAs: (uid: uid_t, gid: gid_t)?) throws {
        let data = try template.withLock { template -> String in
            if let template { return template }
            let folder = try makeFolder(index: -1, runAs: runAs).folder
            try ThrowawayCluster.run(asUser(runAs) + ["\(binaries)/initdb", "-D", "\(folder)/data", "-U", "postgres", "--auth=trust",
                                                      "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"],
                                     in: folder, log: "\(folder)/initdb.log")
            try """
                local all all trust
                local replication all trust
                """.write(toFile: "\(folder)/data/pg_hba.conf", atomically: false, encoding: .utf8)
            template = folder + "/data"
            return folder + "/data"
        }
        try ThrowawayCluster.run(["/bin/cp", "-a", data, "\(node.folder)/data"], in: node.folder, log: "\(node.folder)/copy.log")
    }

    private static func cloneStandby(_ node: Node, from primary: Node, binaries: String, runAs: (uid: uid_t, gid: gid_t)?, options: Options) throws {
        // -R: standby.signal and primary_conninfo; -c fast: an immediate checkpoint, no wait.
        var command = asUser(runAs) + ["\(binaries)/pg_basebackup", "-D", "\(node.folder)/data", "-h", primary.folder, "-U", "postgres",
                                       "-R", "-X", "stream", "-c", "fast"]
        command.append("--no-sync")  // a durable set syncs once made
        try ThrowawayCluster.run(command, in: node.folder, log: "\(node.folder)/basebackup.log")
        if let delay = options.applyDelayMilliseconds[node.index] {
            try setAutoConf(node, "recovery_min_apply_delay", "'\(delay)ms'")
        }
    }

    /// The settings a durable set turns on once made (in `postgresql.auto.conf`, which standbys
    /// copy from the primary: not on the command line, whose settings a reload cannot change).
    static let durabilitySettings = ["fsync", "full_page_writes", "synchronous_commit"]

    /// Turns the durability settings on on every node and waits until each runs with them; then
    /// flushes what was written without them to disk.
    private func makeDurable() throws {
        for node in nodes {
            for setting in Self.durabilitySettings { try Self.setAutoConf(node, setting, "on") }
            _ = try node.connect().rows("SELECT pg_reload_conf()")
        }
        for node in nodes {
            let deadline = Date(timeIntervalSinceNow: 10)
            while try node.connect().rows("SELECT current_setting('fsync') || current_setting('full_page_writes') || current_setting('synchronous_commit')") != [[.text("ononon")]] {
                guard Date() < deadline else { throw PostgresTestServerError("\(node.name) does not run with fsync, full_page_writes and synchronous_commit on 10 s after a reload") }
                usleep(10_000)
            }
        }
        sync()
    }

    private static func start(_ node: Node, binaries: String, runAs: (uid: uid_t, gid: gid_t)?, options: Options) throws {
        if node.index == 0 {
            for setting in durabilitySettings { try setAutoConf(node, setting, "off") }
        }
        var settings = ["listen_addresses=", "cluster_name=\(node.name)", "max_connections=60", "shared_buffers=16MB",
                        "log_min_messages=warning", "wal_receiver_status_interval=1s", "wal_retrieve_retry_interval=200ms"]
        if node.index == 0, let synchronous = options.synchronousStandby {
            settings.append("synchronous_standby_names=node\(synchronous)")
        }
        let server = asUser(runAs) + ["\(binaries)/postgres", "-D", "\(node.folder)/data", "-k", node.folder]
            + settings.flatMap { ["-c", $0] }
        try ThrowawayCluster.launchWatched(server, folder: node.folder, owner: getpid())
        try ThrowawayCluster(folder: node.folder).waitUntilReady(url: node.url())
    }

    /// Waits until every standby streams from node 0 (the synchronous one as `sync`).
    private func waitForStreaming() throws {
        let primary = try nodes[0].connect()
        let deadline = Date(timeIntervalSinceNow: 30)
        while true {
            let rows = try primary.rows("SELECT application_name, sync_state FROM pg_stat_replication WHERE state = 'streaming'")
            let streaming = Dictionary(rows.map { row -> (String, String) in
                if case .text(let name) = row[0], case .text(let state) = row[1] { return (name, state) }
                return ("", "")
            }, uniquingKeysWith: { first, _ in first })
            let ready = nodes.dropFirst().allSatisfy { streaming[$0.name] != nil }
                && options.synchronousStandby.map { streaming["node\($0)"] == "sync" } != false
            if ready { return }
            guard Date() < deadline else {
                throw PostgresTestServerError("the standbys do not stream after 30 s (\(streaming)):\n" + nodes.map { "\($0.name): \($0.logTail())" }.joined(separator: "\n"))
            }
            usleep(20_000)
        }
    }

    /// Sets `key` in the node's `postgresql.auto.conf` (what `ALTER SYSTEM` writes), replacing an
    /// earlier line; the server reads it at start or reload. Written in place: the file keeps its owner.
    private static func setAutoConf(_ node: Node, _ key: String, _ value: String) throws {
        let path = "\(node.folder)/data/postgresql.auto.conf"
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix(key + " ") && !$0.hasPrefix(key + "=") }
        let kept = lines.joined(separator: "\n").trimmingCharacters(in: .newlines)
        try (kept + "\n\(key) = \(value)\n").write(toFile: path, atomically: false, encoding: .utf8)
    }

    // MARK: Processes

    private func waitUntilGone(_ node: Node) {
        for _ in 0..<1000 where node.isRunning { usleep(10_000) }
    }

    /// The processes whose parent is `pid` (from `/proc/<pid>/stat`).
    static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let child = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After "pid (name) ": the state, then the parent's id.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, pid_t(fields[1]) == pid else { return nil }
            return child
        }
    }

    private static func remove(_ node: Node) {
        // The watchdog removes the folder too once the server is gone: wait for the two to be done.
        for _ in 0..<500 {
            ThrowawayCluster(folder: node.folder).remove()
            if !FileManager.default.fileExists(atPath: node.folder) { break }
            usleep(10_000)
        }
        liveFolders.withLock { _ = $0.remove(node.folder) }
    }

    private static func removeAllAtExit() {
        for folder in liveFolders.withLock({ $0 }) {
            ThrowawayCluster(folder: folder).remove()
        }
    }
}

/// A value behind a lock.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
