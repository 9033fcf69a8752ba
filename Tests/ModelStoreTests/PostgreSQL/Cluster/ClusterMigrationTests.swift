import Foundation
import StoreTestSupport
import Testing
@testable import ModelStore

/// A migration on a cluster (docs/Scaling.md, "History, upserts and migrations on a cluster"), with
/// the processes of the migration crash test (`CrashMigrator`: 1.0.0 → 2.0.0 through a custom
/// stage, → 3.0.0 inferred, both rebuilding the Trip table) over a multi-host URL with
/// `read_from=standby`, the standbys listed first.
@Suite(.serialized)
struct ClusterMigrationTests {
    static let rows = 2_000

    /// A started `CrashMigrator` and the file its output goes to.
    final class Child {
        let process = Process()
        let output: URL
        private let handle: FileHandle

        init(_ arguments: [String], folder: URL) throws {
            output = folder.appendingPathComponent("crash-migrator-\(UUID().uuidString).txt")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            handle = try FileHandle(forWritingTo: output)
            process.executableURL = BuiltProducts.executable("CrashMigrator")
            process.arguments = arguments
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
        }

        var lines: [String] {
            String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self).split(separator: "\n").map(String.init)
        }

        /// Waits for the end (60 s at most) and gives the output's lines.
        func finish() throws -> [String] {
            let deadline = Date(timeIntervalSinceNow: 60)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            try handle.close()
            return lines
        }
    }

    /// The names of the columns of `"Trip"` on `node`.
    static func tripColumns(_ set: ThrowawayReplicaSet, node: Int) throws -> Set<String> {
        let rows = try set.nodes[node].connect(database: "app").rows(
            "SELECT column_name::text FROM information_schema.columns WHERE table_name = 'Trip'")
        return Set(rows.compactMap { row in if case .text(let name) = row[0] { return name } else { return nil } })
    }

    /// A 1.0.0 store on a cluster. While a process of 1.0.0's code reads it from the standbys, two
    /// processes of 3.0.0's code open it at once: the migration runs once (one of them runs the
    /// custom stage, the other finds the store migrated), on the primary. The old code's reads see
    /// every row as written or fail with an error that names the schema change — never rows of
    /// both versions, never a half-migrated table; a new-code process that starts while a standby
    /// has not replayed the migration yet (its replay paused) reads every row migrated.
    @Test(.timeLimit(.minutes(3)))
    func aMigrationRunsOnceOnThePrimaryAndStandbyReadersSeeOneSchemaOrTheOther() throws {
        let set = try ThrowawayReplicaSet(.init(standbys: 2, databases: ["app"]))
        defer { set.remove() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cluster-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = set.storeURL(database: "app", query: "read_from=standby", nodes: [1, 2, 0]).absoluteString

        let created = try Child([url, "create", String(Self.rows)], folder: folder).finish()
        try #require(created == ["created"], "\(created)")
        try set.waitForReplay()
        #expect(try Self.tripColumns(set, node: 2).contains("name"))

        // 1.0.0's code, still running, reads from both standbys (a new context per read: round robin).
        let oldReader = try Child([url, "read-old", "6"], folder: folder)
        let deadline = Date(timeIntervalSinceNow: 30)
        while !oldReader.lines.contains("old ok"), oldReader.process.isRunning, Date() < deadline { usleep(10_000) }
        try #require(oldReader.lines.first == "old ok", "\(oldReader.lines)")

        // Standby 2 stops replaying: it keeps 1.0.0 until the test resumes it.
        _ = try set.nodes[2].connect().rows("SELECT pg_wal_replay_pause()")
        let migrators = try (0..<2).map { _ in try Child([url, "migrate"], folder: folder) }
        let said = try migrators.map { try $0.finish() }
        for (index, lines) in said.enumerated() {
            #expect(migrators[index].process.terminationStatus == 0 && lines.last == "migrated", "migrator \(index): \(lines)")
        }
        #expect(said.filter { $0.contains("custom stage") }.count == 1, "the custom stage ran in \(said)")
        // Migrated on the primary (the only server that takes writes); standby 2 still has 1.0.0.
        #expect(try Self.tripColumns(set, node: 0).isSuperset(of: ["title", "rating"]))
        #expect(try Self.tripColumns(set, node: 2).contains("name"))

        // New code on the paused standby: its first read waits for the migration (read-your-writes
        // from the primary's position when it first reads), or reads on the primary.
        let newReader = try Child([set.storeURL(database: "app", query: "read_from=standby", nodes: [2, 0]).absoluteString, "read-new"],
                                  folder: folder)
        usleep(300_000)
        _ = try set.nodes[2].connect().rows("SELECT pg_wal_replay_resume()")
        let newSaid = try newReader.finish()
        #expect(newReader.process.terminationStatus == 0 && newSaid == ["new ok \(Self.rows)"], "\(newSaid)")
        try set.waitForReplay()
        #expect(try Self.tripColumns(set, node: 2).isSuperset(of: ["title", "rating"]))

        let oldSaid = try oldReader.finish()
        #expect(oldReader.process.terminationStatus == 0 && oldSaid.last?.hasPrefix("reads: ") == true, "\(oldSaid)")
        let outcomes = Set(oldSaid.dropLast())
        #expect(outcomes.contains("old ok"))
        for outcome in outcomes where outcome != "old ok" {
            #expect(outcome.hasPrefix("error: ") && outcome.contains("3.0.0"), "the old code read: \(outcome)")
        }
        print("ClusterMigration: the old code's reads: \(oldSaid.joined(separator: " / "))")
    }
}
