import Foundation
import Testing

/// A module's public API as a list, so a test can compare it with a checked-in list and growth is a
/// decision: every public declaration as `swift-symbolgraph-extract` reports it from the built
/// module (members included, without the ones protocols synthesize; SPI declarations are not
/// public API and are left out), one `KIND PATH` line each.
public enum PublicAPIList {
    /// `KIND PATH` of every public symbol of `module`, sorted. `includePaths`: folders of the C
    /// modules it imports (their `module.modulemap`).
    public static func declarations(ofModule module: String, includePaths: [URL] = []) throws -> [String] {
        let modules = try #require(modulesFolder(holding: module), "no Modules folder with \(module) beside the test binary")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("symbolgraph-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let tool = try #require(symbolGraphExtractor(), "swift-symbolgraph-extract not found beside swift")
        let process = Process()
        process.executableURL = tool
        process.arguments = [
            "-module-name", module, "-I", modules.path, "-target", Self.targetTriple,
            "-minimum-access-level", "public", "-skip-synthesized-members", "-output-dir", output.path,
        ] + includePaths.flatMap { ["-I", $0.path] }
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "swift-symbolgraph-extract failed: \(message)")
        // `Module.symbols.json`, and `Module@Other.symbols.json` for public members the module adds
        // to another module's types (`extension Date`).
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path)
            .filter { $0 == "\(module).symbols.json" || ($0.hasPrefix("\(module)@") && $0.hasSuffix(".symbols.json")) }
        var declarations: Set<String> = []
        for file in files {
            let graph = try JSONDecoder().decode(SymbolGraph.self, from: Data(contentsOf: output.appendingPathComponent(file)))
            for symbol in graph.symbols where !symbol.identifier.precise.contains("::SYNTHESIZED::") {
                let kind = symbol.kind.identifier.replacingOccurrences(of: "swift.", with: "")
                declarations.insert("\(kind) \(symbol.pathComponents.joined(separator: "."))")
            }
        }
        return declarations.sorted()
    }

    /// The folder of built modules holding `module`: `Modules` beside the test binary (`.build/debug/`).
    static func modulesFolder(holding module: String) -> URL? {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = binary.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("\(module).swiftmodule").path) {
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
