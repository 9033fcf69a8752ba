import Foundation
import GoldenFiles
import Testing
@testable import ModelGenKit

/// Imports of model files written the way Apple's samples and real apps write them
/// (Import/Fixtures/NAME/*.swift), compared with goldens (Import/Goldens/NAME/: the model files and
/// the notes, `MODELGEN_UPDATE_GOLDENS=1` rewrites them); each must lint clean, be formatted, and
/// its frozen versions be what `modelgen freeze` writes.
@Suite struct ImportFixtureTests {
    static let folder = GoldenTests.packageRoot.appendingPathComponent("Tests/ModelGenKitTests/Import")

    /// The Swift files of fixture `name`, named `NAME/File.swift`.
    static func sources(_ name: String) throws -> [SourceFile] {
        let directory = folder.appendingPathComponent("Fixtures/\(name)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }.sorted()
        return try names.map { SourceFile(path: "\(name)/\($0)", bytes: Array(try Data(contentsOf: directory.appendingPathComponent($0)))) }
    }

    /// Imports fixture `name` in memory and compares every file and the notes with the goldens.
    static func importAndCompare(_ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> ImportResult {
        let result = try ModelGen.import(try sources(name), into: "Out")
        #expect(result.outcome == .inMemory)
        #expect(!result.messages.contains { $0.severity == .error }, "\(result.messages)", sourceLocation: sourceLocation)
        let goldens = folder.appendingPathComponent("Goldens/\(name)")
        for file in result.files {
            try GoldenFile.expect(file.text, matches: goldens.appendingPathComponent(String(file.path.dropFirst("Out/".count))), sourceLocation: sourceLocation)
        }
        let notes = result.messages.map { $0.description + "\n" }.joined()
        try GoldenFile.expect(notes, matches: goldens.appendingPathComponent("notes.txt"), sourceLocation: sourceLocation)
        return result
    }

    /// Lint clean; each `.model` formatted as `modelgen format` writes it.
    static func expectCleanAndFormatted(_ result: ImportResult, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let rendered = DiagnosticRenderer(sources: result.modelSources).render(result.diagnostics)
        #expect(result.diagnostics.isEmpty, "\(rendered)", sourceLocation: sourceLocation)
        #expect(!result.failed, sourceLocation: sourceLocation)
        for file in result.modelSources where file.path.hasSuffix(".model") {
            let formatted = try ModelGen.format(.files([file]))
            #expect(formatted.formatted == [String(decoding: file.bytes, as: UTF8.self)], "\(file.path) is not formatted", sourceLocation: sourceLocation)
        }
    }

    @Test func appleStyleTripsImportCleanly() throws {
        let result = try Self.importAndCompare("Trips")
        try Self.expectCleanAndFormatted(result)
        #expect(result.files.map(\.path) == ["Out/Trips.model"])
        // Every construct the model cannot hold is reported, at its line.
        let notes = result.messages.map(\.description)
        for expected in [
            "Trips/Trips.swift:31: note: computed property 'Trip.nights'", "Trips/Trips.swift:42: note: func 'rename' in class 'Trip'",
            "Trips/Trips.swift:47: note: extension of 'Trip'", "note: conditional compilation: the first branch ('#if os(iOS)') was read; '#else' (line 139)",
            "note: enum 'Screen' is not used by a model",
        ] {
            #expect(notes.contains { $0.contains(expected) }, "no note \(expected) in \(notes)")
        }
    }

    @Test func aVersionedSchemaHistoryBecomesFrozenVersionsAndMigrations() throws {
        let result = try Self.importAndCompare("History")
        try Self.expectCleanAndFormatted(result)
        #expect(result.files.map(\.path) == [
            "Out/Schemas.model", "Out/ModelVersions/1.0.0.modelversion", "Out/ModelVersions/2.0.0.modelversion", "Out/ModelVersions/3.0.0.modelversion",
        ])
        #expect(result.files[0].text.contains("migration \"1.0.0\" -> \"2.0.0\" { custom }\n"))
        #expect(!result.files[0].text.contains("\"2.0.0\" -> \"3.0.0\""), "a lightweight stage needs no declaration")
        // The newest version is the current model frozen: `modelgen freeze` writes the same file.
        let current = try #require(result.modelSources.first)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("import-freeze-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let frozen = try ModelGen.freeze(.files([SourceFile(path: "Schemas.model", bytes: current.bytes)]), as: try #require(SchemaVersion("3.0.0")), into: directory)
        #expect(frozen.outcome == .written)
        #expect(frozen.text == result.files[3].text)
        // The plan: one custom step, one inferred.
        let plan = try ModelGen.migrations(.sources(result.modelSources.map { ModelSource($0) }))
        #expect(plan.history?.steps.count == 2)
        #expect(!plan.failed, "\(plan.diagnostics)")
    }

    /// The constructs docs/Language.md gains with the language additions of #27 (a Codable enum
    /// without raw type, an optional to-many, `CGFloat`, static-member defaults, protocol lists,
    /// `@ModelActor`, defaults on init parameters): the importer writes them already; the model
    /// lints only once those additions are merged.
    @Suite struct LanguageAdditions {
        @Test func chatModelsImportCleanly() throws {
            let result = try ImportFixtureTests.importAndCompare("Additions")
            try ImportFixtureTests.expectCleanAndFormatted(result)
        }
    }

    /// What the importer writes for the constructs of #27, checked as text now (it lints once #27 is merged).
    @Test func theAdditionsOfTheLanguageAreWrittenWithTheirSpelling() throws {
        let result = try ModelGen.import(try Self.sources("Additions"), into: "Out")
        #expect(!result.messages.contains { $0.severity == .error }, "\(result.messages)")
        let text = result.files.map(\.text).joined()
        for spelling in [
            "enum Provider: Codable {\n    case ollama\n    case openAI\n}", "conversations: [Conversation]? = []", "width: CGFloat",
            "frame: Rect = .zero", "origin: Rect = Rect.zero", "struct Pt: Codable, Hashable, Identifiable {", "@ModelActor actor ChatStore",
            "init(name, startDate = .now)",
        ] {
            #expect(text.contains(spelling), "no '\(spelling)' in:\n\(text)")
        }
    }
}
