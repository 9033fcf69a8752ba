import BenchSupport
import Foundation

/// What `modelstore-bench` prints: a table (text or Markdown) with the `max ratio:` and
/// `max CPU ratio:` lines, or the same figures as JSON (`--json`).
struct Report {
    let rowCount: Int
    let repetitions: Int
    let predicates: Bool
    /// The store both sides ran on (`sqlite` or `postgresql`).
    let store: String
    /// The one-minute load average when the run started and when it ended.
    let loadAtStart: Double
    let loadAtEnd: Double
    let results: [BenchmarkRun.Result]

    /// The largest wall-clock ratio of the workloads with a target (nil when none ran on both sides).
    var maxRatio: Double? { results.filter(\.workload.hasTarget).compactMap(\.ratio).max() }
    /// The largest CPU-time ratio of the workloads with a target (nil when none ran on both sides).
    var maxCPURatio: Double? { results.filter(\.workload.hasTarget).compactMap(\.cpuRatio).max() }

    /// The table, the query counts of the workloads that compare them, and the two maxima.
    func text(markdown: Bool) -> String {
        var table = TextTable(header: ["workload", "generated s", "hand-written s", "ratio", "CPU ratio", "peak +memory generated", "peak +memory hand-written",
                                       "page faults generated", "page faults hand-written"])
        for result in results {
            var cells: [String] = [result.workload.title(rows: rowCount, predicates: predicates)]
            cells.append(result.generated.map { Cell.fixed($0.wall, 3) } ?? "-")
            cells.append(result.handWritten.map { Cell.fixed($0.wall, 3) } ?? "-")
            cells.append(result.ratio.map { Cell.fixed($0, 2) } ?? "-")
            cells.append(result.cpuRatio.map { Cell.fixed($0, 2) } ?? "-")
            cells.append(result.generated.map { PeakMemory.format($0.peakBytes) } ?? "-")
            cells.append(result.handWritten.map { PeakMemory.format($0.peakBytes) } ?? "-")
            cells.append(result.generated.map { String($0.minorFaults) } ?? "-")
            cells.append(result.handWritten.map { String($0.minorFaults) } ?? "-")
            table.append(cells)
        }
        var lines = ["store: \(store), N = \(rowCount), median of \(repetitions) repetitions (wall clock; CPU ratio: thread CPU time; ratios: the median of each repetition's ratio), load average "
            + Cell.fixed(loadAtStart, 1) + " at start, " + Cell.fixed(loadAtEnd, 1) + " at end"]
        lines.append(markdown ? table.markdown : table.text)
        // Queries are counted through SQLite's trace hook: on SQLite only.
        for result in results where store == "sqlite" && [.enumerateAll, .enumerateAllObservable, .prefetch, .prefetchObservable].contains(result.workload) {
            let counts = [("generated", result.generated), ("hand-written", result.handWritten)].compactMap { name, samples in
                samples.map { "\(name) \($0.queries)" }
            }
            lines.append("queries, \(result.workload.title(rows: rowCount, predicates: predicates)): " + counts.joined(separator: ", "))
        }
        lines.append("max ratio: " + (maxRatio.map { Cell.fixed($0, 2) } ?? "-"))
        lines.append("max CPU ratio: " + (maxCPURatio.map { Cell.fixed($0, 2) } ?? "-"))
        return lines.joined(separator: "\n")
    }

    /// The figures as a JSON object (keys sorted), for tools.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(JSONReport(self)), as: UTF8.self)
    }
}

/// The JSON form of a `Report`. Times are seconds (medians of the repetitions, each repetition
/// under `samples`), `minorFaults` the bench thread's minor page faults (median; each repetition's
/// under `samples`), memory is bytes above what was resident when the workload started,
/// `queries` the `SELECT`s the workload's last repetition ran (every workload is counted; SQLite
/// only, through its trace hook: 0 on PostgreSQL).
private struct JSONReport: Encodable {
    struct Side: Encodable {
        let wallSeconds: Double
        let cpuSeconds: Double
        let minorFaults: Int
        let peakAdditionalBytes: Int
        let queries: Int
        /// What the workload touched or read (checked equal on both sides).
        let rows: Int
        let samples: [Sample]

        init(_ samples: BenchmarkRun.Samples) {
            wallSeconds = samples.wall
            cpuSeconds = samples.cpu
            minorFaults = samples.minorFaults
            peakAdditionalBytes = samples.peakBytes
            queries = samples.queries
            rows = samples.count ?? 0
            self.samples = samples.samples.map { Sample(wallSeconds: $0.wall, cpuSeconds: $0.cpu, minorFaults: $0.minorFaults) }
        }
    }

    struct Sample: Encodable {
        let wallSeconds: Double
        let cpuSeconds: Double
        let minorFaults: Int
    }

    struct Workload: Encodable {
        /// The name `--only` takes.
        let name: String
        let title: String
        /// Whether the workload is held to the target (`Workload.hasTarget`): `maxRatio` counts only these.
        let hasTarget: Bool
        /// Nil where that side did not run (`--side`).
        let generated: Side?
        let handWritten: Side?
        /// Nil unless both sides ran.
        let ratio: Double?
        let cpuRatio: Double?
        let peakMemoryRatio: Double?
    }

    let rowCount: Int
    let repetitions: Int
    let store: String
    let predicates: Bool
    let loadAverageAtStart: Double
    let loadAverageAtEnd: Double
    let workloads: [Workload]
    /// Nil when no workload ran on both sides.
    let maxRatio: Double?
    let maxCPURatio: Double?

    init(_ report: Report) {
        rowCount = report.rowCount
        repetitions = report.repetitions
        store = report.store
        predicates = report.predicates
        loadAverageAtStart = report.loadAtStart
        loadAverageAtEnd = report.loadAtEnd
        maxRatio = report.maxRatio
        maxCPURatio = report.maxCPURatio
        workloads = report.results.map { result in
            var memoryRatio: Double?
            if let generated = result.generated, let handWritten = result.handWritten, handWritten.peakBytes > 0 {
                memoryRatio = Double(generated.peakBytes) / Double(handWritten.peakBytes)
            }
            return Workload(name: result.workload.rawValue, title: result.workload.title(rows: report.rowCount, predicates: report.predicates),
                            hasTarget: result.workload.hasTarget, generated: result.generated.map(Side.init), handWritten: result.handWritten.map(Side.init),
                            ratio: result.ratio, cpuRatio: result.cpuRatio, peakMemoryRatio: memoryRatio)
        }
    }
}
