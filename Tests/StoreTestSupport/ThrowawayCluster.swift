import Foundation
import ModelStore

/// A PostgreSQL cluster in a temporary folder, alive as long as the test process: see
/// `PostgresTestServer` for the whole story.
struct ThrowawayCluster {
    /// The folder: `data/` (the cluster, with `postmaster.pid`), the socket, `postgres.log`,
    /// `owner` (the test process id).
    let folder: String

    static let folderPrefix = "modelstore-pg-"
    static let parent = "/tmp"

    /// The folder the `atexit` hook cleans up (set once, before the hook is registered).
    nonisolated(unsafe) static var folderToRemoveAtExit: String?

    /// The watchdog: runs the server (its arguments after the first two) in the foreground, while a
    /// background loop stops it (SIGQUIT, immediate shutdown) once the test process is gone; when
    /// the server has stopped, for whatever reason, the folder is removed (the log of a server that
    /// failed while the tests run is kept beside it, `<folder>.log`, for the error message). Runs in a session of its
    /// own, so a Ctrl-C meant for the tests reaches it only through the test process's end.
    /// (Foreground waits only: the shell inherits a mask blocking SIGCHLD from the test process's
    /// thread, and dash's `wait` builtin would then never return.)
    static let watchdogScript = """
        owner=$1; folder=$2; shift 2
        exec </dev/null >/dev/null 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
        ( while kill -0 "$owner" 2>/dev/null; do sleep 0.5; done
          read server <"$folder/data/postmaster.pid" && kill -QUIT "$server" ) &
        "$@" >"$folder/postgres.log" 2>&1 || { kill -0 "$owner" 2>/dev/null && cp "$folder/postgres.log" "$folder.log"; }
        kill $! 2>/dev/null
        rm -rf "$folder"
        """

    /// Makes the folder, runs initdb, starts the server through the watchdog, which keeps it as
    /// long as process `owner` runs (this one, whose exit also stops it through `atexit`).
    static func create(binaries: String, runAs user: (uid: uid_t, gid: gid_t)?, owner: pid_t = getpid()) throws(PostgresTestServerError) -> ThrowawayCluster {
        var template = Array("\(parent)/\(folderPrefix)XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw PostgresTestServerError("cannot create a folder in \(parent): \(String(cString: strerror(errno)))")
        }
        let folder = String(cString: created)
        let cluster = ThrowawayCluster(folder: folder)
        do {
            try String(owner).write(toFile: folder + "/owner", atomically: false, encoding: .utf8)
            if let user, chown(folder, user.uid, user.gid) != 0 {
                throw PostgresTestServerError("cannot give \(folder) to uid \(user.uid): \(String(cString: strerror(errno)))")
            }
            if owner == getpid() {
                folderToRemoveAtExit = folder
                atexit { ThrowawayCluster.stopAtExit() }
            }

            let asUser: [String] = user.map { ["/usr/bin/setpriv", "--reuid=\($0.uid)", "--regid=\($0.gid)", "--clear-groups", "--"] } ?? []
            try run(asUser + ["\(binaries)/initdb", "-D", "\(folder)/data", "-U", "postgres", "--auth=trust", "--encoding=UTF8",
                              "--locale=C", "--no-sync", "--no-instructions"],
                    in: folder, log: "\(folder)/initdb.log")
            // Members of the password group log in with a password (the wrong-password test); the rest are trusted.
            try """
                local all +\(PostgresTestServer.passwordGroup) scram-sha-256
                local all all trust
                """.write(toFile: "\(folder)/data/pg_hba.conf", atomically: false, encoding: .utf8)
            let server = asUser + ["\(binaries)/postgres", "-D", "\(folder)/data", "-k", folder,
                                   "-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off",
                                   "-c", "full_page_writes=off", "-c", "max_connections=200", "-c", "log_min_messages=warning"]
            try launchWatched(server, folder: folder, owner: owner)
        } catch let error as PostgresTestServerError {
            cluster.remove()
            throw error
        } catch {
            cluster.remove()
            throw PostgresTestServerError("cannot set up the throwaway PostgreSQL server in \(folder): \(error)")
        }
        return cluster
    }

