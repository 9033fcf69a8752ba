import BenchSupport
import Foundation

/// Runs the selected workloads on the selected sides and collects the time and the peak memory of
/// each. In each repetition both sides run each workload back to back (which side goes first
/// alternates from one repetition to the next), so a ratio compares times taken a moment apart:
/// `Result.ratio` is the median of the repetitions' own ratios (docs/Benchmarks.md, "Method").
struct BenchmarkRun {
    let store: BenchStoreKind
    let rowCount: Int
    let repetitions: Int
    let predicates: Bool
    /// The workloads to time and report (`--only`); `insert` also runs, untimed, when a selected
    /// workload reads the rows it stores.
    var workloads: [Workload] = Workload.allCases
    /// The sides to run (`--side`): the generated code, the hand-written code, or both.
    var sides: Set<Side> = [.generated, .handWritten]

    /// One way of running the workloads.
    enum Side: String, CaseIterable {
        case generated
        case handWritten = "hand-written"
    }

    /// The time of each repetition, and the largest peak memory growth (bytes) over the repetitions.
    struct Samples {
        var samples: [Timing.Sample] = []
        var peakBytes = 0
        var count: Int?
        /// The queries (`SELECT`s) the last repetition ran.
        var queries = 0
        /// The changes the workload's save recorded in the history (workloads that record it).
        var historyChanges: Int?

        /// The median wall-clock seconds.
        var wall: Double { Timing.median(samples.map(\.wall)) }
        /// The median thread CPU seconds.
        var cpu: Double { Timing.median(samples.map(\.cpu)) }
        /// The median minor page faults.
        var minorFaults: Int { Int(Timing.median(samples.map { Double($0.minorFaults) }).rounded()) }
    }

    /// One table row's figures (a side that did not run has no samples).
    struct Result {
        let workload: Workload
        let generated: Samples?
        let handWritten: Samples?

        /// Generated over hand-written wall-clock time: the median of the repetitions' ratios,
        /// each of the two sides' times of one repetition, taken back to back (nil unless both
        /// sides ran).
        var ratio: Double? { pairedRatio(\.wall) }

        /// Generated over hand-written thread CPU time, paired as `ratio` is.
        var cpuRatio: Double? { pairedRatio(\.cpu) }

        private func pairedRatio(_ time: KeyPath<Timing.Sample, Double>) -> Double? {
            guard let generated, let handWritten, generated.samples.count == handWritten.samples.count else { return nil }
            let ratios = zip(generated.samples, handWritten.samples).compactMap { pair -> Double? in
                let hand = pair.1[keyPath: time]
                return hand > 0 ? pair.0[keyPath: time] / hand : nil
            }
            return ratios.isEmpty ? nil : Timing.median(ratios)
        }
    }

    func run(log: (String) -> Void) throws -> [Result] {
        let rows = TripRow.make(count: rowCount)
        let cutoff = predicates ? TripRow.cutoff(count: rowCount) : nil
        var all: [(side: Side, code: TripStoreSide)] = []
        if sides.contains(.generated) { all.append((.generated, GeneratedSide(rows: rows, cutoff: cutoff))) }
        if sides.contains(.handWritten) {
            let handWritten: TripStoreSide = store == .sqlite ? HandWrittenSide(rows: rows, cutoff: cutoff)
                                                              : HandPostgresSide(rows: rows, cutoff: cutoff)
            all.append((.handWritten, handWritten))
        }
        let selected = Set(workloads)
        // `insert` stores the rows most workloads read: it runs (untimed) when they are selected without it.
        let needsRows = selected.contains { $0.readsInsertedRows }
        let steps = Workload.allCases.filter { selected.contains($0) || ($0 == .insert && needsRows) }
        var samples: [Workload: [Side: Samples]] = [:]
        let root = FileManager.default.temporaryDirectory.appending(path: "modelstore-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        for repetition in 0..<repetitions {
            // Alternate which side runs first, so neither always gets the warmer caches.
            let order = repetition % 2 == 0 ? all : all.reversed()
            var opened: [BenchStores] = []
            defer { for stores in opened { stores.close() } }
            for (side, sideCode) in order {
                let stores = try BenchStores(kind: store, directory: root.appending(path: "\(repetition)-\(side.rawValue)"))
                opened.append(stores)
                try sideCode.begin(stores: stores)
            }
            // Each workload on both sides, one right after the other: the machine's speed, which
            // drifts on this kind of machine, is then about the same for the two times compared.
            for workload in steps {
                for (side, sideCode) in order {
                    try sideCode.prepare(workload)
                    guard selected.contains(workload) else {
                        _ = try sideCode.run(workload)
                        sideCode.finish()
                        continue
                    }
                    PeakMemory.reset()  // after handing freed heap back (`malloc_trim`): a peak is not the previous workload's
                    let resident = PeakMemory.residentBytes()
                    QueryCount.reset()
                    let (sample, count) = try Self.timed(workload, on: sideCode)
                    let queries = QueryCount.count
                    // What the workload needed above what was resident when it started.
                    let peak = max(0, PeakMemory.peakBytes() - resident)
                    let historyChanges = workload.recordsHistory ? try sideCode.newestHistoryChangeCount() : nil
                    sideCode.finish()
                    var entry = samples[workload, default: [:]][side, default: Samples()]
                    entry.samples.append(sample)
                    entry.peakBytes = max(entry.peakBytes, peak)
                    entry.queries = queries
                    if let expected = workload.expectedCount(rows: rowCount), count != expected {
                        throw HandSQLiteError(message: "\(workload), \(side.rawValue): \(count) rows, not \(expected)")
                    }
                    if let previous = entry.count, previous != count {
                        throw HandSQLiteError(message: "\(workload): \(count) rows, \(previous) before")
                    }
                    entry.count = count
                    if let previous = entry.historyChanges, previous != historyChanges {
                        throw HandSQLiteError(message: "\(workload): \(historyChanges ?? 0) history changes, \(previous) before")
                    }
                    entry.historyChanges = historyChanges
                    samples[workload, default: [:]][side] = entry
                }
            }
            for (_, sideCode) in order { sideCode.end() }
            log("repetition \(repetition + 1) of \(repetitions) done")
        }
        return try workloads.map { workload in
            let generated = samples[workload]?[.generated]
            let handWritten = samples[workload]?[.handWritten]
            if let generated, let handWritten, generated.count != handWritten.count {
                throw HandSQLiteError(message: "\(workload): generated code saw \(generated.count ?? 0) rows, hand-written \(handWritten.count ?? 0)")
            }
            if let generated, let handWritten, generated.historyChanges != handWritten.historyChanges {
                throw HandSQLiteError(message: "\(workload): generated code recorded \(generated.historyChanges ?? 0) history changes, hand-written \(handWritten.historyChanges ?? 0)")
            }
            return Result(workload: workload, generated: generated, handWritten: handWritten)
        }
    }

    /// Times one workload on one side.
    static func timed(_ workload: Workload, on store: TripStoreSide) throws -> (Timing.Sample, Int) {
        try Timing.measure { try timedWorkloadBody(workload, on: store) }
    }

    /// The timed part of one workload on one side. Not inlined, so a profiler can collect exactly
    /// the timed parts: `valgrind --tool=callgrind --toggle-collect='*timedWorkloadBody*'` (the
    /// name as mangled: valgrind does not demangle Swift).
    @inline(never)
    static func timedWorkloadBody(_ workload: Workload, on store: TripStoreSide) throws -> Int {
        try store.run(workload)
    }
}
