/// A piece of SQL with the values of its `?` placeholders, in order. Fragments are composed by
/// string interpolation: interpolating a fragment appends its text and its bindings, so the
/// bindings always follow the placeholders, even when a fragment is used twice.
struct SQLFragment: ExpressibleByStringInterpolation, Sendable {
    /// The SQL text (placeholders are `?`).
    var sql: String
    /// The values of the placeholders, in the order they appear in `sql`.
    var bindings: [SQLValue]

    init(_ sql: String, _ bindings: [SQLValue] = []) {
        self.sql = sql
        self.bindings = bindings
    }

    init(stringLiteral value: String) {
        self.init(value)
    }

    init(stringInterpolation: Interpolation) {
        self.init(stringInterpolation.sql, stringInterpolation.bindings)
    }

    /// A single placeholder bound to `value`.
    static func parameter(_ value: SQLValue) -> SQLFragment {
        SQLFragment("?", [value])
    }

    /// The fragments joined by `separator`.
    static func joined(_ parts: [SQLFragment], separator: String) -> SQLFragment {
        var result = SQLFragment("")
        for (index, part) in parts.enumerated() {
            if index > 0 { result.sql += separator }
            result.sql += part.sql
            result.bindings += part.bindings
        }
        return result
    }

    /// Builds a fragment from literal SQL and interpolated fragments.
    struct Interpolation: StringInterpolationProtocol {
        var sql = ""
        var bindings: [SQLValue] = []

        init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity)
        }

        mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        mutating func appendInterpolation(_ fragment: SQLFragment) {
            sql += fragment.sql
            bindings += fragment.bindings
        }

        /// Appends `name` as a quoted identifier.
        mutating func appendInterpolation(identifier name: String) {
            sql += SQLQuote.identifier(name)
        }

        /// Appends SQL text the translator wrote itself (never user data).
        mutating func appendInterpolation(raw text: String) {
            sql += text
        }
    }
}
