import BenchSupport
import Foundation
import ModelStore
import StoreTestSupport

/// `modelstore-bench cluster [--seconds S] [--readers R] [--rows N] [--pairs P]`: reads on a
/// throwaway cluster (a primary and two streaming standbys, Tests/StoreTestSupport), the method of
/// docs/Benchmarks.md, "modelstore-bench cluster".
///
/// - Read throughput: R reader threads, each with its own context, fetch a trip by name (a random
///   one of N) for S seconds, through one container: on the primary alone (0 standbys), then with
///   `read_from=standby` over one standby, then over two. Reads per second, and where they ran (the
///   router's counts).
/// - The cost of read-your-writes: P times, a context saves a new trip and another context of the
///   same container fetches it at once; with `read_from=primary`, then with `read_from=standby`
///   (the read waits until its standby has replayed the save). Median and 90th percentile of the
///   save, of the read, and of the pair.
enum ClusterReads {
    struct Options {
        var seconds = 5
        var readers = 4
        var rows = 1_000
        var pairs = 200
    }

    static func main(_ arguments: [String]) -> Int32 {
        let options: Options
        do {
            let parsed = try Arguments(arguments, defaults: ["seconds": 5, "readers": 4, "rows": 1_000, "pairs": 200])
            options = Options(seconds: parsed["seconds"], readers: parsed["readers"], rows: parsed["rows"], pairs: parsed["pairs"])
        } catch {
            log("modelstore-bench cluster: \(error)\nusage: modelstore-bench cluster [--seconds S] [--readers R] [--rows N] [--pairs P]")
            return 2
        }
        do {
            try run(options)
            return 0
        } catch {
            log("modelstore-bench cluster: \(error)")
            return 1
        }
    }

    static func container(_ url: URL, connections: Int) throws -> ModelContainer {
        var configuration = ModelConfiguration(url: url)
        configuration.maximumConnections = connections
        return try ModelContainer(for: TripStore.schema, configurations: configuration)
    }

    static func run(_ options: Options) throws {
        let loadAtStart = Timing.loadAverage()
        log("starting a primary and two standbys")
        // Durable (fsync, synchronous_commit on), as a production server runs: with
        // synchronous_commit off, a commit reaches the standbys only when the WAL writer flushes
        // it (wal_writer_delay, 200 ms), and every read-your-writes read would wait that long.
        let set = try ThrowawayReplicaSet(.init(standbys: 2, durable: true, databases: ["bench"]))
        defer { set.remove() }
        let seed = ModelContext(try container(set.storeURL(database: "bench"), connections: 2))
        let day = Date(timeIntervalSinceReferenceDate: 0)
        for index in 0..<options.rows {
            seed.insert(Trip(name: "trip \(index)", startDate: day, endDate: day.addingTimeInterval(86_400)))
        }
        try seed.save()
        try set.waitForReplay()

        var throughput = TextTable(header: ["reads from", "reads/s", "ran on primary", "standby 1", "standby 2"])
        for (label, query, hosts) in [("primary (0 standbys)", "read_from=primary", [0]), ("1 standby", "read_from=standby", [0, 1]),
                                      ("2 standbys", "read_from=standby", [0, 1, 2])] {
            log("reading: \(label)")
            let target = try container(set.storeURL(database: "bench", query: query, nodes: hosts), connections: options.readers)
            let reads = try readFor(options, target)
            let counts = try routerCounts(target)
            let where_ = [counts["primary"], counts[set.nodes[1].folder], counts[set.nodes[2].folder]].map { "\($0 ?? 0)" }
            throughput.append([label, Cell.fixed(Double(reads) / Double(options.seconds), 0)] + where_)
        }

        var readYourWrites = TextTable(header: ["reads from", "save median ms", "read median ms", "save+read median ms", "save+read p90 ms",
                                                "reads on a standby"])
        for (label, query) in [("primary", "read_from=primary"), ("standby (2)", "read_from=standby")] {
            log("read-your-writes: \(label)")
            let target = try container(set.storeURL(database: "bench", query: query), connections: 2)
            let (saves, readsTimes, pairs, onStandby) = try saveThenRead(options, target, label: label)
            readYourWrites.append([label, Cell.fixed(Timing.median(saves) * 1000, 2), Cell.fixed(Timing.median(readsTimes) * 1000, 2),
                                   Cell.fixed(Timing.median(pairs) * 1000, 2), Cell.fixed(percentile(pairs, 0.9) * 1000, 2),
                                   "\(onStandby) of \(pairs.count)"])
        }
        print("modelstore-bench cluster: \(options.readers) reader threads for \(options.seconds) s each, \(options.rows) trips; "
              + "\(options.pairs) save+read pairs; \(ProcessInfo.processInfo.activeProcessorCount) cores shared by the three servers and the readers; "
              + "load average \(Cell.fixed(loadAtStart, 2)) at start, \(Cell.fixed(Timing.loadAverage(), 2)) at end")
        print("\nRead throughput (fetch one trip by name):")
        print(throughput.markdown)
        print("\nRead-your-writes (a context saves a trip, another context of the container fetches it):")
        print(readYourWrites.markdown)
    }

