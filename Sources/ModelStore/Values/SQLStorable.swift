import Foundation

/// A Swift type that a column can hold: every attribute type of the `.model` language conforms.
/// Generated code never calls these directly; `RowDecoder` and `RowEncoder` do.
public protocol SQLStorable {
    /// The column type (affinity) used to store the type.
    static var columnType: SQLColumnType { get }
    /// What the column holds, for stores with more column types than SQLite's (PostgreSQL).
    static var storageType: StorageType { get }
    /// Whether the type is an `Optional` (its column may be NULL).
    static var isOptional: Bool { get }
    /// The value from a stored `SQLValue`, or nil when the value cannot be this type.
    init?(sqlValue: SQLValue)
    /// The value as SQLite stores it.
    var sqlValue: SQLValue { get }
    /// Reads the value straight from a statement's column (the fast path of fetches).
    static func read(from statement: SQLiteStatement, at column: Int32) -> Self?
    /// Binds the value straight into a statement parameter (the fast path of saves).
    func bind(to statement: SQLiteStatement, at index: Int32)
    /// Why the store could not give this value back as it is (`Decimal.nan`, a NaN, an array
    /// JSON cannot hold…), or nil when it can: such a value is refused by `save()`.
    var storageProblem: String? { get }
}

extension SQLStorable {
    public static var isOptional: Bool { false }

    public static var storageType: StorageType {
        switch columnType {
        case .integer: return .integer
        case .real: return .real
        case .text: return .text
        case .blob: return .blob
        }
    }

    @inlinable public static func read(from statement: SQLiteStatement, at column: Int32) -> Self? {
        Self(sqlValue: statement.value(at: column))
    }

    @inlinable public func bind(to statement: SQLiteStatement, at index: Int32) {
        statement.bind(sqlValue, at: index)
    }

    /// Most values always come back as they were.
    @inlinable public var storageProblem: String? { nil }
}

extension Optional: SQLStorable where Wrapped: SQLStorable {
    public static var columnType: SQLColumnType { Wrapped.columnType }
    public static var storageType: StorageType { Wrapped.storageType }
    public static var isOptional: Bool { true }

    public init?(sqlValue: SQLValue) {
        if case .null = sqlValue {
            self = .none
        } else if let wrapped = Wrapped(sqlValue: sqlValue) {
            self = .some(wrapped)
        } else {
            return nil
        }
    }

    public var sqlValue: SQLValue { self?.sqlValue ?? .null }

    @inlinable public static func read(from statement: SQLiteStatement, at column: Int32) -> Self? {
        if statement.isNull(at: column) { return .some(.none) }
        guard let wrapped = Wrapped.read(from: statement, at: column) else { return nil }
        return .some(.some(wrapped))
    }

    @inlinable public func bind(to statement: SQLiteStatement, at index: Int32) {
        if let self { self.bind(to: statement, at: index) } else { statement.bind(.null, at: index) }
    }

    @inlinable public var storageProblem: String? { self?.storageProblem }
}

// MARK: Integers

extension Int: SQLStorable {
    public static var columnType: SQLColumnType { .integer }
    public init?(sqlValue: SQLValue) {
        guard case .integer(let number) = sqlValue, let value = Int(exactly: number) else { return nil }
        self = value
    }
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    @inlinable public static func read(from statement: SQLiteStatement, at column: Int32) -> Int? {
        Int(exactly: statement.int64(at: column))
    }
    @inlinable public func bind(to statement: SQLiteStatement, at index: Int32) {
        statement.bindInt64(Int64(self), at: index)
    }
}

extension Int64: SQLStorable {
    public static var columnType: SQLColumnType { .integer }
    public init?(sqlValue: SQLValue) {
        guard case .integer(let number) = sqlValue else { return nil }
        self = number
    }
    public var sqlValue: SQLValue { .integer(self) }
    @inlinable public static func read(from statement: SQLiteStatement, at column: Int32) -> Int64? {
        statement.int64(at: column)
    }
    @inlinable public func bind(to statement: SQLiteStatement, at index: Int32) {
        statement.bindInt64(self, at: index)
    }
}

