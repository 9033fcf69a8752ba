import Foundation
import Observation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// `enumerate(_:batchSize:allowEscapingMutations:_:)` and `fetch(_:batchSize:)`: the same models
/// as `fetch`, in the same order, read a batch at a time, and let go of after their batch.
@Suite struct BatchTests {
    /// `count` trips named "trip 0000"… in key order, of the three classes in turn.
    func seed(_ store: QueryStore, _ count: Int) throws {
        let context = store.context()
        for index in 0..<count {
            let name = String(format: "trip %04d", index)
            switch index % 3 {
            case 0: context.insert(Trip(name: name, startDate: Day.at(index % 7), endDate: Day.at(index)))
            case 1: context.insert(BusinessTrip(name: name, startDate: Day.at(index % 7), endDate: Day.at(index), company: "Acme"))
            default: context.insert(PersonalTrip(name: name, startDate: Day.at(index % 7), endDate: Day.at(index), reason: .family))
            }
        }
        try context.save()
    }

    func enumerated<T: PersistentModel>(_ context: ModelContext, _ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> [T] {
        var seen: [T] = []
        try context.enumerate(descriptor, batchSize: batchSize) { seen.append($0) }
        return seen
    }

    @Test(arguments: StoreKind.allCases) func enumerateGivesWhatFetchGivesInOrder(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try seed(store, 50)
        let context = store.context()
        var descriptors: [FetchDescriptor<Trip>] = [
            FetchDescriptor(),
            FetchDescriptor(predicate: #Predicate { $0.name != "trip 0003" }),
            FetchDescriptor(sortBy: [SortDescriptor(\.startDate, order: .reverse), SortDescriptor(\.name)]),
        ]
        var windowed = FetchDescriptor<Trip>()
        windowed.fetchOffset = 5
        windowed.fetchLimit = 17
        descriptors.append(windowed)
        var sortedWindow = descriptors[2]
        sortedWindow.fetchOffset = 3
        sortedWindow.fetchLimit = 30
        descriptors.append(sortedWindow)
        for descriptor in descriptors {
            let expected = try context.fetch(descriptor)
            for batchSize in [1, 7, 50, 5000] {
                let seen = try enumerated(context, descriptor, batchSize: batchSize)
                #expect(seen.map(ObjectIdentifier.init) == expected.map(ObjectIdentifier.init), "batch size \(batchSize)")
            }
        }
        let business = try enumerated(context, FetchDescriptor<BusinessTrip>(), batchSize: 4)
        #expect(business.count == 17 && business.allSatisfy { $0.company == "Acme" })
    }

    @Test(arguments: StoreKind.allCases) func enumerateSeesPendingChanges(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try seed(store, 30)
        let context = store.context()
        let trips = try context.fetch(FetchDescriptor<Trip>())
        trips[3].name = "a first"
        context.delete(trips[4])
        context.insert(Trip(name: "trip 0010a", startDate: Day.at(0), endDate: Day.at(0)))
        let sorted = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        let seen = try enumerated(context, sorted, batchSize: 4)
        #expect(seen.map(ObjectIdentifier.init) == (try context.fetch(sorted)).map(ObjectIdentifier.init))
        #expect(seen.first?.name == "a first" && seen.count == 30 && !seen.contains { $0 === trips[4] })
        #expect(seen.contains { $0.name == "trip 0010a" })
        var stored = FetchDescriptor<Trip>()
        stored.includePendingChanges = false
        let storedOnly = try enumerated(context, stored, batchSize: 4)
        #expect(storedOnly.count == 30 && storedOnly.contains { $0 === trips[4] })
    }

    @Test(arguments: StoreKind.allCases) func enumerateReleasesTheModelsOfFinishedBatches(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try seed(store, 2_000)
        let context = store.context()
        let held = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "trip 1500" }))[0]
        var most = 0
        var count = 0
        try context.enumerate(FetchDescriptor<Trip>(), batchSize: 100) { _ in
            count += 1
            most = max(most, context.registeredCount)
        }
        #expect(count == 2_000)
        // One batch (and the model held outside), never the whole table.
        #expect(most <= 101)
        #expect(context.registeredCount <= 101)
        // The held model is still the row's one instance.
        #expect(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "trip 1500" }))[0] === held)
        // A sorted enumeration too.
        most = 0
        try context.enumerate(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name, order: .reverse)]), batchSize: 100) { _ in
            most = max(most, context.registeredCount)
        }
        #expect(most <= 101)
    }

    /// A weak reference to a model.
    struct WeakModel {
        weak var model: Trip?
    }

    /// A finished batch's models leave the identity map at once, and are deallocated while the
    /// next batch is read, one before each model the read makes (so the read's allocations reuse
    /// what the allocator just got back: docs/Runtime.md, "Batches"); none is left when the block
    /// sees the next batch, all are gone when `enumerate` returns, and a sorted enumeration does
    /// the same.
    @Test(arguments: StoreKind.allCases) func aFinishedBatchsModelsGoWhileTheNextBatchIsRead(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try seed(store, 35)
        let context = store.context()
        for descriptor in [FetchDescriptor<Trip>(), FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name, order: .reverse)])] {
            var weak: [WeakModel] = []
            var calls = 0
            try context.enumerate(descriptor, batchSize: 10) { trip in
                let batch = calls / 10, position = calls % 10
                if batch > 0 && position == 0 {
                    // Alive while their batch's block calls ran, gone once the next batch is read.
                    #expect(weak[(batch - 1) * 10..<batch * 10].allSatisfy { $0.model == nil }, "call \(calls)")
                }
                if position == 9 { #expect(weak[batch * 10..<calls].allSatisfy { $0.model != nil }) }
                weak.append(WeakModel(model: trip))
                calls += 1
            }
            #expect(calls == 35)
            #expect(weak.allSatisfy { $0.model == nil })
            #expect(context.registeredCount == 0)
        }
    }

    /// The registrar of a released model (made by an observed read) is taken out of it before
    /// the model goes, and destroyed during the next batch's block calls, one after each call;
    /// an observation of the model ends with it. Destroyed on every way out of `enumerate`: the
    /// end, a block that throws.
    @Test(arguments: StoreKind.allCases) func aReleasedModelsRegistrarGoesDuringTheNextBatchsBlockCalls(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try seed(store, 30)
        let context = store.context()
        /// Held by an observation's `onChange` only: alive while the registrar holding it is.
        final class Token: Sendable {}
        struct Stop: Error {}
        for stopAt in [nil, 10, 11] as [Int?] {
            weak var first: Token?, second: Token?
            var calls = 0
            do {
                try context.enumerate(FetchDescriptor<Trip>(), batchSize: 10) { trip in
                    // Observed reads of the batch's first two models only: two registrars to destroy.
                    if calls == 0 || calls == 1 {
                        let token = Token()
                        if calls == 0 { first = token } else { second = token }
                        withObservationTracking { _ = trip.name } onChange: { _ = token }
                    }
                    if calls == stopAt { throw Stop() }
                    switch calls {
                    case 2..<10: #expect(first != nil && second != nil, "call \(calls)")
                    // The last taken goes first: after the first call of the next batch, then the other.
                    case 10: #expect(first != nil && second != nil)
                    case 11: #expect(first != nil && second == nil)
                    case 12...: #expect(first == nil && second == nil, "call \(calls)")
                    default: break
                    }
                    calls += 1
                }
                #expect(stopAt == nil && calls == 30)
            } catch is Stop {
                #expect(stopAt != nil)
            }
            #expect(first == nil && second == nil, "stopped at \(stopAt.map(String.init) ?? "none")")
            // A block that throws leaves its batch registered, as a fetch would.
            #expect(context.registeredCount == (stopAt == nil ? 0 : 10))
        }
    }

    /// Models held only by a released model (prefetched stays, held by their trip's to-many
    /// relationship) are released with it after its batch, in the release's later pass: the
    /// context never holds more than one batch's trips and their stays.
    @Test(arguments: StoreKind.allCases) func modelsHeldByReleasedModelsGoAfterTheirBatch(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try seedTrips(store.context(), names: (0..<40).map { "trip \($0)" }, stays: 2)
        let context = store.context()
        var descriptor = FetchDescriptor<Trip>()
        descriptor.relationshipKeyPathsForPrefetching = [\.accommodations]
        var most = 0, stays = 0
        try context.enumerate(descriptor, batchSize: 8) { trip in
            stays += trip.accommodations.count
            most = max(most, context.registeredCount)
        }
        #expect(stays == 80)
        #expect(most <= 8 * 3, "one batch's trips and their stays at most, not \(most)")
        #expect(context.registeredCount == 0)
    }

    @Test(arguments: StoreKind.allCases) func mutationsMustBeSavedUnlessAllowedToEscape(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try seed(store, 20)
        let context = store.context()
        #expect(throws: ModelStoreError.escapingMutations) {
            try context.enumerate(FetchDescriptor<Trip>(), batchSize: 5) { trip in trip.name += "!" }
        }
        #expect(context.changedModelsArray.count == 1)
        context.rollback()
        // Saving inside the block.
        try context.enumerate(FetchDescriptor<Trip>(), batchSize: 5) { trip in
            trip.name += "?"
            try context.save()
        }
        // Allowed to escape: changed models stay in memory until saved.
        var changed: [ObjectIdentifier] = []
        try context.enumerate(FetchDescriptor<Trip>(), batchSize: 5, allowEscapingMutations: true) { trip in
            if trip.name.hasSuffix("1?") {
                trip.name += "+"
                changed.append(ObjectIdentifier(trip))
            }
        }
        #expect(Set(context.changedModelsArray.map { ObjectIdentifier($0) }) == Set(changed) && changed.count == 2)
        try context.save()
        let names = try store.context().fetch(FetchDescriptor<Trip>()).map(\.name)
        #expect(names.filter { $0.hasSuffix("?+") } == ["trip 0001?+", "trip 0011?+"])
        #expect(names.allSatisfy { $0.contains("?") })
    }

    @Test(arguments: StoreKind.allCases) func deletingInsideTheBlockDoesNotEndTheEnumeration(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try seed(store, 40)
        let context = store.context()
        var seen: [String] = []
        try context.enumerate(FetchDescriptor<Trip>(), batchSize: 6, allowEscapingMutations: true) { trip in
            seen.append(trip.name)
            if seen.count == 1 {
                // Rows of the next batches, deleted before they are read.
                let ahead = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name >= "trip 0010" && $0.name < "trip 0016" }))
                ahead.forEach(context.delete)
            }
            if seen.count % 2 == 0 { context.delete(trip) }
        }
        #expect(seen.count == 34 && seen.last == "trip 0039" && !seen.contains("trip 0012"))
        #expect(context.deletedModelsArray.count == 6 + 17)
    }

    @Test(arguments: StoreKind.allCases) func swiftDataSpellingsAndBadBatchSizes(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try seed(store, 3)
        let context = store.context()
        var names: [String] = []
        try context.enumerate(FetchDescriptor<Trip>(), batchSize: 2, block: { names.append($0.name) })
        #expect(names == ["trip 0000", "trip 0001", "trip 0002"])
        #expect(throws: ModelStoreError.invalidFetch("batchSize 0: a batch holds at least one model")) {
            try context.enumerate(FetchDescriptor<Trip>(), batchSize: 0) { _ in }
        }
        #expect(throws: ModelStoreError.self) { _ = try context.fetch(FetchDescriptor<Trip>(), batchSize: -1) }
    }

    // MARK: fetch(_:batchSize:)

    @Test(arguments: StoreKind.allCases) func aBatchedFetchIsTheFetchReadABatchAtATime(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try seed(store, 95)
        let context = store.context()
        let descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.endDate, order: .reverse)])
        let results = try context.fetch(descriptor, batchSize: 10)
        #expect(results.count == 95)
        #expect(context.registeredCount == 0)
        let first = results[0]
        #expect(context.registeredCount == 10)
        _ = results[94]
        // The first batch went (nothing held it but `first`), the last one is in memory.
        #expect(context.registeredCount == 5 + 1)
        #expect(results[0] === first)
        let expected = try store.context().fetch(descriptor).map(\.name)
        #expect(results.map(\.name) == expected)
        #expect(results.reversed().map(\.name) == expected.reversed())
        #expect(results[40..<43].map(\.name) == Array(expected[40..<43]))
    }

    @Test(arguments: StoreKind.allCases) func aBatchedFetchHoldsPendingChangesOfItsMoment(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try seed(store, 12)
        let context = store.context()
        let new = Trip(name: "trip 0005a", startDate: Day.at(0), endDate: Day.at(0))
        context.insert(new)
        let trips = try context.fetch(FetchDescriptor<Trip>())
        context.delete(trips[0])
        let results = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]), batchSize: 4)
        #expect(results.count == 12)
        #expect(results[5] === new && results.first?.name == "trip 0001")
        #expect(Array(results.map(\.name)) == (try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))).map(\.name))
    }
}

