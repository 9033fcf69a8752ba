import Foundation
import Testing

/// The scripts that turn `modelstore-bench --json` reports into docs/Benchmarks.md's tables, on
/// reports made here whose figures the tests compute themselves. `growth.py`: each size's cost per
/// row is the median of every repetition of every round, the growth is the largest size's cost
/// over the smallest's, the generated growth is divided by the hand-written one, and `--pooled`
/// pools a size's rounds (times over every repetition, ratios the median of the repetitions' own
/// ratios, the maxima over the workloads with a target only). `tables.py`: two runs' figures side
/// by side, the first run's memory and page faults.
@Suite struct BenchmarkScriptTests {
    /// One side's repetitions of a workload: wall and CPU seconds each.
    struct Samples {
        var wall: [Double]
        var cpu: [Double]
    }

    /// A report as `modelstore-bench --json` writes it, with the fields the script reads.
    static func report(rows: Int, workloads: [(name: String, hasTarget: Bool, generated: Samples, handWritten: Samples)],
                       faults: Int = 10, bytes: Int = 1_048_576) -> [String: Any] {
        func side(_ samples: Samples) -> [String: Any] {
            [
                "wallSeconds": median(samples.wall), "cpuSeconds": median(samples.cpu), "minorFaults": faults,
                "peakAdditionalBytes": bytes, "queries": 0, "rows": rows,
                "samples": zip(samples.wall, samples.cpu).map { ["wallSeconds": $0.0, "cpuSeconds": $0.1, "minorFaults": 10] },
            ]
        }
        return [
            "rowCount": rows, "repetitions": workloads[0].generated.wall.count, "store": "sqlite", "predicates": true,
            "loadAverageAtStart": 0.5, "loadAverageAtEnd": 0.6, "maxRatio": 1.0, "maxCPURatio": 1.0,
            "workloads": workloads.map { workload -> [String: Any] in
                ["name": workload.name, "title": workload.name, "hasTarget": workload.hasTarget,
                 "generated": side(workload.generated), "handWritten": side(workload.handWritten),
                 "ratio": median(zip(workload.generated.wall, workload.handWritten.wall).map { $0 / $1 }),
                 "cpuRatio": median(zip(workload.generated.cpu, workload.handWritten.cpu).map { $0 / $1 }),
                 "peakMemoryRatio": 1.0]
            },
        ]
    }

    /// Python's `statistics.median`: the middle value, or the mean of the two middle values.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    static func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

    @Test func costsGrowthAndPooledTablesAreTheRoundsMedians() async throws {
        // Two sizes, two rounds of three repetitions each; the reference workload (no target)
        // has the largest ratio, which the pooled maxima must leave out.
        let sizes = [1_000, 4_000]
        var rounds: [Int: [[(name: String, hasTarget: Bool, generated: Samples, handWritten: Samples)]]] = [:]
        var random = SystemRandomNumberGenerator()
        for rows in sizes {
            for _ in 0..<2 {
                func samples(_ base: Double) -> Samples {
                    Samples(wall: (0..<3).map { _ in base * Double(rows) * .random(in: 0.8...1.25, using: &random) },
                            cpu: (0..<3).map { _ in base * Double(rows) * .random(in: 0.8...1.25, using: &random) })
                }
                rounds[rows, default: []].append([
                    (name: "fetchAll", hasTarget: true, generated: samples(rows == 1_000 ? 1.2e-6 : 1.5e-6), handWritten: samples(1.0e-6)),
                    (name: "enumerateAll", hasTarget: false, generated: samples(3.0e-6), handWritten: samples(1.0e-6)),
                ])
            }
        }
        let folder = FileManager.default.temporaryDirectory.appending(path: "growth-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for rows in sizes {
            for (round, workloads) in rounds[rows]!.enumerated() {
                let data = try JSONSerialization.data(withJSONObject: Self.report(rows: rows, workloads: workloads))
                try data.write(to: folder.appending(path: "sqlite-\(rows)-r\(round).json"))
            }
        }

        let result = try await Shell.run("python3", ["Benchmarks/growth.py", "--sqlite", "1000,4000", "--postgresql", "",
                                                      "--from", folder.path, "--pooled", "4000"], in: Workspace.root)
        try #require(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)

        // The growth table's row of each workload.
        for name in ["fetchAll", "enumerateAll"] {
            var cells = [name]
            var growths: [Double] = []
            for side in [\(name: String, hasTarget: Bool, generated: Samples, handWritten: Samples).generated, \.handWritten] {
                let costs = sizes.map { rows in
                    Self.median(rounds[rows]!.flatMap { $0.first { $0.name == name }![keyPath: side].wall }) / Double(rows) * 1e6
                }
                cells += costs.map { Self.fixed($0, 2) }
                growths.append(costs[1] / costs[0])
                cells.append(Self.fixed(costs[1] / costs[0], 2))
            }
            cells.append(Self.fixed(growths[0] / growths[1], 2))
            let expected = "| " + cells.joined(separator: " | ") + " |"
            #expect(lines.contains(expected), "\(expected) not in:\n\(result.output)")
        }
        #expect(lines.contains { $0.hasPrefix("sqlite: N = 1,000 (load 0.5–0.6, median of 6 repetitions in 2 rounds)") }, "\(result.output)")

        // The pooled table of 4,000 rows.
        var maximum = 0.0
        var maximumCPU = 0.0
        for workload in rounds[4_000]![0] {
            let pooled = rounds[4_000]!.map { $0.first { $0.name == workload.name }! }
            let generated = pooled.flatMap(\.generated.wall)
            let handWritten = pooled.flatMap(\.handWritten.wall)
            let ratio = Self.median(zip(generated, handWritten).map { $0 / $1 })
            let cpu = Self.median(zip(pooled.flatMap(\.generated.cpu), pooled.flatMap(\.handWritten.cpu)).map { $0 / $1 })
            if workload.hasTarget {
                maximum = max(maximum, ratio)
                maximumCPU = max(maximumCPU, cpu)
            }
            let expected = "| `\(workload.name)`: \(workload.name) | \(Self.fixed(Self.median(generated), 3)) | \(Self.fixed(Self.median(handWritten), 3)) | "
                + "\(Self.fixed(ratio, 2)) | \(Self.fixed(cpu, 2)) | 1.0 / 1.0 MB | 10 / 10 |"
            #expect(lines.contains(expected), "\(expected) not in:\n\(result.output)")
        }
        let maxima = "max ratio (workloads with a target): \(Self.fixed(maximum, 2)); max CPU ratio: \(Self.fixed(maximumCPU, 2))."
        #expect(lines.contains(maxima), "\(maxima) not in:\n\(result.output)")
    }

