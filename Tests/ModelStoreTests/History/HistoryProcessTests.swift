import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// History across processes: the child `HistoryProbe` (Tests/Helpers/HistoryProbe, the same Trips
/// model built into another executable) writes or reads the same store (a file, or a PostgreSQL
/// database; an in-memory store has no other process).
@Suite struct HistoryProcessTests {
    /// What HistoryProbe prints for a change and a transaction (its own Codable types).
    struct ProbeChange: Codable, Equatable {
        var kind: String
        var entity: String
        var row: Int64
        var attributes: [String]
        var tombstone: [String: String]
    }

    struct ProbeTransaction: Codable {
        var token: Data
        var author: String?
        var changes: [ProbeChange]
    }

    /// Another process writes three saves; this one reads them: inserts, updates with the names
    /// of the changed attributes (a to-one relationship among them), a delete with its tombstone,
    /// in token order, under the writer's author.
    @Test(arguments: StoreKind.persistent) func aReaderSeesAnotherProcesssWrites(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let identifiers = try JSONDecoder().decode([String: String].self, from: Data(try runProbe(["write", store.location]).utf8))
        let container = try store.container(for: TripStore.schema)
        let history = try ModelContext(container).allHistory()
        #expect(history.map(\.author) == ["probe", "probe", "probe"])
        #expect(history.map(\.token) == history.map(\.token).sorted())
        #expect(history.allSatisfy { $0.processIdentifier != String(ProcessInfo.processInfo.processIdentifier) }, "written by the child")
        #expect(history.map { $0.changes.map(\.summary) } == [
            ["insert Trip/1", "insert BusinessTrip/2", "insert PersonalTrip/3", "insert Accommodation/1"],
            ["update Trip/1", "update Accommodation/1"],
            ["delete PersonalTrip/3"],
        ])
        #expect(history[1].changes.map(\.updatedNames) == [["name", "endDate"], ["trip"]])
        let delete = try #require(history[2].changes.first?.delete(of: PersonalTrip.self))
        #expect(delete.tombstone[\.identifier] as? UUID == identifiers["Beach"].flatMap(UUID.init(uuidString:)))
        // The changed models resolve in this process (the deleted one does not).
        let context = ModelContext(container)
        #expect((context.model(for: history[1].changes[0].changedPersistentIdentifier) as? Trip)?.name == "Paris in May")
        #expect((context.model(for: history[1].changes[1].changedPersistentIdentifier) as? Accommodation)?.trip?.name == "Fair")
        #expect(context.model(for: delete.changedPersistentIdentifier) == nil)
    }

    /// This process writes; another reads what came after a token this process persisted to a
    /// file (as an app hands its last token to its widget).
    @Test(arguments: StoreKind.persistent) func anotherProcessReadsAfterAPersistedToken(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: TripStore.schema)
        let context = ModelContext(container)
        context.author = "parent"
        let seed = Itinerary(title: "Before the token")
        context.insert(seed)
        try context.save()
        let tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("modelstore-token-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: tokenFile) }
        let token = try #require(try context.allHistory().last?.token)
        try JSONEncoder().encode(token).write(to: tokenFile)

        let lisbon = BusinessTrip(name: "Lisbon", startDate: Day.at(0), endDate: Day.at(1), company: "Acme")
        let stay = Accommodation(name: "Flat")
        context.insert(lisbon)
        context.insert(stay)
        try context.save()
        lisbon.company = "Initech"
        stay.trip = lisbon
        seed.days = ["Mon", "Tue"]
        try context.save()
        context.delete(lisbon)  // cascades to the stay
        try context.save()

        let output = try runProbe(["read", store.location, tokenFile.path])
        let read = try JSONDecoder().decode([ProbeTransaction].self, from: Data(output.utf8))
        let mine = try context.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > token }))
        #expect(read.count == 3)
        #expect(read.map(\.author) == ["parent", "parent", "parent"])
        let tokens = try read.map { try JSONDecoder().decode(DefaultHistoryToken.self, from: $0.token) }
        #expect(tokens == mine.map(\.token), "the child's tokens decode to this process's tokens")
        #expect(tokens.allSatisfy { $0 > token })
        let lisbonRow = try #require(lisbon.persistentModelID.rowID)
        let stayRow = try #require(stay.persistentModelID.rowID)
        let seedRow = try #require(seed.persistentModelID.rowID)
        #expect(read.map(\.changes) == [
            [ProbeChange(kind: "insert", entity: "BusinessTrip", row: lisbonRow, attributes: [], tombstone: [:]),
             ProbeChange(kind: "insert", entity: "Accommodation", row: stayRow, attributes: [], tombstone: [:])],
            [ProbeChange(kind: "update", entity: "BusinessTrip", row: lisbonRow, attributes: ["company"], tombstone: [:]),
             ProbeChange(kind: "update", entity: "Accommodation", row: stayRow, attributes: ["trip"], tombstone: [:]),
             ProbeChange(kind: "update", entity: "Itinerary", row: seedRow, attributes: ["days"], tombstone: [:])],
            [ProbeChange(kind: "delete", entity: "BusinessTrip", row: lisbonRow, attributes: [], tombstone: ["identifier": lisbon.identifier.uuidString]),
             ProbeChange(kind: "delete", entity: "Accommodation", row: stayRow, attributes: [], tombstone: [:])],
        ])
    }
}
