import Foundation

/// A Swift type an attribute can hold: every attribute type of the `.model` language conforms
/// (the standard types here, generated enums and structs through their declarations). Its
/// requirements are hooks of the runtime (SPI `ModelStoreGenerated`), not API: generated code
/// never calls them directly, `RowDecoder` and `RowEncoder` do.
public protocol SQLStorable {
    /// The column type (affinity) used to store the type.
    @_spi(ModelStoreGenerated) static var columnType: SQLColumnType { get }
    /// What the column holds, for stores with more column types than SQLite's (PostgreSQL).
    @_spi(ModelStoreGenerated) static var storageType: StorageType { get }
    /// Whether the type is an `Optional` (its column may be NULL).
    @_spi(ModelStoreGenerated) static var isOptional: Bool { get }
    /// The value from a stored `SQLValue`, or nil when the value cannot be this type.
    @_spi(ModelStoreGenerated) init?(sqlValue: SQLValue)
    /// The value as SQLite stores it (for a struct stored in columns: its JSON, as in an array).
    @_spi(ModelStoreGenerated) var sqlValue: SQLValue { get }
    /// Reads the value straight from a statement's column with the statement's typed read (the
    /// fast path of fetches); nil when the stored value cannot be this type. Inlinable, so it is
    /// specialised for each type in generated code; the statement is the existential `RowDecoder`
    /// holds (one dynamic call into the store's read: a generic statement parameter, opened from
    /// it per value, cost generic metadata look-ups per value; docs/Architecture.md, "The storage seam").
    @_spi(ModelStoreGenerated) static func read(from statement: any StoreStatement, at column: Int32) -> Self?
    /// The value from a column the store loaded into a cell (`StoreCell`, the fast path of a
    /// fetch's rows on stores that load them), or nil when the cell does not hold the value in a
    /// form this type takes: the value is then read with `read(from:at:)`, which gives it or
    /// reports it, so the two reads never differ. Inlinable, as `read(from:at:)`.
    @_spi(ModelStoreGenerated) static func read(cell: StoreCell) -> Self?
    /// Binds the value straight into a statement parameter with the statement's typed binds (the
    /// fast path of saves).
    @_spi(ModelStoreGenerated) func bind(to statement: any StoreStatement, at index: Int32)

    /// The number of columns an attribute of this type takes: 1, except for a struct (one per
    /// field, nested structs flattened) and an optional struct (one more: its presence column).
    @_spi(ModelStoreGenerated) static var _columnCount: Int { get }
    /// Reads the value from `row`'s columns at its cursor, moving the cursor past them.
    @_spi(ModelStoreGenerated) static func _read(from row: RowDecoder) throws -> Self
    /// Writes the value into `row`'s columns at its cursor, moving the cursor past them.
    @_spi(ModelStoreGenerated) func _write(to row: RowEncoder)
    /// A value an attribute holds until it is loaded, when a fetch with `propertiesToFetch` does
    /// not read it; nil for a type that has none to offer (the attribute is then always read).
    @_spi(ModelStoreGenerated) static var _placeholder: Self? { get }
    /// The struct type, for a struct or an optional struct (stored in columns); nil otherwise.
    @_spi(ModelStoreGenerated) static var _compositeType: (any CompositeAttribute.Type)? { get }
    /// Why the store could not give this value back as it is (`Decimal.nan`, a NaN, an array
    /// JSON cannot hold…), or nil when it can: such a value is refused by `save()`.
    @_spi(ModelStoreGenerated) var storageProblem: String? { get }
}

extension SQLStorable {
    @_spi(ModelStoreGenerated) public static var isOptional: Bool { false }

    @_spi(ModelStoreGenerated) public static var storageType: StorageType {
        switch columnType {
        case .integer: return .integer
        case .real: return .real
        case .text: return .text
        case .blob: return .blob
        }
    }

    @_spi(ModelStoreGenerated) @inlinable public static func read(from statement: any StoreStatement, at column: Int32) -> Self? {
        Self(sqlValue: statement.value(at: column))
    }

    @_spi(ModelStoreGenerated) @inlinable public func bind(to statement: any StoreStatement, at index: Int32) {
        statement.bind(sqlValue, at: index)
    }

