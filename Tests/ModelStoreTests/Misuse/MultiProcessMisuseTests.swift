import Foundation
import Testing
@testable import ModelStore

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
    func overlappingUseStops(_ kind: StoreKind) throws {
        let file = try TemporaryStore()
        let run = try ProbeRun.run(["share-context", storeArgument(kind, file), "overlap"])
        #expect(run.reason == .uncaughtSignal, "exit \(run.status), output: \(run.output) \(run.errors)")
        #expect(run.errors.contains(Self.message), "stderr: \(run.errors)")
        #expect(run.errors.contains("one thread or task at a time"))
        #expect(!run.output.contains("done"))
    }

    @Test("Two threads inserting and saving through one context stop the process before a row is lost",
          .timeLimit(.minutes(2)), arguments: StoreKind.allCases)
    func hammeringStops(_ kind: StoreKind) throws {
        let file = try TemporaryStore()
        let run = try ProbeRun.run(["share-context", storeArgument(kind, file), "hammer"])
        #expect(run.reason == .uncaughtSignal, "exit \(run.status), output: \(run.output) \(run.errors)")
        #expect(run.errors.contains(Self.message), "stderr: \(run.errors)")
    }

    @Test("A context handed from one thread to another, one at a time, works", .timeLimit(.minutes(2)), arguments: StoreKind.allCases)
    func handoverWorks(_ kind: StoreKind) throws {
        let file = try TemporaryStore()
        let run = try ProbeRun.run(["share-context", storeArgument(kind, file), "handover"])
        #expect(run.reason == .exit && run.status == 0, "\(run.errors)")
        #expect(run.output.contains("done 1000"), "\(run.output)")
    }
}

/// #20, item 11: opening an up-to-date store and fetching needs no write lock: it succeeds at once
/// while another process holds a write transaction on the file (before, it waited for the busy
/// timeout and failed with "database is locked").
@Suite struct OpenDuringWriteTests {
    @Test("Open and fetch while another process holds the write lock", .timeLimit(.minutes(2)))
    func openWhileAnotherProcessWrites() throws {
        let store = try TemporaryStore()
        do {
            let context = ModelContext(try ModelContainer(for: TripStore.schema, configurations: store.configuration))
            context.insert(Trip(name: "Stored", startDate: Day.at(1), endDate: Day.at(2)))
            try context.save()
        }
        let holdSeconds = 8.0
        let (process, output, errors) = try ProbeRun.start(["hold-write", store.url.path, String(holdSeconds)])
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        // Wait for "holding".
        var seen = Data()
        let deadline = Date().addingTimeInterval(30)
        while !String(decoding: seen, as: UTF8.self).contains("holding") && Date() < deadline && process.isRunning {
            seen += output.fileHandleForReading.availableData
        }
        #expect(String(decoding: seen, as: UTF8.self).contains("holding"),
                "the probe did not take the lock: \(String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self))")

        var configuration = store.configuration
        configuration.busyTimeoutMilliseconds = 5000
        let start = Date()
        let container = try ModelContainer(for: TripStore.schema, configurations: configuration)
        let names = try ModelContext(container).fetch(FetchDescriptor<Trip>()).map(\.name)
        let elapsed = Date().timeIntervalSince(start)
        #expect(names == ["Stored"])
        #expect(elapsed < 2.5, "opening waited \(elapsed) s for the other process's write lock")
        #expect(process.isRunning, "the probe let go of the lock before the open was measured")
        print("OpenDuringWrite: opened and fetched in \(elapsed) s while another process held the write lock")
    }
}
