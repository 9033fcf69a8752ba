import Foundation
import Testing

/// `modelstore-bench` (the debug build: what is checked is that it runs, not its times) runs every
/// workload on both sides of each store at a small N and reports them as docs/Benchmarks.md
/// describes. The bench stops by itself when the two sides touched different rows or recorded
/// different history; here, every workload's two sides touched the same number of rows, which is
/// the workload's own count, and the references (no target) are the three the docs name.
@Suite(.serialized) struct ModelStoreBenchTests {
    static let rows = 300

    @Test(arguments: ["sqlite", "postgresql"])
    func everyWorkloadRunsOnBothSidesAndTouchesTheSameRows(store: String) async throws {
        let bench = try Workspace.builtExecutable("modelstore-bench")
        let result = try await Shell.run(bench.path(percentEncoded: false), ["--store", store, "--n", String(Self.rows), "--repeat", "2", "--json"],
                                         in: Workspace.root)
        try #require(result.status == 0, "\(result.output)")
        // Standard error's progress lines (no brace in them) come first, then the report.
        let start = try #require(result.output.firstIndex(of: "{"), "no JSON report in \(result.output)")
        let json = result.output[start...]
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(report["store"] as? String == store)
        #expect(report["repetitions"] as? Int == 2)
        let workloads = try #require(report["workloads"] as? [[String: Any]])
        #expect(workloads.map { $0["name"] as? String } == [
            "insert", "insertWithHistory", "fetchAll", "enumerateAll", "enumerateAllObservable", "fetchSubclass",
            "updateNames", "updateNamesWithHistory", "updateNamesTracked", "count", "prefetch", "prefetchObservable",
            "lookupByKey", "lookupByName", "cascadeDelete",
        ])
        #expect(workloads.filter { $0["hasTarget"] as? Bool == false }.compactMap { $0["name"] as? String }
                == ["enumerateAll", "updateNamesTracked", "prefetchObservable"])
        // Every update renames every trip; the lookups fetch each of their trips once.
        let expectedRows = ["updateNames": Self.rows, "updateNamesWithHistory": Self.rows, "updateNamesTracked": Self.rows,
                            "lookupByKey": Self.rows, "lookupByName": Self.rows]
        for workload in workloads {
            let name = workload["name"] as? String ?? "?"
            let generated = (workload["generated"] as? [String: Any])?["rows"] as? Int
            let handWritten = (workload["handWritten"] as? [String: Any])?["rows"] as? Int
            #expect(generated != nil && generated == handWritten, "\(name): generated \(String(describing: generated)), hand-written \(String(describing: handWritten))")
            #expect((generated ?? 0) > 0, "\(name) touched no rows")
            if let expected = expectedRows[name] { #expect(generated == expected, "\(name)") }
            #expect(workload["ratio"] is Double && workload["cpuRatio"] is Double, "\(name)")
        }
    }
}