    /// No cell read: the statement's read (`read(from:at:)`).
    @_spi(ModelStoreGenerated) @inlinable public static func read(cell: StoreCell) -> Self? { nil }

    @_spi(ModelStoreGenerated) public static var _columnCount: Int { 1 }

    @_spi(ModelStoreGenerated) public static var _placeholder: Self? { nil }

    @_spi(ModelStoreGenerated) public static var _compositeType: (any CompositeAttribute.Type)? { nil }

    /// Reads one column (the fast path of fetches: the statement's typed read for the type).
    @_spi(ModelStoreGenerated) @inlinable public static func _read(from row: RowDecoder) throws -> Self {
        let position = row.state.pointee.cursor
        row.state.pointee.cursor = position + 1
        // The row's cells first, when the store loaded them (`StoreCell`): no call into the store.
        if row.state.pointee.cells != nil, let value = Self.read(cell: row.state.pointee.cells![position]) { return value }
        // The reader borrowed, without a retain; its statement tested, then unwrapped in place:
        // binding the optional (`if let`) copies the existential, a retain and a release per column
        // read (docs/Benchmarks.md, "Reads").
        return try row.reader._withUnsafeGuaranteedRef { reader in
            if reader.statement != nil {
                if let value = Self.read(from: reader.statement!, at: Int32(position)) { return value }
            } else if reader.makesPlaceholders {
                if let value = Self._placeholder { return value }
            } else if position < reader.values.count, let value = Self(sqlValue: reader.values[position]) {
                return value
            }
            throw reader.corrupt()
        }
    }

    /// Writes one column (the fast path of saves: the statement's typed bind for the type).
    @_spi(ModelStoreGenerated) @inlinable public func _write(to row: RowEncoder) {
        let position = row.state.pointee.cursor
        row.state.pointee.cursor = position + 1
        // Tested, then unwrapped in place, as `_read(from:)` does (no retain of the statement).
        if row.statement != nil {
            bind(to: row.statement!, at: Int32(position))
        } else {
            row.state.pointee.values[position] = sqlValue
        }
    }

    /// Most values always come back as they were.
    @_spi(ModelStoreGenerated) @inlinable public var storageProblem: String? { nil }
}

extension Optional: SQLStorable where Wrapped: SQLStorable {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { Wrapped.columnType }
    @_spi(ModelStoreGenerated) public static var storageType: StorageType { Wrapped.storageType }
    @_spi(ModelStoreGenerated) public static var isOptional: Bool { true }

    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        if case .null = sqlValue {
            self = .none
        } else if let wrapped = Wrapped(sqlValue: sqlValue) {
            self = .some(wrapped)
        } else {
            return nil
        }
    }

    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue { self?.sqlValue ?? .null }

    @_spi(ModelStoreGenerated) @inlinable public static func read(from statement: any StoreStatement, at column: Int32) -> Self? {
        if statement.isNull(at: column) { return .some(.none) }
        guard let wrapped = Wrapped.read(from: statement, at: column) else { return nil }
        return .some(.some(wrapped))
    }

    @_spi(ModelStoreGenerated) @inlinable public func bind(to statement: any StoreStatement, at index: Int32) {
        if let self { self.bind(to: statement, at: index) } else { statement.bindNull(at: index) }
    }

    @_spi(ModelStoreGenerated) @inlinable public static func read(cell: StoreCell) -> Self? {
        if cell.form == .null { return .some(.none) }
        guard let wrapped = Wrapped.read(cell: cell) else { return nil }
        return .some(.some(wrapped))
    }

    /// An optional struct has a presence column before its fields' columns.
    @_spi(ModelStoreGenerated) public static var _columnCount: Int {
        Wrapped._compositeType == nil ? 1 : 1 + Wrapped._columnCount
    }

    /// Nil is every optional's placeholder.
    @_spi(ModelStoreGenerated) public static var _placeholder: Self? { .some(.none) }

    @_spi(ModelStoreGenerated) public static var _compositeType: (any CompositeAttribute.Type)? { Wrapped._compositeType }

    /// A value, or for an optional struct its presence column (NULL for nil, 1) and then its fields.
    @_spi(ModelStoreGenerated) @inlinable public static func _read(from row: RowDecoder) throws -> Self {
        guard Wrapped._compositeType != nil else {
            let position = row.state.pointee.cursor
            row.state.pointee.cursor = position + 1
            if row.state.pointee.cells != nil, let value = Self.read(cell: row.state.pointee.cells![position]) { return value }
            return try row.reader._withUnsafeGuaranteedRef { reader in  // see `SQLStorable._read(from:)`
                if reader.statement != nil {
                    if let value = Self.read(from: reader.statement!, at: Int32(position)) { return value }
                } else if reader.makesPlaceholders {
                    return nil
                } else if position < reader.values.count, let value = Self(sqlValue: reader.values[position]) {
                    return value
                }
                throw reader.corrupt()
            }
        }
        let presence = try Int64?._read(from: row)
        if presence == nil {
            row.state.pointee.cursor += Wrapped._columnCount
            return nil
        }
        return try Wrapped._read(from: row)
    }

    @_spi(ModelStoreGenerated) @inlinable public func _write(to row: RowEncoder) {
        guard Wrapped._compositeType != nil else {
            let position = row.state.pointee.cursor
            row.state.pointee.cursor = position + 1
            if row.statement != nil {  // not bound: see `SQLStorable._write(to:)`
                bind(to: row.statement!, at: Int32(position))
            } else {
                row.state.pointee.values[position] = sqlValue
            }
            return
        }
        if let self {
            Int64(1)._write(to: row)
            self._write(to: row)
        } else {
            for _ in 0..<Self._columnCount { Int64?.none._write(to: row) }
        }
    }

    @_spi(ModelStoreGenerated) @inlinable public var storageProblem: String? { self?.storageProblem }
}

