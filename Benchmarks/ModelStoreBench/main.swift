import BenchSupport
import Foundation

// modelstore-bench [--n N] [--repeat R]: the generated Trips code on ModelStore against
// hand-written SQLite, on N mixed rows, median of R repetitions.

let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()), defaults: ["n": 200_000, "repeat": 5, "markdown": 0])
} catch {
    FileHandle.standardError.write(Data("modelstore-bench: \(error)\nusage: modelstore-bench [--n ROWS] [--repeat R] [--markdown 1]\n".utf8))
    exit(2)
}

func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

do {
    let rowCount = arguments["n"]
    let predicates = try GeneratedSide.supportsPredicates()
    if !predicates { log("the runtime has no predicates yet: the predicate workloads run without one on both sides") }
    let run = BenchmarkRun(rowCount: rowCount, repetitions: arguments["repeat"], predicates: predicates)
    let results = try run.run(log: log)
    var table = TextTable(header: ["workload", "generated s", "hand-written s", "ratio", "peak generated", "peak hand-written"])
    var maxRatio = 0.0
    for result in results {
        let generated = Timing.median(result.generated.seconds)
        let handWritten = Timing.median(result.handWritten.seconds)
        let ratio = handWritten > 0 ? generated / handWritten : 0
        maxRatio = max(maxRatio, ratio)
        table.append([
            result.workload.title(rows: rowCount, predicates: predicates),
            String(format: "%.3f", generated), String(format: "%.3f", handWritten), String(format: "%.2f", ratio),
            PeakMemory.format(result.generated.peakBytes), PeakMemory.format(result.handWritten.peakBytes),
        ])
    }
    print("N = \(rowCount), median of \(arguments["repeat"]) repetitions")
    print(arguments["markdown"] == 0 ? table.text : table.markdown)
    print(String(format: "max ratio: %.2f", maxRatio))
} catch {
    log("modelstore-bench: \(error)")
    exit(1)
}
