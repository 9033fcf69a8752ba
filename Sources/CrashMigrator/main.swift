// The child process of the migration crash test (Tests/ModelStoreTests/Migration/MigrationCrashTests).
//
//     CrashMigrator STORE create ROWS    writes a 1.0.0 store: ROWS trips, an accommodation for every tenth
//     CrashMigrator STORE migrate        opens it through CrashPlan (1.0.0 → 2.0.0 → 3.0.0), prints "migrated"
//
// Trip i (i from 1) is named "trip i", lasts "(i % 180 + 1) min", has `days` i % 30 and a note
// "n<i>" unless i is a multiple of 3. After the migration, its title is "trip i", its duration
// i % 180 + 1 (minutes), its note "-" where it had none, its rating 3. The test kills the migrating
// process with SIGKILL at random moments and checks the store is either 1.0.0 with every row as
// written or 3.0.0 with every row migrated.
import Foundation
import ModelStore

/// Minutes read by the custom stage's `willMigrate`, by trip, for its `didMigrate`.
final class Stash: @unchecked Sendable {
    private let lock = NSLock()
    private var minutes: [PersistentIdentifier: Int] = [:]

    func keep(_ value: Int, for id: PersistentIdentifier) { lock.withLock { minutes[id] = value } }
    func take(_ id: PersistentIdentifier) -> Int? { lock.withLock { minutes.removeValue(forKey: id) } }
}

enum CrashPlan: SchemaMigrationPlan {
    static let stash = Stash()
    static var schemas: [any VersionedSchema.Type] { [CrashV1.self, CrashV2.self, CrashV3.self] }
    static var stages: [MigrationStage] {
        [
            .custom(fromVersion: CrashV1.self, toVersion: CrashV2.self,
                    willMigrate: { context in
                        for trip in try context.fetch(FetchDescriptor<CrashV1.Trip>()) {
                            let minutes = trip.duration.split(separator: " ").first.flatMap { Int($0) } ?? -1
                            stash.keep(minutes, for: trip.persistentModelID)
                        }
                    },
                    didMigrate: { context in
                        for trip in try context.fetch(FetchDescriptor<CrashV2.Trip>()) {
                            trip.duration = stash.take(trip.persistentModelID) ?? -1
                        }
                        try context.save()
                    }),
            .lightweight(fromVersion: CrashV2.self, toVersion: CrashV3.self),
        ]
    }
}

/// Writes a line to standard output at once (unbuffered).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, ["create", "migrate"].contains(arguments[2]), arguments[2] == "migrate" || (arguments.count > 3 && Int(arguments[3]) != nil) else {
    FileHandle.standardError.write(Data("usage: CrashMigrator STORE create ROWS | CrashMigrator STORE migrate\n".utf8))
    exit(2)
}
let configuration = ModelConfiguration(url: URL(fileURLWithPath: arguments[1]))

do {
    if arguments[2] == "create" {
        let rows = Int(arguments[3]) ?? 0
        let container = try ModelContainer(for: Schema(versionedSchema: CrashV1.self), migrationPlan: CrashPlan.self,
                                           configurations: configuration)
        let context = ModelContext(container)
        for index in 1...max(1, rows) {
            let trip = CrashV1.Trip(name: "trip \(index)", duration: "\(index % 180 + 1) min", days: Int32(index % 30),
                                    note: index % 3 == 0 ? nil : "n\(index)")
            context.insert(trip)
            if index % 10 == 0 {
                let accommodation = CrashV1.Accommodation(name: "acc \(index)")
                accommodation.trip = trip
                context.insert(accommodation)
            }
        }
        try context.save()
        say("created")
    } else {
        say("opening")
        _ = try ModelContainer(for: Schema(versionedSchema: CrashV3.self), migrationPlan: CrashPlan.self, configurations: configuration)
        say("migrated")
    }
} catch {
    FileHandle.standardError.write(Data("CrashMigrator: \(error)\n".utf8))
    exit(1)
}