/// The block gets each model borrowed from its batch (docs/Benchmarks.md, "Reads"): the batch keeps
/// it alive through the call, whatever the block does with the context.
@Suite struct BatchBorrowTests {
    @Test(arguments: StoreKind.allCases) func aNestedEnumerationOfTheSameRowsGivesTheSameModels(_ kind: StoreKind) throws {
        let store = try QueryStore(kind, TripStore.schema)
        try BatchTests().seed(store, 40)
        let context = store.context()
        var outer = 0
        var kept: [ObjectIdentifier: Trip] = [:]
        try context.enumerate(FetchDescriptor<Trip>(), batchSize: 7) { trip in
            outer += 1
            let name = trip.name
            // The inner enumeration registers and releases models of its own batches; the outer
            // model is its row's one instance there too, and still whole after it.
            var inner = 0
            var sameInstance = false
            try context.enumerate(FetchDescriptor<Trip>(), batchSize: 3) { other in
                inner += 1
                if other.persistentModelID == trip.persistentModelID { sameInstance = other === trip }
            }
            #expect(inner == 40 && sameInstance)
            #expect(trip.name == name && trip.modelContext === context)
            if outer.isMultiple(of: 5) { kept[ObjectIdentifier(trip)] = trip }
        }
        #expect(outer == 40)
        // Models the block kept are still their rows' instances.
        let all = try context.fetch(FetchDescriptor<Trip>())
        #expect(kept.values.allSatisfy { model in all.contains { $0 === model } })
    }
}
