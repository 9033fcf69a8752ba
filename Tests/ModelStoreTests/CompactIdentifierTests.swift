import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// `PersistentIdentifier` keeps its store's and entity's names in one shared object
/// (`IdentifierNames`): equality, hashing and its `Codable` form are still by value, as when each
/// identifier held both strings.
@Suite struct CompactIdentifierTests {
    /// The stored properties the identifier had, whose synthesized encoding it keeps.
    struct FourFields: Codable, Equatable {
        let storeIdentifier: String?
        let entityName: String
        let rowID: Int64?
        let temporaryNumber: UInt
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func sizeAndCodableForm() throws {
        #expect(MemoryLayout<PersistentIdentifier>.stride == 24)
        let cases: [(PersistentIdentifier, FourFields)] = [
            (PersistentIdentifier(entityName: "Trip", rowID: 42, store: "S-1"), FourFields(storeIdentifier: "S-1", entityName: "Trip", rowID: 42, temporaryNumber: 0)),
            (PersistentIdentifier(entityName: "Trip", rowID: -7, store: nil), FourFields(storeIdentifier: nil, entityName: "Trip", rowID: -7, temporaryNumber: 0)),
            (PersistentIdentifier(entityName: "Trip", rowID: .max, store: "S"), FourFields(storeIdentifier: "S", entityName: "Trip", rowID: .max, temporaryNumber: 0)),
            (PersistentIdentifier(entityName: "Stay", temporaryNumber: 123_456), FourFields(storeIdentifier: nil, entityName: "Stay", rowID: nil, temporaryNumber: 123_456)),
            (PersistentIdentifier(entityName: "Stay", temporaryNumber: .max), FourFields(storeIdentifier: nil, entityName: "Stay", rowID: nil, temporaryNumber: .max)),
        ]
        for (identifier, fields) in cases {
            #expect(identifier.storeIdentifier == fields.storeIdentifier && identifier.entityName == fields.entityName)
            #expect(identifier.rowID == fields.rowID && identifier.temporaryNumber == fields.temporaryNumber)
            #expect(identifier.isTemporary == (fields.rowID == nil))
            #expect(try Self.json(identifier) == Self.json(fields))
            let decoded = try JSONDecoder().decode(PersistentIdentifier.self, from: try JSONEncoder().encode(fields))
            #expect(decoded == identifier && decoded.hashValue == identifier.hashValue)
            #expect(try JSONDecoder().decode(FourFields.self, from: try JSONEncoder().encode(identifier)) == fields)
        }
        // No identifier has both a key and a temporary number.
        let both = try JSONEncoder().encode(FourFields(storeIdentifier: nil, entityName: "Trip", rowID: 1, temporaryNumber: 1))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PersistentIdentifier.self, from: both) }
    }

    @Test func equalityAndHashingAreByValue() {
        let names = IdentifierNames(store: "S", entityName: "Trip")
        let shared = PersistentIdentifier(names: names, rowID: 5)
        let made = PersistentIdentifier(entityName: "Trip", rowID: 5, store: "S")
        #expect(shared == made && shared.hashValue == made.hashValue && Set([shared, made]).count == 1)
        let different = [
            PersistentIdentifier(names: names, rowID: 6),
            PersistentIdentifier(entityName: "Stay", rowID: 5, store: "S"),
            PersistentIdentifier(entityName: "Trip", rowID: 5, store: "T"),
            PersistentIdentifier(entityName: "Trip", rowID: 5, store: nil),
            PersistentIdentifier(entityName: "Trip", temporaryNumber: 5),
        ]
        for other in different { #expect(other != shared && other != made) }
        #expect(Set(different + [shared, made]).count == different.count + 1)
        #expect(PersistentIdentifier(entityName: "Trip", temporaryNumber: 5) == PersistentIdentifier(entityName: "Trip", temporaryNumber: 5))
    }

    @Test(arguments: StoreKind.allCases) func savedModelsAndDidSaveShareTheirEntitysNames(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let context = fixture.context
        let trips = (0..<3).map { Trip(name: "Trip \($0)", startDate: Day.at($0), endDate: Day.at($0 + 1)) }
        let stay = Accommodation(name: "Inn")
        for trip in trips { context.insert(trip) }
        context.insert(stay)
        let temporary = trips[0].persistentModelID
        #expect(temporary.isTemporary && temporary.storeIdentifier == nil && temporary.rowID == nil)
        try context.save()
        for trip in trips { trip.name += " renamed" }
        let seen = Locked([PersistentIdentifier]())
        let observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { note in
            let identifiers = note.userInfo?[ModelContext.NotificationKey.updatedIdentifiers.rawValue] as? [PersistentIdentifier] ?? []
            seen.withLock { $0 = identifiers }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.save()
        let updated = seen.value
        #expect(updated == trips.map(\.persistentModelID))
        #expect(updated.allSatisfy { $0.names === updated[0].names && $0.names === trips[0].persistentModelID.names })
        let store = fixture.container.storeIdentifier
        #expect(store != nil)
        #expect(updated.map(\.storeIdentifier) == Array(repeating: store, count: 3))
        #expect(updated == trips.map { PersistentIdentifier(entityName: "Trip", rowID: $0.persistentModelID.rowID ?? -1, store: store) })
        #expect(temporary != trips[0].persistentModelID)
        // Another context's identifiers are equal, with names of their own.
        let other = ModelContext(fixture.container)
        let fetched = try other.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.persistentModelID)
        #expect(fetched == updated && Set(fetched) == Set(updated))
        #expect(fetched[0].names !== updated[0].names)
        #expect(stay.persistentModelID.entityName == "Accommodation" && stay.persistentModelID.storeIdentifier == store)
    }
}
