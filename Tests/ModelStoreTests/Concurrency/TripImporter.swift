import Foundation
import ModelStore

// docs/Runtime.md's model actor, verbatim (ModelActorTests checks the doc shows exactly this code
// and compiles it alone in Swift 6 language mode with warnings as errors, then runs it).

/// What an importer receives: plain values, not models (models stay inside their actor).
struct Row: Sendable {
    let name: String
    let start: Date
    let end: Date
}

actor TripImporter: ModelActor {
    nonisolated let modelExecutor: any ModelExecutor
    nonisolated let modelContainer: ModelContainer
    init(modelContainer: ModelContainer) {
        self.modelContainer = modelContainer
        self.modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(modelContainer))
    }
    func importTrips(_ rows: [Row]) throws -> [PersistentIdentifier] {
        let trips = rows.map { Trip(name: $0.name, startDate: $0.start, endDate: $0.end) }
        for trip in trips { modelContext.insert(trip) }
        try modelContext.save()
        return trips.map(\.persistentModelID)  // permanent after the save; Sendable
    }
}

/// Imports each batch with its own importer, all at once, into one container.
func importAll(_ batches: [[Row]], into container: ModelContainer) async throws -> [PersistentIdentifier] {
    try await withThrowingTaskGroup(of: [PersistentIdentifier].self) { group in
        for batch in batches {
            group.addTask { try await TripImporter(modelContainer: container).importTrips(batch) }
        }
        return try await group.reduce(into: []) { $0 += $1 }
    }
}
