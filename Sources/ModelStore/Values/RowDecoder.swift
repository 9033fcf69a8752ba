import Foundation

/// Reads a model's attribute values, in declaration order (base first), from a fetched row or
/// from saved values. Generated `_decode(from:)` calls `read()` once per stored attribute.
///
/// The per-row state lives behind a pointer: `read()` is inlined into generated code, where every
/// access to a class's `var` would pay a dynamic exclusivity check (a profile of fetches showed
/// them costing more than reading the column).
public final class RowDecoder {
    /// What changes from row to row.
    @usableFromInline struct State {
        /// Result column of each attribute, in read order (statement mode).
        @usableFromInline var columns: [Int32]
        @usableFromInline var cursor: Int
        @usableFromInline var entityName: String
    }

    /// A SQLite statement, read column by column without `SQLValue` (the fast path).
    @usableFromInline let statement: SQLiteStatement?
    /// Any other store's statement, read through `SQLValue`.
    @usableFromInline let storeStatement: (any StoreStatement)?
    /// The values themselves, in read order (values mode).
    @usableFromInline let values: [SQLValue]
    @usableFromInline let state: UnsafeMutablePointer<State>

    init(statement: any StoreStatement, columns: [Int32], entityName: String) {
        if let sqlite = statement as? SQLiteStatement {
            self.statement = sqlite
            self.storeStatement = nil
        } else {
            self.statement = nil
            self.storeStatement = statement
        }
        self.values = []
        state = .allocate(capacity: 1)
        state.initialize(to: State(columns: columns, cursor: 0, entityName: entityName))
    }

    init(values: [SQLValue], entityName: String) {
        self.statement = nil
        self.storeStatement = nil
        self.values = values
        state = .allocate(capacity: 1)
        state.initialize(to: State(columns: [], cursor: 0, entityName: entityName))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The position of the next attribute to read (0: the row's first).
    var cursor: Int {
        get { state.pointee.cursor }
        set { state.pointee.cursor = newValue }
    }

    /// Starts a new row whose attributes are at `columns`.
    func start(columns: [Int32], entityName: String) {
        state.pointee.columns = columns
        state.pointee.entityName = entityName
        state.pointee.cursor = 0
    }

    /// Reads the next attribute value.
    @inlinable public func read<Value: SQLStorable>() throws -> Value {
        let position = state.pointee.cursor
        state.pointee.cursor = position + 1
        if let statement {
            guard position < state.pointee.columns.count else { throw corrupt(position) }
            if let value = Value.read(from: statement, at: state.pointee.columns[position]) { return value }
        } else if let storeStatement {
            guard position < state.pointee.columns.count else { throw corrupt(position) }
            if let value = Value(sqlValue: storeStatement.value(at: state.pointee.columns[position])) { return value }
        } else {
            guard position < values.count else { throw corrupt(position) }
            if let value = Value(sqlValue: values[position]) { return value }
        }
        throw corrupt(position)
    }

    /// The error for the attribute at `position`, which does not fit its type. The row is not known
    /// here and the property only by position: `ModelContext.materialize` names both.
    @usableFromInline func corrupt(_ position: Int) -> ModelStoreError {
        ModelStoreError.corruptRow(entity: state.pointee.entityName, identifier: nil,
                                   property: "attribute \(position)", storedValue: storedValueDescription(at: position))
    }

    /// The stored value at attribute `position` as short text for messages.
    func storedValueDescription(at position: Int) -> String {
        let value: SQLValue?
        if let statement {
            value = position < state.pointee.columns.count ? statement.value(at: state.pointee.columns[position]) : nil
        } else if let storeStatement {
            value = position < state.pointee.columns.count ? storeStatement.value(at: state.pointee.columns[position]) : nil
        } else {
            value = position < values.count ? values[position] : nil
        }
        return value.map(SQLValue.shortDescription) ?? "(missing)"
    }
}

/// Writes a model's attribute values, in declaration order (base first), into statement
/// parameters or into a values array. Generated `_encode(to:)` calls `write(_:)` once per attribute.
/// Its changing state is behind a pointer, for the same reason as `RowDecoder`'s.
public final class RowEncoder {
    /// What changes from row to row.
    @usableFromInline struct State {
        /// A SQLite statement, bound without `SQLValue` (the fast path).
        @usableFromInline var statement: SQLiteStatement?
        /// Any other store's statement, bound through `SQLValue`.
        @usableFromInline var storeStatement: (any StoreStatement)?
        @usableFromInline var index: Int32
        @usableFromInline var values: [SQLValue]
        /// The parameter index of the row's first attribute (statement mode).
        var firstIndex: Int32 = 1
        /// The first attribute of the row that cannot be stored: its position and why.
        var problem: (position: Int, reason: String)?
    }

    @usableFromInline let state: UnsafeMutablePointer<State>

    init(statement: any StoreStatement, firstIndex: Int32) {
        state = .allocate(capacity: 1)
        state.initialize(to: State(statement: nil, storeStatement: nil, index: firstIndex, values: []))
        restart(statement: statement, firstIndex: firstIndex)
    }

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State(statement: nil, storeStatement: nil, index: 1, values: []))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The next parameter index (statement mode).
    var index: Int32 { state.pointee.index }
    /// The values written so far (values mode).
    var values: [SQLValue] { state.pointee.values }

    /// Starts writing a new row into `statement` at `firstIndex`.
    func restart(statement: any StoreStatement, firstIndex: Int32) {
        if let sqlite = statement as? SQLiteStatement {
            state.pointee.statement = sqlite
            state.pointee.storeStatement = nil
        } else {
            state.pointee.statement = nil
            state.pointee.storeStatement = statement
        }
        state.pointee.index = firstIndex
        state.pointee.firstIndex = firstIndex
        state.pointee.problem = nil
    }

    /// The first attribute written since the last restart that the store cannot give back as it
    /// is (`SQLStorable.storageProblem`): its position in `_encode` order and why.
    var problem: (position: Int, reason: String)? { state.pointee.problem }

    /// Records a value the store cannot give back (the first of the row only).
    @usableFromInline func noteProblem(_ reason: String) {
        guard state.pointee.problem == nil else { return }
        let position = state.pointee.statement != nil || state.pointee.storeStatement != nil
            ? Int(state.pointee.index - state.pointee.firstIndex) : state.pointee.values.count
        state.pointee.problem = (position, reason)
    }

    /// Writes the next attribute value.
    @inlinable public func write<Value: SQLStorable>(_ value: Value) {
        if let problem = value.storageProblem { noteProblem(problem) }
        if let statement = state.pointee.statement {
            let index = state.pointee.index
            value.bind(to: statement, at: index)
            state.pointee.index = index + 1
        } else if let storeStatement = state.pointee.storeStatement {
            let index = state.pointee.index
            storeStatement.bind(value.sqlValue, at: index)
            state.pointee.index = index + 1
        } else {
            state.pointee.values.append(value.sqlValue)
        }
    }
}

extension SQLValue {
    /// The value as short text for error messages (long text and blobs abbreviated).
    static func shortDescription(_ value: SQLValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let number): return String(number)
        case .real(let number): return "\(number)"
        case .text(let text): return text.count > 40 ? "'\(text.prefix(40))…' (\(text.utf8.count) bytes)" : "'\(text)'"
        case .blob(let data): return "a blob of \(data.count) bytes"
        }
    }
}
