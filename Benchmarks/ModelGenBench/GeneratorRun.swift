import BenchSupport
import Foundation
import ModelGenKit

/// Times what `modelgen generate --output OUT IN` does, through the same call (`ModelGen.run`):
/// the synthesized model is written to files first, then each repetition reads, parses, checks,
/// generates and writes into an empty output folder.
enum GeneratorRun {
    /// The figures of one model size (medians of the repetitions).
    struct SizeResult {
        let entities: Int
        let lines: Int
        let outputBytes: Int
        let load: Timing.Sample
        let parse: Timing.Sample
        let check: Timing.Sample
        let generate: Timing.Sample
        /// Peak resident memory above what was resident before the run (median).
        let peakBytes: Int
        /// The stage during which the run with the median peak reached it.
        let peakStage: GeneratorStage
        /// Each stage's peak resident memory above what was resident before the run (median).
        let stagePeaks: [GeneratorStage: Int]
        var wall: Double { load.wall + parse.wall + check.wall + generate.wall }
        var cpu: Double { load.cpu + parse.cpu + check.cpu + generate.cpu }
        var bytesPerEntity: Double { Double(peakBytes) / Double(entities) }
    }

    /// Runs the generator on a model of `entities` entities `repetitions` times.
    static func measure(entities: Int, repetitions: Int) throws -> SizeResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("Models")
        let output = scratch.appendingPathComponent("Generated")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let files = SyntheticModel.files(entityCount: entities)
        for file in files {
            try Data(file.text.utf8).write(to: input.appendingPathComponent(file.path))
        }
        var runs: [Run] = []
        for _ in 0..<repetitions {
            try? FileManager.default.removeItem(at: output)
            runs.append(try runOnce(input: input, output: output))
        }
        let lines = files.reduce(0) { $0 + $1.text.split(separator: "\n", omittingEmptySubsequences: false).count }
        func stage(_ stage: GeneratorStage) -> Timing.Sample { median(runs.map { $0.stages[stage] ?? Timing.Sample(wall: 0, cpu: 0) }) }
        let medianPeak = runs.sorted { $0.peakBytes < $1.peakBytes }[runs.count / 2]
        return SizeResult(
            entities: entities, lines: lines, outputBytes: runs.last?.outputBytes ?? 0,
            load: stage(.load), parse: stage(.parse), check: stage(.check), generate: stage(.generate),
            peakBytes: medianPeak.peakBytes, peakStage: medianPeak.peakStage,
            stagePeaks: Dictionary(uniqueKeysWithValues: GeneratorStage.allCases.map { stage in
                (stage, Int(Timing.median(runs.map { Double($0.stagePeaks[stage] ?? 0) })))
            }))
    }

    /// One repetition's figures.
    struct Run {
        var stages: [GeneratorStage: Timing.Sample]
        var peakBytes: Int
        var peakStage: GeneratorStage
        var stagePeaks: [GeneratorStage: Int]
        var outputBytes: Int
    }

    /// `modelgen generate --output OUTPUT INPUT`, once, timed stage by stage.
    static func runOnce(input: URL, output: URL) throws -> Run {
        let clock = StageClock()
        PeakMemory.reset()
        let memory = StagePeaks(resident: PeakMemory.residentBytes())
        let options = GeneratorOptions(output: .write(directory: output), stageObserver: { stage in
            memory.start(stage)
            clock.start(stage)
        })
        let result = try ModelGen.run(.paths([input.path]), options: options)
        clock.stop()
        memory.stop()
        guard !result.failed else {
            let first = result.diagnostics.first.map { "\($0)" } ?? "no schema"
            throw BenchError("synthesized model does not check: \(first)")
        }
        let bytes = try result.outputs.reduce(0) { total, output in
            total + ((try FileManager.default.attributesOfItem(atPath: output.url?.path ?? ""))[.size] as? Int ?? 0)
        }
        let (peakStage, peak) = memory.peak
        return Run(stages: clock.samples, peakBytes: peak, peakStage: peakStage, stagePeaks: memory.peaks, outputBytes: bytes)
    }

    /// The medians of wall and CPU time, separately.
    static func median(_ samples: [Timing.Sample]) -> Timing.Sample {
        Timing.Sample(wall: Timing.median(samples.map(\.wall)), cpu: Timing.median(samples.map(\.cpu)))
    }

    static func table(_ results: [SizeResult]) -> TextTable {
        var table = TextTable(header: [
            "entities", "model lines", "load s", "parse s", "check s", "generate + write s", "total s", "total CPU s",
            "CPU µs per entity", "peak +memory", "KB per entity",
        ])
        for result in results {
            var cells: [String] = [String(result.entities), String(result.lines)]
            for sample in [result.load, result.parse, result.check, result.generate] { cells.append(Cell.fixed(sample.wall, 3)) }
            cells.append(Cell.fixed(result.wall, 3))
            cells.append(Cell.fixed(result.cpu, 3))
            cells.append(Cell.fixed(result.cpu / Double(result.entities) * 1e6, 1))
            cells.append(PeakMemory.format(result.peakBytes))
            cells.append(Cell.fixed(result.bytesPerEntity / 1024, 1))
            table.append(cells)
        }
        return table
    }

    /// Each stage's peak memory (where a run's memory goes: the syntax trees are made while parsing,
    /// the semantic model and the schema while checking, one file's view models and text at a time
    /// while generating).
    static func stageTable(_ results: [SizeResult]) -> TextTable {
        var table = TextTable(header: ["entities"] + GeneratorStage.allCases.map { "peak +memory during \($0.rawValue)" } + ["KB per entity at the peak"])
        for result in results {
            table.append([String(result.entities)] + GeneratorStage.allCases.map { PeakMemory.format(result.stagePeaks[$0] ?? 0) }
                + [Cell.fixed(result.bytesPerEntity / 1024, 1)])
        }
        return table
    }

    /// Whether growth is linear (CPU time per entity at the largest size within 1.5x of the
    /// smallest's), and whether 10,000 entities (the largest size when none was measured) meet
    /// the 2 s target and the 5 KB per entity memory target.
    static func verdict(_ results: [SizeResult]) -> [String] {
        guard let first = results.first, let last = results.last, results.count > 1 else { return [] }
        let firstPerEntity: Double = first.cpu / Double(first.entities)
        let lastPerEntity: Double = last.cpu / Double(last.entities)
        let growth: Double = lastPerEntity / firstPerEntity
        let shape = growth <= 1.5 ? "linear" : "NOT linear"
        let judged = results.first { $0.entities == 10_000 } ?? last
        let target = judged.wall < 2 ? "met" : "MISSED"
        let memory = judged.bytesPerEntity < 5 * 1024 ? "met" : "MISSED"
        var lines = [
            "CPU time per entity, \(last.entities) vs \(first.entities) entities: \(Cell.fixed(growth, 2))x (\(shape))",
            "\(judged.entities) entities: \(Cell.fixed(judged.wall, 3)) s wall, \(Cell.fixed(judged.cpu, 3)) s CPU (target < 2 s: \(target))",
            "\(judged.entities) entities: \(Cell.fixed(judged.bytesPerEntity / 1024, 1)) KB of peak memory per entity, reached while it was at \(judged.peakStage.rawValue) (target < 5 KB: \(memory))",
        ]
        if last.entities != judged.entities {
            lines.append("\(last.entities) entities: \(Cell.fixed(last.wall, 3)) s wall, \(Cell.fixed(last.cpu, 3)) s CPU, \(PeakMemory.format(last.peakBytes)) peak (\(Cell.fixed(last.bytesPerEntity / 1024, 1)) KB per entity, at \(last.peakStage.rawValue))")
        }
        return lines
    }
}