// MARK: Integers

extension Int: SQLStorable {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { .integer }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        guard case .integer(let number) = sqlValue, let value = Int(exactly: number) else { return nil }
        self = value
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue { .integer(Int64(self)) }
    @_spi(ModelStoreGenerated) @inlinable public static func read(from statement: any StoreStatement, at column: Int32) -> Int? {
        statement.int64(at: column).flatMap { Int(exactly: $0) }
    }
    @_spi(ModelStoreGenerated) @inlinable public static func read(cell: StoreCell) -> Int? {
        cell.integer.flatMap { Int(exactly: $0) }
    }
    @_spi(ModelStoreGenerated) @inlinable public func bind(to statement: any StoreStatement, at index: Int32) {
        statement.bindInt64(Int64(self), at: index)
    }
}

extension Int64: SQLStorable {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { .integer }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        guard case .integer(let number) = sqlValue else { return nil }
        self = number
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue { .integer(self) }
    @_spi(ModelStoreGenerated) @inlinable public static func read(from statement: any StoreStatement, at column: Int32) -> Int64? {
        statement.int64(at: column)
    }
    @_spi(ModelStoreGenerated) @inlinable public static func read(cell: StoreCell) -> Int64? { cell.integer }
    @_spi(ModelStoreGenerated) @inlinable public func bind(to statement: any StoreStatement, at index: Int32) {
        statement.bindInt64(self, at: index)
    }
}

/// Fixed-width integers that fit in Int64 share one implementation.
extension SQLStorable where Self: FixedWidthInteger {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { .integer }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        guard case .integer(let number) = sqlValue, let value = Self(exactly: number) else { return nil }
        self = value
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue { .integer(Int64(self)) }
    @_spi(ModelStoreGenerated) @inlinable public static func read(cell: StoreCell) -> Self? {
        cell.integer.flatMap { Self(exactly: $0) }
    }
}

extension Int8: SQLStorable {}
extension Int16: SQLStorable {}
extension Int32: SQLStorable {}
extension UInt8: SQLStorable {}
extension UInt16: SQLStorable {}
extension UInt32: SQLStorable {}

extension Bool: SQLStorable {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { .integer }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        guard case .integer(let number) = sqlValue else { return nil }
        self = number != 0
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    @_spi(ModelStoreGenerated) @inlinable public static func read(cell: StoreCell) -> Bool? { cell.integer.map { $0 != 0 } }
}

// MARK: Floating point

