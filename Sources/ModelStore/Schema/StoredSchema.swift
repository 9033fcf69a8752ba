/// A description of the tables a schema needs, written into the store as its fingerprint and
/// compared on open to decide what migrates.
public struct StoredSchema: Codable, Hashable, Sendable {
    /// The format version of this description.
    public var version: Int = 1
    /// Entity tables (one per hierarchy) and join tables, in schema order.
    public var tables: [StoredTable] = []
}

/// One table of the store.
public struct StoredTable: Codable, Hashable, Sendable {
    /// The table name.
    public var name: String
    /// The entities whose rows it holds (root first); empty for a join table.
    public var entities: [String]
    /// Columns besides the primary key (and, for join tables, the two key columns).
    public var columns: [StoredColumn]
    /// Unique groups (column names).
    public var uniques: [[String]]
    /// Plain indexes (column names), including the index of each key column.
    public var indexes: [[String]]
    /// Whether it is a join table (`$source`, `$target`).
    public var isJoinTable: Bool
    /// For a join table: the tables its two columns reference.
    public var joinReferences: [String]
}

/// One column of a table.
public struct StoredColumn: Codable, Hashable, Sendable {
    /// The column name.
    public var name: String
    /// The declared type (`INTEGER`, `REAL`, `TEXT`, `BLOB`: SQLite's affinity).
    public var type: String
    /// What the column holds (nil in descriptions written before it was recorded: then `type`).
    public var storage: StorageType? = nil
    /// NOT NULL (root entity) or a CHECK for the rows of `requiredFor` (subclass).
    public var isRequired: Bool
    /// The subclass whose rows must have a value (nil: every row).
    public var requiredFor: String?
    /// A constant default as an SQL literal.
    public var defaultLiteral: String?
    /// The table a key column references (nil for a value column or a dangling-allowed key).
    public var references: String?
    /// Whether this is a relationship key column.
    public var isKey: Bool
    /// The column's name in an earlier schema (`originalName:`), renamed on open.
    public var previousName: String? = nil
}
