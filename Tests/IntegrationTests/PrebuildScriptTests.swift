import Foundation
import Testing

/// A temporary folder with a `Models` folder, where `modelgen-prebuild.sh` runs with the
/// `modelgen` built for this test run (`--output Generated Models`).
final class PrebuildFolder {
    let work = FileManager.default.temporaryDirectory.appending(path: "modelgen-prebuild-\(UUID().uuidString)", directoryHint: .isDirectory)
    var models: URL { work.appending(path: "Models", directoryHint: .isDirectory) }
    private let script = Workspace.root.appending(path: "Scripts/prebuild/modelgen-prebuild.sh").path(percentEncoded: false)
    private let modelgen: String

    init() throws {
        modelgen = try Workspace.builtExecutable("modelgen").path(percentEncoded: false)
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: work)
    }

    /// Writes `text` to `path` below `Models` (folders created), dated `secondsAhead` from now
    /// (by default a minute ago, so a generation that follows is surely newer).
    @discardableResult
    func write(_ text: String, to path: String, secondsAhead: TimeInterval = -60) throws -> URL {
        let url = models.appending(path: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(secondsAhead)], ofItemAtPath: url.path(percentEncoded: false))
        return url
    }

    /// The generated file `name`.
    func output(_ name: String) -> URL {
        work.appending(path: "Generated/\(name)")
    }

    /// One run of the script.
    func prebuild() async throws -> ProcessResult {
        try await Shell.run("bash", [script, "--modelgen", modelgen, "--output", "Generated", "Models"], in: work)
    }
}

/// `Scripts/prebuild/modelgen-prebuild.sh`, run with the `modelgen` built for this test run.
extension IntegrationTests {
    @Test("The prebuild script generates once, then only when a model is newer")
    func prebuildScriptRegeneratesOnlyWhenStale() async throws {
        let folder = try PrebuildFolder()
        let model = try folder.write(try String(contentsOf: Workspace.root.appending(path: "Samples/Trips.model"), encoding: .utf8), to: "Travel/Trips.model")
        let output = folder.output("Travel_Trips.model.swift").path(percentEncoded: false)
        let prebuild = folder.prebuild

        let first = try await prebuild()
        try #require(first.status == 0, "prebuild failed:\n\(first.output)")
        #expect(first.output.contains("generating"))
        #expect(FileManager.default.fileExists(atPath: output))

        let second = try await prebuild()
        #expect(second.status == 0)
        #expect(second.output.contains("up to date"), "regenerated with nothing changed:\n\(second.output)")

        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(2)], ofItemAtPath: model.path(percentEncoded: false))
        let touched = try await prebuild()
        #expect(touched.status == 0)
        #expect(touched.output.contains("generating"), "did not regenerate after the model changed:\n\(touched.output)")

        try "BROKEN\n".write(to: model, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(4)], ofItemAtPath: model.path(percentEncoded: false))
        let broken = try await prebuild()
        #expect(broken.status == 1, "a broken model did not fail the prebuild:\n\(broken.output)")
        #expect(broken.output.contains("Trips.model:1:"), "no diagnostic for the broken model:\n\(broken.output)")
    }

    @Test("The prebuild script reads the modelgen.json of a folder input, and reruns when it changes")
    func prebuildScriptReadsTheConfiguration() async throws {
        let folder = try PrebuildFolder()
        try folder.write("entity Thing {\n    name: String\n}\n", to: "Thing.model")
        try folder.write("{\"accessLevel\": \"public\"}\n", to: "modelgen.json")
        let output = folder.output("Thing.model.swift")

        let first = try await folder.prebuild()
        try #require(first.status == 0, "prebuild failed:\n\(first.output)")
        #expect(try String(contentsOf: output, encoding: .utf8).contains("public class Thing"))
        #expect(try await folder.prebuild().output.contains("up to date"))

        try folder.write("{\"accessLevel\": \"package\"}\n", to: "modelgen.json", secondsAhead: 2)
        let changed = try await folder.prebuild()
        #expect(changed.output.contains("generating"), "did not regenerate after modelgen.json changed:\n\(changed.output)")
        #expect(try String(contentsOf: output, encoding: .utf8).contains("package class Thing"))

        try folder.write("{\"access\": 1}\n", to: "modelgen.json", secondsAhead: 4)
        let bad = try await folder.prebuild()
        #expect(bad.status == 2, "a bad modelgen.json did not fail the prebuild with a usage error:\n\(bad.output)")
        #expect(bad.output.contains("unknown key 'access'"))
    }
}

extension IntegrationTests {
    @Test("The prebuild script passes the model's frozen versions: one output each, and a new version regenerates")
    func prebuildScriptPassesTheHistory() async throws {
        let folder = try PrebuildFolder()
        let v1 = "entity Note {\n    title: String\n}\n"
        try folder.write(v1 + "container Notes { Note }\n", to: "Notes.model")
        try folder.write(v1, to: "ModelVersions/1.0.0.modelversion")

        let first = try await folder.prebuild()
        try #require(first.status == 0, "prebuild failed:\n\(first.output)")
        let version = try String(contentsOf: folder.output("ModelVersions_1.0.0.modelversion.swift"), encoding: .utf8)
        #expect(version.contains("internal enum SchemaV1_0_0: ModelStore.VersionedSchema {"))
        #expect(version.contains("internal enum NotesMigrationPlan: ModelStore.SchemaMigrationPlan {"))
        #expect(try await folder.prebuild().output.contains("up to date"))

        // A second version (the model changed, then was frozen): a new output, and the plan moves to it.
        let v2 = "entity Note {\n    title: String\n    body: String?\n}\n"
        try folder.write(v2 + "container Notes { Note }\n", to: "Notes.model", secondsAhead: 2)
        try folder.write(v2, to: "ModelVersions/2.0.0.modelversion", secondsAhead: 2)
        let second = try await folder.prebuild()
        #expect(second.status == 0, "prebuild failed:\n\(second.output)")
        #expect(second.output.contains("generating"))
        let newest = try String(contentsOf: folder.output("ModelVersions_2.0.0.modelversion.swift"), encoding: .utf8)
        #expect(newest.contains(".lightweight(fromVersion: SchemaV1_0_0.self, toVersion: SchemaV2_0_0.self),"))
        #expect(!(try String(contentsOf: folder.output("ModelVersions_1.0.0.modelversion.swift"), encoding: .utf8)).contains("MigrationPlan"))
    }
}