    /// Starts `server` (a command line) under the watchdog (`watchdogScript`) in a session of its
    /// own: it runs as long as process `owner` does; `folder` goes when the server stops.
    static func launchWatched(_ server: [String], folder: String, owner: pid_t) throws {
        let setsid = FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid") ? ["/usr/bin/setsid"] : []
        let watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: setsid.first ?? "/bin/sh")
        watchdog.arguments = Array(setsid.isEmpty ? [] : ["/bin/sh"]) + ["-c", watchdogScript, "watchdog", String(owner), folder] + server
        watchdog.currentDirectoryURL = URL(fileURLWithPath: folder)
        watchdog.standardInput = FileHandle.nullDevice
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle.nullDevice
        try watchdog.run()
    }

    /// Runs a command to its end.
    static func run(_ command: [String], in folder: String, log: String) throws {
        guard FileManager.default.createFile(atPath: log, contents: nil) else {
            throw PostgresTestServerError("cannot create \(log)")
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw PostgresTestServerError("\(command.joined(separator: " ")) failed (\(process.terminationStatus)):\n\(text)")
        }
    }

    /// Waits (up to 30 seconds) until the server accepts connections.
    func waitUntilReady(url: PostgresURL) throws(PostgresTestServerError) {
        let deadline = Date(timeIntervalSinceNow: 30)
        while Date() < deadline {
            if PostgresConnection.isAcceptingConnections(url) { return }
            if !FileManager.default.fileExists(atPath: folder) || serverPID.map({ kill($0, 0) != 0 }) == true {
                throw PostgresTestServerError("the throwaway PostgreSQL server stopped at start:\n\(logTail())")
            }
            usleep(10_000)
        }
        throw PostgresTestServerError("the throwaway PostgreSQL server did not start within 30 seconds:\n\(logTail())")
    }

    /// The server's process id, once it has started (the first line of `postmaster.pid`).
    var serverPID: pid_t? { Self.pid(inFile: folder + "/data/postmaster.pid") }

    static func pid(inFile path: String) -> pid_t? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let line = text.split(whereSeparator: \.isNewline).first else { return nil }
        return pid_t(line.trimmingCharacters(in: .whitespaces))
    }

    /// The last lines of the server's log, for error messages.
    func logTail() -> String {
        let log = (try? String(contentsOfFile: folder + "/postgres.log", encoding: .utf8))
            ?? (try? String(contentsOfFile: folder + ".log", encoding: .utf8)) ?? "(no log)"
        return log.split(whereSeparator: \.isNewline).suffix(20).joined(separator: "\n")
    }

    /// Stops the server (if any) and removes the folder.
    func remove() {
        if let pid = serverPID { Self.stop(pid) }
        try? FileManager.default.removeItem(atPath: folder)
        try? FileManager.default.removeItem(atPath: folder + ".log")
    }

    /// Sends SIGQUIT (immediate shutdown) and waits up to 5 seconds for the process to go, then SIGKILL.
    static func stop(_ pid: pid_t) {
        guard pid > 0, kill(pid, SIGQUIT) == 0 else { return }
        for _ in 0..<500 {
            if kill(pid, 0) != 0 { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
    }

    /// The `atexit` hook: stops the server and waits for the watchdog to remove the folder
    /// (removing it here if the watchdog did not within 5 seconds).
    static func stopAtExit() {
        guard let folder = folderToRemoveAtExit else { return }
        let cluster = ThrowawayCluster(folder: folder)
        if let pid = cluster.serverPID { kill(pid, SIGQUIT) }
        for _ in 0..<500 {
            if !FileManager.default.fileExists(atPath: folder) { break }
            usleep(10_000)
        }
        cluster.remove()
    }

    /// Removes the folders (and kept logs) of test processes that no longer run, stopping their servers.
    static func removeStale() {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        for entry in entries where entry.hasPrefix(folderPrefix) {
            let folder = "\(parent)/\(entry)"
            if entry.hasSuffix(".log") {
                if !FileManager.default.fileExists(atPath: String(folder.dropLast(4))), isOlderThanAMinute(folder) {
                    try? FileManager.default.removeItem(atPath: folder)
                }
                continue
            }
            guard let owner = pid(inFile: folder + "/owner") else {
                // No owner file: a folder older than a minute is left over from a failed start.
                if isOlderThanAMinute(folder) { ThrowawayCluster(folder: folder).remove() }
                continue
            }
            if kill(owner, 0) == 0 || errno == EPERM { continue }  // its test process still runs
            ThrowawayCluster(folder: folder).remove()
        }
    }

    static func isOlderThanAMinute(_ path: String) -> Bool {
        let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date
        return modified.map { $0.timeIntervalSinceNow < -60 } ?? false
    }
}
