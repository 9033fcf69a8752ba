import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// SwiftData's `ModelConfiguration` and `ModelContainer` surface (docs/Runtime.md, "Configuration").
@Suite struct ConfigurationTests {
    @Test func swiftDataSpellingsCompileAndKeepWhatTheySay() throws {
        // The line Xcode's SwiftData template writes, and the other initializers.
        let template = ModelConfiguration(schema: TripStore.schema, isStoredInMemoryOnly: false)
        #expect(template.name == "default")
        #expect(template.schema === TripStore.schema)
        #expect(template.url == ModelConfiguration.defaultURL(name: "default"))
        #expect(template.allowsSave && !template.isStoredInMemoryOnly)
        #expect(template.groupContainer == .automatic && template.cloudKitDatabase == .automatic)
        let url = URL(fileURLWithPath: "/tmp/x.store")
        let located = ModelConfiguration("Trips", schema: TripStore.schema, url: url, allowsSave: false, cloudKitDatabase: .none)
        #expect(located.name == "Trips" && located.url == url && !located.allowsSave)
        let memory = ModelConfiguration("Scratch", isStoredInMemoryOnly: true, groupContainer: .none, cloudKitDatabase: .none)
        #expect(memory.name == "Scratch" && memory.isStoredInMemoryOnly && memory.url == URL(fileURLWithPath: "/dev/null"))
        #expect(ModelConfiguration(isStoredInMemoryOnly: true).isStoredInMemoryOnly)
        #expect(ModelConfiguration(for: Trip.self, isStoredInMemoryOnly: true).schema?.entity(for: Trip.self) != nil)
        #expect(ModelConfiguration(url: url).url == url)
    }

    @Test func theDefaultLocationFollowsTheXDGConvention() {
        let program = ProcessInfo.processInfo.processName
        #expect(ModelConfiguration.defaultURL(name: "default", environment: ["XDG_DATA_HOME": "/data"]).path == "/data/\(program)/default.store")
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        #expect(ModelConfiguration.defaultURL(name: "Notes", environment: [:]).path == "\(home)/.local/share/\(program)/Notes.store")
        // A relative XDG_DATA_HOME is invalid by the specification and ignored.
        #expect(ModelConfiguration.defaultURL(name: "Notes", environment: ["XDG_DATA_HOME": "rel"]).path == "\(home)/.local/share/\(program)/Notes.store")
        #expect(ModelConfiguration("Notes").url == ModelConfiguration.defaultURL(name: "Notes"))
    }

    @Test func aContainerWithoutURLMakesItsStoreInTheDefaultFolderAndEraseRemovesIt() throws {
        let name = "modelstore-test-" + UUID().uuidString
        let configuration = ModelConfiguration(name, schema: TripStore.schema)
        let container = try ModelContainer(for: TripStore.schema, configurations: configuration)
        let context = ModelContext(container)
        context.insert(Trip(name: "Paris", startDate: Day.at(0), endDate: Day.at(1)))
        try context.save()
        #expect(FileManager.default.fileExists(atPath: configuration.url.path))
        try container.erase()
        #expect(!FileManager.default.fileExists(atPath: configuration.url.path))
        #expect(!FileManager.default.fileExists(atPath: configuration.url.path + "-wal"))
    }

