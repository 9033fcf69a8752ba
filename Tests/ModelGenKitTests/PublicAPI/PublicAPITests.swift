import Foundation
import GoldenFiles
import Testing

/// ModelGenKit's public API is a decision: `ModelGenKit.api` lists every public declaration (as
/// `swift-symbolgraph-extract` reports them from the built module, members included, without the
/// ones protocols synthesize), and this test fails when the module declares any other, or lacks
/// one. After a deliberate change: `MODELGEN_UPDATE_GOLDENS=1 swift test --filter PublicAPITests`,
/// then read the diff.
@Suite struct PublicAPITests {
    static let listFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ModelGenKit.api")

    @Test func publicDeclarationsAreTheListedOnes() throws {
        let actual = try Self.publicDeclarations(ofModule: "ModelGenKit").joined(separator: "\n") + "\n"
        try GoldenFile.expect(actual, matches: Self.listFile, what: "ModelGenKit's public API list (ModelGenKit.api)")
    }

    /// The list is not empty and names the entry, so the extraction cannot silently find nothing.
    @Test func listHoldsTheEntry() throws {
        let listed = try String(contentsOf: Self.listFile, encoding: .utf8).split(separator: "\n")
        #expect(listed.contains("enum ModelGen"))
        #expect(listed.contains("type.method ModelGen.run(_:options:)"))
    }

    /// `KIND PATH` of every public symbol of `module`, sorted.
    static func publicDeclarations(ofModule module: String) throws -> [String] {
        let modules = try #require(modulesFolder(), "no Modules folder beside the test binary")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("symbolgraph-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let tool = try #require(symbolGraphExtractor(), "swift-symbolgraph-extract not found beside swift")
        let process = Process()
        process.executableURL = tool
        process.arguments = [
            "-module-name", module, "-I", modules.path, "-target", Self.targetTriple,
            "-minimum-access-level", "public", "-skip-synthesized-members", "-output-dir", output.path,
        ]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "swift-symbolgraph-extract failed: \(message)")
        let data = try Data(contentsOf: output.appendingPathComponent("\(module).symbols.json"))
        let graph = try JSONDecoder().decode(SymbolGraph.self, from: data)
        return Set(graph.symbols.filter { !$0.identifier.precise.contains("::SYNTHESIZED::") }.map { symbol in
            let kind = symbol.kind.identifier.replacingOccurrences(of: "swift.", with: "")
            return "\(kind) \(symbol.pathComponents.joined(separator: "."))"
        }).sorted()
    }

    /// The folder of built modules: `Modules` beside the test binary (`.build/debug/`).
    static func modulesFolder() -> URL? {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = binary.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("ModelGenKit.swiftmodule").path) {
                return candidate
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// `swift-symbolgraph-extract` of the toolchain running the tests (beside `swift` on PATH).
    static func symbolGraphExtractor() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let swift = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
            guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
            let tool = swift.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("swift-symbolgraph-extract")
            if FileManager.default.isExecutableFile(atPath: tool.path) { return tool }
        }
        return nil
    }

    #if arch(x86_64)
    static let targetTriple = "x86_64-unknown-linux-gnu"
    #else
    static let targetTriple = "aarch64-unknown-linux-gnu"
    #endif

    struct SymbolGraph: Decodable {
        struct Symbol: Decodable {
            struct Identifier: Decodable { var precise: String }
            struct Kind: Decodable { var identifier: String }
            var identifier: Identifier
            var kind: Kind
            var pathComponents: [String]
        }
        var symbols: [Symbol]
    }
}
