import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Polymorphic and subclass fetches, sorting, limit, offset, counts.
@Suite struct FetchTests {
    let container: ModelContainer
    let context: ModelContext

    init() throws {
        container = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        context = ModelContext(container)
        context.insert(BusinessTrip(name: "Fair", startDate: Day.at(5), endDate: Day.at(6), company: "Beta"))
        context.insert(BusinessTrip(name: "Audit", startDate: Day.at(2), endDate: Day.at(3), company: "Acme"))
        context.insert(PersonalTrip(name: "Beach", startDate: Day.at(1), endDate: Day.at(9), reason: .vacation))
        context.insert(PersonalTrip(name: "Home", startDate: Day.at(4), endDate: Day.at(4), reason: .family))
        context.insert(Trip(name: "Errand", startDate: Day.at(3), endDate: Day.at(3)))
        try context.save()
    }

    @Test func baseFetchReturnsEverySubclassAsItsOwnType() throws {
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(trips.map(\.name) == ["Beach", "Audit", "Errand", "Home", "Fair"])
        #expect(trips.map { "\(type(of: $0))" } == ["PersonalTrip", "BusinessTrip", "Trip", "PersonalTrip", "BusinessTrip"])
    }

    @Test func subclassFetchReturnsOnlyItsRows() throws {
        #expect(try context.fetch(FetchDescriptor<BusinessTrip>()).map(\.company).sorted() == ["Acme", "Beta"])
        #expect(try context.fetch(FetchDescriptor<PersonalTrip>()).count == 2)
        #expect(try context.fetchCount(FetchDescriptor<BusinessTrip>()) == 2)
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 5)
    }

    @Test func sortsOnBaseAndOwnPropertiesBothWays() throws {
        let byCompany = try context.fetch(FetchDescriptor<BusinessTrip>(sortBy: [SortDescriptor(\.company, order: .reverse)]))
        #expect(byCompany.map(\.company) == ["Beta", "Acme"])
        let byInheritedName = try context.fetch(FetchDescriptor<BusinessTrip>(sortBy: [SortDescriptor(\.name)]))
        #expect(byInheritedName.map(\.name) == ["Audit", "Fair"])
        let byTwoKeys = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.endDate, order: .reverse), SortDescriptor(\.name)]))
        #expect(byTwoKeys.map(\.name) == ["Beach", "Fair", "Home", "Audit", "Errand"])
        let personal = try context.fetch(FetchDescriptor<PersonalTrip>(sortBy: [SortDescriptor(\.endDate)]))
        #expect(personal.map(\.reason) == [.family, .vacation])
    }

    @Test func limitAndOffsetWindowTheResults() throws {
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.fetchLimit = 2
        #expect(try context.fetch(descriptor).map(\.name) == ["Audit", "Beach"])
        descriptor.fetchOffset = 2
        #expect(try context.fetch(descriptor).map(\.name) == ["Errand", "Fair"])
        descriptor.fetchLimit = nil
        #expect(try context.fetch(descriptor).map(\.name) == ["Errand", "Fair", "Home"])
        #expect(try context.fetchCount(descriptor) == 3)
    }

    @Test func deletedButUnsavedModelsAreLeftOut() throws {
        let beach = try #require(try context.fetch(FetchDescriptor<PersonalTrip>(sortBy: [SortDescriptor(\.name)])).first)
        context.delete(beach)
        #expect(try context.fetch(FetchDescriptor<PersonalTrip>()).map(\.name) == ["Home"])
    }

    @Test func sortingOnAToManyRelationshipIsAnError() throws {
        #expect(throws: ModelStoreError.self) {
            try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.accommodations.count)]))
        }
    }
}
