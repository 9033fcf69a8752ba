import CLibPQ
import Foundation

/// Where a container's reads go on a cluster: the primary, or the standbys of its multi-host URL,
/// with read-your-writes (docs/Scaling.md, "Read routing").
///
/// One pool per host of the URL, each with `target_session_attrs=standby`, so only a server in
/// recovery is ever used (a host that is the primary, or unreachable, is skipped for
/// `hostRetryInterval`). A context keeps to the standby it last read from while that one serves it
/// (round robin between contexts), so while it stays its reads do not go back in time.
///
/// Read-your-writes: once the container has a context reading from standbys, every save of the
/// container notes the primary's WAL position after its commit (`noteCommit`). A read on a
/// standby first checks that the standby has replayed that far (`pg_last_wal_replay_lsn()`), waiting
/// at most `catchUpTimeout` (shared by the standbys), else it runs on the primary.
final class PostgresReadRouter: @unchecked Sendable {
    /// One pool per standby candidate (each host of the URL).
    let standbys: [PostgresConnectionPool]
    /// The read source of contexts that do not choose one.
    let defaultSource: ModelConfiguration.ReadSource
    /// The longest a read waits for a standby to replay the container's last save.
    let catchUpTimeout: TimeInterval
    /// How long a host that failed (down, or not a standby) is skipped.
    static let hostRetryInterval: TimeInterval = 5

    private let lock = NSLock()
    /// The WAL position every standby read must have reached (guarded by `lock`).
    private var requiredLSN: UInt64 = 0
    /// Whether saves note their commit position: set by the first read routed to a standby.
    private var isTracking = false
    /// The last save's position is unknown (the query after its commit failed): reads go to the
    /// primary until the next save notes one.
    private var positionUnknown = false
    private var skippedUntil: [Date?]
    private var nextStandby = 0
    private var counts: [String: Int] = [:]

    /// A router over `url`'s hosts (none when reads cannot go to standbys).
    init(url: PostgresURL, source: ModelConfiguration.ReadSource, catchUpTimeout: TimeInterval, maximumConnections: Int, waitTimeout: TimeInterval) {
        defaultSource = source
        self.catchUpTimeout = catchUpTimeout
        standbys = Self.standbyURLs(url).map {
            PostgresConnectionPool(url: $0, maximumConnections: maximumConnections, waitTimeout: waitTimeout,
                                   connectTimeout: min(PostgresConnection.defaultConnectTimeout, 2))
        }
        skippedUntil = Array(repeating: nil, count: standbys.count)
    }

    /// One URL per host of `url`, to that host alone, for a standby session. A URL with `hostaddr`
    /// stays whole (one candidate, libpq choosing among its hosts).
    static func standbyURLs(_ url: PostgresURL) -> [PostgresURL] {
        var base = url
        base.options["target_session_attrs"] = "standby"
        guard url.options["hostaddr"] == nil else { return [base] }
        let names: [String]
        let ports: [String]
        if let hostOption = url.options["host"] {
            names = hostOption.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        } else {
            names = url.hosts.map { $0.name ?? "" }
        }
        if let portOption = url.options["port"] {
            ports = portOption.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        } else {
            ports = url.hosts.map { $0.port.map(String.init) ?? "" }
        }
        guard !names.isEmpty else { return [base] }
        return names.indices.map { index in
            var single = base
            single.hosts = []
            single.options["host"] = names[index]
            let port = ports.count == names.count ? ports[index] : ports.first ?? ""
            single.options["port"] = port.isEmpty ? nil : port
            return single
        }
    }

    // MARK: Saves