/// Fixed-width integers that fit in Int64 share one implementation.
public protocol SQLStorableSmallInteger: FixedWidthInteger, SQLStorable {}

extension SQLStorableSmallInteger {
    public static var columnType: SQLColumnType { .integer }
    public init?(sqlValue: SQLValue) {
        guard case .integer(let number) = sqlValue, let value = Self(exactly: number) else { return nil }
        self = value
    }
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Int8: SQLStorableSmallInteger {}
extension Int16: SQLStorableSmallInteger {}
extension Int32: SQLStorableSmallInteger {}
extension UInt8: SQLStorableSmallInteger {}
extension UInt16: SQLStorableSmallInteger {}
extension UInt32: SQLStorableSmallInteger {}

extension Bool: SQLStorable {
    public static var columnType: SQLColumnType { .integer }
    public init?(sqlValue: SQLValue) {
        guard case .integer(let number) = sqlValue else { return nil }
        self = number != 0
    }
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
}

// MARK: Floating point

extension Double: SQLStorable {
    public static var columnType: SQLColumnType { .real }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .real(let number): self = number
        case .integer(let number): self = Double(number)
        default: return nil
        }
    }
    public var sqlValue: SQLValue { .real(self) }
    @inlinable public static func read(from statement: SQLiteStatement, at column: Int32) -> Double? {
        statement.double(at: column)
    }
    @inlinable public func bind(to statement: SQLiteStatement, at index: Int32) {
        statement.bindDouble(self, at: index)
    }
    /// NaN: SQLite has no NaN (it would store NULL).
    @inlinable public var storageProblem: String? {
        isNaN ? ValueProblem.nan : nil
    }
}

extension Float: SQLStorable {
    public static var columnType: SQLColumnType { .real }
    public init?(sqlValue: SQLValue) {
        guard let number = Double(sqlValue: sqlValue) else { return nil }
        self = Float(number)
    }
    public var sqlValue: SQLValue { .real(Double(self)) }
    /// NaN: SQLite has no NaN (it would store NULL).
    @inlinable public var storageProblem: String? {
        isNaN ? ValueProblem.nan : nil
    }
}

// MARK: Text and bytes

extension String: SQLStorable {
    public static var columnType: SQLColumnType { .text }
    public init?(sqlValue: SQLValue) {
        guard case .text(let text) = sqlValue else { return nil }
        self = text
    }
    public var sqlValue: SQLValue { .text(self) }
    @inlinable public static func read(from statement: SQLiteStatement, at column: Int32) -> String? {
        statement.text(at: column)
    }
    @inlinable public func bind(to statement: SQLiteStatement, at index: Int32) {
        statement.bindText(self, at: index)
    }
}

extension Data: SQLStorable {
    public static var columnType: SQLColumnType { .blob }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .blob(let data): self = data
        case .text(let text): self = Data(text.utf8)
        default: return nil
        }
    }
    public var sqlValue: SQLValue { .blob(self) }
}

// MARK: Foundation values

/// `Date` is stored as REAL seconds since 2001-01-01 (`timeIntervalSinceReferenceDate`):
/// it round-trips exactly, where seconds since 1970 does not.
extension Date: SQLStorable {
    public static var columnType: SQLColumnType { .real }
    public init?(sqlValue: SQLValue) {
        guard let seconds = Double(sqlValue: sqlValue) else { return nil }
        self.init(timeIntervalSinceReferenceDate: seconds)
    }
    public var sqlValue: SQLValue { .real(timeIntervalSinceReferenceDate) }
    @inlinable public static func read(from statement: SQLiteStatement, at column: Int32) -> Date? {
        Date(timeIntervalSinceReferenceDate: statement.double(at: column))
    }
    @inlinable public func bind(to statement: SQLiteStatement, at index: Int32) {
        statement.bindDouble(timeIntervalSinceReferenceDate, at: index)
    }
    /// A date whose interval is NaN: SQLite has no NaN.
    @inlinable public var storageProblem: String? {
        timeIntervalSinceReferenceDate.isNaN ? ValueProblem.nanDate : nil
    }
}

