import Foundation

/// The rows a save inserts into one entity, written as one multi-row statement per batch instead
/// of one `INSERT` per row (docs/PostgreSQL.md, "Batched writes"):
///
///     INSERT INTO "Trip" ("$pk", "$type", "name", …) SELECT v."k", 'Trip', v."c1", …
///     FROM unnest($1::bigint[], $2::text[], …) AS v("k", "c1", …)
///
/// one statement text per entity whatever the row count, each column's values in one array sent
/// in binary. The keys were reserved before (`PostgresStoreConnection.reserveKeys`), so the
/// statement returns nothing and no row waits for another's key.
///
/// Each row is bound to the entity's single-row insert first (as one row at a time), and its
/// values are encoded here in the form of that statement's parameter types, as the server
/// inferred them: the same values are refused with the same error (`PostgresParameters`). A
/// failure of the statement names the single-row insert, as for the row that failed there.
final class PostgresInsertRows: InsertRowBatch {
    /// The types whose binary form `PostgresParameters` writes, sent as arrays of that type.
    private static let binaryTypes: Set<PostgresType> = [.int8, .int4, .int2, .float8, .float4, .bool, .uuid, .bytea, .oid]
    /// Types whose binary form is their text's bytes (`PostgresType.textual`; a parameter of a
    /// column is never of the type `unknown`).
    private static let textTypes = PostgresType.textual.subtracting([.unknown])

    /// How a column's values go into its array.
    private enum Element {
        /// The value's bytes as `PostgresParameters` encodes them (binary form, or text of a text type).
        case same
        /// jsonb's binary form: a version byte (1), then the text.
        case jsonb
        /// Sent as text and cast by the server (numeric: its text is its exact form).
        case textCast
    }

    private let single: String
    /// Whether the rows take reserved keys (an entity's rows), else the table's own (history).
    private let keyed: Bool
    private let types: [PostgresType]
    private let elements: [Element]
    private var keys: [Int64] = []
    private var columns: [PostgresParameters]
    private let statementSQL: String
    private unowned let owner: PostgresStoreConnection

    private(set) var count = 0

    /// Nil when a column's type is not one this client sends in an array (the entity's rows then
    /// go one statement each).
    init?(insert: String, types: [PostgresType], table: String, typeName: String?, columns quoted: [String],
          onlyIfRowOf existing: (table: String, column: Int)?, owner: PostgresStoreConnection) {
        // A conditional insert binds the key of the row it checks after the row's values.
        guard types.count >= quoted.count else { return nil }
        let types = Array(types.prefix(quoted.count))
        var elements: [Element] = []
        let keyed = typeName != nil
        var arrays: [String] = keyed ? ["?::bigint[]"] : []
        var selected: [String] = typeName.map { ["v.\"k\"", SQLQuote.literal($0)] } ?? []
        for (index, type) in types.enumerated() {
            let name = "v.\"c\(index + 1)\""
            if Self.binaryTypes.contains(type) || Self.textTypes.contains(type) {
                elements.append(.same)
                arrays.append("?::\(type)[]")
                selected.append(name)
            } else if type == .jsonb {
                elements.append(.jsonb)
                arrays.append("?::jsonb[]")
                selected.append(name)
            } else if type == .numeric {
                elements.append(.textCast)
                arrays.append("?::text[]")
                selected.append("\(name)::numeric")
            } else {
                return nil
            }
        }
        let aliases = ((keyed ? ["\"k\""] : []) + (0..<types.count).map { "\"c\($0 + 1)\"" }).joined(separator: ", ")
        let target = ((keyed ? [SQLQuote.identifier(StorageNames.primaryKey), SQLQuote.identifier(StorageNames.type)] : []) + quoted).joined(separator: ", ")
        self.keyed = keyed
        statementSQL = "INSERT INTO \(SQLQuote.identifier(table)) (\(target)) SELECT \(selected.joined(separator: ", ")) "
            + "FROM unnest(\(arrays.joined(separator: ", "))) AS v(\(aliases))"
            + (existing.map { " WHERE EXISTS (SELECT 1 FROM \(SQLQuote.identifier($0.table)) WHERE \(SQLQuote.identifier(StorageNames.primaryKey)) = v.\"c\($0.column + 1)\")" } ?? "")
        single = insert
        self.types = types
        self.elements = elements
        self.columns = types.map { _ in PostgresParameters(capacity: PostgresInsertRows.limit) }
        self.owner = owner
    }

    /// The most rows in one statement: a larger statement saves little more, and its arrays sit in
    /// memory on both sides.
    static let limit = 1_000

    var isFull: Bool { count >= Self.limit }

    func add(key: Int64, from statement: any StoreStatement) throws {
        guard let statement = statement as? PostgresStoreStatement else { return }
        let values = statement.boundValues
        do {
            for (index, type) in types.enumerated() {
                let value = index < values.count ? values[index] : .null
                try columns[index].append(value, type: type, number: index + 1)
                if case .same = elements[index], Self.binaryTypes.contains(type), columns[index].formats.last == PostgresParameters.Format.text.rawValue,
                   columns[index].offsets.last ?? -1 >= 0 {
                    // The server would read this text as the type; an array of the type is binary.
                    throw PostgresParameters.refuse(index + 1, "\(SQLValue.shortDescription(value)) cannot be sent as \(type) with the other rows of the insert")
                }
            }
        } catch var error as PostgresError {
            for index in columns.indices { columns[index].removeLast(columns[index].count - count) }
            error.sql = single
            throw error
        }
        if keyed { keys.append(key) }
        count += 1
    }

