import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Persistent history within one process: transactions of two contexts, filters, order, tokens,
/// changed attributes, tombstones, deletion of old history.
@Suite struct HistoryTests {
    /// The test's store, with a container on it and a context.
    static func fixture(_ kind: StoreKind) throws -> StoreFixture {
        try StoreFixture(kind, TripStore.schema)
    }

    /// Four saves from two contexts: "app" inserts Paris and a hotel, "widget" inserts Rome,
    /// "app" renames Paris, "widget" deletes Rome. Returns the transactions and the models.
    func fourSaves(_ fixture: StoreFixture) throws -> (history: [DefaultHistoryTransaction], paris: Trip, rome: Trip, hotel: Accommodation) {
        let container = fixture.container
        let app = ModelContext(container)
        app.author = "app"
        let widget = ModelContext(container)
        widget.author = "widget"
        let paris = Trip(name: "Paris", startDate: Day.at(0), endDate: Day.at(1))
        let hotel = Accommodation(name: "Hotel")
        app.insert(paris)
        app.insert(hotel)
        hotel.trip = paris
        try app.save()
        let rome = BusinessTrip(name: "Rome", startDate: Day.at(2), endDate: Day.at(3), company: "Acme")
        widget.insert(rome)
        try widget.save()
        paris.name = "Paris in May"
        try app.save()
        widget.delete(rome)
        try widget.save()
        return (try ModelContext(container).allHistory(), paris, rome, hotel)
    }

    @Test(arguments: StoreKind.allCases) func everySaveIsOneTransactionInTokenOrder(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let (history, paris, rome, hotel) = try fourSaves(fixture)
        #expect(history.map(\.author) == ["app", "widget", "app", "widget"])
        #expect(history.map(\.changes.count) == [2, 1, 1, 1])
        let tokens = history.map(\.token)
        #expect(tokens == tokens.sorted() && Set(tokens).count == 4, "tokens grow with every save")
        #expect(history.map(\.transactionIdentifier) == tokens.compactMap(\.tokenValue))
        #expect(zip(history, history.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
        #expect(Set(history.map(\.storeIdentifier)).count == 1)
        #expect(history.allSatisfy { $0.processIdentifier == String(ProcessInfo.processInfo.processIdentifier) && !$0.bundleIdentifier.isEmpty })

        #expect(history[0].changes.map(\.summary) == ["insert \(paris.persistentModelID)", "insert \(hotel.persistentModelID)"])
        #expect(history[1].changes.map(\.summary) == ["insert \(rome.persistentModelID)"])
        #expect(history[2].changes.map(\.summary) == ["update \(paris.persistentModelID)"])
        #expect(history[2].changes.map(\.updatedNames) == [["name"]])
        let update = try #require(history[2].changes.first?.update(of: Trip.self))
        #expect(update.updatedAttributes.count == 1 && update.updatedAttributes.first == \Trip.name)
        #expect(update.transactionIdentifier == history[2].transactionIdentifier)
        let delete = try #require(history[3].changes.first?.delete(of: BusinessTrip.self))
        #expect(delete.changedPersistentIdentifier.entityName == "BusinessTrip")
        #expect(delete.tombstone[\.identifier] as? UUID == rome.identifier)
        #expect(delete.tombstone[\.name] == nil, "not preserved")
        let changeIDs = history.changes.map { change -> DefaultHistoryChangeIdentifier? in
            switch change {
            case .insert(let insert as DefaultHistoryInsert<Trip>): return insert.changeIdentifier
            case .insert(let insert as DefaultHistoryInsert<Accommodation>): return insert.changeIdentifier
            case .insert(let insert as DefaultHistoryInsert<BusinessTrip>): return insert.changeIdentifier
            case .update(let update as DefaultHistoryUpdate<Trip>): return update.changeIdentifier
            case .delete(let delete as DefaultHistoryDelete<BusinessTrip>): return delete.changeIdentifier
            default: return nil
            }
        }
        #expect(changeIDs.allSatisfy { $0 != nil } && changeIDs == changeIDs.sorted { $0! < $1! }, "changes are typed by their row's class, in order")
    }

