import BenchSupport
import Foundation
import ModelGenKit

/// `modelgen-bench --lsp`: how long `modelgen lsp` takes from an edit to its diagnostics on a
/// synthesized workspace (`SyntheticModel`, 100 entities per file, in a SwiftPM target folder):
/// the server runs in process, as `modelgen lsp` runs it, and each edit is one `didChange`
/// notification, handled (the file re-parsed, the schema checked, the names indexed, the
/// diagnostics published) before the call returns. Edits alternate between breaking a type in
/// the first file (`name: String` → `name: Strin`, an unknown-type error) and fixing it; each must
/// publish what it should, or the benchmark fails.
enum LanguageServerRun {
    struct Result {
        var entities: Int
        var files: Int
        var firstCheck: Timing.Sample
        var edits: [Timing.Sample]
    }

    static func measure(entities: Int, edits: Int) throws -> Result {
        let files = SyntheticModel.files(entityCount: entities)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-bench-lsp-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("Sources/Synthetic")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for file in files { try Data(file.text.utf8).write(to: folder.appendingPathComponent(file.path)) }

        final class Outbox { var messages: [JSON] = [] }
        let outbox = Outbox()
        let server = LanguageServer { outbox.messages.append($0) }
        server.handle(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["capabilities": [:], "rootUri": .string(root.absoluteString)]])
        let firstCheck = Timing.measure { server.handle(["jsonrpc": "2.0", "method": "initialized", "params": [:]]) }.sample
        let uri = folder.appendingPathComponent(files[0].path).absoluteString
        server.handle(["jsonrpc": "2.0", "method": "textDocument/didOpen",
                       "params": ["textDocument": ["uri": .string(uri), "languageId": "model", "version": 1, "text": .string(files[0].text)]]])
        // The first `name: String` of the first file.
        let lines = files[0].text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let line = lines.firstIndex(where: { $0.hasSuffix("    name: String") }) else { throw BenchError("no 'name: String' line in the synthesized model") }
        let start: JSON = ["line": .int(line), "character": 10]
        var samples: [Timing.Sample] = []
        for edit in 0..<edits {
            let breaks = edit % 2 == 0
            let end: JSON = ["line": .int(line), "character": breaks ? 16 : 15]
            let change: JSON = [
                "jsonrpc": "2.0", "method": "textDocument/didChange",
                "params": ["textDocument": ["uri": .string(uri), "version": .int(edit + 2)],
                           "contentChanges": [["range": ["start": start, "end": end], "text": breaks ? "Strin" : "String"]]],
            ]
            outbox.messages = []
            samples.append(Timing.measure { server.handle(change) }.sample)
            let published = outbox.messages.first { $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.string == uri }
            let codes = published?["params"]?["diagnostics"]?.array?.compactMap { $0["code"]?.string }
            guard codes == (breaks ? ["unknown-type"] : []) else {
                throw BenchError("edit \(edit) published \(codes.map { "\($0)" } ?? "nothing") for the first file")
            }
        }
        return Result(entities: entities, files: files.count, firstCheck: firstCheck, edits: samples)
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }

    static func report(_ results: [Result], markdown: Bool) {
        var table = TextTable(header: [
            "entities", "files", "first check s", "edits", "edit → diagnostics median ms", "p90 ms", "max ms", "CPU median ms",
        ])
        for result in results {
            let walls = result.edits.map { $0.wall * 1000 }
            let cpus = result.edits.map { $0.cpu * 1000 }
            table.append([
                "\(result.entities)", "\(result.files)", Cell.fixed(result.firstCheck.wall, 3), "\(result.edits.count)",
                Cell.fixed(Timing.median(walls), 1), Cell.fixed(percentile(walls, 0.9), 1), Cell.fixed(walls.max() ?? 0, 1),
                Cell.fixed(Timing.median(cpus), 1),
            ])
        }
        print("modelgen lsp: from an edit to its diagnostics, load average \(Cell.fixed(Timing.loadAverage(), 1))")
        print(markdown ? table.markdown : table.text)
        for result in results where result.entities >= 1_000 {
            let median = Timing.median(result.edits.map { $0.wall * 1000 })
            print("\(result.entities) entities: median \(Cell.fixed(median, 1)) ms from an edit to its diagnostics (target < 100 ms): \(median < 100 ? "met" : "NOT met")")
        }
    }
}
