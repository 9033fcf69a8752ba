import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// A model actor that reads, beside the importers.
actor TripCounter: ModelActor {
    nonisolated let modelExecutor: any ModelExecutor
    nonisolated let modelContainer: ModelContainer
    init(modelContainer: ModelContainer) {
        self.modelContainer = modelContainer
        self.modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(modelContainer))
    }
    func count() throws -> Int {
        try modelContext.fetchCount(FetchDescriptor<Trip>())
    }
    /// The names of the trips with these identifiers, looked up through the actor's subscript.
    func names(of identifiers: [PersistentIdentifier]) -> [String?] {
        identifiers.map { self[$0, as: Trip.self]?.name }
    }
    /// Whether the actor's code runs on its model executor.
    func runsOnItsExecutor() -> Bool {
        (modelExecutor as? DefaultSerialModelExecutor).map { executor in
            executor.checkIsolated()
            return executor.modelContext === modelContext
        } ?? false
    }
}

@Suite struct ModelActorTests {
    static let importers = 8
    static let rowsPerImporter = 10_000
    static let readers = 3

    static func batches() -> [[Row]] {
        (0..<importers).map { batch in
            (0..<rowsPerImporter).map { index in
                Row(name: "b\(batch)-\(index)", start: Day.at(index % 365), end: Day.at(index % 365 + 1))
            }
        }
    }

    /// docs/Runtime.md hand-written `@ModelActor`: 8 importers at once into one file store while 3
    /// readers count, each on its own actor. Every importer's save is one transaction, so a
    /// reader sees a multiple of 10,000; the result is exact: every row once, every returned
    /// identifier permanent, distinct, and naming its own row.
    @Test(.timeLimit(.minutes(5)), arguments: StoreKind.persistent)
    func eightImportersAndReadersOnOneContainer(_ kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let container = try store.container(for: TripStore.schema)
        let batches = Self.batches()
        let done = Locked(false)
        let (identifiers, seen) = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<Self.readers {
                group.addTask {
                    let counter = TripCounter(modelContainer: container)
                    var seen: [Int] = []
                    repeat {
                        seen.append(try await counter.count())
                    } while !done.value && !Task.isCancelled
                    return seen
                }
            }
            let identifiers = try await importAll(batches, into: container)
            done.withLock { $0 = true }
            var counts: [[Int]] = []
            for try await seen in group { counts.append(seen) }
            return (identifiers, counts)
        }
        let total = Self.importers * Self.rowsPerImporter
        #expect(identifiers.count == total)
        #expect(Set(identifiers).count == total, "duplicate identifiers")
        #expect(identifiers.allSatisfy { !$0.isTemporary && $0.entityName == "Trip" })
        for reader in seen {
            #expect(!reader.isEmpty)
            #expect(reader.allSatisfy { $0 % Self.rowsPerImporter == 0 && $0 <= total }, "a reader saw part of a save: \(reader.filter { $0 % Self.rowsPerImporter != 0 }.prefix(5))")
            #expect(reader == reader.sorted(), "a reader's counts went back")
        }

        // Every identifier names its own row, and every row was returned once.
        let check = ModelContext(container)
        let trips = try check.fetch(FetchDescriptor<Trip>())
        #expect(trips.count == total)
        #expect(Set(trips.map(\.persistentModelID)) == Set(identifiers))
        let names = Dictionary(uniqueKeysWithValues: trips.map { ($0.persistentModelID, $0.name) })
        let expected = batches.flatMap { $0.map(\.name) }
        #expect(Set(expected) == Set(names.values), "rows lost, duplicated or mixed up")
        #expect(Set(identifiers.compactMap { names[$0] }).count == total)
        // And resolves through a model actor's subscript, in another context.
        let sample = stride(from: 0, to: total, by: 997).map { identifiers[$0] }
        let resolved = await TripCounter(modelContainer: container).names(of: sample)
        #expect(resolved == sample.map { names[$0] })
        if let file = try store.sqliteFileConnection() { #expect(try StoreDump.integrity(file) == ["ok"]) }
    }

