import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Polymorphic and subclass fetches, sorting, limit, offset, counts.
@Suite struct FetchTests {
    /// Five trips of the three types, saved through the fixture's context.
    static func fixture(_ kind: StoreKind) throws -> StoreFixture {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let context = fixture.context
        context.insert(BusinessTrip(name: "Fair", startDate: Day.at(5), endDate: Day.at(6), company: "Beta"))
        context.insert(BusinessTrip(name: "Audit", startDate: Day.at(2), endDate: Day.at(3), company: "Acme"))
        context.insert(PersonalTrip(name: "Beach", startDate: Day.at(1), endDate: Day.at(9), reason: .vacation))
        context.insert(PersonalTrip(name: "Home", startDate: Day.at(4), endDate: Day.at(4), reason: .family))
        context.insert(Trip(name: "Errand", startDate: Day.at(3), endDate: Day.at(3)))
        try context.save()
        return fixture
    }

    @Test(arguments: StoreKind.allCases) func baseFetchReturnsEverySubclassAsItsOwnType(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let context = fixture.context
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(trips.map(\.name) == ["Beach", "Audit", "Errand", "Home", "Fair"])
        #expect(trips.map { "\(type(of: $0))" } == ["PersonalTrip", "BusinessTrip", "Trip", "PersonalTrip", "BusinessTrip"])
    }