extension Double: SQLStorable {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { .real }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .real(let number): self = number
        case .integer(let number): self = Double(number)
        default: return nil
        }
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue { .real(self) }
    @_spi(ModelStoreGenerated) @inlinable public static func read(from statement: any StoreStatement, at column: Int32) -> Double? {
        statement.double(at: column)
    }
    @_spi(ModelStoreGenerated) @inlinable public static func read(cell: StoreCell) -> Double? { cell.real }
    @_spi(ModelStoreGenerated) @inlinable public func bind(to statement: any StoreStatement, at index: Int32) {
        statement.bindDouble(self, at: index)
    }
    /// NaN: SQLite has no NaN (it would store NULL).
    @_spi(ModelStoreGenerated) @inlinable public var storageProblem: String? {
        isNaN ? ValueProblem.nan : nil
    }
}

/// `CGFloat` (Foundation's, on Linux too) is stored as a `Double` (docs/Runtime.md).
extension CGFloat: SQLStorable {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { .real }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        guard let number = Double(sqlValue: sqlValue) else { return nil }
        self = CGFloat(number)
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue { .real(Double(self)) }
    @_spi(ModelStoreGenerated) @inlinable public static func read(from statement: any StoreStatement, at column: Int32) -> CGFloat? {
        statement.double(at: column).map { CGFloat($0) }
    }
    @_spi(ModelStoreGenerated) @inlinable public static func read(cell: StoreCell) -> CGFloat? { cell.real.map { CGFloat($0) } }
    @_spi(ModelStoreGenerated) @inlinable public func bind(to statement: any StoreStatement, at index: Int32) {
        statement.bindDouble(Double(self), at: index)
    }
    /// NaN: SQLite has no NaN (it would store NULL).
    @_spi(ModelStoreGenerated) @inlinable public var storageProblem: String? {
        isNaN ? ValueProblem.nan : nil
    }
    @_spi(ModelStoreGenerated) public static var _placeholder: CGFloat? { 0 }
}

extension Float: SQLStorable {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { .real }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        guard let number = Double(sqlValue: sqlValue) else { return nil }
        self = Float(number)
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue { .real(Double(self)) }
    @_spi(ModelStoreGenerated) @inlinable public static func read(cell: StoreCell) -> Float? { cell.real.map { Float($0) } }
    /// NaN: SQLite has no NaN (it would store NULL).
    @_spi(ModelStoreGenerated) @inlinable public var storageProblem: String? {
        isNaN ? ValueProblem.nan : nil
    }
}

// MARK: Text and bytes

extension String: SQLStorable {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { .text }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        guard case .text(let text) = sqlValue else { return nil }
        self = text
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue { .text(self) }
    @_spi(ModelStoreGenerated) @inlinable public static func read(from statement: any StoreStatement, at column: Int32) -> String? {
        statement.text(at: column)
    }
    @_spi(ModelStoreGenerated) @inlinable public static func read(cell: StoreCell) -> String? {
        cell.text.map { String(decoding: $0, as: UTF8.self) }
    }
    @_spi(ModelStoreGenerated) @inlinable public func bind(to statement: any StoreStatement, at index: Int32) {
        statement.bindText(self, at: index)
    }
}

extension Data: SQLStorable {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { .blob }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .blob(let data): self = data
        case .text(let text): self = Data(text.utf8)
        default: return nil
        }
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue { .blob(self) }
    @_spi(ModelStoreGenerated) @inlinable public static func read(cell: StoreCell) -> Data? {
        if let bytes = cell.byteBuffer { return Data(bytes) }
        // Text as the statement's read gives it: decoded (invalid UTF-8 repaired), then its UTF-8.
        return cell.text.map { Data(String(decoding: $0, as: UTF8.self).utf8) }
    }
}

// MARK: Foundation values

