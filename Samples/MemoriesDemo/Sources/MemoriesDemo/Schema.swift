import Foundation
import ModelStore

// The data layer as a SwiftData app writes it. With `modelsInVersion` (modelgen.json) the plugin
// generates the model's classes only inside its versions' enums (`SchemaV1_0_0`, `SchemaV2_0_0`,
// `SchemaV3_0_0`, one per ModelVersions/*.modelversion); the newest version is the model itself, and
// these lines are the app's names for it, exactly as with SwiftData's hand-written VersionedSchemas.

typealias SchemaLatest = SchemaV3_0_0

typealias Memory = SchemaLatest.Memory
typealias Album = SchemaLatest.Album
typealias Mood = SchemaLatest.Mood

/// The app's own plan (the plugin also generates `MemoryStoreMigrationPlan`, all lightweight):
/// 1.0.0 had no albums, so its stage files every memory in an "Inbox" album.
enum MigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] {
        [SchemaV1_0_0.self, SchemaV2_0_0.self, SchemaLatest.self]
    }

    static var stages: [MigrationStage] {
        [migrateV1toV2, migrateV2toV3]
    }

    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: SchemaV1_0_0.self,
        toVersion: SchemaV2_0_0.self,
        willMigrate: nil,
        didMigrate: { context in
            let inbox = SchemaV2_0_0.Album(name: "Inbox")
            context.insert(inbox)
            for memory in try context.fetch(FetchDescriptor<SchemaV2_0_0.Memory>()) {
                memory.album = inbox
            }
            try context.save()
        }
    )

    static let migrateV2toV3 = MigrationStage.lightweight(fromVersion: SchemaV2_0_0.self, toVersion: SchemaLatest.self)
}
