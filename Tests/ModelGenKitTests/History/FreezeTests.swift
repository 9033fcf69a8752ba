import Foundation
import Testing
@testable import ModelGenKit

/// `ModelGen.freeze` (`modelgen freeze`): the current model, in canonical text, as a version file.
@Suite struct FreezeTests {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("freeze-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    private func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: root.appendingPathComponent(path).path).map { String(decoding: $0, as: UTF8.self) }
    }

    private func freeze(_ version: String, inputs: [String] = ["Models"]) throws -> FreezeResult {
        try ModelGen.freeze(
            .paths(inputs.map { root.appendingPathComponent($0).path }), as: try #require(SchemaVersion(version)), spelling: version,
            into: root.appendingPathComponent("Models/ModelVersions"))
    }

    static let trips = """
        // The trips of the app.

        /// A journey.
        entity Trip   { name: String // its name
          /// Minutes.
          duration: Int }

        /// Text became minutes.
        migration "1.0.0" -> "2.0.0" { custom }
        container Journal { Trip }
        """

    @Test func writesTheCanonicalTextWithDocsOnly() throws {
        try write("Models/Trips.model", Self.trips)
        try write("Models/Places.model", "/* places */ entity Place { name: String }\n")
        let result = try freeze("2.0.0")
        #expect(result.outcome == .written)
        #expect(!result.failed)
        let text = try #require(read("Models/ModelVersions/2.0.0.modelversion"))
        #expect(text == """
            // Version 2.0.0 of the model, frozen by 'modelgen freeze' from Places.model, Trips.model.
            // Do not edit: stores were written with this schema. Edit the model, then freeze a new version.

            entity Place {
                name: String
            }

            /// A journey.
            entity Trip {
                name: String
                /// Minutes.
                duration: Int
            }

            container Journal { Trip }

            """)
        // Canonical: formatting changes nothing, and it checks alone as a model.
        let formatted = try ModelGen.format(.files([SourceFile(path: "2.0.0.modelversion", text: text)]))
        #expect(formatted.formatted == [text])
        #expect(Run.lint([SourceFile(path: "V.model", text: text)]).diagnostics.isEmpty)
    }

    @Test func neverRewritesAVersion() throws {
        try write("Models/Trips.model", Self.trips)
        #expect(try freeze("2.0.0").outcome == .written)
        let frozen = read("Models/ModelVersions/2.0.0.modelversion")
        // The same model again: nothing to do.
        #expect(try freeze("2.0.0").outcome == .unchanged)
        #expect(try freeze("2.0").outcome == .unchanged)
        // Another model as the same version, or as an older one: refused, the file untouched.
        try write("Models/Trips.model", Self.trips.replacingOccurrences(of: "duration: Int", with: "duration: Int64"))
        let refused = try freeze("2.0.0")
        #expect(refused.failed)
        guard case .refused(let message) = refused.outcome else {
            Issue.record("not refused: \(refused.outcome)")
            return
        }
        #expect(message.hasPrefix("version 2.0.0 is frozen already in '"))
        #expect(message.hasSuffix("and the model differs from it: a frozen version is never rewritten (stores were written with it); freeze the model as a new version"))
        guard case .refused(let older) = try freeze("1.5").outcome else {
            Issue.record("an older version was not refused")
            return
        }
        #expect(older.contains("versions only grow; freeze the model as a version after 2.0.0"))
        #expect(read("Models/ModelVersions/2.0.0.modelversion") == frozen)
        #expect(try freeze("2.1").outcome == .written)
        #expect(read("Models/ModelVersions/2.1.modelversion")?.contains("duration: Int64") == true)
    }

    @Test func aModelWithErrorsIsNotFrozen() throws {
        try write("Models/Trips.model", "entity Trip { name: Strin }\n")
        let result = try freeze("1.0.0")
        #expect(result.outcome == .modelErrors)
        #expect(result.diagnostics.map(\.rule) == [.unknownType])
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Models/ModelVersions").path))
    }

    /// Freezing is how a step that needs code becomes declarable: the history's errors do not stop it.
    @Test func historyErrorsDoNotStopAFreeze() throws {
        try write("Models/Trips.model", "entity Trip { duration: Int }\n")
        try write("Models/ModelVersions/1.0.0.modelversion", "entity Trip { duration: String }\n")
        #expect(Run.lint([SourceFile(path: "a.model", text: "entity Trip { duration: Int }\n"),
                          SourceFile(path: "1.0.0.modelversion", text: "entity Trip { duration: String }\n")]).errorCount == 1)
        let result = try freeze("2.0.0")
        #expect(result.outcome == .written)
        #expect(result.diagnostics.isEmpty)
    }
}
