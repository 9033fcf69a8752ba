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
