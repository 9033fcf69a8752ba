import Foundation

/// What a column holds, at the level of detail a store's column types need: SQLite keeps five
/// storage classes, PostgreSQL has a type for each of these.
public enum StorageType: String, Codable, Hashable, Sendable {
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
/// `SQLQuote.identifier` (both stores use `"…"`); parameters are written `?`.
protocol SQLDialect: Sendable {
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

    /// A query with one parameter, a table name, that returns a row when the table exists.
    var tableExistsQuery: String { get }

    // MARK: Statements

    /// Starts a transaction that will write (SQLite takes the write lock at once: `BEGIN IMMEDIATE`).
    var beginWriteTransaction: String { get }
    /// Whether a plain `INSERT` must say `RETURNING "$pk"` to learn the new row's key.
    var insertsReturnKey: Bool { get }
    /// The value bound to `LIMIT ?` for "no limit".
    var noLimit: SQLValue { get }
    /// `ON CONFLICT …` turning an insert into SwiftData's upsert: a row matching any of
    /// `uniqueGroups` (column lists) gets `assignments` instead of a new row. Nil when the store
    /// cannot say it in one statement for these groups.
    func upsertClause(uniqueGroups: [[String]], assignments: String) -> String?
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