    /// The predicate forms of Apple's sample code, and the others `HistoryDescriptor` lists.
    @Test(arguments: StoreKind.allCases) func predicatesOnTokenAuthorAndTimestamp(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        let (history, _, _, _) = try fourSaves(fixture)
        let context = ModelContext(container)
        func fetch(_ predicate: Predicate<DefaultHistoryTransaction>) throws -> [Int64] {
            try context.fetchHistory(HistoryDescriptor(predicate: predicate)).map(\.transactionIdentifier)
        }
        let ids = history.map(\.transactionIdentifier)
        let first = history[0].token
        #expect(try fetch(#Predicate { $0.token > first }) == Array(ids.dropFirst()))
        #expect(try fetch(#Predicate { $0.token >= first && $0.author == "widget" }) == [ids[1], ids[3]])
        #expect(try fetch(#Predicate { ($0.token > first) && ($0.author == "widget") }) == [ids[1], ids[3]])
        #expect(try fetch(#Predicate { first < $0.token && $0.author != "widget" }) == [ids[2]])
        #expect(try fetch(#Predicate { $0.author == nil }) == [])
        #expect(try fetch(#Predicate { $0.author != nil }) == ids)
        #expect(try fetch(#Predicate { !($0.author == "app") || $0.token == first }) == [ids[0], ids[1], ids[3]])
        let third = ids[2]
        #expect(try fetch(#Predicate { $0.transactionIdentifier <= third }) == Array(ids.prefix(3)))
        let since = history[2].timestamp
        #expect(try fetch(#Predicate { $0.timestamp >= since }) == Array(ids.suffix(2)))
        #expect(try fetch(#Predicate { _ in true }) == ids)
        #expect(try fetch(#Predicate { _ in false }) == [])

        // A context without an author writes nil; `!= "x"` includes it, as in Swift.
        let anonymous = ModelContext(container)
        anonymous.insert(Itinerary(title: "No author"))
        try anonymous.save()
        let all = try context.allHistory().map(\.transactionIdentifier)
        #expect(try fetch(#Predicate { $0.author == nil }) == [all[4]])
        #expect(try fetch(#Predicate { $0.author != "app" }) == [all[1], all[3], all[4]])

        // Apple's spellings.
        var descriptor = History.HistoryDescriptor<History.DefaultTransaction>()
        let token: History.DefaultToken = history[1].token
        descriptor.predicate = #Predicate { ($0.token > token) && ($0.author == "widget") }
        #expect(try context.fetchHistory(descriptor).map(\.transactionIdentifier) == [ids[3]])
    }

    @Test(arguments: StoreKind.allCases) func sortByAndFetchLimit(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        let (history, _, _, _) = try fourSaves(fixture)
        let context = ModelContext(container)
        let ids = history.map(\.transactionIdentifier)
        var descriptor = HistoryDescriptor<DefaultHistoryTransaction>(sortBy: [SortDescriptor(\.token, order: .reverse)])
        #expect(try context.fetchHistory(descriptor).map(\.transactionIdentifier) == ids.reversed())
        descriptor.fetchLimit = 2
        let newest = try context.fetchHistory(descriptor)
        #expect(newest.map(\.transactionIdentifier) == [ids[3], ids[2]])
        #expect(newest.map(\.changes.count) == [1, 1], "a limit counts transactions, not changes")
        descriptor = HistoryDescriptor(predicate: #Predicate { $0.author != nil }, sortBy: [SortDescriptor(\.author), SortDescriptor(\.timestamp, order: .reverse)])
        #expect(try context.fetchHistory(descriptor).map(\.transactionIdentifier) == [ids[2], ids[0], ids[3], ids[1]])
    }

    @Test(arguments: StoreKind.allCases) func tokensAreCodableAndComparable(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        let (history, _, _, _) = try fourSaves(fixture)
        let data = try JSONEncoder().encode(history[1].token)
        let restored = try JSONDecoder().decode(History.DefaultToken.self, from: data)
        #expect(restored == history[1].token)
        #expect(restored > history[0].token && restored < history[2].token)
        #expect(restored.storeIdentifier == history[1].storeIdentifier)
        // A reader that persisted its last token gets what came after, in a new context.
        #expect(try ModelContext(container).fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > restored }))
            .map(\.token) == Array(history.map(\.token).suffix(2)))
    }

