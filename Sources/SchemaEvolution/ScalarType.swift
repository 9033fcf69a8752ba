/// A built-in value type of the `.model` language (docs/Language.md, "Types"): the one table of what
/// the generator and the runtime know about it. Enums, structs and arrays are built from these.
///
/// Each type is one row of `facts`, an exhaustive `switch`: a new case does not compile until it has
/// its row, and then every place that must act on it (ModelGenKit's `ValueType`, ModelStore's
/// `SQLStorable` conformance, a new storage class, default form or sort collation) is another
/// exhaustive `switch` the compiler points at. docs/Architecture.md ("A type the language accepts")
/// lists the steps; `ScalarTypeRecipeTests` (generator) and `ScalarTypeStoreTests` (runtime) check
/// every case against each of them.
package enum ScalarType: String, CaseIterable, Sendable {
    case bool, int, int8, int16, int32, int64, uint8, uint16, uint32
    case double, float, string, date, uuid, data, url, decimal
    /// Foundation's alias of `Double`: stored as a `Double`, spelled `TimeInterval`.
    case timeInterval
    /// Foundation's `CGFloat` (on Linux too): stored as a `Double`, spelled `CGFloat`.
    case cgFloat

    /// What is known of the type.
    package var facts: ScalarFacts {
        switch self {
        case .bool:
            ScalarFacts("Bool", storage: .integer, numeric: nil, defaultLiteral: .boolean, sort: nil)
        case .int:
            ScalarFacts("Int", storage: .integer, numeric: .integer(Int64(Int.min)...Int64(Int.max)), defaultLiteral: .integer, sort: .plain)
        case .int8:
            ScalarFacts("Int8", storage: .integer, numeric: .integer(Int64(Int8.min)...Int64(Int8.max)), defaultLiteral: .integer, sort: .plain)
        case .int16:
            ScalarFacts("Int16", storage: .integer, numeric: .integer(Int64(Int16.min)...Int64(Int16.max)), defaultLiteral: .integer, sort: .plain)
        case .int32:
            ScalarFacts("Int32", storage: .integer, numeric: .integer(Int64(Int32.min)...Int64(Int32.max)), defaultLiteral: .integer, sort: .plain)
        case .int64:
            ScalarFacts("Int64", storage: .integer, numeric: .integer(Int64.min...Int64.max), defaultLiteral: .integer, sort: .plain)
        case .uint8:
            ScalarFacts("UInt8", storage: .integer, numeric: .integer(0...Int64(UInt8.max)), defaultLiteral: .integer, sort: .plain)
        case .uint16:
            ScalarFacts("UInt16", storage: .integer, numeric: .integer(0...Int64(UInt16.max)), defaultLiteral: .integer, sort: .plain)
        case .uint32:
            ScalarFacts("UInt32", storage: .integer, numeric: .integer(0...Int64(UInt32.max)), defaultLiteral: .integer, sort: .plain)
        case .double:
            ScalarFacts("Double", storage: .real, numeric: .binaryFloatingPoint(bits: 64), defaultLiteral: .number, sort: .plain)
        case .float:
            // Stored as the Double that holds it exactly.
            ScalarFacts("Float", storage: .real, numeric: .binaryFloatingPoint(bits: 32), defaultLiteral: .number, sort: .plain)
        case .string:
            ScalarFacts("String", storage: .text, numeric: nil, defaultLiteral: .string, sort: .localizedString)
        case .date:
            // Seconds since 2001-01-01, to the bit.
            ScalarFacts("Date", storage: .real, numeric: nil, defaultLiteral: .date, sort: .plain)
        case .uuid:
            // 16 bytes, compared bytewise as Foundation's `<` does.
            ScalarFacts("UUID", storage: .uuid, numeric: nil, defaultLiteral: .newUUID, sort: .plain)
        case .data:
            ScalarFacts("Data", storage: .blob, numeric: nil, defaultLiteral: .bytes, sort: nil)
        case .url:
            // Its absolute string.
            ScalarFacts("URL", storage: .text, numeric: nil, defaultLiteral: nil, sort: nil)
        case .decimal:
            // Exact decimal text (SQLite), `numeric` (PostgreSQL).
            ScalarFacts("Decimal", storage: .decimal, numeric: .decimal, defaultLiteral: .number, sort: .decimal)
        case .timeInterval:
            ScalarFacts("TimeInterval", storedAs: "Double", storage: .real, numeric: .binaryFloatingPoint(bits: 64), defaultLiteral: .number, sort: .plain)
        case .cgFloat:
            ScalarFacts("CGFloat", storedAs: "Double", storage: .real, numeric: .binaryFloatingPoint(bits: 64), defaultLiteral: .number, sort: .plain)
        }
    }

    /// The name in `.model` text and in Swift (`UInt16`, `TimeInterval`).
    package var swiftName: String { facts.swiftName }

    /// The name the stored schema records (ModelStore's `ValueTypeName`, ModelGenKit's `SchemaDiff`):
    /// the Swift name, but `Double` for `TimeInterval` and `CGFloat`, so a property may go from one
    /// to another without a migration.
    package var storedTypeName: String { facts.storedTypeName }

    /// The storage kind generated code's view model names (the `valueKind` template key,
    /// docs/Generation.md): the stored type name in lower case (`uint16`, `double` for `CGFloat`).
    package var valueKind: String { facts.storedTypeName.lowercased() }

    /// The type of each Swift name.
    private static let bySwiftName: [String: ScalarType] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.swiftName, $0) })

    /// The type a stored type name denotes (the first case recording it: `Double` for `Double`).
    private static let byStoredName: [String: ScalarType] = Dictionary(allCases.map { ($0.storedTypeName, $0) }, uniquingKeysWith: { first, _ in first })

    /// The type spelled `name` in `.model` text (`UInt16`), if it is built in.
    package init?(swiftName name: String) {
        guard let type = Self.bySwiftName[name] else { return nil }
        self = type
    }

    /// The type a stored schema names `name` (`Double` for a stored `TimeInterval`), if built in.
    package init?(storedTypeName name: String) {
        guard let type = Self.byStoredName[name] else { return nil }
        self = type
    }

    /// Whether a stored value of this type always converts to `target` without loss (inferred
    /// widening, docs/Migrations.md): an integer into one whose range holds its range, a binary
    /// floating-point number into one at least as wide (`Float` → `Double`), or the same stored type.
    package func widens(to target: ScalarType) -> Bool {
        if storedTypeName == target.storedTypeName { return true }
        switch (facts.numeric, target.facts.numeric) {
        case (.integer(let range)?, .integer(let targetRange)?):
            return targetRange.lowerBound <= range.lowerBound && range.upperBound <= targetRange.upperBound
        case (.binaryFloatingPoint(let bits)?, .binaryFloatingPoint(let targetBits)?):
            return bits <= targetBits
        default:
            return false
        }
    }
}