/// `Date` is stored as REAL seconds since 2001-01-01 (`timeIntervalSinceReferenceDate`):
/// it round-trips exactly, where seconds since 1970 does not.
extension Date: SQLStorable {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { .real }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        guard let seconds = Double(sqlValue: sqlValue) else { return nil }
        self.init(timeIntervalSinceReferenceDate: seconds)
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue { .real(timeIntervalSinceReferenceDate) }
    @_spi(ModelStoreGenerated) @inlinable public static func read(from statement: any StoreStatement, at column: Int32) -> Date? {
        statement.double(at: column).map { Date(timeIntervalSinceReferenceDate: $0) }
    }
    @_spi(ModelStoreGenerated) @inlinable public static func read(cell: StoreCell) -> Date? {
        cell.real.map { Date(timeIntervalSinceReferenceDate: $0) }
    }
    @_spi(ModelStoreGenerated) @inlinable public func bind(to statement: any StoreStatement, at index: Int32) {
        statement.bindDouble(timeIntervalSinceReferenceDate, at: index)
    }
    /// A date whose interval is NaN: SQLite has no NaN.
    @_spi(ModelStoreGenerated) @inlinable public var storageProblem: String? {
        timeIntervalSinceReferenceDate.isNaN ? ValueProblem.nanDate : nil
    }
}

/// `UUID` is stored as a 16-byte BLOB (compact, and compared bytewise).
extension UUID: SQLStorable {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { .blob }
    @_spi(ModelStoreGenerated) public static var storageType: StorageType { .uuid }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .blob(let data) where data.count == 16:
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &bytes) { $0.copyBytes(from: data) }
            self.init(uuid: bytes)
        case .text(let text):
            guard let uuid = UUID(uuidString: text) else { return nil }
            self = uuid
        default:
            return nil
        }
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue { withUnsafeBytes(of: uuid) { .blob(Data($0)) } }
    @_spi(ModelStoreGenerated) @inlinable public static func read(from statement: any StoreStatement, at column: Int32) -> UUID? {
        if let uuid = statement.uuid(at: column) { return uuid }
        return UUID(sqlValue: statement.value(at: column))
    }
    @_spi(ModelStoreGenerated) @inlinable public static func read(cell: StoreCell) -> UUID? {
        guard let bytes = cell.byteBuffer, bytes.count == 16 else { return nil }
        return UUID(uuid: bytes.loadUnaligned(as: uuid_t.self))
    }
    @_spi(ModelStoreGenerated) @inlinable public func bind(to statement: any StoreStatement, at index: Int32) {
        withUnsafeBytes(of: uuid) { statement.bindBytes($0, at: index) }
    }
}

/// `URL` is stored as its absolute string.
extension URL: SQLStorable {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { .text }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        guard case .text(let text) = sqlValue, let url = URL(string: text) else { return nil }
        self = url
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue { .text(absoluteString) }
}

/// `Decimal` is stored as exact decimal text (its `description`), never as a lossy REAL.
/// SQL sorts and compares such columns as text.
extension Decimal: SQLStorable {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { .text }
    @_spi(ModelStoreGenerated) public static var storageType: StorageType { .decimal }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .text(let text):
            guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
            self = decimal
        case .integer(let number): self = Decimal(number)
        default: return nil
        }
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue { .text(description) }
    /// `Decimal.nan`: its text, "NaN", does not read back as a decimal.
    @_spi(ModelStoreGenerated) public var storageProblem: String? {
        isNaN ? ValueProblem.nanDecimal : nil
    }
}

// MARK: Enums and arrays

/// Enums with a `String` or `Int` raw value are stored by raw value. Generated enums declare
/// `SQLStorable` and get everything from here.
extension SQLStorable where Self: RawRepresentable, RawValue: SQLStorable {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { RawValue.columnType }
    @_spi(ModelStoreGenerated) public static var storageType: StorageType { RawValue.storageType }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        guard let raw = RawValue(sqlValue: sqlValue) else { return nil }
        self.init(rawValue: raw)
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue { rawValue.sqlValue }
    /// Reads the raw value straight from the column (inlinable, so specialized for each enum:
    /// no `SQLValue` and no generic metadata look-ups per row).
    @_spi(ModelStoreGenerated) @inlinable public static func read(from statement: any StoreStatement, at column: Int32) -> Self? {
        guard let raw = RawValue.read(from: statement, at: column) else { return nil }
        return Self(rawValue: raw)
    }
    @_spi(ModelStoreGenerated) @inlinable public static func read(cell: StoreCell) -> Self? {
        guard let raw = RawValue.read(cell: cell) else { return nil }
        return Self(rawValue: raw)
    }
    /// Binds the raw value straight into the parameter.
    @_spi(ModelStoreGenerated) @inlinable public func bind(to statement: any StoreStatement, at index: Int32) {
        rawValue.bind(to: statement, at: index)
    }
}

