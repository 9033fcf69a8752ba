// The child process of the crash-durability test (Tests/ModelStoreTests/Reliability).
//
//     CrashWriter STORE FIRST-BATCH [ROWS-PER-SAVE] [BATCHES]
//
// Opens the store with the generated Trips code (the target applies this package's ModelGenPlugin
// to Trips.model, a link to Samples/Trips.model), then saves batch after batch: batch `k` inserts ROWS-PER-SAVE
// trips named `batch-k` in one `save()`, and after each save returns, writes `ack k` (unbuffered).
// The test kills it with SIGKILL at random moments and checks every acknowledged batch is stored
// whole. Runs until killed, or for BATCHES batches.
import Foundation
import ModelStore

/// Writes a line to standard output at once (unbuffered: the test reads it before any kill).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let firstBatch = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: CrashWriter STORE FIRST-BATCH [ROWS-PER-SAVE] [BATCHES]\n".utf8))
    exit(2)
}
let rowsPerSave = arguments.count > 3 ? Int(arguments[3]) ?? 1000 : 1000
let batches = arguments.count > 4 ? Int(arguments[4]) ?? Int.max : Int.max

do {
    let container = try ModelContainer(for: TripStore.schema,
                                       configurations: ModelConfiguration(url: URL(fileURLWithPath: arguments[1])))
    say("ready")
    var batch = firstBatch
    while batch - firstBatch < batches {
        let context = ModelContext(container)
        for row in 0..<rowsPerSave {
            let day = Date(timeIntervalSinceReferenceDate: Double(batch * rowsPerSave + row))
            context.insert(Trip(name: "batch-\(batch)", startDate: day, endDate: day))
        }
        try context.save()
        say("ack \(batch)")
        batch += 1
    }
} catch {
    FileHandle.standardError.write(Data("CrashWriter: \(error)\n".utf8))
    exit(1)
}
