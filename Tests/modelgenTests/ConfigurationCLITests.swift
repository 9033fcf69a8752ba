import Foundation
import Testing

/// `--config FILE` (docs/Plugins.md) on every command that reads models, through the real binary.
@Suite struct ConfigurationCLITests {
    private let model = "entity Thing {\n    name: String\n}\n"
    /// A model with one warning (`redundant-registration`).
    private let warned = "entity A {\n    x: Int\n}\nentity B: A {\n    y: Int\n}\ncontainer S { A, B }\n"

    @Test func accessLevelComesFromTheFileAndFlagsOverrideIt() throws {
        let root = try TemporaryFolder.make(["Models/Thing.model": model, "Models/modelgen.json": "{\"accessLevel\": \"public\"}"])
        defer { try? FileManager.default.removeItem(at: root) }
        let configured = try ToolRunner.run(["generate", "--config", "Models/modelgen.json", "--output", "out", "Models"], in: root)
        #expect(configured.status == 0, "\(configured.stderr)")
        let text = try String(contentsOf: root.appendingPathComponent("out/Thing.model.swift"), encoding: .utf8)
        #expect(text.contains("public class Thing: ModelStore.ModelObject, ModelStore.PersistentModel {"))

        let overridden = try ToolRunner.run(
            ["generate", "--config", "Models/modelgen.json", "--access-level", "package", "--output", "out", "Models"], in: root)
        #expect(overridden.status == 0, "\(overridden.stderr)")
        let again = try String(contentsOf: root.appendingPathComponent("out/Thing.model.swift"), encoding: .utf8)
        #expect(again.contains("package class Thing: ModelStore.ModelObject, ModelStore.PersistentModel {"))
    }

    @Test func outputAndTemplatesAreRelativeToTheFile() throws {
        let root = try TemporaryFolder.make([
            "Models/Thing.model": model,
            "Models/modelgen.json": "{\"output\": \"../Generated\", \"templates\": \"Templates\"}",
            "Models/Templates/file.mustache": "{{<file}}{{$header}}// Custom header for {{fileName}}{{/header}}{{/file}}\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try ToolRunner.run(["generate", "--config", "Models/modelgen.json", "Models/Thing.model"], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: root.appendingPathComponent("Generated/Thing.model.swift"), encoding: .utf8)
        #expect(text.hasPrefix("// Custom header for Thing.model\n"))
    }

    @Test func warningsAsErrorsFromTheFileFailsLintAndGenerate() throws {
        let root = try TemporaryFolder.make(["w.model": warned, "strict.json": "{\"warningsAsErrors\": true}"])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try ToolRunner.run(["lint", "w.model"], in: root).status == 0)
        let lint = try ToolRunner.run(["lint", "--config", "strict.json", "w.model"], in: root)
        #expect(lint.status == 1)
        #expect(lint.stderr.contains("[redundant-registration]"))
        let generate = try ToolRunner.run(["generate", "--config", "strict.json", "--output", "out", "w.model"], in: root)
        #expect(generate.status == 1)
        #expect(TemporaryFolder.listing(root) == ["strict.json", "w.model"])
    }

    @Test func diagnosticsFormatFromTheFile() throws {
        let root = try TemporaryFolder.make(["w.model": warned, "json.json": "{\"diagnosticsFormat\": \"json\"}"])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try ToolRunner.run(["lint", "--config", "json.json", "w.model"], in: root)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("[\n  {\"file\":\"w.model\""), "\(result.stdout)")
        let text = try ToolRunner.run(["lint", "--config", "json.json", "--diagnostics-format", "text", "w.model"], in: root)
        #expect(text.stdout.isEmpty && text.stderr.contains("warning:"))
    }

    /// Every command that reads models refuses a bad configuration with a usage error naming the
    /// key (exit 2) and writes nothing.
    @Test(arguments: ["generate", "lint", "format", "diagram"])
    func badConfigurationIsAUsageError(_ command: String) throws {
        let root = try TemporaryFolder.make(["Thing.model": model, "modelgen.json": "{\"accessLevel\": \"open\"}"])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try ToolRunner.run([command, "--config", "modelgen.json", "Thing.model"], in: root)
        #expect(result.status == 2)
        #expect(result.stderr == """
            modelgen: modelgen.json: 'accessLevel' must be one of "internal", "public", "package", not "open"; \
            see 'modelgen help \(command)'

            """)
        #expect(TemporaryFolder.listing(root) == ["Thing.model", "modelgen.json"])

        let missing = try ToolRunner.run([command, "--config", "nope.json", "Thing.model"], in: root)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read configuration 'nope.json'"))
    }
}
