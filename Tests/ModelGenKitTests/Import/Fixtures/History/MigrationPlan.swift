import SwiftData

/// Moves stores from one schema version to the next.
enum MemoriesMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] {
        [SchemaV1.self, SchemaV2.self, SchemaV3.self]
    }

    static var stages: [MigrationStage] {
        [migrateV1toV2, migrateV2toV3]
    }

    /// Album names must be unique from version 2 on: duplicates are merged first.
    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: SchemaV1.self,
        toVersion: SchemaV2.self,
        willMigrate: { context in
            let albums = try context.fetch(FetchDescriptor<SchemaV1.Album>())
            var seen = Set<String>()
            for album in albums where !seen.insert(album.name).inserted {
                context.delete(album)
            }
            try context.save()
        },
        didMigrate: nil
    )

    static let migrateV2toV3 = MigrationStage.lightweight(fromVersion: SchemaV2.self, toVersion: SchemaV3.self)
}