    func take() throws -> any StoreStatement {
        let made = try owner.statement(statementSQL)
        guard let statement = made as? PostgresStoreStatement else { return made }
        statement.reportsAs = single
        if keyed {
            var keyArray = Self.arrayHeader(element: .int8, count: count, hasNulls: false)
            keyArray.reserveCapacity(keyArray.count + 12 * count)
            for key in keys {
                Self.appendBigEndian(Int32(8), to: &keyArray)
                Self.appendBigEndian(UInt64(bitPattern: key), to: &keyArray)
            }
            statement.bind(.blob(Data(keyArray)), at: 1)
        }
        let first = keyed ? 2 : 1
        for (index, column) in columns.enumerated() {
            statement.bind(.blob(Data(array(of: column, element: elements[index], type: types[index]))), at: Int32(index + first))
        }
        keys.removeAll(keepingCapacity: true)
        for index in columns.indices { columns[index].removeLast(columns[index].count) }
        count = 0
        return statement
    }

    /// The binary form of an array of the column's values.
    private func array(of column: PostgresParameters, element: Element, type: PostgresType) -> [UInt8] {
        let hasNulls = column.offsets.contains { $0 < 0 }
        let elementType: PostgresType = element == .textCast ? .text : type
        var bytes = Self.arrayHeader(element: elementType, count: count, hasNulls: hasNulls)
        bytes.reserveCapacity(bytes.count + column.bytes.count + 5 * count)
        column.bytes.withUnsafeBufferPointer { all in
            for row in 0..<count {
                let offset = column.offsets[row]
                guard offset >= 0 else {
                    Self.appendBigEndian(Int32(-1), to: &bytes)
                    continue
                }
                let length = Int(column.lengths[row])
                let value = UnsafeBufferPointer(rebasing: all[offset..<(offset + length)])
                if element == .jsonb {
                    Self.appendBigEndian(Int32(length + 1), to: &bytes)
                    bytes.append(1)
                } else {
                    Self.appendBigEndian(Int32(length), to: &bytes)
                }
                bytes.append(contentsOf: value)
            }
        }
        return bytes
    }

    /// A one-dimensional array's header: dimensions, null flag, element type, length, lower bound.
    private static func arrayHeader(element: PostgresType, count: Int, hasNulls: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        appendBigEndian(Int32(1), to: &bytes)
        appendBigEndian(Int32(hasNulls ? 1 : 0), to: &bytes)
        appendBigEndian(element.rawValue, to: &bytes)
        appendBigEndian(Int32(count), to: &bytes)
        appendBigEndian(Int32(1), to: &bytes)
        return bytes
    }

    private static func appendBigEndian<I: FixedWidthInteger>(_ value: I, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}

extension PostgresStoreConnection {
    /// The rows of an entity's insert written together (`PostgresInsertRows`), inside a write
    /// transaction whose statements are batched; nil otherwise, or for a column type sent only alone.
    ///
    /// - Throws: the error of preparing the single-row insert.
    func rowBatch(forInsert insert: String, table: String, typeName: String?, columns: [String],
                  onlyIfRowOf existing: (table: String, column: Int)?) throws -> (any InsertRowBatch)? {
        guard sendsInBatches, let held else { return nil }
        let types = try held.statement(insert).describedParameterTypes()
        return PostgresInsertRows(insert: insert, types: types, table: table, typeName: typeName, columns: columns, onlyIfRowOf: existing, owner: self)
    }

    /// `count` new keys of `table` from its key's sequence (the identity of `"$pk"`), ascending:
    /// what `count` single-row inserts would have taken, in one statement.
    ///
    /// - Throws: the store's error.
    func reserveKeys(in table: String, count: Int) throws -> [Int64] {
        // The sequence is looked up once (`OFFSET 0` keeps the subquery from being merged into the
        // per-row expression).
        let sql = "SELECT nextval(q.s) FROM (SELECT pg_get_serial_sequence(?, '\(StorageNames.primaryKey)')::regclass AS s OFFSET 0) AS q CROSS JOIN generate_series(1, ?::integer)"
        let statement = try statement(sql)
        defer { statement.reset() }
        statement.bind(.text(SQLQuote.identifier(table)), at: 1)
        statement.bind(.integer(Int64(count)), at: 2)
        var keys: [Int64] = []
        keys.reserveCapacity(count)
        while try statement.step() {
            guard let key = statement.int64(at: 0) else { break }
            keys.append(key)
        }
        guard keys.count == count else {
            throw ModelStoreError.invalidSchema("the table \(table) gave \(keys.count) of \(count) keys")
        }
        keys.sort()
        return keys
    }
}
