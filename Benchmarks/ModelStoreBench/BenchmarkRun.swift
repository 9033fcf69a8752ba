import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs every workload on both sides, alternating which side goes first, and collects the
/// median time and the peak memory of each.
struct BenchmarkRun {
    let store: BenchStoreKind
    let rowCount: Int
    let repetitions: Int
    let predicates: Bool

    /// The time of each repetition, and the largest peak memory growth (bytes) over the repetitions.
    struct Samples {
        var samples: [Timing.Sample] = []
        var peakBytes = 0
        var count: Int?
        /// The queries (`SELECT`s) the last repetition ran.
        var queries = 0
    }

    /// One table row's figures.
    struct Result {
        let workload: Workload
        let generated: Samples
        let handWritten: Samples
    }

    func run(log: (String) -> Void) throws -> [Result] {
        let rows = TripRow.make(count: rowCount)
        let cutoff = predicates ? TripRow.cutoff(count: rowCount) : nil
        let generated = GeneratedSide(rows: rows, cutoff: cutoff)
        let handWritten: TripStoreSide = store == .sqlite ? HandWrittenSide(rows: rows, cutoff: cutoff)
                                                          : HandPostgresSide(rows: rows, cutoff: cutoff)
        var samples: [Workload: [Bool: Samples]] = [:]
        let root = FileManager.default.temporaryDirectory.appending(path: "modelstore-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        for repetition in 0..<repetitions {
            // Alternate which side runs first, so neither always gets the warmer caches.
            let order: [(isGenerated: Bool, side: TripStoreSide)] = repetition % 2 == 0
                ? [(true, generated), (false, handWritten)] : [(false, handWritten), (true, generated)]
            for (isGenerated, side) in order {
                let stores = try BenchStores(kind: store, directory: root.appending(path: "\(repetition)-\(isGenerated ? "generated" : "hand")"))
                try side.begin(stores: stores)
                for workload in Workload.allCases {
                    try side.prepare(workload)
                    releaseFreeMemory()
                    PeakMemory.reset()
                    let resident = PeakMemory.residentBytes()
                    QueryCount.reset()
                    let (sample, count) = try Timing.measure { try side.run(workload) }
                    let queries = QueryCount.count
                    // What the workload needed above what was resident when it started.
                    let peak = max(0, PeakMemory.peakBytes() - resident)
                    side.finish()
                    var entry = samples[workload, default: [:]][isGenerated, default: Samples()]
                    entry.samples.append(sample)
                    entry.peakBytes = max(entry.peakBytes, peak)
                    entry.queries = queries
                    if let previous = entry.count, previous != count {
                        throw HandSQLiteError(message: "\(workload): \(count) rows, \(previous) before")
                    }
                    entry.count = count
                    samples[workload, default: [:]][isGenerated] = entry
                }
                side.end()
                stores.close()
            }
            log("repetition \(repetition + 1) of \(repetitions) done")
        }
        return try Workload.allCases.map { workload in
            let generated = samples[workload]?[true] ?? Samples()
            let handWritten = samples[workload]?[false] ?? Samples()
            guard generated.count == handWritten.count else {
                throw HandSQLiteError(message: "\(workload): generated code saw \(generated.count ?? 0) rows, hand-written \(handWritten.count ?? 0)")
            }
            return Result(workload: workload, generated: generated, handWritten: handWritten)
        }
    }

    /// Gives freed heap back to the system (glibc's `malloc_trim`, looked up at run time), so a
    /// workload's peak is not the previous one's.
    private func releaseFreeMemory() {
        #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        }
        #endif
    }
}
