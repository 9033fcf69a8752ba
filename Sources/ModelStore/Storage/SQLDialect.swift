import Foundation

/// What a column holds, at the level of detail a store's column types need: SQLite keeps five
/// storage classes, PostgreSQL has a type for each of these.
@_spi(ModelStoreGenerated) public enum StorageType: String, Codable, Hashable, Sendable {
    /// Integers, `Bool`, enums with `Int` raw values.
    case integer
    /// `Double`, `Float`, `Date` (seconds since 2001-01-01, to the bit).
    case real
    /// `String`, `URL`, enums with `String` raw values.
    case text
    /// `Data`.
    case blob
    /// `UUID` (16 bytes).
    case uuid
    /// `Decimal` (exact decimal text).
    case decimal
    /// Arrays and other Codable values stored as JSON text.
    case json

    /// The SQLite affinity of the type (what the stored schema description records).
    var affinity: SQLColumnType {
        switch self {
        case .integer: return .integer
        case .real: return .real
        case .text, .decimal, .json: return .text
        case .blob, .uuid: return .blob
        }
    }
}

/// How one kind of store spells the SQL the runtime builds. Identifiers are quoted with
/// `SQLQuote.identifier` (both stores use `"…"`); parameters are written `?`. What predicates and
/// sorts translate to is the `PredicateSpelling` part.
protocol SQLDialect: PredicateSpelling {
    /// The store's name in messages ("SQLite", "PostgreSQL").
    var name: String { get }

    // MARK: Tables

    /// The column type for values of `type`.
    func columnType(_ type: StorageType) -> String
    /// The definition of a primary-key column named `name` whose integer values the store assigns
    /// on insert (ascending).
    func generatedKeyDefinition(_ name: String) -> String
    /// The type of a column that holds values of any storage type (SQLite: no type at all).
    var anyValueColumnType: String { get }
    /// What follows `CREATE TABLE name (…)` for a table whose primary key is its whole content
    /// (join tables): SQLite's `WITHOUT ROWID`, or nothing.
    var keyOnlyTableSuffix: String { get }
    /// A constant as an SQL literal, for DDL only (column defaults, where no parameter is allowed).
    func literal(_ value: SQLValue) -> String
    /// A literal as a stored schema description records it (SQLite's spelling, `SQLQuote.literal`:
    /// `'text'`, `42`, `1.5`, `X'0A'`, `NULL`) in this store's spelling, for a column of `storage`.
    func literal(stored literal: String, storage: StorageType) -> String
    /// Whether foreign keys are written in the column definitions of `CREATE TABLE` (SQLite, which
    /// does not check that the referenced table exists yet); else they are added once every table
    /// exists (`StoreDDL.foreignKeys`), so tables may reference each other in cycles.
    var inlinesForeignKeys: Bool { get }
    /// The name given to a column's `CHECK` or foreign key constraint, so that a migration can drop
    /// it by name; nil where constraints stay unnamed (SQLite, whose migrations rebuild tables).
    func constraintName(column: String, kind: ConstraintKind) -> String?
    /// `name` (of an index or constraint) as the store can hold it: SQLite keeps any name,
    /// PostgreSQL shortens names over 63 bytes, keeping distinct names distinct.
    func objectName(_ name: String) -> String

    /// A query with one parameter, a table name, that returns a row when the table exists.
    var tableExistsQuery: String { get }

    // MARK: Statements

    /// Starts a transaction that will write (SQLite takes the write lock at once: `BEGIN IMMEDIATE`).
    var beginWriteTransaction: String { get }
    /// What follows `DROP TABLE "t"` so that the tables referring to it do not stop it.
    var dropTableCascade: String { get }
    /// Whether a plain `INSERT` must say `RETURNING "$pk"` to learn the new row's key.
    var insertsReturnKey: Bool { get }
    /// The value bound to `LIMIT ?` for "no limit".
    var noLimit: SQLValue { get }
    /// The placeholder of an entity name compared with the type column `$type` in a fetch's type
    /// filter, and of a `LIMIT` or `OFFSET` value: `?`, or (PostgreSQL) `?` cast to the type the
    /// server infers for it there, so that such a read is prepared with its first execution
    /// (docs/PostgreSQL.md, "Preparing with the first execution").
    var typeNamePlaceholder: String { get }
    var windowPlaceholder: String { get }
    /// `column` (of row keys) among `keys` (at most `KeyList.chunk` of them, not empty) in one
    /// array parameter, where the store takes one (PostgreSQL: `column = ANY(?::bigint[])`); nil
    /// for `KeyList`'s list of one placeholder per key (SQLite).
    func keyArrayMembership(_ column: String, _ keys: ArraySlice<Int64>) -> SQLFragment?
    /// `ON CONFLICT …` turning an insert into SwiftData's upsert: a row matching any of
    /// `uniqueGroups` (column lists) gets `assignments` instead of a new row. Nil when the store
    /// cannot say it in one statement for these groups.
    func upsertClause(uniqueGroups: [[String]], assignments: String) -> String?
    /// `sql` (`?` placeholders) as the store receives it (PostgreSQL numbers them: `$1`…).
    func serverText(of sql: String) -> String
    /// The store's plan for the query `sql` run with `bindings`, one step a line, each indented
    /// under the step it belongs to (SQLite: `EXPLAIN QUERY PLAN`; PostgreSQL: `EXPLAIN`). For
    /// `ModelContext.explain` (docs/Runtime.md, "Seeing the SQL").
    ///
    /// - Throws: the store's error.
    func queryPlan(of sql: String, bindings: [SQLValue], on connection: any StoreConnection) throws -> [String]

    // MARK: Schema changes (migrations; see docs/Migrations.md)