/// One row of the table (`ScalarType.facts`).
package struct ScalarFacts: Sendable {
    /// The name in `.model` text and in Swift.
    package var swiftName: String
    /// The name the stored schema records (the Swift name unless stored as another type).
    package var storedTypeName: String
    /// How a store keeps it (one column).
    package var storage: StorageClass
    /// Its values as numbers, for widening and for checking a default's range; nil when not a number.
    package var numeric: NumericDomain?
    /// The literal a default of this type is written as; nil when it has none (`URL`).
    package var defaultLiteral: DefaultLiteralForm?
    /// How SQL sorts it as Swift's `<` does; nil when not `Comparable` (`Bool`, `Data`, `URL`).
    package var sort: SortCollation?

    init(_ swiftName: String, storedAs storedTypeName: String? = nil, storage: StorageClass, numeric: NumericDomain?,
         defaultLiteral: DefaultLiteralForm?, sort: SortCollation?) {
        self.swiftName = swiftName
        self.storedTypeName = storedTypeName ?? swiftName
        self.storage = storage
        self.numeric = numeric
        self.defaultLiteral = defaultLiteral
        self.sort = sort
    }
}

/// What a column holds, with each store's column type for it (ModelStore's `StorageType`, one case
/// for each case here).
package enum StorageClass: String, CaseIterable, Sendable {
    /// Integers, `Bool` (0/1), enums with `Int` raw values.
    case integer
    /// `Double`, `Float`, `Date` (seconds since 2001-01-01).
    case real
    /// `String`, `URL`, enums with `String` raw values.
    case text
    /// `Data`.
    case blob
    /// `UUID` (16 bytes).
    case uuid
    /// `Decimal` (exact).
    case decimal
    /// Arrays and other Codable values, as JSON text.
    case json

    /// SQLite's column type: the affinity the stored schema records.
    package var sqliteColumnType: String {
        switch self {
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text, .decimal, .json: "TEXT"
        case .blob, .uuid: "BLOB"
        }
    }

    /// PostgreSQL's column type (docs/PostgreSQL.md).
    package var postgresColumnType: String {
        switch self {
        case .integer: "bigint"
        case .real: "double precision"
        case .text: "text"
        case .blob: "bytea"
        case .uuid: "uuid"
        case .decimal: "numeric"
        case .json: "jsonb"
        }
    }
}

/// A type's values as numbers.
package enum NumericDomain: Hashable, Sendable {
    /// Integers in the range (as SQLite's 64-bit integers hold them).
    case integer(ClosedRange<Int64>)
    /// IEEE binary floating point of `bits` bits (32: `Float`, 64: `Double`).
    case binaryFloatingPoint(bits: Int)
    /// Exact decimal numbers (`Decimal`).
    case decimal
}

/// How a default value of a type is written (docs/Language.md, "Defaults").
package enum DefaultLiteralForm: Hashable, Sendable {
    /// `true` or `false`.
    case boolean
    /// An integer literal in the type's range (`NumericDomain.integer`).
    case integer
    /// An integer or floating-point literal that is a finite value of the type (`NumericDomain`).
    case number
    /// A string literal (without U+0000, which the stores cannot keep).
    case string
    /// `Date()`, `.now`, `.distantPast`, `.distantFuture` (also `Date.`-qualified) or
    /// `Date(timeIntervalSinceReferenceDate: n)`.
    case date
    /// `UUID()`.
    case newUUID
    /// An array of integer literals 0...255 (`[]` included).
    case bytes
}

/// How SQL orders a type's values as Swift's `<` does (ModelStore's `SortableKind`, docs/Predicates.md).
package enum SortCollation: Hashable, Sendable {
    /// The store's own order of numbers and bytes.
    case plain
    /// `localizedStandardCompare` (SQLite's `MODELSTORE_LOCALIZED_STANDARD` collation, PostgreSQL's ICU collation).
    case localizedString
    /// As numbers (SQLite's `MODELSTORE_DECIMAL` collation over the text, PostgreSQL's `numeric`).
    case decimal
}
