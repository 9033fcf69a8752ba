import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// SPEC §5's predicate examples, and the error for an expression outside the supported set.
@Suite struct PredicateSpecExampleTests {
    private func makeStore() throws -> (ModelContainer, ModelContext) {
        let container = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(BusinessTrip(name: "Offsite", startDate: Day.at(3), endDate: Day.at(5), company: "Acme"))
        context.insert(PersonalTrip(name: "Beach", startDate: Day.at(1), endDate: Day.at(9), reason: .vacation))
        context.insert(PersonalTrip(name: "Grandma", startDate: Day.at(4), endDate: Day.at(6), reason: .family))
        context.insert(Trip(name: "Errand", startDate: Day.at(2), endDate: Day.at(2)))
        let hotel = Accommodation(name: "Hotel")
        hotel.trip = try #require(context.insertedModelsArray.first as? Trip)
        context.insert(hotel)
        try context.save()
        return (container, context)
    }

    @Test func subclassTest() throws {
        let (_, context) = try makeStore()
        let business = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0 is BusinessTrip }))
        #expect(business.map(\.name) == ["Offsite"])
        #expect(business.allSatisfy { $0 is BusinessTrip })
    }

    @Test func conditionalCastWithIfLet() throws {
        let (_, context) = try makeStore()
        let wanted = PersonalTrip.Reason.vacation
        let vacation = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { trip in
            if let personal = trip as? PersonalTrip { personal.reason == wanted } else { false }
        }))
        #expect(vacation.map(\.name) == ["Beach"])
    }

    @Test func batchDeleteWithPredicate() throws {
        let (_, context) = try makeStore()
        let cutoff = Day.at(5)
        try context.delete(model: Trip.self, where: #Predicate { $0.endDate < cutoff })
        try context.save()
        let left = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(left.map(\.name) == ["Beach", "Grandma", "Offsite"])
    }

    @Test func toOneKeyPathAndCount() throws {
        let (_, context) = try makeStore()
        let count = try context.fetchCount(FetchDescriptor<Accommodation>(predicate: #Predicate { $0.trip?.name == "Offsite" }))
        #expect(count == 1)
        let none = try context.fetchCount(FetchDescriptor<Accommodation>(predicate: #Predicate { $0.trip == nil }))
        #expect(none == 0)
        let withStay = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { !$0.accommodations.isEmpty }))
        #expect(withStay.map(\.name) == ["Offsite"])
    }

    @Test func predicateOnASubclassFetch() throws {
        let (_, context) = try makeStore()
        let trips = try context.fetch(FetchDescriptor<PersonalTrip>(predicate: #Predicate { $0.name.starts(with: "G") }))
        #expect(trips.map(\.name) == ["Grandma"])
    }

    @Test func filteringHappensInSQL() throws {
        let (container, _) = try makeStore()
        let context = ModelContext(container)
        let found = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name.contains("ea") }))
        #expect(found.map(\.name) == ["Beach"])
        // Only the matching row was read into the fresh context.
        #expect(context.registered.map(\.count).reduce(0, +) == 1)
    }

    @Test func unsupportedExpressionIsNamed() throws {
        let (_, context) = try makeStore()
        let predicate = #Predicate<PersonalTrip> { $0.companions[0] == "Ann" }
        #expect {
            _ = try context.fetch(FetchDescriptor<PersonalTrip>(predicate: predicate))
        } throws: { error in
            "\(error)".contains("unsupported predicate expression PredicateExpressions.CollectionIndexSubscript")
        }
    }

    @Test func otherUnsupportedExpressionsAreNamed() throws {
        let container = try ModelContainer(for: Shop.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let cases: [(Predicate<Product>, String)] = [
            (#Predicate<Product> { $0.barcode! > 3 }, "PredicateExpressions.ForcedUnwrap"),
            (#Predicate<Product> { ($0 as! DigitalProduct).fileSize > 3 }, "PredicateExpressions.ForceCast"),
            (#Predicate<Product> { $0.sizes.filter { $0 > 40 }.isEmpty }, "PredicateExpressions.Filter"),
            (#Predicate<Product> { ($0.rating ?? 0) * 2 > 3 }, "arithmetic on Float"),
            (#Predicate<Product> { $0.price + $0.price > $0.price }, "arithmetic on Decimal"),
        ]
        for (predicate, name) in cases {
            expectUnsupported(name) { _ = try context.fetchCount(FetchDescriptor<Product>(predicate: predicate)) }
        }
    }

    @Test func transientOrUnknownKeyPathIsNamed() throws {
        let container = try ModelContainer(for: Shop.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        #expect {
            _ = try context.fetch(FetchDescriptor<Product>(predicate: #Predicate { $0.isSelected }))
        } throws: { error in
            "\(error)".contains("is not a stored property of Product")
        }
    }
}
