import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// What the planner decides for a table, and what the dialects make of it: SQLite's `ALTER TABLE`
/// in place for renamed and added columns, the rebuild for anything else; PostgreSQL's `ALTER
/// TABLE` in place for every change.
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

    /// A required field refilled inside an optional struct (`hours.opens` of `hours: Hours?`) is a
    /// zero value where the struct's presence column is not NULL: SQLite rebuilds with a CASE,
    /// PostgreSQL adds the column empty and sets it in the present rows.
    @Test func aRefilledFieldOfAnOptionalStructIsZeroWhereTheStructIsPresent() throws {
        let old = Schema(versionedSchema: SchemaV92_0_0.self).storage
        let new = Schema(versionedSchema: SchemaV93_0_0.self).storage
        let migration = try #require(SchemaChangePlan(from: old, to: new, mode: .custom).migratedTables.first { $0.new.name == "Place" })
        let sources = Dictionary(uniqueKeysWithValues: zip(migration.new.columns.map(\.name), migration.sources))
        #expect(sources["hours"] == .column("hours"))
        #expect(sources["hours.opens"] == .valueWherePresent("0.0", presence: ["hours"]))
        #expect(sources["hours.note"] == .column("hours.note"), "an optional field is kept")
        #expect(sources["address.country"] == .value("''"), "a required struct's new field is a zero value in every row")
        #expect(dialect.inPlaceMigration(migration) == nil)
        #expect(SchemaChangeExecutor.copyRows(migration, into: "$migrating:Place").contains(#"CASE WHEN ("hours") IS NOT NULL THEN 0.0 END"#))
        let statements = try #require(PostgresDialect().inPlaceMigration(migration))
        let added = statements.firstIndex(of: #"ALTER TABLE "Place" ADD COLUMN "hours.opens" double precision"#)
        let filled = statements.firstIndex(of: #"UPDATE "Place" SET "hours.opens" = 0.0 WHERE "hours" IS NOT NULL"#)
        #expect(added != nil && filled != nil && added! < filled!, "\(statements)")
    }

    @Test func postgreSQLAltersEveryChangeInPlace() throws {
        let postgres = PostgresDialect()
        let rename = try #require(SchemaChangePlan(from: Schema([NoteV1.self]).storage, to: Schema([NoteRenamed.self]).storage, mode: .inferred).migratedTables.first)
        #expect(postgres.inPlaceMigration(rename) == [#"ALTER TABLE "Note" RENAME COLUMN "title" TO "heading""#])

        let addition = try #require(SchemaChangePlan(from: Schema([NoteV1.self]).storage, to: Schema([NoteV2.self]).storage, mode: .inferred).migratedTables.first)
        #expect(postgres.inPlaceMigration(addition) == [#"ALTER TABLE "Note" ADD COLUMN "body" text"#,
                                                       #"ALTER TABLE "Note" ADD COLUMN "pinned" bigint DEFAULT 1"#,
                                                       #"ALTER TABLE "Note" ALTER COLUMN "pinned" SET NOT NULL"#])

        let removal = try #require(SchemaChangePlan(from: Schema([NoteV2.self]).storage, to: Schema([NoteV1.self]).storage, mode: .inferred).migratedTables.first)
        #expect(postgres.inPlaceMigration(removal) == [#"ALTER TABLE "Note" DROP COLUMN IF EXISTS "body""#,
                                                      #"ALTER TABLE "Note" DROP COLUMN IF EXISTS "pinned""#])

        let attributes = try #require(SchemaChangePlan(from: Schema([AttributesV1.Item.self]).storage, to: Schema([AttributesV2.Item.self]).storage,
                                                       mode: .inferred).migratedTables.first)
        let statements = try #require(postgres.inPlaceMigration(attributes))
        #expect(statements.contains(#"ALTER TABLE "Item" DROP COLUMN IF EXISTS "legacy""#))
        #expect(statements.contains(#"UPDATE "Item" SET "note" = 'none' WHERE "note" IS NULL"#))
        #expect(statements.contains(#"ALTER TABLE "Item" ALTER COLUMN "note" SET NOT NULL"#))
        // Rows are never copied: the table keeps its identity column and its keys.
        #expect(!statements.contains { $0.hasPrefix("INSERT") || $0.contains("$migrating") })
    }

    @Test func postgreSQLNamesOver63BytesAreShortenedAndStayDistinct() {
        let long = String(repeating: "x", count: 70)
        let first = PostgresDialect.shortened("Trip.unique(" + long + "a)")
        let second = PostgresDialect.shortened("Trip.unique(" + long + "b)")
        #expect(first.utf8.count <= 63 && second.utf8.count <= 63 && first != second)
        #expect(first.hasPrefix("Trip.unique(xxx"))
        #expect(PostgresDialect.shortened("Trip.index(name)") == "Trip.index(name)")
        // Cut at a character boundary: a name of 3-byte characters stays valid UTF-8.
        let accented = PostgresDialect.shortened(String(repeating: "日", count: 40))
        #expect(accented.utf8.count <= 63 && accented.hasPrefix("日日"))
    }
}
