import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// What the planner decides for a table, and what SQLite makes of it: `ALTER TABLE` in place for
/// renamed and added columns, the rebuild for anything else.
@Suite struct SchemaChangePlanTests {
    let dialect = SQLiteDialect()

    @Test func aRenameIsAnAlterTableInPlace() throws {
        let plan = SchemaChangePlan(from: Schema([NoteV1.self]).storage, to: Schema([NoteRenamed.self]).storage, mode: .inferred)
        #expect(plan.notInferable.isEmpty && plan.unsupported.isEmpty)
        let migration = try #require(plan.migratedTables.first)
        #expect(migration.sources == [.column("title")])
        #expect(migration.renamedColumns == ["heading": "title"])
        #expect(migration.droppedColumns.isEmpty)
        #expect(dialect.inPlaceMigration(migration) == [#"ALTER TABLE "Note" RENAME COLUMN "title" TO "heading""#])
    }

    @Test func anAddedDefaultedColumnIsAddedInPlace() throws {
        let plan = SchemaChangePlan(from: Schema([NoteV1.self]).storage, to: Schema([NoteV2.self]).storage, mode: .inferred)
        let migration = try #require(plan.migratedTables.first)
        #expect(migration.sources == [.column("title"), .value("NULL"), .value("1")])
        #expect(dialect.inPlaceMigration(migration) == [#"ALTER TABLE "Note" ADD COLUMN "body" TEXT"#,
                                                       #"ALTER TABLE "Note" ADD COLUMN "pinned" INTEGER NOT NULL DEFAULT 1"#])
        #expect(plan.createdTables.map(\.name).isEmpty)
    }

    @Test func removedColumnsAndComputedValuesNeedTheRebuild() throws {
        let removal = SchemaChangePlan(from: Schema([NoteV2.self]).storage, to: Schema([NoteV1.self]).storage, mode: .inferred)
        let dropped = try #require(removal.migratedTables.first)
        #expect(dropped.droppedColumns == ["body", "pinned"])
        #expect(dialect.inPlaceMigration(dropped) == nil)

        let attributes = SchemaChangePlan(from: Schema([AttributesV1.Item.self]).storage, to: Schema([AttributesV2.Item.self]).storage, mode: .inferred)
        let migration = try #require(attributes.migratedTables.first)
        let sources = Dictionary(uniqueKeysWithValues: zip(migration.new.columns.map(\.name), migration.sources))
        #expect(sources["note"] == .coalesce("note", default: "'none'"))
        #expect(sources["count"] == .column("count"), "widening keeps the values")
        #expect(sources["added"] == .value("7"))
        #expect(migration.droppedColumns == ["legacy"])
        #expect(dialect.inPlaceMigration(migration) == nil)
        #expect(SchemaChangeExecutor.copyRows(migration, into: "$migrating:Item").contains(#"coalesce("note", 'none')"#))
    }

    @Test func aCustomStageRefillsWhatCannotBeInferred() throws {
        let old = Schema(versionedSchema: SchemaV1_0_0.self).storage
        let new = Schema(versionedSchema: SchemaV2_0_0.self).storage
        #expect(SchemaChangePlan(from: old, to: new, mode: .inferred).notInferable == ["Trip.duration: type String → Int"])
        let plan = SchemaChangePlan(from: old, to: new, mode: .custom)
        let migration = try #require(plan.migratedTables.first { $0.new.name == "Trip" })
        #expect(migration.sources == [.column("name"), .value("0")], "the changed column is refilled with a zero value")
        #expect(plan.migratedTables.count == 1, "Accommodation does not change")
    }
}
