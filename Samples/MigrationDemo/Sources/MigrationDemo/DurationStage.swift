import Foundation
import ModelStore

// The code of the migration plan's custom stage, 1.0.0 → 2.0.0 (`migration "1.0.0" -> "2.0.0" { custom }`
// in Trips.model). The generated `TripLogMigrationPlan` conforms to the generated protocol
// `TripLogMigrationPlanCustomStages`, whose two functions are written here: without them the
// package does not compile ("protocol requires function 'willMigrateV1_0_0ToV2_0_0'").

extension TripLogMigrationPlan {
    /// The minutes read from 1.0.0's text, by trip, from `willMigrate` to `didMigrate`: the two see
    /// different classes (`SchemaV1_0_0.Trip`, `SchemaV2_0_0.Trip`) of the same rows, whose
    /// `persistentModelID` stays the same through the migration.
    static let minutes = MinutesByTrip()

    /// Before the schema changes, the store holds 1.0.0's trips: read their text durations.
    static func willMigrateV1_0_0ToV2_0_0(_ context: ModelContext) throws {
        for trip in try context.fetch(FetchDescriptor<SchemaV1_0_0.Trip>()) {
            minutes.keep(Self.minutes(in: trip.duration) ?? 0, for: trip.persistentModelID)
        }
    }

    /// After it changed, `duration` is an `Int` (0 for every trip): write the minutes.
    static func didMigrateV1_0_0ToV2_0_0(_ context: ModelContext) throws {
        for trip in try context.fetch(FetchDescriptor<SchemaV2_0_0.Trip>()) {
            trip.duration = minutes.take(trip.persistentModelID) ?? 0
        }
    }

    /// "90 min" → 90, "2 h" → 120, "1 h 30 min" → 90; nil for text that is not a duration.
    static func minutes(in text: String) -> Int? {
        let words = text.split(separator: " ")
        guard !words.isEmpty, words.count % 2 == 0 else { return nil }
        var total = 0
        for index in stride(from: 0, to: words.count, by: 2) {
            guard let number = Int(words[index]) else { return nil }
            switch words[index + 1] {
            case "h": total += number * 60
            case "min": total += number
            default: return nil
            }
        }
        return total
    }
}

/// Values kept by trip between a stage's two functions (which may run on any thread).
final class MinutesByTrip: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [PersistentIdentifier: Int] = [:]

    func keep(_ value: Int, for id: PersistentIdentifier) { lock.withLock { values[id] = value } }
    func take(_ id: PersistentIdentifier) -> Int? { lock.withLock { values.removeValue(forKey: id) } }
}
