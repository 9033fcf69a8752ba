import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// #26, item 2: `enumerate` visits the rows that matched when it started, even when its block
/// inserts and saves. Item 12: a negative `fetchLimit` or `fetchOffset` is refused alike by every
/// fetch on every store (docs/Runtime.md, "Batches" and "Fetch windows").
@Suite struct EnumerateAndWindowTests {
    struct Runaway: Error {}

    func seeded(_ kind: StoreKind, count: Int) throws -> StoreFixture {
        let fixture = try StoreFixture(kind, TripStore.schema)
        for index in 0..<count {
            fixture.context.insert(Trip(name: "seed \(index)", startDate: Day.at(index), endDate: Day.at(index + 1)))
        }
        try fixture.context.save()
        return fixture
    }

    @Test("enumerate without a sort whose block inserts and saves visits the rows of the start, once each", arguments: StoreKind.allCases)
    func blockThatInsertsAndSaves(_ kind: StoreKind) throws {
        let fixture = try seeded(kind, count: 10)
        let context = fixture.context
        for predicate in [nil, #Predicate<Trip> { $0.name.starts(with: "seed") }] {
            let expected = try ModelContext(fixture.container).fetch(FetchDescriptor<Trip>(predicate: predicate)).map(\.name).sorted()
            var visited: [String] = []
            try context.enumerate(FetchDescriptor<Trip>(predicate: predicate), batchSize: 5) { trip in
                visited.append(trip.name)
                guard visited.count <= 100 else { throw Runaway() }
                context.insert(Trip(name: "seed from \(trip.name)", startDate: Day.at(0), endDate: Day.at(1)))
                try context.save()
            }
            #expect(visited.sorted() == expected)
        }
    }

    /// The bound is checked as the rows are read, not in the SQL (docs/Runtime.md, "Batches"): a
    /// batch that reaches rows stored since the start drops them and is the last, and no model of
    /// them stays registered. Another context saves more rows than a batch holds, during the first
    /// batch; with a window, the window is counted over the rows of the start.
    @Test("Rows another context saves while enumerate runs are not visited, and none of their models is kept", arguments: StoreKind.allCases)
    func rowsSavedElsewhereAreNotVisited(_ kind: StoreKind) throws {
        let fixture = try seeded(kind, count: 10)
        for (limit, offset) in [(nil, nil), (7, 2), (nil, 9), (3, 12)] as [(Int?, Int?)] {
            let reader = ModelContext(fixture.container)
            let writer = ModelContext(fixture.container)
            var descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.name.starts(with: "seed") })
            descriptor.fetchLimit = limit
            descriptor.fetchOffset = offset
            var visited: [String] = []
            try reader.enumerate(descriptor, batchSize: 4) { trip in
                visited.append(trip.name)
                guard visited.count <= 100 else { throw Runaway() }
                if visited.count == 1 {
                    for number in 0..<6 { writer.insert(Trip(name: "seed late \(number)", startDate: Day.at(0), endDate: Day.at(1))) }
                    try writer.save()
                }
            }
            let start = min(offset ?? 0, 10)
            let end = min(start + (limit ?? 10), 10)
            #expect(visited == (start..<end).map { "seed \($0)" }, "limit \(String(describing: limit)), offset \(String(describing: offset))")
            #expect(reader.registeredCount == 0)
            for late in try writer.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name.starts(with: "seed late") })) { writer.delete(late) }
            try writer.save()
        }
    }

    @Test("enumerate of an empty table visits nothing; one that deletes the last rows ends", arguments: StoreKind.allCases)
    func emptyAndShrinking(_ kind: StoreKind) throws {
        let empty = try StoreFixture(kind, TripStore.schema)
        var visits = 0
        try empty.context.enumerate(FetchDescriptor<Trip>(), batchSize: 5) { _ in visits += 1 }
        #expect(visits == 0)

        let fixture = try seeded(kind, count: 12)
        let context = fixture.context
        var names: [String] = []
        try context.enumerate(FetchDescriptor<Trip>(), batchSize: 5) { trip in
            names.append(trip.name)
            if names.count == 1 {
                // Delete the last rows (in the store) while the first batch runs.
                for late in try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "seed 10" || $0.name == "seed 11" })) {
                    context.delete(late)
                }
                try context.save()
            }
        }
        #expect(names == (0..<10).map { "seed \($0)" })
    }

    static let windows: [(limit: Int?, offset: Int?, message: String)] = [
        (-1, nil, "fetchLimit -1"), (nil, -1, "fetchOffset -1"), (-5, 2, "fetchLimit -5"), (3, Int.min, "fetchOffset \(Int.min)"),
    ]

    @Test("A negative fetchLimit or fetchOffset throws invalidFetch naming it, from every fetch", arguments: StoreKind.allCases)
    func negativeWindow(_ kind: StoreKind) throws {
        let fixture = try seeded(kind, count: 3)
        let context = fixture.context
        for pending in [false, true] {
            if pending { context.insert(Trip(name: "pending", startDate: Day.at(0), endDate: Day.at(1))) }
            for window in Self.windows {
                var descriptor = FetchDescriptor<Trip>(sortBy: pending ? [SortDescriptor(\.name)] : [])
                descriptor.fetchLimit = window.limit
                descriptor.fetchOffset = window.offset
                let calls: [(String, () throws -> Void)] = [
                    ("fetch", { _ = try context.fetch(descriptor) }),
                    ("fetchCount", { _ = try context.fetchCount(descriptor) }),
                    ("fetchIdentifiers", { _ = try context.fetchIdentifiers(descriptor) }),
                    ("fetch(batchSize:)", { _ = try context.fetch(descriptor, batchSize: 2) }),
                    ("enumerate", { try context.enumerate(descriptor, batchSize: 2) { _ in } }),
                ]
                for (name, call) in calls {
                    do {
                        try call()
                        Issue.record("\(name) with \(window) did not throw (pending: \(pending))")
                    } catch let error as ModelStoreError {
                        guard case .invalidFetch(let message) = error else {
                            Issue.record("\(name): \(error)")
                            continue
                        }
                        #expect(message.contains(window.message), "\(name): \(message)")
                    }
                }
            }
        }
    }

    @Test("A zero limit or offset is a window like any other", arguments: StoreKind.allCases)
    func zeroWindow(_ kind: StoreKind) throws {
        let fixture = try seeded(kind, count: 3)
        var descriptor = FetchDescriptor<Trip>()
        descriptor.fetchLimit = 0
        #expect(try fixture.context.fetch(descriptor).isEmpty)
        #expect(try fixture.context.fetchCount(descriptor) == 0)
        descriptor.fetchLimit = nil
        descriptor.fetchOffset = 0
        #expect(try fixture.context.fetchCount(descriptor) == 3)
    }
}
