import BenchSupport
import Foundation
import StoreTestSupport

// modelstore-bench [--store sqlite|postgresql] [--n N] [--repeat R] [--markdown 1] [--json] [--only W,…] [--side S]:
// the generated Trips code on ModelStore against hand-written SQLite (or libpq) code, on N mixed rows,
// median of R repetitions. PostgreSQL: the server MODELSTORE_TEST_POSTGRES_URL names, else a
// throwaway one started for the run.
// modelstore-bench cluster [--seconds S] [--readers R] [--rows N] [--pairs P]: read throughput with 0, 1
// and 2 standbys and the cost of read-your-writes, on a throwaway cluster (ClusterReads.swift).

let usage = "usage: modelstore-bench [--store sqlite|postgresql] [--n ROWS] [--repeat R] [--markdown 1] [--json] [--only WORKLOAD,…] [--side generated|hand-written]\n"
    + "workloads: " + Workload.allCases.map(\.rawValue).joined(separator: ", ") + "\n"

func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

// modelstore-bench cluster …: reads on a primary and standbys (ClusterReads.swift).
if CommandLine.arguments.dropFirst().first == "cluster" {
    exit(ClusterReads.main(Array(CommandLine.arguments.dropFirst(2))))
}

let arguments: Arguments
let workloads: [Workload]
let sides: Set<BenchmarkRun.Side>
let store: BenchStoreKind
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()), defaults: ["n": 200_000, "repeat": 5, "markdown": 0],
                              texts: ["only": "", "side": "both", "store": "sqlite"], flags: ["json"])
    guard let kind = BenchStoreKind(rawValue: arguments.text("store")) else {
        throw ArgumentError(message: "option '--store' needs sqlite or postgresql")
    }
    store = kind
    workloads = try Workload.selection(arguments.text("only"))
    switch arguments.text("side") {
    case "both": sides = Set(BenchmarkRun.Side.allCases)
    case let name:
        guard let side = BenchmarkRun.Side(rawValue: name) else { throw ArgumentError(message: "unknown side '\(name)'") }
        sides = [side]
    }
} catch {
    log("modelstore-bench: \(error)\n" + usage)
    exit(2)
}

do {
    let loadAtStart = Timing.loadAverage()
    let predicates = try GeneratedSide.supportsPredicates()
    if !predicates { log("the runtime has no predicates yet: the predicate workloads run without one on both sides") }
    QueryCount.install()
    var run = BenchmarkRun(store: store, rowCount: arguments["n"], repetitions: arguments["repeat"], predicates: predicates)
    run.workloads = workloads
    run.sides = sides
    let results = try run.run(log: log)
    let report = Report(rowCount: run.rowCount, repetitions: run.repetitions, predicates: predicates, store: store == .sqlite ? "sqlite" : "postgresql",
                        loadAtStart: loadAtStart, loadAtEnd: Timing.loadAverage(), results: results)
    if store == .postgresql, !arguments.flag("json") { print("PostgreSQL server: \(try PostgresTestServer.shared().url)") }
    print(arguments.flag("json") ? try report.json() : report.text(markdown: arguments["markdown"] != 0))
} catch {
    log("modelstore-bench: \(error)")
    exit(1)
}
