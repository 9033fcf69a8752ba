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
