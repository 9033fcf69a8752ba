import Foundation

/// A value as SQLite stores it: one of its five storage classes.
public enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// Whether the value is SQL NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// The declared type (affinity) of a column.
@_spi(ModelStoreGenerated) public enum SQLColumnType: String, Hashable, Sendable {
    case integer = "INTEGER"
    case real = "REAL"
    case text = "TEXT"
    case blob = "BLOB"
}

/// SQL identifier and literal quoting.
package enum SQLQuote {
    /// `name` as a quoted identifier: `"name"` with embedded `"` doubled.
    package static func identifier(_ name: String) -> String {
        // Most names hold no quote: skip Foundation's search (it showed in profiles of saves).
        if !name.utf8.contains(UInt8(ascii: "\"")) { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `text` as a string literal: `'text'` with embedded `'` doubled (used in DDL, where SQLite
    /// allows no parameters, e.g. CHECK constraints and column defaults, and for the type an
    /// entity's insert writes).
    package static func literal(_ text: String) -> String {
        if !text.utf8.contains(UInt8(ascii: "'")) { return "'" + text + "'" }
        return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// A constant value as SQL literal text, for DDL only.
    package static func literal(_ value: SQLValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let number): return String(number)
        case .real(let number): return number.isFinite ? "\(number)" : "NULL"
        case .text(let text): return literal(text)
        case .blob(let data): return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}
