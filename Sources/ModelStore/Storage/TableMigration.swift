/// How one entity table of a store changes in a migration: what the migrator hands to
/// `SQLDialect.inPlaceMigration(_:)`. Built by `SchemaChangePlan` from two stored schemas.
///
/// A dialect is asked for tables that keep their name (`old.name == new.name`), and, when it
/// `renamesTablesInPlace`, for the tables of renamed entities too (else they are rebuilt). Its
/// statements run after the migrator renamed such a table to `new.name` (its indexes and
/// constraints keep their old names), deleted the rows of `deletedTypes` and renamed the type
/// column values of `typeRenames`. Afterwards the table must have exactly
/// `new.columns` (in any order) with the values `sources` say, the plain indexes of `new.indexes`
/// and, of its unique indexes, exactly `keptUniques` (the migrator creates the other unique groups
/// of `new` itself, after checking the stored rows have no duplicates). Index names are
/// `StoreDDL.indexName(table:columns:unique:)`.
struct TableMigration {
    /// The table as the store has it.
    let old: StoredTable
    /// The table wanted.
    let new: StoredTable
    /// Where each column of `new.columns` (same order) takes its values from.
    let sources: [ColumnSource]
    /// Type column values to rename (old entity name → new), for renamed entities.
    let typeRenames: [String: String]
    /// Entities whose rows are removed (removed subclasses), by their old names.
    let deletedTypes: [String]
    /// Unique groups of `new` (new column names) that the old table already enforced on the same
    /// values: the table must still have them afterwards.
    let keptUniques: [[String]]

    /// Whether nothing changes.
    var isIdentity: Bool {
        old == new && typeRenames.isEmpty && deletedTypes.isEmpty
            && zip(new.columns, sources).allSatisfy { column, source in source == .column(column.name) }
    }

    /// The old column each new column is renamed from (new name → old name), for columns whose
    /// values are kept as they are (for dialects that alter in place: `RENAME COLUMN`).
    var renamedColumns: [String: String] {
        var result: [String: String] = [:]
        for (column, source) in zip(new.columns, sources) {
            if case .column(let oldName) = source, oldName != column.name { result[column.name] = oldName }
        }
        return result
    }

    /// The old columns no new column takes its values from (removed properties and relationships,
    /// properties whose values are reset), for dialects that alter in place (`DROP COLUMN`).
    var droppedColumns: [String] {
        let used = Set(sources.compactMap { source -> String? in
            switch source {
            case .column(let name), .coalesce(let name, _): return name
            case .value, .valueWherePresent: return nil
            }
        })
        return old.columns.map(\.name).filter { !used.contains($0) }
    }
}

/// Where a column of a migrated table takes its values from.
enum ColumnSource: Hashable {
    /// The old column of that name, values as they are (a kept or renamed property; a widened type).
    case column(String)
    /// The old column of that name, NULLs replaced by the SQL literal (optional → required with a default).
    case coalesce(String, default: String)
    /// An SQL literal for every row: `NULL`, the column's default, or a zero value of its type
    /// (an added property; a property whose type changed in a custom stage).
    case value(String)
    /// A required struct field's zero value (an SQL literal) in the rows where every listed column
    /// of `new` is not NULL, NULL in the others: a field of an optional struct refilled in a custom
    /// stage, present where its structs are. The listed columns are the presence columns of the
    /// enclosing optional structs, which precede the field's column (their values are their sources').
    case valueWherePresent(String, presence: [String])
}
