import Foundation
import Testing
@testable import ModelGenKit

/// `modelgen.json` (docs/Plugins.md): every key read, relative folders resolved against the file's
/// folder, and any unknown key or bad value refused with a message naming it.
@Suite struct GeneratorConfigurationTests {
    private let folder = URL(fileURLWithPath: "/projects/App/Sources/Models", isDirectory: true)

    private func parse(_ text: String) throws(GeneratorError) -> GeneratorConfiguration {
        try GeneratorConfiguration.parse(Data(text.utf8), path: "Models/modelgen.json", folder: folder)
    }

    /// The message of the error `text` is refused with (nil when it is accepted).
    private func refusal(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            #expect(error.kind == .configuration)
            return error.message
        }
    }

    @Test func everyKeyIsRead() throws {
        let configuration = try parse("""
            {"accessLevel": "public", "warningsAsErrors": true, "templates": "../Templates",
             "output": "/tmp/generated", "diagnosticsFormat": "json", "modelsInVersion": true}
            """)
        #expect(configuration.modelsInVersion == true)
        #expect(configuration.accessLevel == .public)
        #expect(configuration.warningsAsErrors == true)
        #expect(configuration.templatesDirectory?.standardizedFileURL.path == "/projects/App/Sources/Templates")
        #expect(configuration.outputDirectory?.path == "/tmp/generated")
        #expect(configuration.diagnosticsFormat == .json)
    }

    @Test func anEmptyObjectSetsNothing() throws {
        #expect(try parse("{}") == GeneratorConfiguration())
        #expect(try parse("{\"accessLevel\": \"package\"}") == GeneratorConfiguration(accessLevel: .package))
    }

    @Test(arguments: [
        ("{\"acessLevel\": \"public\"}", "unknown key 'acessLevel' (known keys: accessLevel, diagnosticsFormat, modelsInVersion, output, templates, warningsAsErrors)"),
        ("{\"modelsInVersion\": \"yes\"}", "'modelsInVersion' must be true or false, not \"yes\""),
        ("{\"accessLevel\": \"private\"}", "'accessLevel' must be one of \"internal\", \"public\", \"package\", not \"private\""),
        ("{\"accessLevel\": 1}", "'accessLevel' must be one of \"internal\", \"public\", \"package\", not 1"),
        ("{\"warningsAsErrors\": 1}", "'warningsAsErrors' must be true or false, not 1"),
        ("{\"warningsAsErrors\": \"yes\"}", "'warningsAsErrors' must be true or false, not \"yes\""),
        ("{\"templates\": 3}", "'templates' must be a folder path (a non-empty string), not 3"),
        ("{\"output\": \"\"}", "'output' must be a folder path (a non-empty string), not \"\""),
        ("{\"diagnosticsFormat\": [\"json\"]}", "'diagnosticsFormat' must be one of \"text\", \"json\", not an array"),
        ("{\"check\": true}", "'check' is not a setting: pass --check to the one run that should compare instead of write"),
    ])
    func badKeysAndValuesAreNamed(_ text: String, _ message: String) {
        #expect(refusal(text) == "Models/modelgen.json: " + message)
    }

    @Test(arguments: ["", "[]", "\"public\"", "{\"accessLevel\": \"public\"", "{accessLevel: public}"])
    func textThatIsNotAnObjectIsRefused(_ text: String) {
        let message = refusal(text)
        #expect(message?.hasPrefix("Models/modelgen.json: not a JSON object of settings") == true, "\(message ?? "accepted")")
    }

    @Test func aMissingFileIsAnError() {
        #expect(throws: GeneratorError.self) {
            try GeneratorConfiguration.load(from: URL(fileURLWithPath: "/nonexistent/modelgen.json"))
        }
    }
}