    @Test func noRoundsIsRefused() async throws {
        let result = try await Shell.run("python3", ["Benchmarks/growth.py", "--rounds", "0"], in: Workspace.root)
        #expect(result.status != 0)
        #expect(result.output.contains("--rounds must be at least 1"), "\(result.output)")
    }

    /// Two runs of one store side by side: each cell is the reports' own figure, run 1 then run 2;
    /// memory and page faults are the first run's.
    @Test func tablesPutTwoRunsSideBySide() async throws {
        let runs = (0..<2).map { run in
            Self.report(rows: 20_000, workloads: [
                (name: "insert", hasTarget: true,
                 generated: Samples(wall: [0.21 + 0.01 * Double(run), 0.22, 0.25], cpu: [0.2, 0.21, 0.23]),
                 handWritten: Samples(wall: [0.2, 0.2, 0.21], cpu: [0.19, 0.2, 0.2])),
            ], faults: 100 + run, bytes: 3 * 1_048_576 * (run + 1))
        }
        let folder = FileManager.default.temporaryDirectory.appending(path: "tables-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, run) in runs.enumerated() {
            try JSONSerialization.data(withJSONObject: run).write(to: folder.appending(path: "run\(index + 1).json"))
        }
        let result = try await Shell.run("python3", ["Benchmarks/tables.py", folder.appending(path: "run1.json").path,
                                                      folder.appending(path: "run2.json").path], in: Workspace.root)
        try #require(result.status == 0, "\(result.output)")
        func both(_ value: ([String: Any]) -> Double, _ digits: Int) -> String {
            runs.map { Self.fixed(value($0), digits) }.joined(separator: " / ")
        }
        func insert(_ report: [String: Any]) -> [String: Any] { (report["workloads"] as! [[String: Any]])[0] }
        func side(_ report: [String: Any], _ name: String) -> [String: Any] { insert(report)[name] as! [String: Any] }
        let expected = "| `insert`: insert | \(both({ side($0, "generated")["wallSeconds"] as! Double }, 3)) | "
            + "\(both({ side($0, "handWritten")["wallSeconds"] as! Double }, 3)) | \(both({ insert($0)["ratio"] as! Double }, 2)) | "
            + "\(both({ insert($0)["cpuRatio"] as! Double }, 2)) | 3.0 / 3.0 MB | 100 / 100 |"
        #expect(result.output.split(separator: "\n").contains { $0 == expected }, "\(expected) not in:\n\(result.output)")
        #expect(result.output.hasPrefix("N = 20,000, median of 3 repetitions each run; load average 0.5–0.6 (run 1), load average 0.5–0.6 (run 2)."),
                "\(result.output)")
    }
}
