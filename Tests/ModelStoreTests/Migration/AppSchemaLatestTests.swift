import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

// The worked example generated with `modelsInVersion` (docs/Migrations.md, "The app's own
// SchemaLatest"): `Generated/MigrationDemo` holds no top-level class, `SchemaV3_0_0` holds the
// model's own classes and `TripLog.schema` (Current_Trips.model.swift) lists them. An app names the
// latest version itself and writes its own plan, as with SwiftData.

/// The app's name for its latest version.
private typealias SchemaLatest = SchemaV3_0_0

/// The app's own plan over the generated versions, SwiftData-style: the 1.0.0 → 2.0.0 stage turns
/// the text durations into minutes in `didMigrate` (here: the length of the text, to tell it ran).
private enum AppMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV1_0_0.self, SchemaV2_0_0.self, SchemaLatest.self] }
    static var stages: [MigrationStage] { [migrateV1toV2, migrateV2toV3] }

    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: SchemaV1_0_0.self, toVersion: SchemaV2_0_0.self, willMigrate: nil,
        didMigrate: { context in
            for trip in try context.fetch(FetchDescriptor<SchemaV2_0_0.Trip>()) {
                trip.duration = trip.name.count * 10
            }
            try context.save()
        })
    static let migrateV2toV3 = MigrationStage.lightweight(fromVersion: SchemaV2_0_0.self, toVersion: SchemaLatest.self)
}

@Suite struct AppSchemaLatestTests {
    @Test func theContainersSchemaListsTheLatestVersionsClasses() {
        let listed = Set(TripLog.schema.entities.map { ObjectIdentifier($0.type) })
        let latest = Set(SchemaLatest.models.map(ObjectIdentifier.init))
        #expect(listed == latest && !latest.isEmpty)
        #expect(listed.contains(ObjectIdentifier(SchemaLatest.Trip.self)))
    }

    @Test(arguments: StoreKind.persistent) func theAppsPlanMigratesAVersion1StoreToTheLatest(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        try store.write(Schema(versionedSchema: SchemaV1_0_0.self)) { context in
            context.insert(SchemaV1_0_0.Trip(name: "Rome", duration: "90 min"))
            context.insert(SchemaV1_0_0.Trip(name: "Oslo fjords", duration: "2 h"))
        }
        for schema in [Schema(versionedSchema: SchemaLatest.self), TripLog.schema] {
            let container = try store.container(for: schema, migrationPlan: AppMigrationPlan.self)
            let context = ModelContext(container)
            let trips = try context.fetch(FetchDescriptor<SchemaLatest.Trip>(sortBy: [SortDescriptor(\.title)]))
            #expect(trips.map { "\($0.title) \($0.duration)" } == ["Oslo fjords 110", "Rome 40"])
            context.insert(SchemaLatest.Trip(title: "Nice", duration: 5))
            try context.save()
            try context.delete(model: SchemaLatest.Trip.self, where: #Predicate { $0.title == "Nice" })
            try context.save()
        }
        #expect(try store.storedSchema()?.schemaVersion == Schema.Version(3, 0, 0))
    }
}
