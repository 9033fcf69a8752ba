import Foundation

/// Reads a model's attribute values, in declaration order (base first), from a fetched row or
/// from saved values. Generated `_decode(from:)` calls `read()` once per stored attribute.
public final class RowDecoder {
    @usableFromInline var statement: Statement?
    /// Result column of each attribute, in read order (statement mode).
    @usableFromInline var columns: [Int32]
    /// The values themselves, in read order (values mode).
    @usableFromInline var values: [SQLValue]
    @usableFromInline var cursor: Int = 0
    @usableFromInline var entityName: String

    init(statement: Statement, columns: [Int32], entityName: String) {
        self.statement = statement
        self.columns = columns
        self.values = []
        self.entityName = entityName
    }

    init(values: [SQLValue], entityName: String) {
        self.statement = nil
        self.columns = []
        self.values = values
        self.entityName = entityName
    }

    /// Starts a new row whose attributes are at `columns`.
    func start(columns: [Int32], entityName: String) {
        self.columns = columns
        self.entityName = entityName
        cursor = 0
    }

    /// Reads the next attribute value.
    @inlinable public func read<Value: SQLStorable>() throws -> Value {
        let position = cursor
        cursor += 1
        if let statement {
            guard position < columns.count else { throw ModelStoreError.corruptRow(entity: entityName, column: position) }
            if let value = Value.read(from: statement, at: columns[position]) { return value }
        } else {
            guard position < values.count else { throw ModelStoreError.corruptRow(entity: entityName, column: position) }
            if let value = Value(sqlValue: values[position]) { return value }
        }
        throw ModelStoreError.corruptRow(entity: entityName, column: position)
    }
}

/// Writes a model's attribute values, in declaration order (base first), into statement
/// parameters or into a values array. Generated `_encode(to:)` calls `write(_:)` once per attribute.
public final class RowEncoder {
    @usableFromInline var statement: Statement?
    @usableFromInline var index: Int32
    @usableFromInline var values: [SQLValue] = []

    init(statement: Statement, firstIndex: Int32) {
        self.statement = statement
        self.index = firstIndex
    }

    init() {
        self.statement = nil
        self.index = 1
    }

    /// Starts writing a new row into `statement` at `firstIndex`.
    func restart(statement: Statement, firstIndex: Int32) {
        self.statement = statement
        self.index = firstIndex
    }

    /// Writes the next attribute value.
    @inlinable public func write<Value: SQLStorable>(_ value: Value) {
        if let statement {
            value.bind(to: statement, at: index)
            index += 1
        } else {
            values.append(value.sqlValue)
        }
    }
}
