import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// docs/Runtime.md predicate examples, and the error for an expression outside the supported set.
@Suite struct PredicateSpecExampleTests {
    private func makeStore(_ kind: StoreKind) throws -> StoreFixture {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let context = fixture.context
        context.insert(BusinessTrip(name: "Offsite", startDate: Day.at(3), endDate: Day.at(5), company: "Acme"))
        context.insert(PersonalTrip(name: "Beach", startDate: Day.at(1), endDate: Day.at(9), reason: .vacation))
        context.insert(PersonalTrip(name: "Grandma", startDate: Day.at(4), endDate: Day.at(6), reason: .family))
        context.insert(Trip(name: "Errand", startDate: Day.at(2), endDate: Day.at(2)))
        let hotel = Accommodation(name: "Hotel")
        hotel.trip = try #require(context.insertedModelsArray.first as? Trip)
        context.insert(hotel)
        try context.save()
        return fixture
    }

    @Test(arguments: StoreKind.allCases) func subclassTest(_ kind: StoreKind) throws {
        let fixture = try makeStore(kind)
        let context = fixture.context
        let business = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0 is BusinessTrip }))
        #expect(business.map(\.name) == ["Offsite"])
        #expect(business.allSatisfy { $0 is BusinessTrip })
    }

    @Test(arguments: StoreKind.allCases) func conditionalCastWithIfLet(_ kind: StoreKind) throws {
        let fixture = try makeStore(kind)
        let context = fixture.context
        let wanted = PersonalTrip.Reason.vacation
        let vacation = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { trip in
            if let personal = trip as? PersonalTrip { personal.reason == wanted } else { false }
        }))
        #expect(vacation.map(\.name) == ["Beach"])
    }

    @Test(arguments: StoreKind.allCases) func batchDeleteWithPredicate(_ kind: StoreKind) throws {
        let fixture = try makeStore(kind)
        let context = fixture.context
        let cutoff = Day.at(5)
        try context.delete(model: Trip.self, where: #Predicate { $0.endDate < cutoff })
        try context.save()
        let left = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(left.map(\.name) == ["Beach", "Grandma", "Offsite"])
    }

    @Test(arguments: StoreKind.allCases) func toOneKeyPathAndCount(_ kind: StoreKind) throws {
        let fixture = try makeStore(kind)
        let context = fixture.context
        let count = try context.fetchCount(FetchDescriptor<Accommodation>(predicate: #Predicate { $0.trip?.name == "Offsite" }))
        #expect(count == 1)
        let none = try context.fetchCount(FetchDescriptor<Accommodation>(predicate: #Predicate { $0.trip == nil }))
        #expect(none == 0)
        let withStay = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { !$0.accommodations.isEmpty }))
        #expect(withStay.map(\.name) == ["Offsite"])
    }

    @Test(arguments: StoreKind.allCases) func predicateOnASubclassFetch(_ kind: StoreKind) throws {
        let fixture = try makeStore(kind)
        let context = fixture.context
        let trips = try context.fetch(FetchDescriptor<PersonalTrip>(predicate: #Predicate { $0.name.starts(with: "G") }))
        #expect(trips.map(\.name) == ["Grandma"])
    }

    @Test(arguments: StoreKind.allCases) func filteringHappensInSQL(_ kind: StoreKind) throws {
        let fixture = try makeStore(kind)
        let container = fixture.container
        let context = ModelContext(container)
        let found = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name.contains("ea") }))
        #expect(found.map(\.name) == ["Beach"])
        // Only the matching row was read into the fresh context.
        #expect(context.registered.map(\.count).reduce(0, +) == 1)
    }

    @Test(arguments: StoreKind.allCases) func unsupportedExpressionIsNamed(_ kind: StoreKind) throws {
        let fixture = try makeStore(kind)
        let context = fixture.context
        let predicate = #Predicate<PersonalTrip> { $0.companions[0] == "Ann" }
        #expect {
            _ = try context.fetch(FetchDescriptor<PersonalTrip>(predicate: predicate))
        } throws: { error in
            "\(error)".contains("unsupported predicate expression PredicateExpressions.CollectionIndexSubscript")
        }
    }

    @Test(arguments: StoreKind.allCases) func otherUnsupportedExpressionsAreNamed(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, Shop.schema)
        let context = fixture.context
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

    @Test(arguments: StoreKind.allCases) func transientOrUnknownKeyPathIsNamed(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, Shop.schema)
        let context = fixture.context
        #expect {
            _ = try context.fetch(FetchDescriptor<Product>(predicate: #Predicate { $0.isSelected }))
        } throws: { error in
            "\(error)".contains("is not a stored property of Product")
        }
    }
}
