import BenchSupport
import Foundation
import ModelGenKit

// modelgen-bench [--repeat R]: parse + check + generate time (in memory) of synthesized
// models of 100, 1,000 and 10,000 entities, per entity, and whether growth is linear.

let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()), defaults: ["repeat": 3, "max": 10_000, "markdown": 0])
} catch {
    FileHandle.standardError.write(Data("modelgen-bench: \(error)\nusage: modelgen-bench [--repeat R] [--max ENTITIES] [--markdown 1]\n".utf8))
    exit(2)
}

/// The timings of one model size (medians of the repetitions, in seconds).
struct SizeResult {
    let entities: Int
    let lines: Int
    let parse: Double
    let check: Double
    let generate: Double
    var total: Double { parse + check + generate }
    var perEntity: Double { total / Double(entities) }
}

/// Parses, checks and generates `files` once; the seconds of each stage.
func runOnce(_ files: [(path: String, text: String)]) throws -> (parse: Double, check: Double, generate: Double, outputBytes: Int) {
    let sources = files.map { SourceFile(path: $0.path, text: $0.text) }
    let parsed = Timing.measure { sources.map { Parser.parse($0) } }
    let parseErrors = parsed.result.flatMap(\.diagnostics).filter { $0.severity == .error }
    guard parseErrors.isEmpty else { throw BenchError("synthesized model does not parse: \(parseErrors[0])") }
    let checked = Timing.measure { SchemaChecker.check(parsed.result.map(\.file)) }
    guard let schema = checked.result.schema else {
        throw BenchError("synthesized model does not check: \(checked.result.diagnostics.first.map { "\($0)" } ?? "no schema")")
    }
    let generator = CodeGenerator()
    let inputs = files.map { GenerationInput(path: $0.path) }
    let generated = try Timing.measure { try generator.generate(schema, for: inputs) }
    return (parsed.seconds, checked.seconds, generated.seconds, generated.result.reduce(0) { $0 + $1.utf8.count })
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

do {
    let sizes = [100, 1_000, 10_000].filter { $0 <= arguments["max"] }
    var results: [SizeResult] = []
    for size in sizes {
        let files = SyntheticModel.files(entityCount: size)
        var parse: [Double] = [], check: [Double] = [], generate: [Double] = []
        var bytes = 0
        for _ in 0..<arguments["repeat"] {
            let run = try runOnce(files)
            parse.append(run.parse)
            check.append(run.check)
            generate.append(run.generate)
            bytes = run.outputBytes
        }
        let lines = files.reduce(0) { $0 + $1.text.split(separator: "\n", omittingEmptySubsequences: false).count }
        results.append(SizeResult(entities: size, lines: lines, parse: Timing.median(parse), check: Timing.median(check),
                                  generate: Timing.median(generate)))
        FileHandle.standardError.write(Data("\(size) entities: \(lines) model lines, \(bytes / 1024) KB generated\n".utf8))
    }
    var table = TextTable(header: ["entities", "model lines", "parse s", "check s", "generate s", "total s", "per entity µs"])
    for result in results {
        table.append([String(result.entities), String(result.lines), String(format: "%.3f", result.parse), String(format: "%.3f", result.check),
                      String(format: "%.3f", result.generate), String(format: "%.3f", result.total),
                      String(format: "%.1f", result.perEntity * 1e6)])
    }
    print("median of \(arguments["repeat"]) runs, \(SyntheticModel.groupSize) entities per group, 100 entities per file")
    print(arguments["markdown"] == 0 ? table.text : table.markdown)
    if let first = results.first, let last = results.last, results.count > 1 {
        let growth = last.perEntity / first.perEntity
        // Linear: the time per entity at the largest size stays within 1.5x of the smallest's.
        print(String(format: "time per entity, %d vs %d entities: %.2fx (%@)", last.entities, first.entities, growth,
                     growth <= 1.5 ? "linear" : "NOT linear"))
        print(String(format: "%d entities: %.3f s (target < 2 s: %@)", last.entities, last.total, last.total < 2 ? "met" : "MISSED"))
    }
} catch {
    FileHandle.standardError.write(Data("modelgen-bench: \(error)\n".utf8))
    exit(1)
}