/// Arrays are stored as one JSON text column.
extension Array: SQLStorable where Element: Codable {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { .text }
    @_spi(ModelStoreGenerated) public static var storageType: StorageType { .json }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        guard case .text(let text) = sqlValue else { return nil }
        // `[String]` without escapes skips Codable (the common case, and the row path's).
        if Element.self == String.self, let strings = StringArrayJSON.decode(text) {
            self = unsafeBitCast(strings, to: [Element].self)
            return
        }
        guard let array = try? JSONDecoder().decode([Element].self, from: Data(text.utf8)) else { return nil }
        self = array
    }
    /// `[String]` without escapes straight from the column's bytes; anything else through `init(sqlValue:)`.
    @_spi(ModelStoreGenerated) public static func read(from statement: any StoreStatement, at column: Int32) -> Self? {
        if Element.self == String.self, let bytes = statement.textBytes(at: column), let strings = StringArrayJSON.decode(bytes) {
            return unsafeBitCast(strings, to: [Element].self)
        }
        return Self(sqlValue: statement.value(at: column))
    }
    /// `[String]` without escapes from the cell's text; anything else through `read(from:at:)`.
    @_spi(ModelStoreGenerated) public static func read(cell: StoreCell) -> Self? {
        guard Element.self == String.self, let bytes = cell.text, let strings = StringArrayJSON.decode(bytes) else { return nil }
        return unsafeBitCast(strings, to: [Element].self)
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue {
        if Element.self == String.self, let text = StringArrayJSON.encode(unsafeBitCast(self, to: [String].self)) {
            return .text(text)
        }
        guard let data = try? JSONEncoder().encode(self) else { return .text("[]") }
        return .text(String(decoding: data, as: UTF8.self))
    }
    /// Elements JSON cannot hold (a NaN or an infinite `Double`: `sqlValue` would be `[]`), or
    /// whose JSON does not read back (`Decimal.nan` is written as `NaN`).
    @_spi(ModelStoreGenerated) public var storageProblem: String? {
        if Element.self == String.self || Element.self == Int.self || isEmpty { return nil }
        do {
            _ = try JSONDecoder().decode([Element].self, from: try JSONEncoder().encode(self))
            return nil
        } catch {
            return ValueProblem.array(error)
        }
    }
}

/// Why a value cannot be stored (`SQLStorable.storageProblem`), as message text.
@usableFromInline enum ValueProblem {
    /// A NaN `Double` or `Float`.
    @usableFromInline static let nan = "NaN (not a number) cannot be stored: SQLite has no NaN and would store NULL"
    /// A `Date` whose interval is NaN.
    @usableFromInline static let nanDate = "a date whose time interval is NaN cannot be stored: SQLite has no NaN"
    /// `Decimal.nan`.
    @usableFromInline static let nanDecimal = "Decimal.nan cannot be stored: its text, NaN, does not read back as a Decimal"

    /// A `Codable` value (an enum with associated values) that JSON cannot encode, or whose JSON
    /// does not read back.
    static func codable(_ error: Error) -> String {
        switch error {
        case EncodingError.invalidValue(let value, _):
            return "the value cannot be stored as JSON: it holds \(value), which JSON cannot hold"
        default:
            return "the value cannot be stored as JSON: \(error)"
        }
    }

    /// An array that JSON cannot encode, or whose JSON does not read back.
    static func array(_ error: Error) -> String {
        switch error {
        case EncodingError.invalidValue(let value, _):
            return "the array cannot be stored as JSON: it holds \(value), which JSON cannot hold"
        case is DecodingError:
            return "the array's JSON does not read back (an element such as Decimal.nan has no JSON number)"
        default:
            return "the array cannot be stored as JSON: \(error)"
        }
    }
}

// MARK: Placeholders (what an attribute a fetch did not read holds until it is loaded)

extension SQLStorable where Self: FixedWidthInteger {
    @_spi(ModelStoreGenerated) public static var _placeholder: Self? { 0 }
}

