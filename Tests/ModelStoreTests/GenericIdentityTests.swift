import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Identity key paths in predicates written in generic code over `T: PersistentModel` (#27).
@Suite struct GenericIdentityTests {
    /// The helper SwiftData apps write: the model with an identifier, through a fetch.
    func existing<T: PersistentModel>(_ id: PersistentIdentifier, in context: ModelContext) throws -> T? {
        try context.fetch(FetchDescriptor<T>(predicate: #Predicate { $0.persistentModelID == id })).first
    }

    func existingByID<T: PersistentModel>(_ id: PersistentIdentifier, in context: ModelContext) throws -> [T] where T.ID == PersistentIdentifier {
        try context.fetch(FetchDescriptor<T>(predicate: #Predicate { $0.id == id }))
    }

    func others<T: PersistentModel>(_ ids: [PersistentIdentifier], in context: ModelContext) throws -> [T] {
        try context.fetch(FetchDescriptor<T>(predicate: #Predicate { !ids.contains($0.persistentModelID) }))
    }

    @Test(arguments: StoreKind.allCases) func persistentModelIDInGenericPredicates(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let paris = Trip(name: "Paris", startDate: Day.at(0), endDate: Day.at(1))
        let rome = BusinessTrip(name: "Rome", startDate: Day.at(0), endDate: Day.at(1), company: "ACME")
        let stay = Accommodation(name: "Hotel")
        for model in [paris, rome] as [any PersistentModel] { fixture.context.insert(model) }
        fixture.context.insert(stay)
        try fixture.context.save()
        let context = ModelContext(fixture.container)
        let found: Trip? = try existing(paris.persistentModelID, in: context)
        #expect(found?.name == "Paris")
        let business: BusinessTrip? = try existing(rome.persistentModelID, in: context)
        #expect(business?.company == "ACME")
        let asTrip: Trip? = try existing(rome.persistentModelID, in: context)
        #expect(asTrip?.name == "Rome")
        let wrongEntity: Accommodation? = try existing(paris.persistentModelID, in: context)
        #expect(wrongEntity == nil)
        let byID: [Trip] = try existingByID(paris.persistentModelID, in: context)
        #expect(byID.map(\.name) == ["Paris"])
        let rest: [Trip] = try others([paris.persistentModelID], in: context)
        #expect(rest.map(\.name) == ["Rome"])
    }

    @Test func anUnknownKeyPathIsNamedWithoutAnAddress() throws {
        let context = ModelContext(try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        do {
            _ = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.hasChanges }))
            Issue.record("a computed property was translated")
        } catch let error as ModelStoreError {
            let text = error.description
            #expect(text.contains("Trip"), "\(text)")
            #expect(text.contains("a computed property of type Bool"), "\(text)")
            #expect(!text.contains("0x"), "\(text)")
        }
    }
}