    @Test(arguments: StoreKind.allCases) func anActorRunsOnItsModelExecutorWithItsContext(_ kind: StoreKind) async throws {
        let store = try TestStore(kind)
        let container = try store.container(for: TripStore.schema)
        let counter = TripCounter(modelContainer: container)
        #expect(await counter.runsOnItsExecutor())
        #expect(await counter.names(of: [PersistentIdentifier(entityName: "Trip", rowID: 99, store: container.storeIdentifier)]) == [nil], "a missing row resolves to nil")
        let ids = try await TripImporter(modelContainer: container).importTrips([Row(name: "Solo", start: Day.at(0), end: Day.at(1))])
        #expect(await counter.names(of: ids) == ["Solo"])
        #expect(await counter.names(of: [PersistentIdentifier(entityName: "Accommodation", rowID: ids[0].rowID!, store: container.storeIdentifier)]) == [nil], "not a Trip")
    }

    /// What docs/Runtime.md makes `Sendable` (checked by the compiler), and identifiers' `Codable`.
    @Test func sendableAndCodableTypes() throws {
        func sendable<T: Sendable>(_: T.Type) {}
        sendable(ModelContainer.self)
        sendable(PersistentIdentifier.self)
        sendable(Schema.self)
        sendable(DefaultSerialModelExecutor.self)
        sendable(DefaultHistoryToken.self)
        sendable(DefaultHistoryTransaction.self)
        sendable(HistoryChange.self)

        let identifiers = [PersistentIdentifier(entityName: "Trip", rowID: 7, store: nil),
                           PersistentIdentifier(entityName: "BusinessTrip", rowID: 8, store: UUID().uuidString)]
        let decoded = try JSONDecoder().decode([PersistentIdentifier].self, from: JSONEncoder().encode(identifiers))
        #expect(decoded == identifiers)
        #expect(Set(decoded + identifiers).count == 2)
    }

    // MARK: The documented code (docs/Runtime.md)

    /// The code of TripImporter.swift after its header comment.
    static func importerCode() throws -> String {
        let file = BuiltProducts.packageRoot.appendingPathComponent("Tests/ModelStoreTests/Concurrency/TripImporter.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        let start = try #require(text.range(of: "/// What an importer receives"))
        return String(text[start.lowerBound...])
    }

    @Test func theRuntimeDocShowsTheImporterVerbatim() throws {
        let doc = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("docs/Runtime.md"), encoding: .utf8)
        let code = try Self.importerCode()
        #expect(doc.contains("```swift\n" + code + "```\n"), "docs/Runtime.md must show Tests/ModelStoreTests/Concurrency/TripImporter.swift's code in a swift block")
        // What @ModelActor expands to (docs/Runtime.md, "Sendable types and model actors"), line for line.
        for line in ["actor TripImporter: ModelActor {",
                     "    nonisolated let modelExecutor: any ModelExecutor",
                     "    nonisolated let modelContainer: ModelContainer",
                     "    init(modelContainer: ModelContainer) {",
                     "        self.modelContainer = modelContainer",
                     "        self.modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(modelContainer))",
                     "    func importTrips(_ rows: [Row]) throws -> [PersistentIdentifier] {"] {
            #expect(code.contains(line + "\n"), "missing: \(line)")
        }
    }

    /// The importer compiles alone against the built ModelStore module, in Swift 6 language mode,
    /// with warnings as errors (with the generated Trips code as its models).
    @Test(.timeLimit(.minutes(3)))
    func theImporterCompilesWithoutWarningsInSwift6() throws {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let modules = folder.appendingPathComponent("Modules")
        try #require(FileManager.default.fileExists(atPath: modules.appendingPathComponent("ModelStore.swiftmodule").path),
                     "no ModelStore.swiftmodule in \(modules.path)")
        let root = BuiltProducts.packageRoot
        // The system libraries ModelStore imports (CSQLite, …): their module maps' folders.
        let sources = root.appendingPathComponent("Sources")
        let systemLibraries = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
            .filter { FileManager.default.fileExists(atPath: sources.appendingPathComponent($0).appendingPathComponent("module.modulemap").path) }
            .flatMap { ["-I", sources.appendingPathComponent($0).path] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let files = ["Tests/ModelStoreTests/Concurrency/TripImporter.swift", "Tests/ModelStoreTests/Generated/Trips.model.swift"]
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-parse-as-library", "-I", modules.path]
            + systemLibraries + ["-module-cache-path", folder.appendingPathComponent("ModuleCache").path]
            + files.map { root.appendingPathComponent($0).path }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "swiftc failed:\n\(text)")
        #expect(!text.contains("warning"), "\(text)")
    }
}
