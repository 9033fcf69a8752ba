import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// A model actor whose context autosaves on the actor's executor.
actor AutosavingWriter: ModelActor {
    nonisolated let modelExecutor: any ModelExecutor
    nonisolated let modelContainer: ModelContainer
    init(modelContainer: ModelContainer) {
        self.modelContainer = modelContainer
        let context = ModelContext(modelContainer)
        context.autosaveEnabled = true
        self.modelExecutor = DefaultSerialModelExecutor(modelContext: context)
    }
    func insert(_ name: String) {
        modelContext.insert(Trip(name: name, startDate: Day.at(0), endDate: Day.at(1)))
    }
    var hasChanges: Bool { modelContext.hasChanges }
}

/// Runs the child process `HistoryProbe` with `arguments` and returns its standard output.
func runProbe(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = BuiltProducts.executable("HistoryProbe")
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw ProbeFailure(message: "HistoryProbe \(arguments): \(message)") }
    return String(decoding: data, as: UTF8.self)
}

struct ProbeFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Lets the main actor run what is queued on it until `condition` holds (or 10 s passed).
@MainActor func runMainActor(until condition: () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(10)
    while !condition() && Date() < deadline {
        try await Task.sleep(for: .milliseconds(5))
    }
}

@Suite struct AutosaveTests {
    @MainActor @Test func theMainContextSavesAnInsertWithoutSave() async throws {
        let store = try TemporaryStore()
        let container = try ModelContainer(for: TripStore.schema, configurations: store.configuration)
        let context = container.mainContext
        #expect(context.autosaveEnabled)
        #expect(!ModelContext(container).autosaveEnabled, "contexts you make do not autosave by default")

        context.insert(Trip(name: "Unsaved", startDate: Day.at(0), endDate: Day.at(1)))
        #expect(context.hasChanges)
        // The autosave runs when the main actor gets to it, not inside `insert`.
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 0)
        try await runMainActor { !context.hasChanges }
        #expect(!context.hasChanges)
        #expect(context.autosaveError == nil)

        // Another process, and another container, read it from the file.
        #expect(try runProbe(["count", store.url.path]) == "1\n")
        let second = try ModelContainer(for: TripStore.schema, configurations: store.configuration)
        #expect(try ModelContext(second).fetch(FetchDescriptor<Trip>()).map(\.name) == ["Unsaved"])
    }

    @MainActor @Test func changesMadeBeforeTheAutosaveRunsAreOneSave() async throws {
        let container = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = container.mainContext
        context.author = "main"
        let trips = (0..<50).map { Trip(name: "T\($0)", startDate: Day.at($0), endDate: Day.at($0 + 1)) }
        for trip in trips { context.insert(trip) }
        trips[0].name = "First"
        try await runMainActor { !context.hasChanges }
        let history = try ModelContext(container).allHistory()
        #expect(history.count == 1, "one autosave for the 50 inserts")
        #expect(history.first?.changes.count == 50)
        #expect(history.first?.author == "main")

        // A later change is a second autosave.
        trips[1].name = "Second"
        try await runMainActor { !context.hasChanges }
        let again = try ModelContext(container).allHistory()
        #expect(again.count == 2)
        #expect(again.last?.changes.map(\.updatedNames) == [["name"]])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Second" })) == 1)
    }

    /// A failed autosave loses nothing: the changes stay pending, the error is kept and posted,
    /// and the next change saves everything.
    @MainActor @Test func aFailedAutosaveKeepsTheChangesAndReportsTheError() async throws {
        let container = try ModelContainer(for: Shop.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = container.mainContext
        let reported = Locked<[String]>([])
        let observer = NotificationCenter.default.addObserver(forName: ModelContext.autosaveDidFail, object: context, queue: nil) { note in
            let error = note.userInfo?[ModelContext.NotificationKey.error.rawValue]
            reported.withLock { $0.append(error.map { "\($0)" } ?? "no error") }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        let broken = Product(sku: "NaN", name: "Broken", price: 1)
        broken.weight = .nan  // refused by the store: the save throws
        context.insert(broken)
        try await runMainActor { context.autosaveError != nil }
        let error = try #require(context.autosaveError)
        #expect("\(error)".contains("NaN"), "\(error)")
        #expect(reported.value.count == 1)
        #expect(reported.value.first == "\(error)")
        #expect(context.hasChanges, "the failed autosave's changes stay pending")
        #expect(context.insertedModelsArray.count == 1)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Product>()) == 0)

        broken.weight = 2
        context.insert(Product(sku: "OK", name: "Fine", price: 2))  // the next change schedules another autosave
        try await runMainActor { !context.hasChanges }
        #expect(context.autosaveError == nil, "a successful save clears the error")
        #expect(try ModelContext(container).fetch(FetchDescriptor<Product>(sortBy: [SortDescriptor(\.sku)])).map(\.sku) == ["NaN", "OK"])
        #expect(reported.value.count == 1)
    }

    @Test func aModelActorsContextAutosavesOnTheActor() async throws {
        let container = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let writer = AutosavingWriter(modelContainer: container)
        await writer.insert("From the actor")
        // The autosave runs on the actor's executor after the insert's job, as soon as it is free.
        let deadline = Date().addingTimeInterval(10)
        while await writer.hasChanges, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await writer.hasChanges == false)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).map(\.name) == ["From the actor"])
    }

    /// A context no executor owns has nowhere safe to autosave: it keeps its changes until `save()`.
    @MainActor @Test func aContextOfYourOwnDoesNotAutosave() async throws {
        let container = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.autosaveEnabled = true
        context.insert(Trip(name: "Pending", startDate: Day.at(0), endDate: Day.at(1)))
        try await Task.sleep(for: .milliseconds(50))
        #expect(context.hasChanges)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)
    }

    @MainActor @Test func turningAutosaveOffStopsIt() async throws {
        let container = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = container.mainContext
        context.autosaveEnabled = false
        context.insert(Trip(name: "Manual", startDate: Day.at(0), endDate: Day.at(1)))
        try await Task.sleep(for: .milliseconds(50))
        #expect(context.hasChanges)
        context.autosaveEnabled = true  // pending changes are scheduled at once
        try await runMainActor { !context.hasChanges }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)
    }
}
