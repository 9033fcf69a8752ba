import BenchSupport
import Foundation
import ModelGenKit

/// Times the generator's stages on synthesized models, through ModelGenKit's public API.
enum GeneratorRun {
    /// The timings of one model size (medians of the repetitions).
    struct SizeResult {
        let entities: Int
        let lines: Int
        let outputBytes: Int
        let parse: Timing.Sample
        let check: Timing.Sample
        let generate: Timing.Sample
        var wall: Double { parse.wall + check.wall + generate.wall }
        var cpu: Double { parse.cpu + check.cpu + generate.cpu }
    }

    /// Parses, checks and generates a model of `entities` entities `repetitions` times.
    static func measure(entities: Int, repetitions: Int) throws -> SizeResult {
        let files = SyntheticModel.files(entityCount: entities)
        var stages: [[Timing.Sample]] = [[], [], []]
        var bytes = 0
        for _ in 0..<repetitions {
            let run = try runOnce(files)
            for stage in 0..<3 { stages[stage].append(run.stages[stage]) }
            bytes = run.outputBytes
        }
        let lines = files.reduce(0) { $0 + $1.text.split(separator: "\n", omittingEmptySubsequences: false).count }
        return SizeResult(entities: entities, lines: lines, outputBytes: bytes, parse: median(stages[0]),
                          check: median(stages[1]), generate: median(stages[2]))
    }

    /// Parses, checks and generates `files` once; the time of each stage and the output size.
    static func runOnce(_ files: [(path: String, text: String)]) throws -> (stages: [Timing.Sample], outputBytes: Int) {
        let sources = files.map { SourceFile(path: $0.path, text: $0.text) }
        let parsed = Timing.measure { sources.map { Parser.parse($0) } }
        let parseErrors = parsed.result.flatMap(\.diagnostics).filter { $0.severity == .error }
        if let first = parseErrors.first { throw BenchError("synthesized model does not parse: \(first)") }
        let checked = Timing.measure { SchemaChecker.check(parsed.result.map(\.file)) }
        guard let schema = checked.result.schema else {
            let first = checked.result.diagnostics.first.map { "\($0)" } ?? "no schema"
            throw BenchError("synthesized model does not check: \(first)")
        }
        let generator = CodeGenerator()
        let inputs = files.map { GenerationInput(path: $0.path) }
        let generated = try Timing.measure { try generator.generate(schema, for: inputs) }
        let bytes = generated.result.reduce(0) { $0 + $1.utf8.count }
        return ([parsed.sample, checked.sample, generated.sample], bytes)
    }

    /// The medians of wall and CPU time, separately.
    static func median(_ samples: [Timing.Sample]) -> Timing.Sample {
        Timing.Sample(wall: Timing.median(samples.map(\.wall)), cpu: Timing.median(samples.map(\.cpu)))
    }

    static func table(_ results: [SizeResult]) -> TextTable {
        var table = TextTable(header: ["entities", "model lines", "parse s", "check s", "generate s", "total s", "total CPU s", "CPU µs per entity"])
        for result in results {
            var cells: [String] = [String(result.entities), String(result.lines)]
            cells.append(Cell.fixed(result.parse.wall, 3))
            cells.append(Cell.fixed(result.check.wall, 3))
            cells.append(Cell.fixed(result.generate.wall, 3))
            cells.append(Cell.fixed(result.wall, 3))
            cells.append(Cell.fixed(result.cpu, 3))
            cells.append(Cell.fixed(result.cpu / Double(result.entities) * 1e6, 1))
            table.append(cells)
        }
        return table
    }

    /// Whether growth is linear (CPU time per entity at the largest size within 1.5x of the
    /// smallest's) and whether the largest size meets the 2 s target.
    static func verdict(_ results: [SizeResult]) -> [String] {
        guard let first = results.first, let last = results.last, results.count > 1 else { return [] }
        let firstPerEntity: Double = first.cpu / Double(first.entities)
        let lastPerEntity: Double = last.cpu / Double(last.entities)
        let growth: Double = lastPerEntity / firstPerEntity
        let shape = growth <= 1.5 ? "linear" : "NOT linear"
        let target = last.cpu < 2 ? "met" : "MISSED"
        return [
            "CPU time per entity, \(last.entities) vs \(first.entities) entities: \(Cell.fixed(growth, 2))x (\(shape))",
            "\(last.entities) entities: \(Cell.fixed(last.wall, 3)) s wall, \(Cell.fixed(last.cpu, 3)) s CPU (target < 2 s: \(target))",
        ]
    }
}

/// A benchmark failure.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
