import Foundation
import LanguageServerOracle
import Testing
@testable import ModelGenKit

/// The language server in process: positions, framing, schema grouping, configuration, frozen
/// versions, and robustness on every prefix of the samples (docs/Editors.md).
@Suite struct LanguageServerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A server in process with what it sent.
    final class Harness {
        var sent: [JSON] = []
        lazy var server = LanguageServer { [unowned self] in self.sent.append($0) }
        private var nextID = 1

        func request(_ method: String, _ params: JSON) -> JSON? {
            let id = nextID
            nextID += 1
            server.handle(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
            return sent.last { $0["id"] == .int(id) }
        }

        func notify(_ method: String, _ params: JSON) {
            server.handle(["jsonrpc": "2.0", "method": .string(method), "params": params])
        }

        /// The diagnostics last published for `uri`.
        func diagnostics(_ uri: String) -> [JSON]? {
            sent.last { $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.string == uri }?["params"]?["diagnostics"]?.array
        }

        func start(root: URL?) {
            _ = request("initialize", ["capabilities": [:], "rootUri": root.map { .string($0.absoluteString) } ?? .null])
            notify("initialized", [:])
        }
    }

    static func folder(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-lsp-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    // MARK: Positions

    @Test func positionsCountUTF16UnitsWhereTheFrontEndCountsBytes() {
        // é: 2 bytes, 1 unit; 名: 3 bytes, 1 unit; 🚀: 4 bytes, 2 units.
        let document = TextDocument(text: "é名🚀x\r\nab\rc\n")
        #expect(document.position(ofOffset: 0) == LSPPosition(line: 0, character: 0))
        #expect(document.position(ofOffset: 2) == LSPPosition(line: 0, character: 1))
        #expect(document.position(ofOffset: 5) == LSPPosition(line: 0, character: 2))
        #expect(document.position(ofOffset: 9) == LSPPosition(line: 0, character: 4))
        #expect(document.position(ofOffset: 10) == LSPPosition(line: 0, character: 5))
        // Inside the CR LF: the line's end.
        #expect(document.position(ofOffset: 11) == LSPPosition(line: 0, character: 5))
        #expect(document.position(ofOffset: 12) == LSPPosition(line: 1, character: 0))
        #expect(document.position(ofOffset: 15) == LSPPosition(line: 2, character: 0))
        #expect(document.position(ofOffset: 17) == LSPPosition(line: 3, character: 0))
        // And back; past a line's end is its end, past the last line the text's end.
        for offset in [0, 2, 5, 9, 10, 12, 15, 17] {
            #expect(document.offset(of: document.position(ofOffset: offset)) == offset)
        }
        #expect(document.offset(of: LSPPosition(line: 1, character: 99)) == 14)
        #expect(document.offset(of: LSPPosition(line: 9, character: 0)) == 17)
        var edited = document
        edited.replace(from: LSPPosition(line: 0, character: 2), to: LSPPosition(line: 0, character: 4), with: "→")
        #expect(edited.text == "é名→x\r\nab\rc\n")
    }

    @Test func diagnosticsArriveInUTF16Positions() throws {
        let harness = Harness()
        harness.start(root: nil)
        let uri = "file:///modelgen-lsp-test/Unicode.model"
        harness.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "model", "version": 1,
                                                                  "text": "entity Café {\n    /* 🚀 */ 名前: Strin\n}\n"]])
        let diagnostics = try #require(harness.diagnostics(uri))
        #expect(diagnostics.count == 1)
        // `Strin` starts at byte 22 of its line, UTF-16 unit 17.
        #expect(diagnostics.first?["range"] == ["start": ["line": 1, "character": 17], "end": ["line": 1, "character": 22]])
        #expect(diagnostics.first?["code"] == "unknown-type")
    }

    // MARK: Framing

    @Test func framingSplitsMessagesWhereverTheBytesBreak() {
        let bodies = [#"{"a":1}"#, #"{"b":"é"}"#, "{}"]
        var stream = Data()
        for body in bodies { stream += MessageFraming.frame(Data(body.utf8)) }
        for chunk in [1, 3, 7, 1000] {
            var framing = MessageFraming()
            var found: [String] = []
            var index = 0
            while index < stream.count {
                framing.append(stream[index..<min(stream.count, index + chunk)])
                index += chunk
                while let frame = framing.next() {
                    if case .body(let body) = frame { found.append(String(decoding: body, as: UTF8.self)) }
                }
            }
            #expect(found == bodies, "chunks of \(chunk)")
        }
        var framing = MessageFraming()
        framing.append(Data("Content-Type: x\r\n\r\nContent-Length: 2\r\n\r\n{}".utf8))
        #expect(framing.next() == .badHeader("missing or invalid Content-Length in 'Content-Type: x'"))
        #expect(framing.next() == .body(Data("{}".utf8)))
    }

    // MARK: Schemas

    @Test func aTargetFolderIsOneSchemaAndALooseFileIsAlone() throws {
        let root = try Self.folder([
            "Sources/App/A.model": "entity A {\n    b: B?\n}\n",
            "Sources/App/Nested/B.model": "entity B {\n    a: A?\n}\n",
            "Samples/C.model": "entity C {\n    a: A?\n}\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let harness = Harness()
        harness.start(root: root)
        let app = root.appendingPathComponent("Sources/App")
        #expect(harness.diagnostics(app.appendingPathComponent("A.model").absoluteString) == nil)
        #expect(harness.diagnostics(app.appendingPathComponent("Nested/B.model").absoluteString) == nil)
        let loose = try #require(harness.diagnostics(root.appendingPathComponent("Samples/C.model").absoluteString))
        #expect(loose.map { $0["code"] } == ["unknown-type"])
    }

    @Test func modelgenJSONMakesTheSchemaAndItsSettingsApply() throws {
        let root = try Self.folder([
            "Models/modelgen.json": #"{"warningsAsErrors": true}"#,
            "Models/A.model": "entity A {\n    name: String\n}\ncontainer S { A, B }\n",
            "Models/Sub/B.model": "entity B: A {\n    extra: Int\n}\n",
            "Broken/modelgen.json": #"{"colour": 1}"#,
            "Broken/C.model": "entity C {\n    name: String\n}\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let harness = Harness()
        harness.start(root: root)
        let warnings = try #require(harness.diagnostics(root.appendingPathComponent("Models/A.model").absoluteString))
        // A warning is an error under warningsAsErrors.
        #expect(warnings.map { $0["code"] } == ["redundant-registration"])
        #expect(warnings.map { $0["severity"] } == [1])
        #expect(harness.diagnostics(root.appendingPathComponent("Models/Sub/B.model").absoluteString) == nil)
        let configuration = try #require(harness.diagnostics(root.appendingPathComponent("Broken/modelgen.json").absoluteString))
        #expect(configuration.first?["message"]?.string?.contains("colour") == true)
    }

    @Test func originalNameLeadsToTheNewestFrozenVersion() throws {
        let root = try Self.folder([
            "Sources/App/Trips.model": "entity Trip {\n    @Attribute(originalName: \"title\")\n    name: String\n}\n",
            "Sources/App/ModelVersions/1.0.0.modelversion": "entity Trip {\n    title: Int\n}\n",
            "Sources/App/ModelVersions/2.0.0.modelversion": "entity Trip {\n    title: String\n}\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let harness = Harness()
        harness.start(root: root)
        let uri = root.appendingPathComponent("Sources/App/Trips.model").absoluteString
        let definition = try #require(harness.request("textDocument/definition", ["textDocument": ["uri": .string(uri)], "position": ["line": 1, "character": 31]])?["result"])
        #expect(definition["uri"]?.string?.hasSuffix("ModelVersions/2.0.0.modelversion") == true)
        #expect(definition["range"] == ["start": ["line": 1, "character": 4], "end": ["line": 1, "character": 9]])
        // A frozen version is never renamed.
        let version = root.appendingPathComponent("Sources/App/ModelVersions/2.0.0.modelversion").absoluteString
        let refused = harness.request("textDocument/rename", ["textDocument": ["uri": .string(version)], "position": ["line": 1, "character": 5], "newName": "x"])
        #expect(refused?["error"]?["message"]?.string?.contains("frozen version") == true)
    }

    @Test func renameCoversKeyPathsInitsAndConstraints() throws {
        let text = """
        entity Trip {
            name: String
            @Relationship(inverse: \\Stay.trip)
            stays: [Stay] = []
            #Unique([\\.name])
            init(name)
        }
        entity Personal: Trip {
            reason: String
            init(name, reason) {
                super.init(name)
            }
        }
        entity Stay {
            trip: Trip?
        }

        """
        let harness = Harness()
        harness.start(root: nil)
        let uri = "file:///modelgen-lsp-test/Rename.model"
        harness.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "model", "version": 1, "text": .string(text)]])
        #expect(harness.diagnostics(uri) == nil)
        let result = try #require(harness.request("textDocument/rename", ["textDocument": ["uri": .string(uri)], "position": ["line": 1, "character": 5], "newName": "title"])?["result"])
        let edits = try #require(result["changes"]?[uri]?.array)
        let lines = edits.compactMap { $0["range"]?["start"]?["line"]?.int }.sorted()
        #expect(lines == [1, 4, 5, 9, 10])
    }

    // MARK: Robustness

    /// Every prefix of every sample, typed one character at a time (`LanguageServerOracle.typeOut`).
    @Test(arguments: ["Samples/Trips.model", "Samples/Shop.model", "Samples/Birding.model"])
    func everyPrefixOfASample(_ path: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
        let violations = LanguageServerOracle.typeOut(text, every: 7)
        #expect(violations.isEmpty, "\(violations.prefix(3))")
    }

    /// The inputs the LSP fuzz target kept (`Tests/Fuzz/lsp-regressions/`), and each sample as a seed.
    @Test func fuzzRegressionsAndSeeds() throws {
        var files = ["Samples/Trips.model", "Samples/Shop.model", "Samples/Birding.model", "Samples/invalid/syntax.model"].map { Self.root.appendingPathComponent($0) }
        let kept = Self.root.appendingPathComponent("Tests/Fuzz/lsp-regressions")
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: kept.path)) ?? []).sorted() where !name.hasPrefix(".") {
            files.append(kept.appendingPathComponent(name))
        }
        for file in files {
            let violations = LanguageServerOracle.check(Array(try Data(contentsOf: file)))
            #expect(violations.isEmpty, "\(file.lastPathComponent): \(violations.prefix(3))")
        }
    }
}
