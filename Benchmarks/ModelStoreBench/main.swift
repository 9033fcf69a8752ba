import BenchSupport
import Foundation
import StoreTestSupport

// modelstore-bench [--store sqlite|postgresql] [--n N] [--repeat R]: the generated Trips code on
// ModelStore against hand-written SQLite (or libpq) code, on N mixed rows, median of R repetitions.
// PostgreSQL: the server MODELSTORE_TEST_POSTGRES_URL names, else a throwaway one started for the run.

let usage = "usage: modelstore-bench [--store sqlite|postgresql] [--n ROWS] [--repeat R] [--markdown 1]"
let arguments: Arguments
let store: BenchStoreKind
do {
    var rest = Array(CommandLine.arguments.dropFirst())
    var kind = BenchStoreKind.sqlite
    if let index = rest.firstIndex(of: "--store") {
        guard index + 1 < rest.count, let named = BenchStoreKind(rawValue: rest[index + 1]) else {
            throw HandSQLiteError(message: "option '--store' needs sqlite or postgresql")
        }
        kind = named
        rest.removeSubrange(index...(index + 1))
    }
    store = kind
    arguments = try Arguments(rest, defaults: ["n": 200_000, "repeat": 5, "markdown": 0])
} catch {
    FileHandle.standardError.write(Data("modelstore-bench: \(error)\n\(usage)\n".utf8))
    exit(2)
}

func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// The table of results, and the largest wall-clock ratio.
func report(_ results: [BenchmarkRun.Result], rowCount: Int, predicates: Bool) -> (table: TextTable, maxRatio: Double) {
    var table = TextTable(header: ["workload", "generated s", "hand-written s", "ratio", "CPU ratio", "peak +memory generated", "peak +memory hand-written"])
    var maxRatio = 0.0
    for result in results {
        let generated: Double = Timing.median(result.generated.samples.map(\.wall))
        let handWritten: Double = Timing.median(result.handWritten.samples.map(\.wall))
        let ratio: Double = handWritten > 0 ? generated / handWritten : 0
        let cpuGenerated: Double = Timing.median(result.generated.samples.map(\.cpu))
        let cpuHandWritten: Double = Timing.median(result.handWritten.samples.map(\.cpu))
        let cpuRatio: Double = cpuHandWritten > 0 ? cpuGenerated / cpuHandWritten : 0
        maxRatio = max(maxRatio, ratio)
        var cells: [String] = [result.workload.title(rows: rowCount, predicates: predicates)]
        cells.append(Cell.fixed(generated, 3))
        cells.append(Cell.fixed(handWritten, 3))
        cells.append(Cell.fixed(ratio, 2))
        cells.append(Cell.fixed(cpuRatio, 2))
        cells.append(PeakMemory.format(result.generated.peakBytes))
        cells.append(PeakMemory.format(result.handWritten.peakBytes))
        table.append(cells)
    }
    return (table, maxRatio)
}

do {
    let rowCount = arguments["n"]
    let repetitions = arguments["repeat"]
    let predicates = try GeneratedSide.supportsPredicates()
    if !predicates { log("the runtime has no predicates yet: the predicate workloads run without one on both sides") }
    QueryCount.install()
    let run = BenchmarkRun(store: store, rowCount: rowCount, repetitions: repetitions, predicates: predicates)
    let results = try run.run(log: log)
    let (table, maxRatio) = report(results, rowCount: rowCount, predicates: predicates)
    let load = Cell.fixed(Timing.loadAverage(), 1)
    print("store: \(store == .sqlite ? "SQLite" : "PostgreSQL \(try PostgresTestServer.shared().url)"), N = \(rowCount), median of \(repetitions) repetitions (wall clock; CPU ratio: thread CPU time), load average \(load)")
    print(arguments["markdown"] == 0 ? table.text : table.markdown)
    // Queries are counted through SQLite's trace hook: on SQLite only.
    for result in results where store == .sqlite && (result.workload == .enumerateAll || result.workload == .prefetch) {
        print("queries, \(result.workload.title(rows: rowCount, predicates: predicates)): generated \(result.generated.queries), hand-written \(result.handWritten.queries)")
    }
    print("max ratio: " + Cell.fixed(maxRatio, 2))
} catch {
    log("modelstore-bench: \(error)")
    exit(1)
}
