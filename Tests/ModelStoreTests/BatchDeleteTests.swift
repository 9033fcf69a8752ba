import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Deleting many models in one save: their cascading relationships are loaded together, and the
/// result is the same as one by one (rows, tombstones, in-memory state).
@Suite struct BatchDeleteTests {
    /// The test's store, with a container on it and a context.
    static func fixture(_ kind: StoreKind) throws -> StoreFixture {
        try StoreFixture(kind, TripStore.schema)
    }

    /// `count` trips with two stays each, plus a stay of no trip; saved.
    func seed(_ fixture: StoreFixture, trips count: Int) throws {
        let container = fixture.container
        let context = ModelContext(container)
        for number in 0..<count {
            let trip = Trip(name: "Trip \(number)", startDate: Day.at(number), endDate: Day.at(number + 1))
            context.insert(trip)
            for stay in 1...2 {
                let accommodation = Accommodation(name: "Stay \(stay) of \(number)")
                context.insert(accommodation)
                accommodation.trip = trip
            }
        }
        context.insert(Accommodation(name: "Unattached"))
        try context.save()
    }

    @Test(arguments: StoreKind.allCases, [0, 1, 2, 7, KeyList.chunk - 1, KeyList.chunk, KeyList.chunk + 1])
    func cascadeOfManyTrips(_ kind: StoreKind, count: Int) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        try seed(fixture, trips: count)
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.count == count)
        let stays = trips.flatMap { $0.accommodations }
        for trip in trips { context.delete(trip) }
        try context.save()
        let check = ModelContext(container)
        #expect(try check.fetchCount(FetchDescriptor<Trip>()) == 0)
        #expect(try check.fetch(FetchDescriptor<Accommodation>()).map(\.name) == ["Unattached"])
        #expect(try check.allHistory().deletes(of: Trip.self).count == count)
        #expect(try check.allHistory().deletes(of: Accommodation.self).count == 2 * count)
        #expect(stays.count == 2 * count && stays.allSatisfy(\.isDeleted))
    }

    /// The stays are not in memory: read by set, in two chunks of owner keys, the trips deleted in
    /// name order ("Trip 0", "Trip 1", "Trip 10", …), not in key order, or in descending key order.
    /// Every stay goes, and `didSave` lists each trip's stays after the trips, trip by trip, in
    /// key order (the order one-by-one loading gives).
    @Test(arguments: StoreKind.allCases, [false, true])
    func cascadeReadsStaysOfTripsOutOfKeyOrderBySet(_ kind: StoreKind, descending: Bool) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        let count = KeyList.chunk + 1
        try seed(fixture, trips: count)
        let stays = try fixture.store.rawConnection(through: container).rows(#"SELECT "$pk", "trip" FROM "Accommodation" WHERE "trip" IS NOT NULL ORDER BY "$pk""#)
        var staysOfTrip: [Int64: [Int64]] = [:]
        for row in stays {
            guard case .integer(let key) = row[0], case .integer(let trip) = row[1] else { continue }
            staysOfTrip[trip, default: []].append(key)
        }
        let context = ModelContext(container)
        var trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        if descending { trips.sort { ($0.persistentModelID.rowID ?? 0) > ($1.persistentModelID.rowID ?? 0) } }
        #expect(trips.count == count)
        for trip in trips { context.delete(trip) }
        let listed = Locked<[PersistentIdentifier]>([])
        let observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { note in
            let identifiers = note.userInfo?[ModelContext.NotificationKey.deletedIdentifiers.rawValue] as? [PersistentIdentifier] ?? []
            listed.withLock { $0 += identifiers }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.save()
        let deleted = listed.value
        let tripKeys = trips.compactMap(\.persistentModelID.rowID)
        let expected = tripKeys + tripKeys.flatMap { staysOfTrip[$0] ?? [] }
        #expect(deleted.map(\.rowID) == expected.map(Optional.some))
        #expect(deleted.map(\.entityName) == Array(repeating: "Trip", count: count) + Array(repeating: "Accommodation", count: 2 * count))
        let check = ModelContext(container)
        #expect(try check.fetch(FetchDescriptor<Accommodation>()).map(\.name) == ["Unattached"])
        #expect(try check.allHistory().deletes(of: Accommodation.self).count == 2 * count)
    }

    @Test(arguments: StoreKind.allCases) func loadedRelationshipsAreKeptAndUnloadedOnesMatchTheStore(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        try seed(fixture, trips: 3)
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        // Move one stay in memory from trip 0 to trip 1 (unsaved); trip 1's list was loaded first.
        _ = trips[1].accommodations
        let moved = trips[0].accommodations[0]
        moved.trip = trips[1]
        #expect(trips[1].accommodations.count == 3)
        context.delete(trips[1])
        context.delete(trips[2])
        try context.save()
        let check = ModelContext(container)
        // Trip 1's three stays (in memory) and trip 2's two went; trip 0 keeps its other stay.
        let left = try check.fetch(FetchDescriptor<Accommodation>()).map(\.name).sorted()
        #expect(left == ["Stay 2 of 0", "Unattached"])
        #expect(trips[0].accommodations.map(\.name) == ["Stay 2 of 0"])
    }
}