    @Test(arguments: [
        (ModelConfiguration(isStoredInMemoryOnly: true, groupContainer: .identifier("group.example.trips")), "group.example.trips"),
        (ModelConfiguration(isStoredInMemoryOnly: true, cloudKitDatabase: .private("iCloud.example.trips")), "iCloud.example.trips"),
        (ModelConfiguration(url: URL(fileURLWithPath: "/tmp/modelstore-refused.store"), cloudKitDatabase: .private("iCloud.x")), "iCloud.x"),
    ])
    func optionsThatCannotApplyAreRefused(_ configuration: ModelConfiguration, _ named: String) throws {
        do {
            _ = try ModelContainer(for: TripStore.schema, configurations: configuration)
            Issue.record("opened a container for \(named)")
        } catch let error as ModelStoreError {
            guard case .unsupportedConfiguration = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(error.description.contains(named))
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/modelstore-refused.store"))
    }

    @Test func optionsThatAskForNothingAreAccepted() throws {
        for configuration in [ModelConfiguration(isStoredInMemoryOnly: true, groupContainer: .none, cloudKitDatabase: .none),
                              ModelConfiguration(isStoredInMemoryOnly: true, groupContainer: .automatic, cloudKitDatabase: .automatic)] {
            _ = try ModelContainer(for: TripStore.schema, configurations: configuration)
        }
    }

    /// A configuration on `store`'s location with `allowsSave: false` (in memory: a new store).
    private func readOnly(_ store: TestStore) -> ModelConfiguration {
        store.kind == .sqliteMemory ? ModelConfiguration(isStoredInMemoryOnly: true, allowsSave: false)
            : ModelConfiguration(url: store.configuration.url, allowsSave: false)
    }

    @Test(arguments: StoreKind.allCases) func allowsSaveFalseIsAReadOnlyStore(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        fixture.context.insert(Trip(name: "Paris", startDate: Day.at(0), endDate: Day.at(1)))
        try fixture.context.save()
        let stored = kind == .sqliteMemory ? 0 : 1

        let container = try ModelContainer(for: TripStore.schema, configurations: readOnly(fixture.store))
        let context = ModelContext(container)
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == stored)
        context.insert(Trip(name: "Rome", startDate: Day.at(0), endDate: Day.at(1)))
        #expect(throws: ModelStoreError.self) { try context.save() }
        do { try context.save() } catch let error as ModelStoreError {
            guard case .readOnlyStore = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(error.description.contains("allowsSave: false"))
        }
        #expect(context.hasChanges)
        #expect(throws: ModelStoreError.self) { try container.deleteAllData() }
        #expect(throws: ModelStoreError.self) { try container.erase() }
        #expect(throws: ModelStoreError.self) { try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>()) }
        // Nothing was written, and the store itself refuses writes.
        #expect(try ModelContext(fixture.container).fetchCount(FetchDescriptor<Trip>()) == 1)
        if kind != .sqliteMemory {
            let connection = try container.makeConnection()
            #expect(throws: (any Error).self) { try connection.execute("DELETE FROM \"Trip\"") }
            #expect(try ModelContext(fixture.container).fetchCount(FetchDescriptor<Trip>()) == 1)
        }
    }

    @Test func aReadOnlyConfigurationDoesNotCreateAMissingFile() throws {
        let store = try TemporaryStore()
        #expect(throws: (any Error).self) {
            _ = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(url: store.url, allowsSave: false))
        }
        #expect(!FileManager.default.fileExists(atPath: store.url.path))
    }

    /// Two trips, one with a stay, saved.
    private func seed(_ fixture: StoreFixture) throws {
        let trip = Trip(name: "Paris", startDate: Day.at(0), endDate: Day.at(1))
        fixture.context.insert(trip)
        fixture.context.insert(Trip(name: "Rome", startDate: Day.at(0), endDate: Day.at(1)))
        let stay = Accommodation(name: "Hotel")
        fixture.context.insert(stay)
        stay.trip = trip
        try fixture.context.save()
    }

    @Test(arguments: StoreKind.allCases) func deleteAllDataEmptiesTheStoreAndKeepsItsSchema(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        try seed(fixture)
        try fixture.container.deleteAllData()
        let fresh = ModelContext(fixture.container)
        #expect(try fresh.fetchCount(FetchDescriptor<Trip>()) == 0)
        #expect(try fresh.fetchCount(FetchDescriptor<Accommodation>()) == 0)
        #expect(try fresh.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).isEmpty)
        fresh.insert(Trip(name: "Oslo", startDate: Day.at(0), endDate: Day.at(1)))
        try fresh.save()
        #expect(try ModelContext(fixture.container).fetch(FetchDescriptor<Trip>()).map(\.name) == ["Oslo"])
    }

    @Test(arguments: StoreKind.allCases) func eraseDeletesTheStore(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        try seed(fixture)
        let connection = try fixture.container.makeConnection()
        try fixture.container.erase()
        if let url = fixture.store.url {
            #expect(!FileManager.default.fileExists(atPath: url.path))
        } else {
            #expect(try connection.rows(connection.dialect.tableExistsQuery, [.text("Trip")]).isEmpty)
            #expect(try connection.rows(connection.dialect.tableExistsQuery, [.text(StorageNames.metadataTable)]).isEmpty)
        }
        // Opening the store again makes a new, empty one.
        let again = try fixture.store.container(for: TripStore.schema)
        #expect(try ModelContext(again).fetchCount(FetchDescriptor<Trip>()) == 0)
    }
}