/// `UUID` is stored as a 16-byte BLOB (compact, and compared bytewise).
extension UUID: SQLStorable {
    public static var columnType: SQLColumnType { .blob }
    public static var storageType: StorageType { .uuid }
    public init?(sqlValue: SQLValue) {
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
    public var sqlValue: SQLValue { withUnsafeBytes(of: uuid) { .blob(Data($0)) } }
    @inlinable public static func read(from statement: SQLiteStatement, at column: Int32) -> UUID? {
        if let uuid = statement.uuidBlob(at: column) { return uuid }
        return UUID(sqlValue: statement.value(at: column))
    }
    @inlinable public func bind(to statement: SQLiteStatement, at index: Int32) {
        withUnsafeBytes(of: uuid) { statement.bindBytes($0, at: index) }
    }
}

/// `URL` is stored as its absolute string.
extension URL: SQLStorable {
    public static var columnType: SQLColumnType { .text }
    public init?(sqlValue: SQLValue) {
        guard case .text(let text) = sqlValue, let url = URL(string: text) else { return nil }
        self = url
    }
    public var sqlValue: SQLValue { .text(absoluteString) }
}

/// `Decimal` is stored as exact decimal text (its `description`), never as a lossy REAL.
/// SQL sorts and compares such columns as text.
extension Decimal: SQLStorable {
    public static var columnType: SQLColumnType { .text }
    public static var storageType: StorageType { .decimal }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .text(let text):
            guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
            self = decimal
        case .integer(let number): self = Decimal(number)
        default: return nil
        }
    }
    public var sqlValue: SQLValue { .text(description) }
    /// `Decimal.nan`: its text, "NaN", does not read back as a decimal.
    public var storageProblem: String? {
        isNaN ? ValueProblem.nanDecimal : nil
    }
}

// MARK: Enums and arrays

/// Enums with a `String` or `Int` raw value are stored by raw value. Generated enums declare
/// `SQLStorable` and get everything from here.
extension SQLStorable where Self: RawRepresentable, RawValue: SQLStorable {
    public static var columnType: SQLColumnType { RawValue.columnType }
    public static var storageType: StorageType { RawValue.storageType }
    public init?(sqlValue: SQLValue) {
        guard let raw = RawValue(sqlValue: sqlValue) else { return nil }
        self.init(rawValue: raw)
    }
    public var sqlValue: SQLValue { rawValue.sqlValue }
    /// Reads the raw value straight from the column (inlinable, so specialized for each enum:
    /// no `SQLValue` and no generic metadata look-ups per row).
    @inlinable public static func read(from statement: SQLiteStatement, at column: Int32) -> Self? {
        guard let raw = RawValue.read(from: statement, at: column) else { return nil }
        return Self(rawValue: raw)
    }
    /// Binds the raw value straight into the parameter.
    @inlinable public func bind(to statement: SQLiteStatement, at index: Int32) {
        rawValue.bind(to: statement, at: index)
    }
}

/// Arrays are stored as one JSON text column.
extension Array: SQLStorable where Element: Codable {
    public static var columnType: SQLColumnType { .text }
    public static var storageType: StorageType { .json }
    public init?(sqlValue: SQLValue) {
        guard case .text(let text) = sqlValue else { return nil }
        // `[String]` without escapes skips Codable (the common case, and the row path's).
        if Element.self == String.self, let strings = StringArrayJSON.decode(text) {
            self = unsafeBitCast(strings, to: [Element].self)
            return
        }
        guard let array = try? JSONDecoder().decode([Element].self, from: Data(text.utf8)) else { return nil }
        self = array
    }
    public var sqlValue: SQLValue {
        if Element.self == String.self, let text = StringArrayJSON.encode(unsafeBitCast(self, to: [String].self)) {
            return .text(text)
        }
        guard let data = try? JSONEncoder().encode(self) else { return .text("[]") }
        return .text(String(decoding: data, as: UTF8.self))
    }
    /// Elements JSON cannot hold (a NaN or an infinite `Double`: `sqlValue` would be `[]`), or
    /// whose JSON does not read back (`Decimal.nan` is written as `NaN`).
    public var storageProblem: String? {
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