/// The wall-clock and thread CPU time of each stage, from the stage observer's calls.
final class StageClock: @unchecked Sendable {
    private(set) var samples: [GeneratorStage: Timing.Sample] = [:]
    private var current: (stage: GeneratorStage, wall: ContinuousClock.Instant, cpu: Double)?

    /// A stage starts: the previous one ends.
    func start(_ stage: GeneratorStage) {
        stop()
        current = (stage, ContinuousClock.now, Timing.threadCPUSeconds())
    }

    /// The running stage ends.
    func stop() {
        guard let current else { return }
        let parts = (ContinuousClock.now - current.wall).components
        samples[current.stage] = Timing.Sample(
            wall: Double(parts.seconds) + Double(parts.attoseconds) * 1e-18, cpu: Timing.threadCPUSeconds() - current.cpu)
        self.current = nil
    }
}

/// The peak resident memory of each stage, above what was resident before the run: the peak is
/// reset as each stage starts (the allocator left alone), so the largest of them is the run's.
final class StagePeaks: @unchecked Sendable {
    private let resident: Int
    private var current: GeneratorStage?
    private(set) var peaks: [GeneratorStage: Int] = [:]

    init(resident: Int) { self.resident = resident }

    /// A stage starts: the previous one's peak is read.
    func start(_ stage: GeneratorStage) {
        stop()
        PeakMemory.reset(trimmingAllocator: false)
        current = stage
    }

    func stop() {
        guard let current else { return }
        peaks[current] = PeakMemory.peakBytes() - resident
        self.current = nil
    }

    /// The stage with the largest peak, and that peak.
    var peak: (stage: GeneratorStage, bytes: Int) {
        let largest = peaks.max { $0.value < $1.value }
        return (largest?.key ?? .load, largest?.value ?? 0)
    }
}

/// A benchmark failure.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
