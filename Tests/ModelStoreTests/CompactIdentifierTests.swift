import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// `PersistentIdentifier` keeps its store's and entity's names in one object per pair for the
/// process (`IdentifierNames`, interned, not counted: the identifier is a plain value): equality,
/// hashing and its `Codable` form are still by value, as when each identifier held both strings.
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
        // Copying and dropping identifiers counts no references.
        #expect(_isPOD(PersistentIdentifier.self))
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
        let names = IdentifierNames.interned(store: "S", entityName: "Trip")
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
        // One object per pair: made again, decoded, or temporary (no store).
        #expect(made.names === names && IdentifierNames.interned(store: "S", entityName: "Trip") === names)
        #expect(IdentifierNames.interned(store: nil, entityName: "Trip") === PersistentIdentifier(entityName: "Trip", temporaryNumber: 9).names)
        #expect(different.map(\.names).filter { $0 === names }.count == 1)
    }

    /// Names equal as strings but spelled otherwise (canonically equivalent Unicode) compare and
    /// hash equal, as strings do, and each identifier keeps its own spelling (its description and
    /// encoding give back what it was made or decoded with).
    @Test func equivalentSpellingsCompareEqualAndKeepTheirBytes() throws {
        let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
        #expect(composed == decomposed && !composed.utf8.elementsEqual(decomposed.utf8))
        let pairs = [(composed, composed), (composed, decomposed), (decomposed, composed), (decomposed, decomposed)]
        let identifiers = pairs.map { PersistentIdentifier(entityName: $0.0, rowID: 3, store: $0.1) }
        for (identifier, (entity, store)) in zip(identifiers, pairs) {
            #expect(identifier == identifiers[0] && identifier.hashValue == identifiers[0].hashValue)
            #expect(identifier.entityName.utf8.elementsEqual(entity.utf8) && identifier.storeIdentifier?.utf8.elementsEqual(store.utf8) == true)
            #expect(identifier.description.utf8.elementsEqual("\(entity)/3".utf8))
            let fields = try JSONDecoder().decode(FourFields.self, from: try JSONEncoder().encode(identifier))
            #expect(fields.entityName.utf8.elementsEqual(entity.utf8) && fields.storeIdentifier?.utf8.elementsEqual(store.utf8) == true)
            let decoded = try JSONDecoder().decode(PersistentIdentifier.self, from: try JSONEncoder().encode(fields))
            #expect(decoded.names === identifier.names)
        }
        #expect(Set(identifiers.map { ObjectIdentifier($0.names) }).count == 4 && Set(identifiers).count == 1)
        #expect(PersistentIdentifier(entityName: composed, temporaryNumber: 1) == PersistentIdentifier(entityName: decomposed, temporaryNumber: 1))
    }

    /// Threads interning the same pairs at once get one object per pair.
    @Test func internsOneObjectPerPairAcrossThreads() {
        let run = UUID().uuidString
        let seen = Locked([String: Set<ObjectIdentifier>]())
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var mine: [String: ObjectIdentifier] = [:]
            for round in 0..<200 {
                let pair = (store: round % 3 == 0 ? nil : "\(run)-\(round % 5)", entity: "E\((round + thread) % 7)")
                let names = PersistentIdentifier(entityName: pair.entity, rowID: Int64(round), store: pair.store).names
                mine["\(pair.store ?? "-")|\(pair.entity)"] = ObjectIdentifier(names)
            }
            seen.withLock { all in
                for (pair, object) in mine { all[pair, default: []].insert(object) }
            }
        }
        #expect(!seen.value.isEmpty && seen.value.values.allSatisfy { $0.count == 1 })
    }

    /// `didSave` lists the same models whether the store records history or not (with history
    /// off a loop of their own collects the identifiers, `savedIdentifiers`): inserts; updates
    /// and many-to-many link changes, a model both changed and relinked listed once; deletes.
    @Test(arguments: StoreKind.allCases) func didSaveListsTheSameWithHistoryOnAndOff(_ kind: StoreKind) throws {
        func run(history: Bool) throws -> (lists: [[String]], products: [String]) {
            let fixture = try StoreFixture(kind, Shop.schema, recordsHistory: history)
            let context = fixture.context
            let store = fixture.container.storeIdentifier
            let seen = Locked([[String]]())
            let observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { note in
                let lists = [ModelContext.NotificationKey.insertedIdentifiers, .updatedIdentifiers, .deletedIdentifiers].map {
                    (note.userInfo?[$0.rawValue] as? [PersistentIdentifier] ?? []).map { $0.storeIdentifier == store ? $0.description : "another store" }
                }
                seen.withLock { $0 += lists }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            let products = (0..<4).map { Product(sku: "P\($0)", name: "Product \($0)", price: Decimal($0)) }
            let red = Tag(label: "red"), green = Tag(label: "green")
            for product in products { context.insert(product) }
            context.insert(red)
            context.insert(green)
            products[0].tags = [red]
            try context.save()
            products[1].name = "Renamed"
            products[1].tags = [green]
            products[2].tags = [red, green]
            context.delete(products[3])
            try context.save()
            return (seen.value, products.map(\.persistentModelID.description))
        }
        let on = try run(history: true), off = try run(history: false)
        #expect(on.lists == off.lists && on.products == off.products)
        let lists = on.lists, products = on.products
        try #require(lists.count == 6)
        #expect(lists[0].count == 6 && lists[1].isEmpty && lists[2].isEmpty && lists[3].isEmpty)
        #expect(Set(lists[4]).count == lists[4].count && lists[4].contains(products[1]) && lists[4].contains(products[2]))
        #expect(!lists[4].contains(products[0]) && !lists[4].contains(products[3]) && lists[5] == [products[3]])
        #expect(!lists.joined().contains("another store"))
    }

    /// Identifiers `didSave` listed stay whole after their containers and contexts are gone (the
    /// names outlive them): they print, compare, hash and encode as identifiers made anew from
    /// their values; two stores' identifiers of the same rows differ.
    @Test(arguments: StoreKind.allCases) func didSaveIdentifiersOutliveTheirContainers(_ kind: StoreKind) throws {
        struct Saved { let store: String?; let inserted, updated, deleted: [PersistentIdentifier] }
        func saveInFreshStore() throws -> Saved {
            let fixture = try StoreFixture(kind, TripStore.schema, recordsHistory: false)
            let context = fixture.context
            let seen = Locked([[PersistentIdentifier]]())
            let observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { note in
                let lists = [ModelContext.NotificationKey.insertedIdentifiers, .updatedIdentifiers, .deletedIdentifiers].map {
                    note.userInfo?[$0.rawValue] as? [PersistentIdentifier] ?? []
                }
                seen.withLock { $0 += lists }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            let trips = (0..<3).map { Trip(name: "Trip \($0)", startDate: Day.at($0), endDate: Day.at($0 + 1)) }
            let stay = Accommodation(name: "Inn")
            for trip in trips { context.insert(trip) }
            context.insert(stay)
            try context.save()
            trips[1].name += " renamed"
            context.delete(stay)
            try context.save()
            let lists = seen.value
            try #require(lists.count == 6)
            return Saved(store: fixture.container.storeIdentifier, inserted: lists[0], updated: lists[4], deleted: lists[5])
        }
        let first = try saveInFreshStore()
        let second = try saveInFreshStore()
        // Memory the stores and contexts freed, reused.
        let filler = (0..<2_000).map { "\($0) \(UUID().uuidString)" }
        #expect(filler.count == 2_000)
        for saved in [first, second] {
            #expect(saved.store != nil && saved.inserted.count == 4 && saved.updated.count == 1 && saved.deleted.count == 1)
            for identifier in saved.inserted + saved.updated + saved.deleted {
                let rowID = try #require(identifier.rowID)
                let remade = PersistentIdentifier(entityName: identifier.entityName, rowID: rowID, store: saved.store)
                #expect(identifier.storeIdentifier == saved.store && ["Trip", "Accommodation"].contains(identifier.entityName))
                #expect(identifier.description == "\(identifier.entityName)/\(rowID)" && identifier.description == remade.description)
                #expect(identifier == remade && identifier.hashValue == remade.hashValue && identifier.names === remade.names)
                let decoded = try JSONDecoder().decode(PersistentIdentifier.self, from: try JSONEncoder().encode(identifier))
                #expect(decoded == identifier && decoded.names === identifier.names)
            }
            #expect(saved.updated[0].entityName == "Trip" && saved.inserted.contains(saved.updated[0]))
            #expect(saved.deleted[0].entityName == "Accommodation" && saved.inserted.contains(saved.deleted[0]))
        }
        #expect(first.store != second.store)
        // The same rows of two stores: equal keys and entities, different identifiers.
        #expect(first.inserted.map(\.rowID) == second.inserted.map(\.rowID))
        #expect(Set(first.inserted).isDisjoint(with: second.inserted) && Set(first.inserted + second.inserted).count == 8)
        for (one, other) in zip(first.inserted, second.inserted) { #expect(one != other && one.names !== other.names) }
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
        // Another context's identifiers are equal, with the same names (one object per pair).
        let other = ModelContext(fixture.container)
        let fetched = try other.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.persistentModelID)
        #expect(fetched == updated && Set(fetched) == Set(updated))
        #expect(fetched[0].names === updated[0].names)
        let fetchedIdentifiers = try other.fetchIdentifiers(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(fetchedIdentifiers == updated && fetchedIdentifiers.allSatisfy { $0.names === updated[0].names })
        #expect(stay.persistentModelID.entityName == "Accommodation" && stay.persistentModelID.storeIdentifier == store)
    }
}