    /// Whether saves must note their commit position (a context has read from a standby).
    var tracksCommits: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isTracking
    }

    /// Notes the primary's WAL position right after a commit on `connection` (the save's own
    /// session), so later standby reads wait for it. When it cannot be read, reads go to the
    /// primary until a later save notes one.
    func noteCommit(on connection: PostgresConnection) {
        let position: UInt64?
        do {
            position = try connection.rows("SELECT pg_current_wal_insert_lsn()::text").first.flatMap { row in
                if case .text(let text) = row[0] { return Self.parseLSN(text).map(Self.recordEnd) }
                return nil
            }
        } catch {
            position = nil
        }
        lock.lock()
        if let position {
            requiredLSN = max(requiredLSN, position)
            positionUnknown = false
        } else {
            positionUnknown = true
        }
        lock.unlock()
    }

    // MARK: Reads

    /// Runs the read `body` where `source` (not `.primary`) says: on a standby that has replayed the container's
    /// saves (the one `preferred` names first), else on the primary (`primary`). Returns the
    /// standby used (nil: the primary) through `preferred`.
    ///
    /// - Throws: what `body` throws (a standby lost during the read is not an error: the read runs
    ///   elsewhere; nor is a read the standby cancelled for a conflict with recovery: it runs again
    ///   on the primary); `PostgresError` `.connectionFailed` when `source` is `.standby` and no
    ///   standby can be reached.
    func read<T>(_ source: ModelConfiguration.ReadSource, primary: PostgresConnectionPool, preferred: inout Int?,
                 _ body: (PostgresConnection) throws -> T) throws -> T {
        var conflicted = false
        if source != .primary, !standbys.isEmpty {
            let required = startTracking(primary: primary)
            let deadline = Date(timeIntervalSinceNow: catchUpTimeout)
            var delay: useconds_t = 500
            var lastError: Error?
            waiting: while let required {
                var reachable = 0
                var newTurn = false
                turn: for index in candidates(preferred: preferred) {
                    let connection: PostgresConnection
                    do {
                        connection = try standbys[index].borrow()
                    } catch {
                        // Down, or not a standby (libpq refuses a session to the primary). A
                        // context without a standby yet takes a new turn of the round robin rather
                        // than the host after this one, which other contexts' turns may have taken
                        // at the same moment (a URL lists the primary too).
                        skip(index)
                        lastError = error
                        if preferred == nil { newTurn = true; break turn }
                        continue
                    }
                    defer { standbys[index].giveBack(connection) }
                    do {
                        switch try caughtUp(connection, required: required) {
                        case .notAStandby:
                            skip(index)
                            // Promoted since: as above.
                            if preferred == nil { newTurn = true; break turn }
                            continue
                        case .behind:
                            reachable += 1
                            continue
                        case .ready:
                            let result = try body(connection)
                            preferred = index
                            count(standbys[index].url)
                            return result
                        }
                    } catch let error as PostgresError where Self.isRecoveryConflict(error) {
                        // The standby cancelled the read: replaying the primary's changes (a vacuum
                        // removing rows the read's snapshot still sees, a lock) could not wait for it
                        // (docs/Scaling.md, "Recovery conflicts"). The standby is fine and stays the
                        // preferred one, but every standby replays the same changes: the read runs
                        // again once, on the primary.
                        conflicted = true
                        break waiting
                    } catch let error as PostgresError where error.kind == .connectionLost || error.kind == .connectionFailed {
                        // The standby went away (before or during the read): read elsewhere.
                        skip(index)
                        lastError = error
                    }
                }
                // Each new turn follows a skip: at most one per host before none is left.
                if newTurn { continue waiting }
                if reachable == 0 {
                    if source == .standby {
                        throw PostgresError(kind: .connectionFailed, message: "read_from=standby: no standby can be reached among \(standbys.count) host(s)"
                                            + (lastError.map { " (last error: \($0))" } ?? ""))
                    }
                    break
                }
                if Date() >= deadline { break }
                usleep(delay)
                delay = min(delay * 2, 20_000)
            }
        }
        if !conflicted { preferred = nil }
        return try primary.withConnection { connection in
            let result = try body(connection)
            count(nil)
            return result
        }
    }

    /// Whether a standby cancelled a statement for a conflict with recovery: "canceling statement
    /// due to conflict with recovery" (40001; 40P01 for a buffer-pin deadlock with the replay), or
    /// the session ended for it ("terminating connection due to conflict with recovery"). A read on
    /// a standby, outside any transaction, meets these codes for no other reason.
    static func isRecoveryConflict(_ error: PostgresError) -> Bool {
        error.sqlState == "40001" || error.sqlState == "40P01"
    }

    /// The position standby reads must reach, tracking commits from now on (the first time, the
    /// primary's current position covers every save made before); nil when it is unknown (read
    /// on the primary).
    private func startTracking(primary: PostgresConnectionPool) -> UInt64? {
        lock.lock()
        if isTracking {
            defer { lock.unlock() }
            return positionUnknown ? nil : requiredLSN
        }
        lock.unlock()
        let current = try? primary.withConnection { connection in
            try connection.rows("SELECT pg_current_wal_insert_lsn()::text").first.flatMap { row -> UInt64? in
                if case .text(let text) = row[0] { return Self.parseLSN(text).map(Self.recordEnd) }
                return nil
            }
        }
        lock.lock()
        defer { lock.unlock() }
        guard let current = current ?? nil else { return nil }
        if !isTracking {
            isTracking = true
            requiredLSN = max(requiredLSN, current)
        }
        return positionUnknown ? nil : requiredLSN
    }

    /// The standbys to try, the preferred one first, then the others from the round-robin position.
    /// The round robin counts only hosts not skipped now, and a context whose turn fell on a host
    /// that turns out not to be a standby takes a new turn (`read`): a URL lists the primary too,
    /// and contexts whose turn fell on it would otherwise all go to the standby after it (two
    /// thirds of the contexts on one of two standbys).
    private func candidates(preferred: Int?) -> [Int] {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        let usable = (0..<standbys.count).filter { index in skippedUntil[index].map { $0 <= now } ?? true }
        let start: Int
        if let preferred { start = preferred } else {
            start = usable.first { $0 >= nextStandby } ?? usable.first ?? nextStandby
            nextStandby = (start + 1) % standbys.count
        }
        return (0..<standbys.count).map { (start + $0) % standbys.count }.filter(usable.contains)
    }

    private func skip(_ index: Int) {
        lock.lock()
        skippedUntil[index] = Date(timeIntervalSinceNow: Self.hostRetryInterval)
        lock.unlock()
    }

    private enum Replay { case ready, behind, notAStandby }

    /// Whether the standby session `connection` has replayed up to `required` (asking the server
    /// only when what it last said is not enough).
    private func caughtUp(_ connection: PostgresConnection, required: UInt64) throws -> Replay {
        if connection.knownReplayLSN > 0, connection.knownReplayLSN >= required { return .ready }
        let row = try connection.rows("SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn()::text").first ?? []
        guard row.count == 2, row[0] == .integer(1), case .text(let text) = row[1], let replayed = Self.parseLSN(text) else {
            // Promoted since it was opened: a primary, not one of the standbys to read from.
            connection.knownReplayLSN = 0
            return .notAStandby
        }
        connection.knownReplayLSN = replayed
        return replayed >= required ? .ready : .behind
    }

    // MARK: Counting (tests)

    private func count(_ url: PostgresURL?) {
        lock.lock()
        counts[url?.options["host"] ?? "primary", default: 0] += 1
        lock.unlock()
    }

    /// The reads routed so far, by standby host (`host` option of its URL), or `"primary"` for
    /// those that went to the primary (no standby caught up or reachable).
    package var readCounts: [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }

    // MARK: Positions

    /// `X/Y` (PostgreSQL's `pg_lsn` text) as a number.
    static func parseLSN(_ text: String) -> UInt64? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let high = UInt64(parts[0], radix: 16), let low = UInt64(parts[1], radix: 16) else { return nil }
        return high << 32 | low
    }

    /// The end of the last record before insert position `position`: the insert position is past
    /// the header of a page (24 bytes; 40 at the start of a 16 MB segment) when the last record
    /// ended at the page's start, which is where a standby's replay then stops (WAL pages of 8 KB,
    /// PostgreSQL's default build).
    static func recordEnd(_ position: UInt64) -> UInt64 {
        if position % 8192 == 24 { return position - 24 }
        if position % (16 << 20) == 40 { return position - 40 }
        return position
    }
}
