// The child process of the multi-process misuse tests (Tests/ModelStoreTests/Misuse, issue #20).
//
//     MisuseProbe hold-write STORE SECONDS [RELEASE-FILE]
//         Opens the SQLite file STORE directly, takes its write lock (BEGIN IMMEDIATE and a write),
//         prints "holding", keeps it for SECONDS or until RELEASE-FILE exists, rolls back, prints
//         "released".
//     MisuseProbe share-context STORE|URL|memory overlap|hammer|handover
//         One ModelContext of the generated Trips code used by two threads:
//         overlap  — thread 2 inserts while thread 1 is inside `transaction { }` (at once, for sure);
//         hammer   — both threads insert and save 2,000 trips each, as a careless app would;
//         handover — thread 1 uses the context (a fetch inside `transaction` among its calls), then
//                    hands it to thread 2 (one at a time: allowed).
//         Prints "done N" (N trips stored) when the process was not stopped.
import CSQLite
import Foundation
import ModelStore

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("MisuseProbe: \(message)\n".utf8))
    exit(2)
}

/// Starts a thread running `body`.
func spawn(_ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.start()
}

/// A context shared by two threads on purpose (the misuse under test).
final class Shared: @unchecked Sendable {
    let context: ModelContext
    init(_ context: ModelContext) { self.context = context }
}

func holdWrite(path: String, seconds: Double, releaseFile: String?) {
    var handle: OpaquePointer?
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle else { fail("cannot open \(path)") }
    sqlite3_busy_timeout(handle, 5000)
    for sql in ["BEGIN IMMEDIATE", "UPDATE \"$metadata\" SET value = value WHERE key = 'schema'"] {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { fail("\(sql): \(String(cString: sqlite3_errmsg(handle)))") }
    }
    say("holding")
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline && !(releaseFile.map { FileManager.default.fileExists(atPath: $0) } ?? false) {
        Thread.sleep(forTimeInterval: 0.01)
    }
    sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    sqlite3_close(handle)
    say("released")
}

func shareContext(store: String, mode: String) throws {
    let configuration: ModelConfiguration
    if store == "memory" {
        configuration = ModelConfiguration(isStoredInMemoryOnly: true)
    } else if store.hasPrefix("postgres"), let url = URL(string: store) {
        configuration = ModelConfiguration(url: url)
    } else {
        configuration = ModelConfiguration(url: URL(fileURLWithPath: store))
    }
    let container = try ModelContainer(for: TripStore.schema, configurations: configuration)
    let shared = Shared(ModelContext(container))
    let day = Date(timeIntervalSinceReferenceDate: 800_000_000)
    let finished = DispatchGroup()
    switch mode {
    case "overlap":
        let inside = DispatchSemaphore(value: 0)
        let secondDone = DispatchSemaphore(value: 0)
        finished.enter()
        spawn {
            try? shared.context.transaction {
                shared.context.insert(Trip(name: "first", startDate: day, endDate: day))
                inside.signal()
                _ = secondDone.wait(timeout: .now() + 10)
            }
            finished.leave()
        }
        finished.enter()
        spawn {
            inside.wait()
            shared.context.insert(Trip(name: "second", startDate: day, endDate: day))
            secondDone.signal()
            finished.leave()
        }
    case "hammer":
        for thread in 0..<2 {
            finished.enter()
            spawn {
                for row in 0..<2_000 {
                    shared.context.insert(Trip(name: "t\(thread)-\(row)", startDate: day, endDate: day))
                    if row % 50 == 49 { try? shared.context.save() }
                }
                try? shared.context.save()
                finished.leave()
            }
        }
    case "handover":
        let handedOver = DispatchSemaphore(value: 0)
        finished.enter()
        spawn {
            for row in 0..<500 { shared.context.insert(Trip(name: "a\(row)", startDate: day, endDate: day)) }
            try? shared.context.save()
            // Entries inside an entry (a fetch inside `transaction`): left as many times, the
            // context is free for the next thread.
            try? shared.context.transaction { _ = try shared.context.fetch(FetchDescriptor<Trip>()) }
            handedOver.signal()
            finished.leave()
        }
        finished.enter()
        spawn {
            handedOver.wait()
            for row in 0..<500 { shared.context.insert(Trip(name: "b\(row)", startDate: day, endDate: day)) }
            try? shared.context.save()
            _ = try? shared.context.fetch(FetchDescriptor<Trip>())
            finished.leave()
        }
    default:
        fail("unknown mode \(mode)")
    }
    finished.wait()
    try shared.context.save()
    say("done \(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()))")
}

let arguments = CommandLine.arguments
do {
    switch arguments.count > 1 ? arguments[1] : "" {
    case "hold-write" where arguments.count == 4 || arguments.count == 5:
        guard let seconds = Double(arguments[3]) else { fail("SECONDS must be a number") }
        holdWrite(path: arguments[2], seconds: seconds, releaseFile: arguments.count == 5 ? arguments[4] : nil)
    case "share-context" where arguments.count == 4:
        try shareContext(store: arguments[2], mode: arguments[3])
    default:
        fail("usage: MisuseProbe hold-write STORE SECONDS [RELEASE-FILE] | share-context STORE|URL|memory overlap|hammer|handover")
    }
} catch {
    fail("\(error)")
}