    /// The reads `options.readers` threads make in `options.seconds` seconds.
    static func readFor(_ options: Options, _ container: ModelContainer) throws -> Int {
        let total = LockedCounter()
        let failures = LockedCounter()
        let end = Date(timeIntervalSinceNow: Double(options.seconds))
        let group = DispatchGroup()
        for reader in 0..<options.readers {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let context = ModelContext(container)
                var generator = SystemRandomNumberGenerator()
                var reads = 0
                _ = reader
                while Date() < end {
                    let name = "trip \(Int.random(in: 0..<options.rows, using: &generator))"
                    do {
                        guard try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })).count == 1 else {
                            failures.add(1)
                            continue
                        }
                        reads += 1
                    } catch {
                        failures.add(1)
                    }
                }
                total.add(reads)
            }
        }
        group.wait()
        if failures.value > 0 { throw BenchError("\(failures.value) reads failed or found no trip") }
        return total.value
    }

    /// Times of each save, each read right after it, each pair; and how many reads ran on a standby.
    static func saveThenRead(_ options: Options, _ container: ModelContainer, label: String) throws
        -> (saves: [Double], reads: [Double], pairs: [Double], onStandby: Int) {
        let writer = ModelContext(container)
        let reader = ModelContext(container)
        let day = Date(timeIntervalSinceReferenceDate: 0)
        var saves: [Double] = [], reads: [Double] = [], pairs: [Double] = []
        let before = try routerCounts(container)
        for index in 0..<options.pairs {
            let name = "\(label) \(index)"
            writer.insert(Trip(name: name, startDate: day, endDate: day))
            let started = DispatchTime.now().uptimeNanoseconds
            try writer.save()
            let saved = DispatchTime.now().uptimeNanoseconds
            let found = try reader.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })).count
            let read = DispatchTime.now().uptimeNanoseconds
            guard found == 1 else { throw BenchError("read-your-writes (\(label)): the read right after the save found \(found) trips") }
            saves.append(Double(saved - started) / 1e9)
            reads.append(Double(read - saved) / 1e9)
            pairs.append(Double(read - started) / 1e9)
        }
        let after = try routerCounts(container)
        let onStandby = after.filter { $0.key != "primary" }.values.reduce(0, +) - before.filter { $0.key != "primary" }.values.reduce(0, +)
        return (saves, reads, pairs, onStandby)
    }

    static func routerCounts(_ container: ModelContainer) throws -> [String: Int] {
        container.postgresReadCounts
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ amount: Int) { lock.withLock { count += amount } }
    var value: Int { lock.withLock { count } }
}
