import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Kills a writing process (`CrashWriter`, which saves batches of 1,000 trips with the generated
/// Trips code and acknowledges each save) with SIGKILL at random moments, then reopens the store:
/// every acknowledged save must be there whole, no save may be there in part, and the file must
/// pass `PRAGMA integrity_check`.
@Suite struct CrashDurabilityTests {
    static let kills = 60
    static let rowsPerSave = 1000

    /// The batches acknowledged in the writer's output so far.
    static func acks(in output: URL) throws -> [Int] {
        String(decoding: try Data(contentsOf: output), as: UTF8.self).split(separator: "\n")
            .compactMap { $0.hasPrefix("ack ") ? Int($0.dropFirst(4)) : nil }
    }

    /// Rows per batch name (`batch-k` → count) and the integrity check's answer.
    func inspect(_ store: TemporaryStore) throws -> (counts: [Int: Int], integrity: [String]) {
        // Reopen through the runtime first: recovery of the WAL, schema check.
        let container = try ModelContainer(for: TripStore.schema, configurations: store.configuration)
        let table = try #require(container.schema.entity(for: Trip.self)).tableName
        let connection = try store.rawConnection()
        var counts: [Int: Int] = [:]
        for row in try connection.rows("SELECT \"name\", count(*) FROM \(SQLQuote.identifier(table)) GROUP BY \"name\"") {
            guard case .text(let name) = row[0], case .integer(let count) = row[1],
                  name.hasPrefix("batch-"), let batch = Int(name.dropFirst("batch-".count)) else {
                Issue.record("unexpected row \(row)")
                continue
            }
            counts[batch] = Int(count)
        }
        return (counts, try StoreDump.integrity(connection))
    }

    @Test(.timeLimit(.minutes(3)))
    func acknowledgedSavesSurviveSIGKILL() throws {
        let seed = ReliabilityRandom.runSeed()
        var random = ReliabilityRandom(seed: seed)
        let store = try TemporaryStore()
        let output = store.directory.appendingPathComponent("acks.txt")
        let writer = BuiltProducts.executable("CrashWriter")
        #expect(FileManager.default.isExecutableFile(atPath: writer.path), "build CrashWriter first")
        var acknowledged = Set<Int>()
        var nextBatch = 0
        var killedMidSave = 0
        for kill in 0..<Self.kills {
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let handle = try FileHandle(forWritingTo: output)
            let process = Process()
            process.executableURL = writer
            process.arguments = [store.url.path, String(nextBatch), String(Self.rowsPerSave)]
            process.standardOutput = handle
            try process.run()
            // A random moment: after 0 to 3 acknowledged saves (so the machine's load does not
            // decide how much gets written), then 0 to 80 ms on: while opening, mid-save, between saves.
            let acksBeforeKill = Int.random(in: 0...3, using: &random)
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning, Date() < deadline, try Self.acks(in: output).count < acksBeforeKill {
                usleep(1_000)
            }
            usleep(UInt32.random(in: 0..<80_000, using: &random))
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try handle.close()
            #expect(process.terminationReason == .uncaughtSignal, "writer exited by itself (seed \(seed)): \(process.terminationStatus)")

            let acks = try Self.acks(in: output)
            acknowledged.formUnion(acks)
            let started = nextBatch + acks.count  // the batch in flight when killed (maybe committed)

            let (counts, integrity) = try inspect(store)
            #expect(integrity == ["ok"], "kill \(kill) (seed \(seed))")
            for batch in acknowledged {
                #expect(counts[batch] == Self.rowsPerSave, "acknowledged batch \(batch) lost after kill \(kill) (seed \(seed))")
            }
            for (batch, count) in counts {
                #expect(count == Self.rowsPerSave, "batch \(batch) stored in part: \(count) rows (seed \(seed))")
                #expect(batch <= started, "batch \(batch) never started (seed \(seed))")
            }
            if counts[started] != nil, !acks.contains(started) { killedMidSave += 1 }
            nextBatch = (counts.keys.max() ?? -1) + 1
        }
        #expect(acknowledged.count >= Self.kills / 2, "too few saves acknowledged to mean anything")
        print("CrashDurability: \(Self.kills) kills, \(acknowledged.count) acknowledged saves of \(Self.rowsPerSave) rows, \(killedMidSave) committed but unacknowledged, seed \(seed)")
    }
}
