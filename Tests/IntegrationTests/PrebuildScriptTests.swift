import Foundation
import Testing

/// `Scripts/prebuild/modelgen-prebuild.sh`, run with the `modelgen` built for this test run.
extension IntegrationTests {
    @Test("The prebuild script generates once, then only when a model is newer")
    func prebuildScriptRegeneratesOnlyWhenStale() throws {
        let script = Workspace.root.appending(path: "Scripts/prebuild/modelgen-prebuild.sh").path(percentEncoded: false)
        let modelgen = try Workspace.builtExecutable("modelgen").path(percentEncoded: false)
        let work = FileManager.default.temporaryDirectory.appending(path: "modelgen-prebuild-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: work) }
        let travel = work.appending(path: "Models/Travel", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: travel, withIntermediateDirectories: true)
        let model = travel.appending(path: "Trips.model")
        try FileManager.default.copyItem(at: Workspace.root.appending(path: "Samples/Trips.model"), to: model)
        let output = work.appending(path: "Generated/Travel_Trips.model.swift").path(percentEncoded: false)
        func prebuild() throws -> ProcessResult {
            try Shell.run("bash", [script, "--modelgen", modelgen, "--output", "Generated", "Models"], in: work)
        }

        let first = try prebuild()
        try #require(first.status == 0, "prebuild failed:\n\(first.output)")
        #expect(first.output.contains("generating"))
        #expect(FileManager.default.fileExists(atPath: output))

        let second = try prebuild()
        #expect(second.status == 0)
        #expect(second.output.contains("up to date"), "regenerated with nothing changed:\n\(second.output)")

        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(2)], ofItemAtPath: model.path(percentEncoded: false))
        let touched = try prebuild()
        #expect(touched.status == 0)
        #expect(touched.output.contains("generating"), "did not regenerate after the model changed:\n\(touched.output)")

        try "BROKEN\n".write(to: model, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(4)], ofItemAtPath: model.path(percentEncoded: false))
        let broken = try prebuild()
        #expect(broken.status == 1, "a broken model did not fail the prebuild:\n\(broken.output)")
        #expect(broken.output.contains("Trips.model:1:"), "no diagnostic for the broken model:\n\(broken.output)")
    }

    @Test("The prebuild script reads the modelgen.json of a folder input, and reruns when it changes")
    func prebuildScriptReadsTheConfiguration() throws {
        let script = Workspace.root.appending(path: "Scripts/prebuild/modelgen-prebuild.sh").path(percentEncoded: false)
        let modelgen = try Workspace.builtExecutable("modelgen").path(percentEncoded: false)
        let work = FileManager.default.temporaryDirectory.appending(path: "modelgen-prebuild-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: work) }
        let models = work.appending(path: "Models", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        try "entity Thing {\n    name: String\n}\n".write(to: models.appending(path: "Thing.model"), atomically: true, encoding: .utf8)
        let configuration = models.appending(path: "modelgen.json")
        try "{\"accessLevel\": \"public\"}\n".write(to: configuration, atomically: true, encoding: .utf8)
        let output = work.appending(path: "Generated/Thing.model.swift")
        func prebuild() throws -> ProcessResult {
            try Shell.run("bash", [script, "--modelgen", modelgen, "--output", "Generated", "Models"], in: work)
        }

        let first = try prebuild()
        try #require(first.status == 0, "prebuild failed:\n\(first.output)")
        #expect(try String(contentsOf: output, encoding: .utf8).contains("public class Thing"))
        #expect(try prebuild().output.contains("up to date"))

        try "{\"accessLevel\": \"package\"}\n".write(to: configuration, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(2)], ofItemAtPath: configuration.path(percentEncoded: false))
        let changed = try prebuild()
        #expect(changed.output.contains("generating"), "did not regenerate after modelgen.json changed:\n\(changed.output)")
        #expect(try String(contentsOf: output, encoding: .utf8).contains("package class Thing"))

        try "{\"access\": 1}\n".write(to: configuration, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(4)], ofItemAtPath: configuration.path(percentEncoded: false))
        let bad = try prebuild()
        #expect(bad.status == 2, "a bad modelgen.json did not fail the prebuild with a usage error:\n\(bad.output)")
        #expect(bad.output.contains("unknown key 'access'"))
    }
}