    /// Statements run on a migration's connection before its transaction begins (SQLite:
    /// `PRAGMA foreign_keys = OFF`, which SQLite ignores inside a transaction, so that dropping a
    /// rebuilt table does not run its `ON DELETE` actions). Empty for a store whose schema changes
    /// need no such setting.
    var schemaChangePrologue: [String] { get }
    /// Statements run on the connection after the migration's transaction ended, committed or not
    /// (SQLite: `PRAGMA foreign_keys = ON`).
    var schemaChangeEpilogue: [String] { get }
    /// Statements run first inside the transaction that creates or migrates the store, so that two
    /// processes opening one store at once migrate it one after the other (SQLite's `BEGIN
    /// IMMEDIATE` already does; PostgreSQL takes a transaction-level advisory lock).
    var schemaChangeLock: [String] { get }
    /// Statements run inside the migration's transaction before each schema change, after a custom
    /// stage's closures may have written rows (PostgreSQL: `SET CONSTRAINTS ALL IMMEDIATE`, then
    /// `DEFERRED` again, so that the deferred foreign-key checks of those rows run now: PostgreSQL
    /// refuses `ALTER TABLE` on a table with pending trigger events). Empty by default.
    var schemaChangeStepPrologue: [String] { get }
    /// `DROP TABLE` of a table a migration removes (PostgreSQL also drops the foreign keys of other
    /// tables referencing it, whose columns the migration removes too).
    func dropTable(_ name: String) -> String
    /// Whether the table of a renamed entity is renamed (`ALTER TABLE … RENAME TO`, by the
    /// migrator) and then migrated in place like any other, instead of being rebuilt.
    var renamesTablesInPlace: Bool { get }
    /// A query run at the end of a migration's transaction that returns one row per reference to a
    /// missing row, its first three columns being the referencing table, the referencing row's key
    /// and the referenced table (SQLite: `PRAGMA foreign_key_check`, needed because the prologue
    /// turned the checks off). Nil for a store that checks references itself at commit.
    var foreignKeyCheckQuery: String? { get }
    /// Statements that migrate one entity table in place (`ALTER TABLE …`, `UPDATE …`), keeping its
    /// rows where they are, as `migration` describes; or nil when this store cannot, and the
    /// migrator must rebuild the table instead: create the new table under a temporary name, copy
    /// the rows with `INSERT … SELECT` (keeping their keys), drop the old table, rename the new one
    /// (SQLite's procedure, https://www.sqlite.org/lang_altertable.html#otheralter).
    ///
    /// SQLite answers only for renamed and added columns and index changes, the rest it rebuilds.
    /// PostgreSQL can alter every change in place: `RENAME COLUMN`; `ADD COLUMN` with the column's
    /// definition, then `UPDATE` to the source value when it is not the default (for
    /// `.valueWherePresent`, in the rows whose presence columns are not NULL); `DROP COLUMN` for
    /// `droppedColumns`; `ALTER COLUMN … TYPE … USING` (a `.value` source of an existing column),
    /// `SET`/`DROP NOT NULL`, `SET`/`DROP DEFAULT`; `UPDATE … SET col = coalesce(col, default)` for
    /// `.coalesce`; check constraints and foreign keys dropped and added as `new` describes them;
    /// indexes as the `TableMigration` documentation says. (The migrator itself deletes the rows of
    /// `deletedTypes` and renames `typeRenames` in the type column, before these statements.)
    func inPlaceMigration(_ migration: TableMigration) -> [String]?
}

/// A constraint of a column that a migration may need to drop by name.
enum ConstraintKind {
    /// `CHECK` of a required subclass attribute.
    case check
    /// A foreign key (`REFERENCES`).
    case foreignKey
}

extension SQLDialect {
    /// The definition of an entity table's primary key column `$pk`.
    var primaryKeyDefinition: String { generatedKeyDefinition(StorageNames.primaryKey) }

    /// `INSERT INTO table (columns) VALUES (?, …)`, ignoring a row that already exists (a join-table row).
    func insertIgnoringDuplicate(table: String, columns: [String]) -> String {
        "INSERT INTO \(SQLQuote.identifier(table)) (\(columns.map(SQLQuote.identifier).joined(separator: ", "))) "
            + "VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", "))) ON CONFLICT DO NOTHING"
    }

    /// `INSERT … ON CONFLICT (key) DO UPDATE SET value = excluded.value`: writes `columns` into the
    /// row whose `key` column matches, or adds it.
    func insertOrReplace(table: String, key: String, columns: [String]) -> String {
        let list = columns.map(SQLQuote.identifier).joined(separator: ", ")
        let updates = columns.filter { $0 != key }.map { "\(SQLQuote.identifier($0)) = excluded.\(SQLQuote.identifier($0))" }
        return "INSERT INTO \(SQLQuote.identifier(table)) (\(list)) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", "))) "
            + "ON CONFLICT (\(SQLQuote.identifier(key))) DO UPDATE SET \(updates.joined(separator: ", "))"
    }
}

extension SQLDialect {
    var schemaChangeStepPrologue: [String] { [] }

    var typeNamePlaceholder: String { "?" }
    var windowPlaceholder: String { "?" }

    /// `"$type" IN (?, …)` for `names` (`typeNamePlaceholder`).
    func typeFilter(_ names: [String]) -> String {
        "\(SQLQuote.identifier(StorageNames.type)) IN (\(names.map { _ in typeNamePlaceholder }.joined(separator: ", ")))"
    }

    /// ` LIMIT ? OFFSET ?` (`windowPlaceholder`).
    var windowClause: String { " LIMIT \(windowPlaceholder) OFFSET \(windowPlaceholder)" }

    func keyArrayMembership(_ column: String, _ keys: ArraySlice<Int64>) -> SQLFragment? { nil }
}
