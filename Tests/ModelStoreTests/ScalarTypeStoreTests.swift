import Foundation
import SchemaEvolution
import Testing
@testable @_spi(ModelStoreGenerated) import ModelStore

/// docs/Architecture.md, "A type the language accepts": the runtime's steps, checked for every
/// built-in type of SchemaEvolution's `ScalarType` table, so a type that misses one fails here with
/// the step named. (The generator's steps: ModelGenKitTests' `ScalarTypeRecipeTests`.)
@Suite struct ScalarTypeStoreTests {
    /// Step "SQLStorable": the Swift type's conformance stores it as the table says, and the stored
    /// schema names it as the generator does.
    @Test(arguments: ScalarType.allCases) func conformanceAgreesWithTheTable(_ type: ScalarType) {
        let storable = type.storableType
        #expect(storable.storageType == StorageType(type.facts.storage),
                "step 'SQLStorable': \(storable).storageType is .\(storable.storageType), the table's storage is .\(type.facts.storage)")
        #expect(StorageType(type.facts.storage).affinity == storable.columnType,
                "step 'SQLStorable': \(storable).columnType is \(storable.columnType), the table's storage is .\(type.facts.storage)")
        #expect(ValueTypeName.of(storable) == type.storedTypeName,
                "step 'stored type name': the runtime names \(storable) '\(ValueTypeName.of(storable))', the table '\(type.storedTypeName)'")
        #expect(!storable.isOptional && storable._columnCount == 1 && storable._compositeType == nil,
                "step 'SQLStorable': \(storable) is a one-column value")
    }

    /// Step "sort": SQL sorts the type as the table's collation says (`SortableKind`, Predicate/SortSQL.swift).
    @Test(arguments: ScalarType.allCases) func sortAgreesWithTheTable(_ type: ScalarType) {
        let kind = SortableKind(type.storableType)
        switch (type.facts.sort, kind) {
        case (nil, nil), (.plain?, .plain?), (.localizedString?, .string?), (.decimal?, .decimal?):
            break
        default:
            Issue.record("step 'sort': SortableKind of \(type.storableType) is \(kind.map { "\($0)" } ?? "nil"), the table's collation is \(type.facts.sort.map { "\($0)" } ?? "nil")")
        }
    }

    /// Each storage class is one storage type, and each store's column type for it is the table's.
    @Test func storageClassesAreTheStorageTypes() {
        for storageClass in StorageClass.allCases {
            let storageType = StorageType(storageClass)
            #expect(storageType.storageClass == storageClass)
            #expect(storageType.affinity.rawValue == storageClass.sqliteColumnType, "\(storageClass): SQLite affinity")
            #expect(SQLiteDialect().columnType(storageType) == storageClass.sqliteColumnType)
            #expect(PostgresDialect().columnType(storageType) == storageClass.postgresColumnType)
        }
    }

    /// Widening (`storedTypeWidens`, both sides' rule) against Swift's own conversions of the
    /// types' extreme values: an integer widens to a type that holds its `min` and `max`, a binary
    /// floating-point number to one that holds its largest finite value and its least non-zero
    /// magnitude exactly; any other pair only to the same stored type.
    @Test func wideningIsExactConversion() {
        for old in ScalarType.allCases {
            for new in ScalarType.allCases {
                let expected: Bool
                if old.storedTypeName == new.storedTypeName {
                    expected = true
                } else if let oldInteger = old.storableType as? any FixedWidthInteger.Type, let newInteger = new.storableType as? any FixedWidthInteger.Type {
                    expected = holdsExtremes(of: oldInteger, in: newInteger)
                } else if let oldFloat = old.storableType as? any BinaryFloatingPoint.Type, let newFloat = new.storableType as? any BinaryFloatingPoint.Type {
                    expected = holdsExtremes(of: oldFloat, in: newFloat)
                } else {
                    expected = false
                }
                #expect(storedTypeWidens(old.storedTypeName, to: new.storedTypeName) == expected, "\(old.swiftName) → \(new.swiftName)")
                #expect(storedTypeWidens("[\(old.storedTypeName)]", to: "[\(new.storedTypeName)]") == expected, "[\(old.swiftName)] → [\(new.swiftName)]")
            }
        }
    }

    private func holdsExtremes<Old: FixedWidthInteger, New: FixedWidthInteger>(of old: Old.Type, in new: New.Type) -> Bool {
        New(exactly: Old.min) != nil && New(exactly: Old.max) != nil
    }

    private func holdsExtremes<Old: BinaryFloatingPoint, New: BinaryFloatingPoint>(of old: Old.Type, in new: New.Type) -> Bool {
        New(exactly: Old.greatestFiniteMagnitude) != nil && New(exactly: Old.leastNonzeroMagnitude) != nil
    }

    /// Step "both dialects": every type's values go into a column of the type the store's dialect
    /// declares for it (`columnType`), through the type's own bind, and come back through its own
    /// read, on every store.
    @Test(arguments: StoreKind.allCases) func everyTypeRoundTripsThroughItsColumn(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let connection = try ModelContainer.makeDriver(store.configuration).makeConnection()
        for type in ScalarType.allCases {
            let table = SQLQuote.identifier("scalar_" + type.rawValue)
            let column = connection.dialect.columnType(StorageType(type.facts.storage))
            try connection.execute("CREATE TABLE \(table) (\(SQLQuote.identifier("k")) \(connection.dialect.columnType(.integer)) PRIMARY KEY, \(SQLQuote.identifier("v")) \(column))")
            let values = Self.samples(for: type)
            #expect(values.count >= 2, "step 'SQLStorable': \(type.storableType) reads fewer than two of the sample values of its storage class (.\(type.facts.storage))")
            for (key, value) in values.enumerated() {
                try roundTrip(type.storableType, value, key: Int64(key), table: table, connection: connection, kind: kind)
            }
        }
    }

    /// Values of the type's storage class, extremes included, that the type reads (`init(sqlValue:)`).
    static func samples(for type: ScalarType) -> [SQLValue] {
        var candidates: [SQLValue]
        switch type.facts.storage {
        case .integer:
            candidates = [.integer(0), .integer(1), .integer(-1)]
            if case .integer(let range)? = type.facts.numeric { candidates += [.integer(range.lowerBound), .integer(range.upperBound)] }
        case .real:
            candidates = [.real(0), .real(-0.25), .real(1.5), .real(3.4e38), .real(1e300), .real(Double.leastNonzeroMagnitude)]
        case .text:
            candidates = [.text(""), .text("é ß \u{1F600}"), .text("https://example.com/a?b=c"), .text("file:///tmp/x%20y")]
        case .blob:
            candidates = [.blob(Data()), .blob(Data([0, 1, 255]))]
        case .uuid:
            candidates = [.blob(Data((0..<16).map { UInt8($0 * 17) })), .blob(Data(repeating: 0, count: 16))]
        case .decimal:
            candidates = [.text("0"), .text("0.1"), .text("-12345678901234567890.25")]
        case .json:
            candidates = [.text("[]")]
        }
        return candidates.filter { value in
            guard let read = type.storableType.init(sqlValue: value) else { return false }
            return read.sqlValue == value
        }
    }

    private func roundTrip<T: SQLStorable>(_ type: T.Type, _ stored: SQLValue, key: Int64, table: String, connection: any StoreConnection, kind: StoreKind) throws {
        let value = try #require(T(sqlValue: stored))
        let insert = try connection.statement("INSERT INTO \(table) VALUES (?, ?)")
        insert.bindInt64(key, at: 1)
        value.bind(to: insert, at: 2)
        _ = try insert.step()
        insert.reset()
        let select = try connection.statement("SELECT \(SQLQuote.identifier("v")) FROM \(table) WHERE \(SQLQuote.identifier("k")) = ?")
        select.bindInt64(key, at: 1)
        #expect(try select.step())
        let read = T.read(from: select, at: 0)
        select.reset()
        #expect(read?.sqlValue == value.sqlValue, "step 'both dialects': \(T.self) \(stored) on \(kind) came back as \(read.map { "\($0.sqlValue)" } ?? "nil")")
    }
}
