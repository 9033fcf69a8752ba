import Foundation
import ModelStore
import StoreTestSupport
import Testing

// MARK: - The walkthroughs on a cluster (docs/Scaling.md, "The walkthroughs on a cluster")

extension IntegrationTests {
    /// The table scans the standbys of `set` ran in `database` (`pg_stat_user_tables`, each
    /// server's own counts: a standby's are its reads; connecting, and libpq's check of a host's
    /// `target_session_attrs`, scan no table). Read once the counts stopped moving: a finished
    /// client's sessions add theirs as they end.
    static func standbyScans(_ set: ThrowawayReplicaSet, database: String) throws -> [Int] {
        func read() throws -> [Int] {
            try set.nodes.dropFirst().map { node in
                let rows = try node.connect(database: database).rows(
                    "SELECT (coalesce(sum(seq_scan), 0) + coalesce(sum(idx_scan), 0))::bigint FROM pg_stat_user_tables")
                guard case .integer(let count)? = rows.first?.first else { return -1 }
                return Int(count)
            }
        }
        var last = try read()
        for _ in 0..<20 {
            usleep(100_000)
            let now = try read()
            if now == last { return now }
            last = now
        }
        return last
    }

    /// Each table of `database` on `connection` with its row count, in name order.
    static func rowCounts(_ connection: PostgresConnection) throws -> [String] {
        let tables = try connection.rows("SELECT tablename::text FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
        return try tables.map { row in
            guard case .text(let name) = row[0] else { return "?" }
            let count = try connection.rows("SELECT count(*) FROM \(SQLQuote.identifier(name))").first?.first
            return "\(name): \(count.map { "\($0)" } ?? "?")"
        }
    }

    /// TripsDemo and MemoriesDemo, unchanged, on a primary and two streaming standbys, by a
    /// multi-host URL: once reading from the primary, once from standbys that apply every commit
    /// 300 ms late, where each read right after the program's own save must wait for the standby
    /// (read-your-writes) or read on the primary, or it would miss the save. The output is the
    /// one of a single server, and the standbys really served reads in the second run (their
    /// table scans), none in the first; the primary holds what one server holds after the run.
    @Test("TripsDemo and MemoriesDemo run unchanged on a three-node cluster by URL, with read_from=primary and read_from=standby")
    func walkthroughsRunOnACluster() async throws {
        let tripsBuild = try await tripsDemo.build()
        try #require(tripsBuild.status == 0, "swift build failed:\n\(tripsBuild.output)")
        let memoriesBuild = try await memoriesDemo.build()
        try #require(memoriesBuild.status == 0, "swift build failed:\n\(memoriesBuild.output)")

        // TripsDemo's output on one server: what the cluster runs must print.
        let singleDatabase = try PostgresTestServer.shared().makeDatabase()   // dropped when released
        let single = try #require(singleDatabase.storeURL)
        let reference = try await tripsDemo.run("TripsDemo", [single.absoluteString])
        try #require(reference.status == 0, "TripsDemo failed on one server:\n\(reference.output)")
        for expected in Self.tripsDemoLines + Self.tripsDemoPredicateLines {
            #expect(reference.output.contains(expected), "TripsDemo output on one server lacks \(expected):\n\(reference.output)")
        }

        let started = Date()
        let databases = ["trips_primary", "trips_standby", "memories_primary", "memories_standby"]
        let set = try ThrowawayReplicaSet(.init(standbys: 2, applyDelayMilliseconds: [1: 300, 2: 300], databases: databases))
        defer { set.remove() }
        for source in ["primary", "standby"] {
            // The standbys listed first: saves must still reach the primary (target_session_attrs=read-write).
            let hosts = [1, 2, 0]
            let trips = set.storeURL(database: "trips_\(source)", query: "read_from=\(source)", nodes: hosts).absoluteString
            let before = try Self.standbyScans(set, database: "trips_\(source)")
            let run = try await tripsDemo.run("TripsDemo", [trips])
            #expect(run.status == 0, "TripsDemo failed on the cluster (read_from=\(source)):\n\(run.output)")
            #expect(run.output == reference.output, "TripsDemo on the cluster (read_from=\(source)) printed otherwise than on one server")
            let after = try Self.standbyScans(set, database: "trips_\(source)")

            let memories = set.storeURL(database: "memories_\(source)", query: "read_from=\(source)", nodes: hosts).absoluteString
            let memoriesBefore = try Self.standbyScans(set, database: "memories_\(source)")
            let memoriesRun = try await memoriesDemo.run("MemoriesDemo", [memories])
            #expect(memoriesRun.status == 0, "MemoriesDemo failed on the cluster (read_from=\(source)):\n\(memoriesRun.output)")
            #expect(memoriesRun.output == Self.memoriesDemoOutput(migrated: true), "MemoriesDemo on the cluster (read_from=\(source))")
            let memoriesAfter = try Self.standbyScans(set, database: "memories_\(source)")

            let served = zip(after, before).map { $0 - $1 } + zip(memoriesAfter, memoriesBefore).map { $0 - $1 }
            if source == "primary" {
                #expect(served.allSatisfy { $0 == 0 }, "read_from=primary: the standbys scanned tables \(served)")
            } else {
                // Each program read on the standbys (a container's first context takes the first host
                // that is a standby: node 1 here, so node 2 may serve none).
                #expect(served[0] + served[1] > 0 && served[2] + served[3] > 0, "read_from=standby: a program read on no standby \(served)")
            }
        }
        // Every save reached the primary: it holds what one server holds after the same run.
        let expectedRows = try Self.rowCounts(singleDatabase.connect())
        for database in ["trips_primary", "trips_standby"] {
            #expect(try Self.rowCounts(set.nodes[0].connect(database: database)) == expectedRows, "\(database)")
        }
        print("Cluster walkthroughs: \(String(format: "%.1f", Date().timeIntervalSince(started))) s with the cluster's start "
              + "(\(String(format: "%.1f", set.startSeconds)) s)")
    }
}
