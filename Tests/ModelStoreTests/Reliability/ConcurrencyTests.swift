import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Writers and readers on one container, each with its own context (and so its own connection),
/// on real threads: the cooperative pool has only as many threads as cores (2 here), too few
/// for the contention this test is after.
@Suite struct ConcurrencyTests {
    static let writers = 4
    static let readers = 4
    static let operations = 1000

    /// What the threads found, gathered under a lock.
    struct Findings {
        var errors: [String] = []
        var oddCounts: [Int] = []
        var brokenPairs: [String] = []
        var countsSeen = 0
    }

    /// Runs `body(index)` on `count` threads at once and waits for all of them.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                body(index)
                group.leave()
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        group.wait()
    }

    @Test(.timeLimit(.minutes(3)))
    func writersAndReadersSeeOnlyCommittedStates() throws {
        let store = try TemporaryStore()
        let container = try ModelContainer(for: TripStore.schema, configurations: store.configuration)
        // `Locked` (an NSLock), not `Mutex`: ThreadSanitizer cannot see `Mutex`'s ordering.
        let findings = Locked(Findings())
        Self.onThreads(Self.writers + Self.readers) { index in
            let context = ModelContext(container)
            do {
                if index < Self.writers {
                    // Every save inserts a pair: a committed state always holds an even count.
                    for operation in 0..<Self.operations {
                        context.insert(Itinerary(title: "w\(index)-\(operation)-a"))
                        context.insert(Itinerary(title: "w\(index)-\(operation)-b"))
                        try context.save()
                    }
                } else {
                    for operation in 0..<Self.operations {
                        let count = try context.fetchCount(FetchDescriptor<Itinerary>())
                        findings.withLock {
                            $0.countsSeen += 1
                            if count % 2 != 0 { $0.oddCounts.append(count) }
                        }
                        // Now and then, read every row: each pair is there whole or not at all.
                        if operation % 100 == 99 {
                            var halves: [Substring: Int] = [:]
                            for itinerary in try context.fetch(FetchDescriptor<Itinerary>()) {
                                halves[itinerary.title.dropLast(2), default: 0] += 1
                            }
                            let broken = halves.filter { $0.value != 2 }.map { String($0.key) }
                            if !broken.isEmpty { findings.withLock { $0.brokenPairs += broken } }
                        }
                    }
                }
            } catch {
                findings.withLock { $0.errors.append("\(index < Self.writers ? "writer" : "reader") \(index): \(error)") }
            }
        }
        let found = findings.withLock { $0 }
        #expect(found.errors.isEmpty, "\(found.errors.prefix(5))")
        #expect(found.oddCounts.isEmpty, "readers saw uncommitted states: \(found.oddCounts.prefix(10))")
        #expect(found.brokenPairs.isEmpty, "readers saw half pairs: \(found.brokenPairs.prefix(10))")
        #expect(found.countsSeen == Self.readers * Self.operations)
        let total = try ModelContext(container).fetchCount(FetchDescriptor<Itinerary>())
        #expect(total == Self.writers * Self.operations * 2)
        #expect(try StoreDump.integrity(try store.rawConnection()) == ["ok"])
    }
}
