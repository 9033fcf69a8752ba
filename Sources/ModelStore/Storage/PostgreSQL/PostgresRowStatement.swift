import Foundation

/// The rows a multi-row statement writes (`PostgresRowBatch`), and the
/// statement a save binds a row into (`RowBatch.rowStatement`): each typed bind is encoded at once
/// into its column's array, as the single-row statement's parameter would be, and the refused
/// value of the lowest parameter number is kept for `add(key:from:)` to throw. It only takes
/// binds: it never runs (the rows go out with their batch). A row bound to the single-row
/// statement instead is added from its bound values. Errors name the single-row statement's SQL.
final class PostgresRowStatement: RowlessStatement {
    // The rows are one save's, on one thread (the context's, which `ContextGuards` checks): no
    // run-time exclusivity checks per value (docs/Benchmarks.md, "No run-time exclusivity checks
    // on per-row state").
    @exclusivity(unchecked) private(set) var arrays: PostgresColumnArrays
    /// The single-row statement's SQL.
    let sql: String
    /// The refused values bound since the last reset, by parameter number (a parameter bound again
    /// has its new value's outcome). Unchecked as `arrays`: read at every bind.
    @exclusivity(unchecked) private var failures: [Int32: PostgresError] = [:]

    /// The error of the refused value of the lowest parameter number, as binding in order and
    /// encoding in order finds first.
    private var failure: PostgresError? { failures.min { $0.key < $1.key }?.value }
    @exclusivity(unchecked) private(set) var bindingProblem: (position: Int32, reason: String)?

    init(_ arrays: PostgresColumnArrays, single: String) {
        self.arrays = arrays
        sql = single
    }

    /// Adds the row bound to `statement` (this one, or the single-row statement) with `key`.
    ///
    /// - Throws: `PostgresError` for a value the single-row statement would refuse (the row is not added).
    func add(key: Int64, from statement: any StoreStatement) throws {
        if statement === self {
            // `failure` looks through the refused values only when there are some.
            if !failures.isEmpty, var error = failure {
                failures.removeAll()
                arrays.dropPartialRow()
                error.sql = sql
                throw error
            }
            arrays.addBoundRow(key: key)
            return
        }
        guard let statement = statement as? PostgresStoreStatement else { return }
        do {
            try arrays.add(key: key, values: statement.boundValues)
        } catch var error {
            error.sql = sql
            throw error
        }
    }

    /// Binds the rows' arrays to `statement` (whose failures then name the single-row statement),
    /// and empties them.
    func bind(to statement: PostgresStoreStatement) {
        statement.reportsAs = sql
        arrays.bind(to: statement, from: 1)
    }

    /// Drops the row bound so far (a row `add(key:from:)` took is kept).
    /// Called after every row a save binds: after a row added, nothing is left to drop
    /// (`PostgresColumnArrays.dropPartialRow` then returns at once), and the problem is cleared
    /// only when there is one (assigning nil released the old value's text each time).
    func reset() {
        arrays.dropPartialRow()
        if !failures.isEmpty { failures.removeAll() }
        if bindingProblem != nil { bindingProblem = nil }
    }

    func step() throws -> Bool {
        throw ModelStoreError.invalidSchema("the rows of \(sql) are sent together, not one at a time")
    }

    var columnCount: Int32 { 0 }

    func bind(_ value: SQLValue, at index: Int32) {
        switch value {
        case .null: bindNull(at: index)
        case .integer(let integer): bindInt64(integer, at: index)
        case .real(let real): bindDouble(real, at: index)
        case .text(let text): bindText(text, at: index)
        case .blob(let data): bindBlob(data, at: index)
        }
    }

    /// Writes the value bound at `index` into its column with `write`; false when it is refused
    /// (kept for `add(key:from:)`).
    @discardableResult @inline(__always)
    private func bind(at index: Int32, _ value: @autoclosure () -> SQLValue,
                      _ write: (inout PostgresParameters, PostgresType, Int) throws(PostgresError) -> Void) -> Bool {
        do throws(PostgresError) {
            try arrays.bind(at: index, value(), write)
            if !failures.isEmpty { failures[index] = nil }
            return true
        } catch {
            failures[index] = error
            return false
        }
    }

    func bindNull(at index: Int32) {
        arrays.bindNull(at: index)
        if !failures.isEmpty { failures[index] = nil }
    }

    func bindInt64(_ value: Int64, at index: Int32) {
        // A `bigint` column keeps the integer as it is.
        if arrays.bindInteger(value, at: index) {
            if !failures.isEmpty { failures[index] = nil }
            return
        }
        bind(at: index, .integer(value)) { (parameters, type, number) throws(PostgresError) in
            try parameters.appendInteger(value, type: type, number: number)
        }
    }

    func bindDouble(_ value: Double, at index: Int32) {
        // A `double precision` column's element is written at once.
        if arrays.bindDouble(value, at: index) {
            if !failures.isEmpty { failures[index] = nil }
            return
        }
        bind(at: index, .real(value)) { (parameters, type, number) throws(PostgresError) in
            try parameters.appendReal(value, type: type, number: number)
        }
    }

    func bindText(_ text: String, at index: Int32) {
        // Text for a parameter that takes it as text is copied once into its element (text the
        // parameter refuses, with U+0000, takes the general path below).
        if arrays.bindText(text, at: index) {
            if !failures.isEmpty { failures[index] = nil }
            return
        }
        let taken = bind(at: index, .text(text)) { (parameters, type, number) throws(PostgresError) in
            try parameters.appendText(text, type: type, number: number)
        }
        // As `PostgresStoreStatement.bind`: `save()` names the property of text holding U+0000 (the
        // lowest parameter's, as binding in order finds first). Text with U+0000 is refused by
        // every type but bytea, so it is looked for only then.
        if !taken || arrays.type(at: index) == .bytea, PostgresStoreStatement.holdsNUL(text), bindingProblem.map({ index < $0.position }) ?? true {
            bindingProblem = (index, "the text holds the character U+0000 (NUL), which PostgreSQL text cannot hold")
        }
    }

    func bindBytes(_ bytes: UnsafeRawBufferPointer, at index: Int32) {
        // Bytes for `bytea`, or a `uuid`'s 16, are copied once into their element.
        if arrays.bindBytes(bytes, at: index) {
            if !failures.isEmpty { failures[index] = nil }
            return
        }
        bind(at: index, .blob(Data(bytes))) { (parameters, type, number) throws(PostgresError) in
            try parameters.appendBytes(bytes, type: type, number: number)
        }
    }

    func bindBlob(_ data: Data, at index: Int32) {
        data.withUnsafeBytes { bindBytes($0, at: index) }
    }
}
