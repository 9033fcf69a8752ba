import Foundation
import ModelStore

// MigrationDemo: an app whose model changed twice (docs/Migrations.md).
//
//   MigrationDemo seed STORE   writes trips as version 1.0.0 of the app did (text durations)
//   MigrationDemo open STORE   opens the store as the app does now: 1.0.0 → 2.0.0 runs the custom
//                              stage (text → minutes), 2.0.0 → 3.0.0 the inferred rename
//                              (name → title); then lists the trips

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let command = arguments.first, let path = arguments.last else {
    FileHandle.standardError.write(Data("usage: MigrationDemo seed|open STORE\n".utf8))
    exit(2)
}
let configuration = ModelConfiguration(url: URL(fileURLWithPath: path))

switch command {
case "seed":
    // Version 1.0.0's classes are generated from ModelVersions/1.0.0.modelversion.
    let container = try ModelContainer(for: Schema(versionedSchema: SchemaV1_0_0.self), configurations: configuration)
    let context = ModelContext(container)
    for (name, duration, places) in [("Rome", "90 min", ["Hotel Roma"]), ("Oslo", "2 h", []), ("Nice", "1 h 30 min", ["Villa", "Camping"])] {
        let trip = SchemaV1_0_0.Trip(name: name, duration: duration)
        context.insert(trip)
        for place in places {
            let accommodation = SchemaV1_0_0.Accommodation(name: place)
            context.insert(accommodation)
            accommodation.trip = trip
        }
    }
    try context.save()
    print("seeded 3 trips as version 1.0.0")
case "open":
    let container = try ModelContainer(for: TripLog.schema, migrationPlan: TripLogMigrationPlan.self, configurations: configuration)
    let context = ModelContext(container)
    for trip in try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.title)])) {
        let places = trip.accommodations.map(\.name).sorted().joined(separator: ", ")
        print("\(trip.title): \(trip.duration) minutes; staying at: \(places.isEmpty ? "-" : places)")
    }
default:
    FileHandle.standardError.write(Data("usage: MigrationDemo seed|open STORE\n".utf8))
    exit(2)
}
