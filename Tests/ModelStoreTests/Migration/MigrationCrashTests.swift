import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Kills a migrating process (`CrashMigrator`: a store of trips taken from 1.0.0 through a custom
/// stage and an inferred one, both rebuilding the table, to 3.0.0) with SIGKILL at random moments,
/// then opens the file: it must hold either 1.0.0 with every row as written or 3.0.0 with every row
/// migrated — never 2.0.0, never a part — and pass `PRAGMA integrity_check` and
/// `PRAGMA foreign_key_check`. SQLite only: it restores and inspects the file (on PostgreSQL a
/// migration is one server transaction, which a killed client rolls back).
@Suite struct MigrationCrashTests {
    static let rows = 20_000
    static let kills = 40

    enum State: Equatable {
        case original
        case migrated
    }

    /// Runs `CrashMigrator` with `arguments`, returning the process (started) and its output file.
    private func start(_ arguments: [String], output: URL) throws -> (Process, FileHandle) {
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = BuiltProducts.executable("CrashMigrator")
        process.arguments = arguments
        process.standardOutput = handle
        try process.run()
        return (process, handle)
    }

    private func lines(_ output: URL) throws -> [String] {
        String(decoding: try Data(contentsOf: output), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The count of a query's first column.
    private func count(_ connection: SQLiteConnection, _ sql: String) throws -> Int64 {
        guard case .integer(let count)? = try connection.rows(sql).first?.first else { return -1 }
        return count
    }

    /// Which version the store holds, after checking every row of it (nil, with issues, when neither).
    private func inspect(_ url: URL, after label: String) throws -> State? {
        let connection = try SQLiteConnection(path: url.path, isFile: true)
        #expect(try StoreDump.integrity(connection) == ["ok"], "\(label)")
        #expect(try connection.rows("PRAGMA foreign_key_check").isEmpty, "\(label)")
        let rows = Int64(Self.rows)
        let numbered = "SELECT *, CAST(substr(%@, 6) AS INTEGER) AS i FROM \"Trip\""
        // Every accommodation still points at its trip (trip i for "acc i").
        let linked = "SELECT count(*) FROM \"Accommodation\" a JOIN \"Trip\" t ON a.\"trip\" = t.\"$pk\" "
            + "WHERE substr(a.\"name\", 5) = substr(t.%@, 6)"
        switch try StoreMigrator.storedDescription(connection)?.schemaVersion {
        case Schema.Version(1, 0, 0)?:
            let valid = try count(connection, "SELECT count(*) FROM (\(numbered.replacingOccurrences(of: "%@", with: "\"name\""))) WHERE "
                                  + "\"duration\" = (i % 180 + 1) || ' min' AND \"days\" = i % 30 "
                                  + "AND CASE WHEN i % 3 = 0 THEN \"note\" IS NULL ELSE \"note\" = 'n' || i END")
            #expect(valid == rows, "\(label): 1.0.0 with \(valid) of \(rows) rows as written")
            #expect(try count(connection, linked.replacingOccurrences(of: "%@", with: "\"name\"")) == rows / 10, "\(label)")
            return .original
        case Schema.Version(3, 0, 0)?:
            let valid = try count(connection, "SELECT count(*) FROM (\(numbered.replacingOccurrences(of: "%@", with: "\"title\""))) WHERE "
                                  + "\"duration\" = i % 180 + 1 AND typeof(\"duration\") = 'integer' AND \"days\" = i % 30 AND \"rating\" = 3 "
                                  + "AND \"note\" = CASE WHEN i % 3 = 0 THEN '-' ELSE 'n' || i END")
            #expect(valid == rows, "\(label): 3.0.0 with \(valid) of \(rows) rows migrated")
            #expect(try count(connection, "SELECT count(*) FROM \"Trip\"") == rows, "\(label)")
            #expect(try count(connection, linked.replacingOccurrences(of: "%@", with: "\"title\"")) == rows / 10, "\(label)")
            return .migrated
        case let other:
            Issue.record("\(label): the store holds version \(other?.description ?? "none")")
            return nil
        }
    }

    /// Puts the 1.0.0 file back (and removes any log of the killed process).
    private func restore(_ pristine: URL, to url: URL) throws {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
        try FileManager.default.copyItem(at: pristine, to: url)
    }

    @Test(.timeLimit(.minutes(5)))
    func aKilledMigrationLeavesTheStoreAsItWasOrFullyMigrated() throws {
        let seed = ReliabilityRandom.runSeed()
        var random = ReliabilityRandom(seed: seed)
        let store = try TemporaryStore()
        let output = store.directory.appendingPathComponent("output.txt")
        let pristine = store.directory.appendingPathComponent("pristine.store")
        #expect(FileManager.default.isExecutableFile(atPath: BuiltProducts.executable("CrashMigrator").path), "build CrashMigrator first")

        let (creator, creatorOutput) = try start([store.url.path, "create", String(Self.rows)], output: output)
        creator.waitUntilExit()
        try creatorOutput.close()
        try #require(creator.terminationStatus == 0 && (try lines(output)) == ["created"])
        #expect(!FileManager.default.fileExists(atPath: store.url.path + "-wal"), "the log was checkpointed at close")
        try FileManager.default.copyItem(at: store.url, to: pristine)
        #expect(try inspect(store.url, after: "created") == .original)

        // Migrations to their end: what they leave, and how long the quickest takes.
        var duration = Double.infinity
        for run in 0..<3 {
            try restore(pristine, to: store.url)
            let began = Date()
            let (full, fullOutput) = try start([store.url.path, "migrate"], output: output)
            full.waitUntilExit()
            try fullOutput.close()
            duration = min(duration, Date().timeIntervalSince(began))
            try #require(full.terminationStatus == 0 && (try lines(output)).last == "migrated")
            #expect(try inspect(store.url, after: "full migration \(run)") == .migrated)
        }

        var states: [State: Int] = [:]
        var killedBeforeTheEnd = 0
        // A random moment from the start to a little past the quickest end. The quickest end was
        // timed under the load of that moment (other tests run beside this one): when a kill
        // lands after the end, the window shrinks, and kills go on (up to three times as many)
        // until at least half of the planned ones landed during the migration.
        var window = duration * 1.1
        var kill = 0
        while kill < Self.kills || (killedBeforeTheEnd < Self.kills / 2 && kill < Self.kills * 3) {
            defer { kill += 1 }
            try restore(pristine, to: store.url)
            let (process, handle) = try start([store.url.path, "migrate"], output: output)
            usleep(UInt32(Double.random(in: 0..<window, using: &random) * 1_000_000))
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try handle.close()
            let said = try lines(output)
            if process.terminationReason == .uncaughtSignal && !said.contains("migrated") {
                killedBeforeTheEnd += 1
            } else {
                window *= 0.8
            }
            let label = "kill \(kill) (seed \(seed))"
            guard let state = try inspect(store.url, after: label) else { continue }
            states[state, default: 0] += 1
            if said.contains("migrated") { #expect(state == .migrated, "\(label): reported migrated") }
        }
        #expect(killedBeforeTheEnd >= Self.kills / 2, "too few kills landed during the migration to mean anything")
        print("MigrationCrash: \(kill) kills over \(String(format: "%.2f", duration)) s migrations of \(Self.rows) rows: "
              + "\(killedBeforeTheEnd) before the end; \(states[.original] ?? 0) left 1.0.0, \(states[.migrated] ?? 0) 3.0.0; seed \(seed)")
    }
}
