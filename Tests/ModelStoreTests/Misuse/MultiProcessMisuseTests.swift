import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// #20, item 9: one ModelContext used from two threads at once stops the process with a
/// precondition message naming ModelContext and the rule, instead of corrupting memory or losing
/// rows; a context handed from one thread to another (one at a time) is fine. Run in a child
/// process (`MisuseProbe`), which must die of the check.
@Suite struct ConcurrentContextUseTests {
    static let message = "ModelContext used from two threads at once"

    func storeArgument(_ kind: StoreKind, _ file: TemporaryStore) -> String {
        kind == .file ? file.url.path : "memory"
    }

    @Test("A second thread entering the context while the first is inside it stops the process",
          .timeLimit(.minutes(2)), arguments: StoreKind.allCases)
    func overlappingUseStops(_ kind: StoreKind) async throws {
        let file = try TemporaryStore()
        let run = try await Probe.run(["share-context", storeArgument(kind, file), "overlap"])
        // Stopped: by the trap of `fatalError` (a signal), or, in a ThreadSanitizer build, by the
        // sanitizer's own exit on that trap; never a normal end.
        #expect(run.diedOfSignal || (run.end != nil && run.end != .exit(0)), "\(String(describing: run.end)), output: \(run.output) \(run.errors)")
        #expect(!run.output.contains("done"))
        #expect(run.errors.contains(Self.message), "stderr: \(run.errors)")
        #expect(run.errors.contains("one thread or task at a time"))
    }

    @Test("Two threads inserting and saving through one context stop the process before a row is lost",
          .timeLimit(.minutes(2)), arguments: StoreKind.allCases)
    func hammeringStops(_ kind: StoreKind) async throws {
        let file = try TemporaryStore()
        let run = try await Probe.run(["share-context", storeArgument(kind, file), "hammer"])
        // Stopped: by the trap of `fatalError` (a signal), or, in a ThreadSanitizer build, by the
        // sanitizer's own exit on that trap; never a normal end.
        #expect(run.diedOfSignal || (run.end != nil && run.end != .exit(0)), "\(String(describing: run.end)), output: \(run.output) \(run.errors)")
        #expect(!run.output.contains("done"))
        #expect(run.errors.contains(Self.message), "stderr: \(run.errors)")
    }

    @Test("A context handed from one thread to another, one at a time, works", .timeLimit(.minutes(2)), arguments: StoreKind.allCases)
    func handoverWorks(_ kind: StoreKind) async throws {
        let file = try TemporaryStore()
        let run = try await Probe.run(["share-context", storeArgument(kind, file), "handover"])
        #expect(run.end == .exit(0), "\(String(describing: run.end)): \(run.errors)")
        #expect(run.output.contains("done 1000"), "\(run.output)")
    }
}

/// #20, item 11: opening an up-to-date store and fetching needs no write lock: it succeeds at once
/// while another process holds a write transaction on the file (before, it waited for the busy
/// timeout and failed with "database is locked").
@Suite struct OpenDuringWriteTests {
    @Test("Open and fetch while another process holds the write lock", .timeLimit(.minutes(2)))
    func openWhileAnotherProcessWrites() async throws {
        let store = try TemporaryStore()
        do {
            let context = ModelContext(try ModelContainer(for: TripStore.schema, configurations: store.configuration))
            context.insert(Trip(name: "Stored", startDate: Day.at(1), endDate: Day.at(2)))
            try context.save()
        }
        // The probe holds the lock until told to let go (at most two minutes).
        let release = store.directory.appendingPathComponent("release")
        let holder = try Probe(["hold-write", store.url.path, "120", release.path])
        defer { _ = FileManager.default.createFile(atPath: release.path, contents: nil) }
        try await holder.waitFor(timeout: 60) { holder.output.contains("holding") || !holder.isRunning }
        #expect(holder.output.contains("holding"), "the probe did not take the lock: \(holder.errors)")

        var configuration = store.configuration
        configuration.busyTimeoutMilliseconds = 5000
        let start = Date()
        let container = try ModelContainer(for: TripStore.schema, configurations: configuration)
        let names = try ModelContext(container).fetch(FetchDescriptor<Trip>()).map(\.name)
        let elapsed = Date().timeIntervalSince(start)
        #expect(names == ["Stored"])
        #expect(elapsed < 2.5, "opening waited \(elapsed) s for the other process's write lock")
        #expect(holder.isRunning && !holder.output.contains("released"), "the probe let go of the lock before the open was measured")
        print("OpenDuringWrite: opened and fetched in \(elapsed) s while another process held the write lock")
    }
}