    @Test(arguments: StoreKind.allCases) func deletingOldHistory(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        let (history, _, _, _) = try fourSaves(fixture)
        let context = ModelContext(container)
        let processed = history[2].token
        try context.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.token < processed }))
        let remaining = try context.allHistory()
        #expect(remaining.map(\.token) == [history[2].token, history[3].token])
        #expect(remaining.map(\.changes.count) == [1, 1], "the changes of the remaining transactions are kept")
        let changeRows = try container.makeConnection().rows("SELECT count(*) FROM \(SQLQuote.identifier(HistoryTables.changes))")
        #expect(changeRows == [[.integer(2)]], "the deleted transactions' changes are gone")

        // Reading after a token whose successors were deleted would miss them: an error says so.
        let old = history[0].token
        #expect(throws: ModelStoreError.historyTokenExpired) {
            try context.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > old }))
        }
        let recent = history[1].token
        #expect(try context.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > recent })).count == 2)

        // Tokens are never reused, even after the newest transactions were deleted.
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(try context.allHistory().isEmpty)
        let writer = ModelContext(container)
        writer.insert(Itinerary(title: "After"))
        try writer.save()
        let after = try context.allHistory()
        #expect(after.count == 1 && after[0].token > history[3].token)
    }

    /// Issue 20, item 10: a row deleted through two contexts is one delete change.
    @Test(arguments: StoreKind.allCases) func aRowDeletedThroughTwoContextsIsDeletedOnce(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        let setup = ModelContext(container)
        setup.insert(Trip(name: "Twice", startDate: Day.at(0), endDate: Day.at(1)))
        try setup.save()
        let first = ModelContext(container)
        let second = ModelContext(container)
        let a = try #require(try first.fetch(FetchDescriptor<Trip>()).first)
        let b = try #require(try second.fetch(FetchDescriptor<Trip>()).first)
        first.delete(a)
        second.delete(b)
        try first.save()
        try second.save()
        let history = try ModelContext(container).allHistory()
        #expect(history.deletes(of: Trip.self).count == 1)
        #expect(history.count == 2, "the second save deleted nothing: no transaction")
        #expect(history.deletes(of: Trip.self).first?.tombstone[\.identifier] as? UUID == a.identifier)
    }

    /// Deletes of models of two tables, alternating, in one save, enough of each for several rows
    /// per statement where the store writes them so (docs/PostgreSQL.md, "Batched writes"): each is
    /// recorded only if its row is still stored (another context deleted every fifth first), in
    /// the save's order, the trips with their stored preserved values; the history writer keeps
    /// each table's statements and switches between them per row.
    @Test(arguments: StoreKind.allCases) func deletesOfTwoTablesAlternatingAreRecordedWhenTheirRowIsStillStored(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        let setup = ModelContext(container)
        let count = SaveBatch.fewestRowsTogether + 9
        for index in 0..<count {
            setup.insert(Trip(name: "trip \(index)", startDate: Day.at(index), endDate: Day.at(index + 1)))
            setup.insert(Accommodation(name: "stay \(index)"))
        }
        try setup.save()
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        let stays = try context.fetch(FetchDescriptor<Accommodation>())
        #expect(trips.count == count && stays.count == count)
        let goneTrips = trips.indices.filter { $0 % 5 == 2 }.map { trips[$0].name }
        let goneStays = stays.indices.filter { $0 % 5 == 3 }.map { stays[$0].name }
        let other = ModelContext(container)
        try other.delete(model: Trip.self, where: #Predicate { goneTrips.contains($0.name) })
        try other.delete(model: Accommodation.self, where: #Predicate { goneStays.contains($0.name) })
        try other.save()
        var expected: [String] = []
        var identifiers: [UUID] = []
        for (trip, stay) in zip(trips, stays) {
            context.delete(trip)
            context.delete(stay)
            if !goneTrips.contains(trip.name) {
                expected.append("delete \(trip.persistentModelID)")
                identifiers.append(trip.identifier)
            }
            if !goneStays.contains(stay.name) { expected.append("delete \(stay.persistentModelID)") }
        }
        try context.save()
        let last = try #require(try context.allHistory().last)
        #expect(last.changes.map(\.summary) == expected)
        #expect([last].deletes(of: Trip.self).map { $0.tombstone[\.identifier] as? UUID } == identifiers)
    }

    @Test(arguments: StoreKind.allCases) func updatedAttributesNameChangedValuesKeysAndLinks(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        let context = ModelContext(container)
        let paris = Trip(name: "Paris", startDate: Day.at(0), endDate: Day.at(1))
        let rome = Trip(name: "Rome", startDate: Day.at(0), endDate: Day.at(1))
        let hotel = Accommodation(name: "Hotel")
        let plan = Itinerary(title: "Plan")
        for model in [paris, rome, hotel, plan] as [any PersistentModel] { context.insert(model) }
        hotel.trip = paris
        try context.save()

        hotel.trip = rome                // a to-one key changes (and both trips' inverse lists, not stored)
        paris.startDate = Day.at(5)
        paris.endDate = Day.at(6)
        plan.title = "Plan"              // set to the value it had: written, but not a change
        plan.days = ["Mon"]
        try context.save()
        let last = try #require(try context.allHistory().last)
        #expect(last.changes.map(\.summary) == ["update \(hotel.persistentModelID)", "update \(paris.persistentModelID)", "update \(plan.persistentModelID)"])
        #expect(last.changes.map(\.updatedNames) == [["trip"], ["startDate", "endDate"], ["days"]])

        plan.title = "Plan"
        try context.save()
        #expect(try context.allHistory().count == 2, "a save that changed no stored value records no transaction")

        // Many-to-many links are recorded on both sides.
        let shopContainer = try ModelContainer(for: Shop.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let shop = ModelContext(shopContainer)
        let lamp = Product(sku: "L", name: "Lamp", price: 10)
        let sale = Tag(label: "sale")
        shop.insert(lamp)
        shop.insert(sale)
        try shop.save()
        lamp.tags = [sale]
        try shop.save()
        let linked = try #require(try shop.allHistory().last)
        #expect(Set(linked.changes.map(\.summary)) == ["update \(lamp.persistentModelID)", "update \(sale.persistentModelID)"])
        #expect(linked.changes.map(\.updatedNames) == [["tags"], ["products"]])
    }

    /// The tombstone holds the values the store had: a preserved value changed and deleted in one
    /// save is recorded as it was stored.
    @Test(arguments: StoreKind.allCases) func tombstonesHoldTheStoredValues(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        let context = ModelContext(container)
        let trip = PersonalTrip(name: "Beach", startDate: Day.at(0), endDate: Day.at(1), reason: .vacation)
        context.insert(trip)
        try context.save()
        let stored = trip.identifier
        trip.identifier = UUID()
        context.delete(trip)
        try context.save()
        let delete = try #require(try context.allHistory().deletes(of: PersonalTrip.self).first)
        #expect(delete.tombstone[\.identifier] as? UUID == stored)
        #expect(delete.tombstone[\PersonalTrip.identifier] as? UUID == stored)
        let elements = Array(delete.tombstone)
        #expect(elements.count == 1 && elements.first?.keyPath == \PersonalTrip.identifier && elements.first?.value as? UUID == stored)
    }

    @Test(arguments: StoreKind.allCases) func withoutHistoryNothingIsRecorded(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let store = fixture.store
        var configuration = store.configuration
        configuration.recordsHistory = false
        let quiet = try ModelContainer(for: TripStore.schema, configurations: configuration)
        let context = ModelContext(quiet)
        let trip = Trip(name: "Quiet", startDate: Day.at(0), endDate: Day.at(1))
        context.insert(trip)
        try context.save()
        context.delete(trip)
        try context.save()
        #expect(try context.allHistory().isEmpty)
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
    }

    @Test(arguments: StoreKind.allCases) func unsupportedPredicatesAndSortsAreErrorsThatNameThem(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        let context = ModelContext(container)
        let error = #expect(throws: ModelStoreError.self) {
            try context.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.changes.isEmpty }))
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("changes"), "the error names the key path: \(String(describing: error))")
        #expect(throws: ModelStoreError.self) {
            try context.fetchHistory(HistoryDescriptor(sortBy: [SortDescriptor(\.bundleIdentifier)]))
        }
        #expect(throws: ModelStoreError.self) {
            try context.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.storeIdentifier == "x" }))
        }
    }

    /// A store written before history existed, opened with its (unchanged) schema, gets the
    /// history tables, and its saves are recorded.
    @Test(arguments: StoreKind.allCases) func aStoreWithoutHistoryTablesGetsThemOnOpen(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let store = fixture.store
        let container = fixture.container
        let setup = ModelContext(container)
        setup.insert(Trip(name: "Old", startDate: Day.at(0), endDate: Day.at(1)))
        try setup.save()
        let raw = try container.makeConnection()
        for table in [HistoryTables.counter, HistoryTables.transactions, HistoryTables.changes] {
            try raw.execute("DROP TABLE \(SQLQuote.identifier(table))")
        }
        let reopened = try store.container(for: TripStore.schema)
        let context = ModelContext(reopened)
        context.insert(Trip(name: "New", startDate: Day.at(0), endDate: Day.at(1)))
        try context.save()
        #expect(try context.allHistory().map(\.changes.count) == [1])
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 2)
    }

    /// What a migration renaming an entity and attributes does to the stored changes.
    @Test(arguments: StoreKind.allCases) func renamesRewriteEntitiesAttributeListsAndTombstones(_ kind: StoreKind) throws {
        let fixture = try Self.fixture(kind)
        let container = fixture.container
        let context = ModelContext(container)
        let trip = Trip(name: "Paris", startDate: Day.at(0), endDate: Day.at(1))
        context.insert(trip)
        try context.save()
        trip.name = "Paris in May"
        try context.save()
        context.delete(trip)
        try context.save()
        let connection = try container.makeConnection()
        try connection.transaction {
            try HistoryTables.rename(entities: ["Trip": "Voyage"],
                                     attributes: [(["Voyage"], "name", "title"), (["Voyage"], "identifier", "code")], on: connection)
        }
        let rows = try connection.rows("SELECT \"entity\", \"attributes\", \"tombstone\" FROM \(SQLQuote.identifier(HistoryTables.changes)) ORDER BY \"token\"")
        #expect(rows.map { $0[0] } == [.text("Voyage"), .text("Voyage"), .text("Voyage")])
        #expect(rows[1][1] == .text("title"))
        guard case .blob(let data) = rows[2][2], let values = TombstoneCoding.decode(data) else {
            Issue.record("no tombstone: \(rows[2])")
            return
        }
        #expect(values.map(\.name) == ["code"])
        #expect(values.first?.value == trip.identifier.sqlValue)
    }

    @Test func tombstoneBlobsRoundTripAndRefuseDamage() {
        let values: [(name: String, value: SQLValue)] = [("a", .null), ("b", .integer(Int64.min)), ("c", .real(-2.5)),
                                                         ("été", .text("x,\"y\u{0}")), ("e", .blob(Data([0, 1, 255]))), ("", .blob(Data()))]
        let encoded = TombstoneCoding.encode(values)
        let decoded = TombstoneCoding.decode(encoded)
        #expect(decoded?.map(\.name) == values.map(\.name))
        #expect(decoded?.map(\.value) == values.map(\.value))
        #expect(TombstoneCoding.decode(Data()).map(\.count) == 0)
        // A blob cut inside a value is refused; cut between values, it holds the values before the cut.
        var refused = 0
        for cut in 1..<encoded.count {
            if let partial = TombstoneCoding.decode(encoded.prefix(cut)) {
                #expect(partial.map(\.name) == values.prefix(partial.count).map(\.name) && partial.count < values.count, "cut at \(cut)")
            } else {
                refused += 1
            }
        }
        #expect(refused == encoded.count - values.count)
        #expect(TombstoneCoding.decode(Data([1, 65, 9])) == nil, "unknown tag")
        #expect(TombstoneCoding.decode(Data([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])) == nil, "a length past the end")
    }

    @Test func historyOfAnInMemoryStore() throws {
        let memory = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(memory)
        context.insert(Trip(name: "Memory", startDate: Day.at(0), endDate: Day.at(1)))
        try context.save()
        #expect(try ModelContext(memory).allHistory().map(\.changes.count) == [1])
    }
}
