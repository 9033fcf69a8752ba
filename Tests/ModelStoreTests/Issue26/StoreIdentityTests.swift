import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// #26, item 4: a `PersistentIdentifier` names its store, so an identifier of one store finds
/// nothing in another store of the same schema (docs/Runtime.md, "Identifiers"). Stores written
/// before get an identifier when first opened (docs/Migrations.md, "Store identifier").
@Suite struct StoreIdentityTests {
    /// A store of `kind` holding trips T0…T2 (keys 1…3 in every new store).
    func storeWithTrips(_ kind: StoreKind) throws -> (store: TestStore, container: ModelContainer) {
        let store = try TestStore(kind)
        let container = try store.container(for: TripStore.schema)
        let context = ModelContext(container)
        for index in 0..<3 { context.insert(Trip(name: "T\(index)", startDate: Day.at(index), endDate: Day.at(index + 1))) }
        try context.save()
        return (store, container)
    }

    /// The identifiers of the trips, by name.
    func identifiers(_ container: ModelContainer) throws -> [String: PersistentIdentifier] {
        Dictionary(uniqueKeysWithValues: try ModelContext(container).fetch(FetchDescriptor<Trip>()).map { ($0.name, $0.persistentModelID) })
    }

    /// The value `"$metadata"` holds for `storeIdentifier`, read with SQL.
    func recorded(_ connection: any StoreConnection) throws -> [[SQLValue]] {
        try connection.rows("SELECT value FROM \(SQLQuote.identifier(StorageNames.metadataTable)) WHERE key = 'storeIdentifier'")
    }