    /// Lookups one after the other on one context run one statement through one kept decoder
    /// (`ModelContext.spareReader`): each fetch reads its rows from the first entity's positions
    /// on, whatever entity the fetch before ended on, with the fetch's own cells (PostgreSQL), and
    /// a fetch of another entity or statement in between reads through its own. Each name is
    /// looked up twice, the second time on another context, whose models are new.
    @Test(arguments: StoreKind.allCases) func consecutiveLookupsReadEachRowWithItsOwnEntitysColumns(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let setup = fixture.context
        for index in 0..<3 {
            setup.insert(Trip(name: "trip \(index)", startDate: Day.at(index), endDate: Day.at(index + 1)))
            setup.insert(BusinessTrip(name: "business \(index)", startDate: Day.at(index), endDate: Day.at(index + 2), company: "company \(index)"))
            let personal = PersonalTrip(name: "personal \(index)", startDate: Day.at(index), endDate: Day.at(index + 3), reason: .adventure)
            personal.companions = ["friend \(index)"]
            setup.insert(personal)
        }
        try setup.save()
        // Each entity after each other one.
        let order = ["personal 0", "trip 0", "business 0", "personal 1", "business 1", "trip 1", "personal 2", "trip 2", "business 2", "trip 0"]
        for context in [ModelContext(fixture.container), ModelContext(fixture.container)] {
            for name in order {
                let found = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name }))
                let trip = try #require(found.first, "\(name)")
                #expect(found.count == 1 && trip.name == name)
                let index = try #require(Int(name.split(separator: " ")[1]))
                switch name.split(separator: " ")[0] {
                case "trip":
                    #expect(type(of: trip) == Trip.self && trip.endDate == Day.at(index + 1), "\(name)")
                case "business":
                    let business = try #require(trip as? BusinessTrip, "\(name)")
                    #expect(business.company == "company \(index)" && business.endDate == Day.at(index + 2), "\(name)")
                default:
                    let personal = try #require(trip as? PersonalTrip, "\(name)")
                    #expect(personal.reason == .adventure && personal.companions == ["friend \(index)"] && personal.endDate == Day.at(index + 3), "\(name)")
                }
                // Between two lookups, a fetch of another entity of the hierarchy (its own
                // statement and positions), and one by identifier (another statement).
                let company = "company \(index)"
                let business = try context.fetch(FetchDescriptor<BusinessTrip>(predicate: #Predicate { $0.company == company }))
                #expect(business.map(\.name) == ["business \(index)"] && business.first?.company == company, "\(name)")
                let id = trip.persistentModelID
                #expect(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.persistentModelID == id })).map(\.name) == [name])
            }
        }
    }

    /// Rows of the three entities interleaved in key order (each row switches the decoder to its
    /// entity's positions): every model is of its row's class with its row's values, a second
    /// fetch gives the same instances (unchanged ones refreshed, a changed one kept), and an
    /// unreadable value of a subclass column is named by the subclass, the row and the property.
    @Test(arguments: StoreKind.allCases) func interleavedEntitiesReadTheirOwnColumns(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let setup = fixture.context
        for index in 0..<4 {
            setup.insert(Trip(name: "trip \(index)", startDate: Day.at(index), endDate: Day.at(index + 1)))
            setup.insert(BusinessTrip(name: "business \(index)", startDate: Day.at(index), endDate: Day.at(index + 2), company: "company \(index)"))
            let personal = PersonalTrip(name: "personal \(index)", startDate: Day.at(index), endDate: Day.at(index + 3),
                                        reason: index.isMultiple(of: 2) ? .family : .adventure)
            personal.companions = (0..<index).map { "friend \($0)" }
            setup.insert(personal)
        }
        try setup.save()

        let context = ModelContext(fixture.container)
        let trips = try context.fetch(FetchDescriptor<Trip>())
        #expect(trips.count == 12)
        for (position, trip) in trips.enumerated() {
            let index = position / 3
            switch position % 3 {
            case 0:
                #expect(type(of: trip) == Trip.self && trip.name == "trip \(index)" && trip.endDate == Day.at(index + 1))
            case 1:
                let business = try #require(trip as? BusinessTrip)
                #expect(business.name == "business \(index)" && business.company == "company \(index)" && business.endDate == Day.at(index + 2))
            default:
                let personal = try #require(trip as? PersonalTrip)
                #expect(personal.name == "personal \(index)" && personal.endDate == Day.at(index + 3))
                #expect(personal.reason == (index.isMultiple(of: 2) ? .family : .adventure))
                #expect(personal.companions == (0..<index).map { "friend \($0)" })
            }
        }

        // Another context renames every trip; this one changed the first business trip.
        let other = ModelContext(fixture.container)
        for trip in try other.fetch(FetchDescriptor<Trip>()) { trip.name += " (renamed)" }
        try other.save()
        let changed = try #require(trips[1] as? BusinessTrip)
        changed.company = "changed here"
        let again = try context.fetch(FetchDescriptor<Trip>())
        #expect(zip(again, trips).allSatisfy { $0 === $1 })
        #expect(again.enumerated().allSatisfy { $0.offset == 1 || $0.element.name.hasSuffix(" (renamed)") })
        #expect(changed.name == "business 0" && changed.company == "changed here")

        // A value no `Reason` has, in a subclass's own column of a row between other entities' rows.
        let personal = try #require(trips[5] as? PersonalTrip)
        let rowID = try #require(personal.persistentModelID.rowID)
        try fixture.store.rawConnection(through: fixture.container)
            .execute("UPDATE \"Trip\" SET \"PersonalTrip.reason\" = 'bogus' WHERE \"$pk\" = \(rowID)")
        let identifier = PersistentIdentifier(entityName: "PersonalTrip", rowID: rowID, store: fixture.container.storeIdentifier)
        #expect(throws: ModelStoreError.corruptRow(entity: "PersonalTrip", identifier: identifier, property: "reason", storedValue: "'bogus'")) {
            _ = try ModelContext(fixture.container).fetch(FetchDescriptor<Trip>())
        }
        // The row alone by its identifier: the plain fetch (the second time through the cache
        // entry's kept select, its decoder on the container's tables) names the row's own entity too.
        let lookup = ModelContext(fixture.container)
        for _ in 0..<3 {
            #expect(throws: ModelStoreError.corruptRow(entity: "PersonalTrip", identifier: identifier, property: "reason", storedValue: "'bogus'")) {
                _ = try lookup.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.persistentModelID == identifier }))
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func subclassFetchReturnsOnlyItsRows(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let context = fixture.context
        #expect(try context.fetch(FetchDescriptor<BusinessTrip>()).map(\.company).sorted() == ["Acme", "Beta"])
        #expect(try context.fetch(FetchDescriptor<PersonalTrip>()).count == 2)
        #expect(try context.fetchCount(FetchDescriptor<BusinessTrip>()) == 2)
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 5)
    }

    @Test(arguments: StoreKind.allCases) func sortsOnBaseAndOwnPropertiesBothWays(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let context = fixture.context
        let byCompany = try context.fetch(FetchDescriptor<BusinessTrip>(sortBy: [SortDescriptor(\.company, order: .reverse)]))
        #expect(byCompany.map(\.company) == ["Beta", "Acme"])
        let byInheritedName = try context.fetch(FetchDescriptor<BusinessTrip>(sortBy: [SortDescriptor(\.name)]))
        #expect(byInheritedName.map(\.name) == ["Audit", "Fair"])
        let byTwoKeys = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.endDate, order: .reverse), SortDescriptor(\.name)]))
        #expect(byTwoKeys.map(\.name) == ["Beach", "Fair", "Home", "Audit", "Errand"])
        let personal = try context.fetch(FetchDescriptor<PersonalTrip>(sortBy: [SortDescriptor(\.endDate)]))
        #expect(personal.map(\.reason) == [.family, .vacation])
    }

    @Test(arguments: StoreKind.allCases) func limitAndOffsetWindowTheResults(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let context = fixture.context
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.fetchLimit = 2
        #expect(try context.fetch(descriptor).map(\.name) == ["Audit", "Beach"])
        descriptor.fetchOffset = 2
        #expect(try context.fetch(descriptor).map(\.name) == ["Errand", "Fair"])
        descriptor.fetchLimit = nil
        #expect(try context.fetch(descriptor).map(\.name) == ["Errand", "Fair", "Home"])
        #expect(try context.fetchCount(descriptor) == 3)
    }

    @Test(arguments: StoreKind.allCases) func deletedButUnsavedModelsAreLeftOut(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let context = fixture.context
        let beach = try #require(try context.fetch(FetchDescriptor<PersonalTrip>(sortBy: [SortDescriptor(\.name)])).first)
        context.delete(beach)
        #expect(try context.fetch(FetchDescriptor<PersonalTrip>()).map(\.name) == ["Home"])
    }

    @Test(arguments: StoreKind.allCases) func sortingOnAToManyRelationshipIsAnError(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let context = fixture.context
        #expect(throws: ModelStoreError.self) {
            try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.accommodations.count)]))
        }
    }
}