extension Bool {
    @_spi(ModelStoreGenerated) public static var _placeholder: Bool? { false }
}

extension Double {
    @_spi(ModelStoreGenerated) public static var _placeholder: Double? { 0 }
}

extension Float {
    @_spi(ModelStoreGenerated) public static var _placeholder: Float? { 0 }
}

extension String {
    @_spi(ModelStoreGenerated) public static var _placeholder: String? { "" }
}

extension Data {
    @_spi(ModelStoreGenerated) public static var _placeholder: Data? { Data() }
}

extension Date {
    @_spi(ModelStoreGenerated) public static var _placeholder: Date? { Date(timeIntervalSinceReferenceDate: 0) }
}

extension UUID {
    @_spi(ModelStoreGenerated) public static var _placeholder: UUID? { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
}

extension URL {
    @_spi(ModelStoreGenerated) public static var _placeholder: URL? { URL(string: "about:blank") }
}

extension Decimal {
    @_spi(ModelStoreGenerated) public static var _placeholder: Decimal? { 0 }
}

extension SQLStorable where Self: RawRepresentable & CaseIterable, RawValue: SQLStorable {
    /// An enum's first case.
    @_spi(ModelStoreGenerated) public static var _placeholder: Self? { allCases.first }
}

extension Array {
    @_spi(ModelStoreGenerated) public static var _placeholder: Self? { [] }
}

// MARK: Plain enums

/// A plain enum (no raw type, no associated values: `enum Provider: Codable { case ollama }`),
/// stored by case name in a text column, as a `String` enum whose raw values are its case names
/// (docs/Runtime.md). Generated enums declare the conformance and name each case.
public protocol CaseNameAttribute: SQLStorable, CaseIterable, Codable {
    /// The case's name as declared: what the store keeps.
    @_spi(ModelStoreGenerated) var _$caseName: String { get }
}

extension CaseNameAttribute {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { .text }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        guard case .text(let name) = sqlValue, let value = Self(_$caseName: name) else { return nil }
        self = value
    }
    /// The case named `name`, if there is one (enums have few cases: a scan).
    @_spi(ModelStoreGenerated) public init?(_$caseName name: String) {
        guard let value = Self.allCases.first(where: { $0._$caseName == name }) else { return nil }
        self = value
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue { .text(_$caseName) }
    @_spi(ModelStoreGenerated) @inlinable public static func read(from statement: any StoreStatement, at column: Int32) -> Self? {
        String.read(from: statement, at: column).flatMap { Self(_$caseName: $0) }
    }
    @_spi(ModelStoreGenerated) @inlinable public func bind(to statement: any StoreStatement, at index: Int32) {
        _$caseName.bind(to: statement, at: index)
    }
    /// An enum's first case.
    @_spi(ModelStoreGenerated) public static var _placeholder: Self? { allCases.first }
}

// MARK: Codable values

/// A `Codable` value stored as JSON text in one column (an enum whose cases carry associated
/// values). Generated enums declare the conformance and get everything from here. A fetch with
/// `propertiesToFetch` always reads such an attribute (there is no value to hold in its place).
public protocol CodableAttribute: SQLStorable, Codable {}

extension CodableAttribute {
    @_spi(ModelStoreGenerated) public static var columnType: SQLColumnType { .text }
    @_spi(ModelStoreGenerated) public static var storageType: StorageType { .json }
    @_spi(ModelStoreGenerated) public init?(sqlValue: SQLValue) {
        guard case .text(let text) = sqlValue, let value = try? JSONDecoder().decode(Self.self, from: Data(text.utf8)) else { return nil }
        self = value
    }
    /// A value JSON cannot hold (a NaN or infinite `Double` among its associated values), or whose
    /// JSON does not read back.
    @_spi(ModelStoreGenerated) public var storageProblem: String? {
        do {
            _ = try JSONDecoder().decode(Self.self, from: try JSONEncoder().encode(self))
            return nil
        } catch {
            return ValueProblem.codable(error)
        }
    }
    @_spi(ModelStoreGenerated) public var sqlValue: SQLValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(self) else { return .null }
        return .text(String(decoding: data, as: UTF8.self))
    }
}
