import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The `.model` files a store records for `modelgen pull` (docs/CommandLine.md, "modelgen pull"):
/// written when the store is created, rewritten when the text changed, never by a read-only container.
@Suite struct RecordedModelTests {
    /// Samples/Trips.model: the file Tests/ModelStoreTests/Generated/Trips.model.swift was generated from.
    static let tripsText: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("Samples/Trips.model"), encoding: .utf8)) ?? ""
    }()

    /// What the store records under `"$metadata"` key `model`, decoded.
    private func recorded(_ store: TestStore, _ container: ModelContainer) throws -> [ModelSourceFile]? {
        guard let json = try StoreMigrator.recordedModel(store.rawConnection(through: container)) else { return nil }
        return try JSONDecoder().decode([ModelSourceFile].self, from: Data(json.utf8))
    }

    private func setRecorded(_ value: String?, _ store: TestStore, _ container: ModelContainer) throws {
        let connection = try store.rawConnection(through: container)
        try connection.run("DELETE FROM \"$metadata\" WHERE key = ?", [.text(StoreMigrator.modelKey)])
        if let value { try connection.run("INSERT INTO \"$metadata\" (key, value) VALUES (?, ?)", [.text(StoreMigrator.modelKey), .text(value)]) }
    }

    @Test func theGeneratedCodeCarriesItsModelFile() throws {
        #expect(!Self.tripsText.isEmpty)
        #expect(TripStore.schema.modelSources == [ModelSourceFile(path: "Trips.model", lines: Self.tripsText.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init))])
        #expect(TripStore.schema.modelSources.first?.text == Self.tripsText)
    }

    @Test(arguments: StoreKind.allCases) func aNewStoreRecordsItsModel(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, TripStore.schema)
        let files = try recorded(fixture.store, fixture.container)
        #expect(files?.map(\.path) == ["Trips.model"])
        #expect(files?.first?.text == Self.tripsText)
        if let url = fixture.store.url ?? fixture.store.postgres?.storeURL {
            let pulled = try RecordedModel.files(at: url)
            #expect(pulled == [RecordedModel.File(path: "Trips.model", text: Self.tripsText)])
        }
    }

    @Test(arguments: StoreKind.persistent) func aChangedOrMissingTextIsRewrittenOnOpen(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let first = try store.container(for: TripStore.schema)
        // A store written before stores recorded their model: `pull` says so, the next open records it.
        try setRecorded(nil, store, first)
        let url = try #require(store.url ?? store.postgres?.storeURL)
        #expect { try RecordedModel.files(at: url) } throws: { error in
            "\(error)".contains("records no model") && "\(error)".contains("pull again")
        }
        let second = try store.container(for: TripStore.schema)
        #expect(try recorded(store, second)?.first?.text == Self.tripsText)
        // The text changed since (here: another text recorded): the open rewrites it.
        try setRecorded(#"[{"path":"Trips.model","text":"// old\n"}]"#, store, second)
        let third = try store.container(for: TripStore.schema)
        #expect(try recorded(store, third)?.first?.text == Self.tripsText)
    }

    @Test(arguments: StoreKind.persistent) func aReadOnlyContainerWritesNothing(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let writer = try store.container(for: TripStore.schema)
        let old = #"[{"path":"Trips.model","text":"// old\n"}]"#
        try setRecorded(old, store, writer)
        let readOnly = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(url: store.configuration.url, allowsSave: false))
        #expect(try StoreMigrator.recordedModel(store.rawConnection(through: readOnly)) == old)
        // `pull` opens read-only too: what it reads is what is there.
        let url = try #require(store.url ?? store.postgres?.storeURL)
        #expect(try RecordedModel.files(at: url) == [RecordedModel.File(path: "Trips.model", text: "// old\n")])
        #expect(try StoreMigrator.recordedModel(store.rawConnection(through: writer)) == old)
    }

    @Test func urlsWithoutAStoreAreRefusedWithTheirReason() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recorded-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.store")
        #expect { try RecordedModel.files(at: missing) } throws: { "\($0)".contains("does not exist") }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
        let text = folder.appendingPathComponent("notes.txt")
        try Data("not a database".utf8).write(to: text)
        #expect(throws: (any Error).self) { try RecordedModel.files(at: text) }
        #expect(try Data(contentsOf: text) == Data("not a database".utf8))
    }
}