    /// Checks that `identifier`, of another store, finds nothing in `container` through every
    /// way an identifier is used, and that edits and deletes through it touch nothing.
    func findsNothing(_ identifier: PersistentIdentifier, in container: ModelContainer, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let context = ModelContext(container)
        let all = try context.fetch(FetchDescriptor<Trip>())
        let sameKey = try #require(all.first { $0.persistentModelID.rowID == identifier.rowID }, sourceLocation: sourceLocation)
        #expect(sameKey.persistentModelID != identifier, sourceLocation: sourceLocation)
        #expect(context.model(for: identifier) == nil, sourceLocation: sourceLocation)
        let registered: Trip? = context.registeredModel(for: identifier)
        #expect(registered == nil, "the row with the same key is registered, but of another store", sourceLocation: sourceLocation)
        #expect(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.persistentModelID == identifier })).isEmpty,
                sourceLocation: sourceLocation)
        #expect(try context.fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.persistentModelID != identifier })) == all.count,
                sourceLocation: sourceLocation)
        let list = [identifier]
        #expect(try context.fetchIdentifiers(FetchDescriptor<Trip>(predicate: #Predicate { list.contains($0.persistentModelID) })).isEmpty,
                sourceLocation: sourceLocation)
        #expect(!(try context.fetchIdentifiers(FetchDescriptor<Trip>())).contains(identifier), sourceLocation: sourceLocation)
        // A changed model with the same key is judged in memory: the same answer.
        sameKey.name += " (changed)"
        #expect(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.persistentModelID == identifier })).isEmpty,
                sourceLocation: sourceLocation)
        context.rollback()
        // A delete through it deletes nothing.
        try context.delete(model: Trip.self, where: #Predicate { $0.persistentModelID == identifier })
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == all.count, sourceLocation: sourceLocation)
    }

    @Test("An identifier of one store finds nothing in another store of the same schema", arguments: StoreKind.allCases)
    func identifierOfAnotherStore(_ kind: StoreKind) throws {
        let a = try storeWithTrips(kind)
        let b = try storeWithTrips(kind)
        let idsA = try identifiers(a.container)
        let idsB = try identifiers(b.container)
        let storeA = try #require(idsA["T1"]?.storeIdentifier)
        let storeB = try #require(idsB["T1"]?.storeIdentifier)
        #expect(storeA != storeB)
        #expect(idsA["T1"]?.rowID == idsB["T1"]?.rowID, "the test needs the same keys in both stores")
        #expect(Set(idsA.values.map(\.storeIdentifier)) == [storeA])
        for (name, identifier) in idsA {
            #expect(identifier != idsB[name])
            try findsNothing(identifier, in: b.container)
        }
        // In its own store it still finds its row, through every way.
        let t1 = try #require(idsA["T1"])
        let context = ModelContext(a.container)
        #expect((context.model(for: t1) as? Trip)?.name == "T1")
        #expect(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.persistentModelID == t1 })).map(\.name) == ["T1"])
        let registered: Trip? = context.registeredModel(for: t1)
        #expect(registered?.name == "T1")
        #expect(try context.fetchIdentifiers(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])) == ["T0", "T1", "T2"].map { idsA[$0]! })
    }

    @Test("Every identifier a store hands out names it: saves, notifications, history, new containers", arguments: StoreKind.allCases)
    func identifiersNameTheirStore(_ kind: StoreKind) throws {
        let (store, container) = try storeWithTrips(kind)
        let identifier = try #require(try identifiers(container)["T0"]?.storeIdentifier)
        #expect(try recorded(store.rawConnection(through: container)) == [[.text(identifier)]])
        // History transactions name the same store; their changes carry the models' identifiers.
        let context = ModelContext(container)
        let transactions = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(transactions.map(\.storeIdentifier) == [identifier])
        let changed = transactions.flatMap(\.changes).map(\.changedPersistentIdentifier)
        #expect(Set(changed) == Set(try identifiers(container).values))
        // didSave lists identifiers of the store.
        final class Box: @unchecked Sendable { var ids: [PersistentIdentifier] = [] }
        let box = Box()
        let observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { note in
            for key in ["inserted", "updated", "deleted"] {
                box.ids += note.userInfo?[key] as? [PersistentIdentifier] ?? []
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let trip = Trip(name: "New", startDate: Day.at(5), endDate: Day.at(6))
        context.insert(trip)
        #expect(trip.persistentModelID.storeIdentifier == nil, "a temporary identifier names no store")
        try context.save()
        #expect(trip.persistentModelID.storeIdentifier == identifier)
        #expect(box.ids == [trip.persistentModelID])
        // Another container on the same store (at once, and after reopening) shares the identifier.
        let other = try store.container(for: TripStore.schema)
        #expect(try identifiers(other)["New"] == trip.persistentModelID)
        #expect((ModelContext(other).model(for: trip.persistentModelID) as? Trip)?.name == "New")
        // A deleted model keeps its identifier, and it finds nothing.
        context.delete(trip)
        try context.save()
        #expect(trip.persistentModelID.storeIdentifier == identifier)
        #expect(ModelContext(other).model(for: trip.persistentModelID) == nil)
    }

    @Test("Codable: the store travels with the identifier; an encoding without one still decodes", arguments: StoreKind.allCases)
    func codable(_ kind: StoreKind) throws {
        let a = try storeWithTrips(kind)
        let b = try storeWithTrips(kind)
        let t1 = try #require(try identifiers(a.container)["T1"])
        let data = try JSONEncoder().encode(t1)
        let decoded = try JSONDecoder().decode(PersistentIdentifier.self, from: data)
        #expect(decoded == t1)
        #expect(decoded.hashValue == t1.hashValue)
        #expect((ModelContext(a.container).model(for: decoded) as? Trip)?.name == "T1")
        try findsNothing(decoded, in: b.container)

        // An encoding made before identifiers named their store: the same JSON without the key.
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["storeIdentifier"] as? String == t1.storeIdentifier)
        object["storeIdentifier"] = nil
        let old = try JSONDecoder().decode(PersistentIdentifier.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(old.storeIdentifier == nil && old.entityName == "Trip" && old.rowID == t1.rowID)
        #expect(old != t1)
        // model(for:) looks it up by key in the context's store (the caller vouches for the store);
        // predicates compare identifiers exactly, as == does in memory: it matches no row.
        #expect((ModelContext(a.container).model(for: old) as? Trip)?.name == "T1")
        #expect((ModelContext(b.container).model(for: old) as? Trip)?.name == "T1")
        #expect(try ModelContext(a.container).fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.persistentModelID == old })).isEmpty)
    }

    /// Makes the store look as one written before stores recorded an identifier: no
    /// `storeIdentifier` in `"$metadata"` and, unless `keepHistory`, no history at all (the
    /// counter row is made by the first recorded save: a store without it has no transactions).
    func forgetIdentity(_ connection: any StoreConnection, keepHistory: Bool) throws {
        try connection.execute("DELETE FROM \(SQLQuote.identifier(StorageNames.metadataTable)) WHERE key = 'storeIdentifier'")
        guard !keepHistory else { return }
        for table in [HistoryTables.counter, HistoryTables.transactions, HistoryTables.changes] {
            try connection.execute("DELETE FROM \(SQLQuote.identifier(table))")
        }
    }

    func counterStore(_ connection: any StoreConnection) throws -> [[SQLValue]] {
        try connection.rows("SELECT store FROM \(SQLQuote.identifier(HistoryTables.counter))")
    }

    @Test("A store written without an identifier gets one when opened, and keeps it", arguments: StoreKind.allCases, [false, true])
    func oldStoreGetsAnIdentifier(_ kind: StoreKind, withHistory: Bool) throws {
        let (store, container) = try storeWithTrips(kind)
        let raw = try store.rawConnection(through: container)
        // The first recorded save made the history counter row; an old store's row has its own UUID.
        let history = try counterStore(raw)
        try forgetIdentity(raw, keepHistory: withHistory)
        #expect(try recorded(raw).isEmpty)

        let reopened = try store.container(for: TripStore.schema)
        let given = try recorded(raw)
        #expect(given.count == 1)
        guard case .text(let identifier)? = given.first?.first else { Issue.record("no identifier recorded"); return }
        #expect(UUID(uuidString: identifier) != nil)
        if withHistory {
            #expect(given == history, "the history's store identifier is the store's")
        } else {
            #expect(given != history)
            #expect(try counterStore(raw).isEmpty)
        }
        let ids = try identifiers(reopened)
        #expect(Set(ids.values.map(\.storeIdentifier)) == [identifier])
        let context = ModelContext(reopened)
        context.insert(Trip(name: "After", startDate: Day.at(7), endDate: Day.at(8)))
        try context.save()
        #expect(try counterStore(raw) == given, "the first recorded save makes the counter row with the store's identifier")
        #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.storeIdentifier == identifier)
        // Kept across reopening.
        let again = try store.container(for: TripStore.schema)
        #expect(try recorded(raw) == given)
        #expect(try identifiers(again)["T1"] == ids["T1"])
        #expect((ModelContext(again).model(for: try #require(ids["T1"])) as? Trip)?.name == "T1")
    }

    @Test("A read-only store written without an identifier opens unchanged; its identifiers name the history's store",
          arguments: StoreKind.persistent)
    func oldReadOnlyStore(_ kind: StoreKind) throws {
        let (store, container) = try storeWithTrips(kind)
        let raw = try store.rawConnection(through: container)
        let history = try counterStore(raw)
        try forgetIdentity(raw, keepHistory: true)
        let readOnly = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(url: store.configuration.url, allowsSave: false))
        #expect(try recorded(raw).isEmpty, "a read-only open wrote the store")
        let ids = try identifiers(readOnly)
        #expect(ids.count == 3)
        #expect(history == (ids["T0"]?.storeIdentifier).map { [[.text($0)]] })
        // The writable container that opens it next records the same identifier.
        let writable = try store.container(for: TripStore.schema)
        #expect(try recorded(raw) == history)
        #expect(try identifiers(writable) == ids)
    }

    @Test("A failed migration leaves an old store without an identifier (one transaction)")
    func failedOpenRecordsNothing() throws {
        let file = try TemporaryStore()
        do {
            let container = try ModelContainer(for: TripStore.schema, configurations: file.configuration)
            let context = ModelContext(container)
            context.insert(Trip(name: "T", startDate: Day.at(0), endDate: Day.at(1)))
            try context.save()
            try forgetIdentity(container.makeConnection(), keepHistory: false)
        }
        // A table in the way of the key upgrade (docs/Migrations.md) makes the open fail after
        // the identifier was written: neither stays.
        let raw = try SQLiteConnection(path: file.url.path, isFile: true)
        try raw.execute("CREATE TABLE \"$migrating:Trip\" (x)")
        try KeyReuseTests().writeOldLayout(file.url)
        #expect(throws: SQLiteError.self) { _ = try ModelContainer(for: TripStore.schema, configurations: file.configuration) }
        #expect(try recorded(raw).isEmpty)
    }
}
