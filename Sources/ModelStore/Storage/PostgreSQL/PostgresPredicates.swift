import Foundation

// How `#Predicate` and `SortDescriptor` read on PostgreSQL (docs/PostgreSQL.md, "Predicates").
// SQLite runs Swift's own code in registered functions; PostgreSQL cannot, so each operation is
// the built-in SQL closest to Swift's semantics, checked against Foundation by the predicate, sort
// and pending-changes oracles, which run on every store (Tests/ModelStoreTests/Predicate/, Query/),
// and for sorts on 3,000 hard strings (PostgreSQLCollationTests):
//
// - `==`, `<`…: Swift compares the NFC forms of strings in code point order (canonical
//   equivalence): `normalize(x, NFC)`, ordered `COLLATE "C"`. Exact.
// - `contains`, `starts(with:)`, `count`: Swift works on Characters (grapheme clusters); SQL on the
//   code points of the NFC forms. They differ only where a Character holds several code points
//   after normalization and a search or a count cuts through it: `"q\u{307}".contains("q")` is
//   false in Swift, true here; `"🇫🇷".count` is 1 in Swift, 2 here.
// - `localizedStandardContains` and `caseInsensitiveCompare`: Foundation folds case fully (ß is
//   ss) and, for the former, drops diacritics; here `lower(upper(…))` under ICU's root collation
//   (`und-x-icu`, so the server needs ICU) with dotless ı kept apart, and the marks U+0300–U+036F
//   removed from the NFD form. Foundation's own quirks are not reproduced: `"ﬁne"` does not
//   `localizedStandardContain` "i" in Foundation, it does here.
extension PostgresDialect {
    var trueCondition: String { "TRUE" }
    var falseCondition: String { "FALSE" }

    /// A stored Bool (`bigint` 0/1) is a condition when it is not 0.
    func condition(_ term: ScalarTerm) -> SQLFragment {
        term.kind == .bool ? "(\(term.fragment) <> 0)" : term.fragment
    }

    /// A condition as a stored Bool: 1, 0, or NULL.
    func boolValue(_ term: ScalarTerm) -> SQLFragment {
        term.kind == .bool ? term.fragment : "CAST(\(term.fragment) AS integer)"
    }

    /// Parameters are cast to the column type of their Swift type: PostgreSQL infers a parameter's
    /// type from its context, and some contexts say nothing (`? IS NULL`, `CASE … THEN ?`).
    func parameter(_ value: SQLValue, type: Any.Type) -> SQLFragment {
        guard let sqlType = parameterType(type, value) else { return .parameter(value) }
        return "CAST(\(SQLFragment.parameter(value)) AS \(raw: sqlType))"
    }

    private func parameterType(_ type: Any.Type, _ value: SQLValue) -> String? {
        if type == Bool.self || type == ComparisonResult.self { return columnType(.integer) }
        if let storable = type as? any SQLStorable.Type { return columnType(storable.storageType) }
        switch value {
        case .null: return nil
        case .integer: return columnType(.integer)
        case .real: return columnType(.real)
        case .text: return columnType(.text)
        case .blob: return columnType(.blob)
        }
    }

    func compare(_ lhs: SQLFragment, _ op: String, _ rhs: SQLFragment, kind: ValueKind) -> SQLFragment {
        guard kind == .string else { return "(\(lhs) \(raw: op) \(rhs))" }
        // A captured text s = p + U+0000 + …: a stored text t (which holds no U+0000) is below s
        // exactly when t <= p, above it when t > p (#26, item 9).
        if let text = Self.nulText(rhs) {
            return compare(lhs, op.hasPrefix("<") ? "<=" : ">", parameter(.text(Self.beforeNUL(text)), type: String.self), kind: kind)
        }
        if Self.nulText(lhs) != nil {
            let flipped = ["<": ">", "<=": ">=", ">": "<", ">=": "<="][op] ?? op
            return compare(rhs, flipped, lhs, kind: kind)
        }
        return "(\(nfc(lhs)) COLLATE \"C\" \(raw: op) \(nfc(rhs)))"
    }

    func same(_ lhs: SQLFragment, _ rhs: SQLFragment, negated: Bool, kind: ValueKind) -> SQLFragment {
        // A captured text holding U+0000 equals no stored value, nor nil (#26, item 9).
        if let left = Self.nulText(lhs) ?? Self.nulText(rhs) {
            if let right = Self.nulText(lhs) == nil ? nil : Self.nulText(rhs) { return (left == right) != negated ? "TRUE" : "FALSE" }
            return negated ? "TRUE" : "FALSE"
        }
        let isNull = negated ? "IS NOT NULL" : "IS NULL"
        if Self.isNullLiteral(rhs) { return "(\(lhs) \(raw: isNull))" }
        if Self.isNullLiteral(lhs) { return "(\(rhs) \(raw: isNull))" }
        let op = negated ? "IS DISTINCT FROM" : "IS NOT DISTINCT FROM"
        guard kind == .string else { return "(\(lhs) \(raw: op) \(rhs))" }
        return "(\(nfc(lhs)) \(raw: op) \(nfc(rhs)))"
    }

    /// `=` (or `IN`) with `IS NOT NULL`: never NULL, and served by a B-tree index on the column,
    /// which `IS NOT DISTINCT FROM` never is. A captured text holding U+0000 equals no stored
    /// text (#26, item 9).
    func columnIn(_ column: SQLFragment, _ values: [SQLFragment]) -> SQLFragment {
        let values = values.filter { Self.nulText($0) == nil }
        guard let first = values.first else { return "FALSE" }
        if values.count == 1 { return "(\(column) = \(first) AND \(column) IS NOT NULL)" }
        return "(\(column) IN (\(SQLFragment.joined(values, separator: ", "))) AND \(column) IS NOT NULL)"
    }

    /// Numbers, dates, Decimals (`numeric`), Bools, UUIDs, bytes compare with `=` as Swift does.
    func comparesAsIndexed(_ kind: ValueKind) -> Bool {
        switch kind {
        case .plain, .bool, .float, .decimal: return true
        default: return false
        }
    }

    /// A text column's index orders by the database's collation, which need not be bytewise: no
    /// byte range.
    func columnEquals(_ column: SQLFragment, _ value: SQLFragment, prefix: String) -> SQLFragment? { nil }

    func isIn(_ item: SQLFragment, _ list: [SQLFragment], kind: ValueKind) -> SQLFragment {
        // A captured text holding U+0000 equals no stored text (#26, item 9).
        let list = list.filter { Self.nulText($0) == nil }
        guard !list.isEmpty else { return "FALSE" }
        let values = kind == .string ? list.map(nfc) : list
        return "COALESCE(\(kind == .string ? nfc(item) : item) IN (\(SQLFragment.joined(values, separator: ", "))), FALSE)"
    }

    /// `= ANY` of one array parameter (`arrayParameter`), which a B-tree index on the column serves.
    func columnIn(_ column: SQLFragment, values: [SQLValue], type: Any.Type) -> SQLFragment? {
        guard let array = arrayParameter(values, type: type) else { return nil }
        guard let array = array else { return "FALSE" }
        return "(\(column) = ANY(\(array)) AND \(column) IS NOT NULL)"
    }

    /// One array parameter (`item = ANY(CAST(? AS type[]))`) in the text form of a PostgreSQL
    /// array, whatever the number of values (one parameter per value overflows the protocol's
    /// message past a few thousand; #26, item 11). Values no stored value can equal (text holding
    /// U+0000, a `uuid` of other than 16 bytes) are left out.
    func isIn(_ item: SQLFragment, values: [SQLValue], type: Any.Type, kind: ValueKind) -> SQLFragment? {
        guard let array = arrayParameter(values, type: type) else { return nil }
        guard let array = array else { return "FALSE" }
        if kind == .string {
            return "COALESCE(\(nfc(item)) IN (SELECT normalize(\"v\", NFC) FROM unnest(\(array)) AS \"v\"), FALSE)"
        }
        return "COALESCE(\(item) = ANY(\(array)), FALSE)"
    }

    /// `values` as one parameter cast to an array of their column type; `.some(nil)` when no value
    /// is left (each held U+0000, or was a `uuid` of other than 16 bytes), nil when they cannot be
    /// one (`jsonb`, or no type).
    private func arrayParameter(_ values: [SQLValue], type: Any.Type) -> SQLFragment?? {
        guard let first = values.first, let elementType = parameterType(type, first), elementType != "jsonb" else { return nil }
        var literal = "{"
        var count = 0
        for value in values {
            var element: String
            switch value {
            case .null: continue
            case .integer(let integer): element = String(integer)
            case .real(let real): element = PostgresParameters.text(of: real)
            case .text(let text):
                guard !text.utf8.contains(0) else { continue }
                element = text
            case .blob(let data):
                if elementType == "uuid" {
                    guard data.count == 16 else { continue }
                    element = UUID(uuid: data.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }).uuidString
                } else {
                    element = "\\x" + data.map { String(format: "%02x", $0) }.joined()
                }
            }
            if count > 0 { literal += "," }
            count += 1
            literal += "\""
            for character in element.unicodeScalars {
                if character == "\"" || character == "\\" { literal += "\\" }
                literal.unicodeScalars.append(character)
            }
            literal += "\""
        }
        literal += "}"
        guard count > 0 else { return .some(nil) }
        return .some("CAST(\(SQLFragment.parameter(.text(literal))) AS \(raw: elementType)[])")
    }

    func jsonElements(of array: SQLFragment, alias: String, element: JSONElementType) -> (source: SQLFragment, value: SQLFragment) {
        let text: SQLFragment = "\(identifier: alias).\"value\""
        let value: SQLFragment
        switch element {
        case .integer: value = "CAST(\(text) AS bigint)"
        case .real: value = "CAST(\(text) AS double precision)"
        case .bool: value = "(CASE \(text) WHEN 'true' THEN 1 WHEN 'false' THEN 0 END)"
        case .text, .other: value = text
        }
        return ("jsonb_array_elements_text(\(array)) AS \(identifier: alias)(\"value\")", value)
    }

    func jsonArrayLength(_ array: SQLFragment) -> SQLFragment { "jsonb_array_length(\(array))" }

    func aggregate(_ function: String, of value: SQLFragment, kind: ValueKind) -> SQLFragment {
        kind == .string ? "\(raw: function)(\(nfc(value)) COLLATE \"C\")" : "\(raw: function)(\(value))"
    }

    func stringSearch(_ search: StringSearchKind, _ text: SQLFragment, _ other: SQLFragment) -> SQLFragment {
        // A stored text holds no U+0000, so it contains no captured text that does; a captured text
        // that does contains a stored one exactly when one of its pieces between U+0000 does
        // (starts with: the first piece) (#26, item 9).
        if Self.nulText(other) != nil { return "FALSE" }
        if let captured = Self.nulText(text) {
            let pieces = captured.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
            let searched = search == .startsWith ? [pieces[0]] : pieces
            let parts = searched.map { stringSearch(search, parameter(.text($0), type: String.self), other) }
            return "(\(SQLFragment.joined(parts, separator: " OR ")))"
        }
        switch search {
        case .contains:
            return "(strpos(\(nfc(text)), \(nfc(other))) > 0)"
        case .startsWith:
            return "starts_with(\(nfc(text)), \(nfc(other)))"
        case .localizedStandardContains:
            // Foundation finds nothing in, and nothing of, an empty string.
            return "(\(other) <> '' AND strpos(\(Self.withoutMarks(Self.folded(text))), \(Self.withoutMarks(Self.folded(other)))) > 0)"
        }
    }

    func characterCount(_ text: SQLFragment) -> SQLFragment { "char_length(\(nfc(text)))" }

    func caseInsensitiveCompare(_ text: SQLFragment, _ other: SQLFragment) -> SQLFragment {
        let (left, right) = (Self.folded(text), Self.folded(other))
        return "(CASE WHEN \(left) < \(right) THEN -1 WHEN \(left) = \(right) THEN 0 WHEN \(left) > \(right) THEN 1 END)"
    }

    func floatingPoint(_ number: SQLFragment) -> SQLFragment { "CAST(\(number) AS double precision)" }

    func sortKey(_ value: SQLFragment, _ order: SortKeyOrder) -> SQLFragment? {
        switch order {
        case .string(.lexical): return "\(nfc(value)) COLLATE \"C\""
        case .string(.localizedStandard): return "\(value) COLLATE \(identifier: Self.localizedStandardCollation)"
        case .string(.localized): return "\(value) COLLATE \"und-x-icu\""
        case .decimal: return value
        }
    }

    /// The ICU collation the store creates for `localizedStandardCompare`'s order: ICU's root
    /// collation with digit runs as numbers (`kn`) at tertiary strength (lowercase first), ties by
    /// bytes. The closest PostgreSQL order to Foundation's (docs/PostgreSQL.md, "Sort order", says
    /// where they differ).
    static let localizedStandardCollation = "modelstore_localized_standard"
    /// Its definition.
    static let localizedStandardCollationDefinition = "(provider = icu, locale = 'und-u-kn-true')"

    // MARK: Pieces

    /// The NFC form: Swift's `String` compares canonically equivalent strings equal.
    private func nfc(_ text: SQLFragment) -> SQLFragment { "normalize(\(text), NFC)" }

    /// The text of `fragment` when it is one captured text parameter (as `parameter` writes it)
    /// holding U+0000, which PostgreSQL text cannot hold; nil otherwise.
    static func nulText(_ fragment: SQLFragment) -> String? {
        guard fragment.bindings.count == 1, case .text(let text) = fragment.bindings[0],
              fragment.sql == "?" || fragment.sql == "CAST(? AS text)", text.utf8.contains(0) else { return nil }
        return text
    }

    /// The text before its first U+0000.
    static func beforeNUL(_ text: String) -> String {
        String(decoding: text.utf8.prefix { $0 != 0 }, as: UTF8.self)
    }

    private static func isNullLiteral(_ fragment: SQLFragment) -> Bool {
        fragment.sql == "NULL" && fragment.bindings.isEmpty
    }

    /// Full case folding as Foundation's case-insensitive comparison does it (ß is ss, ﬁ is fi),
    /// on the NFD form: ICU's upper case then lower case, dotless ı kept (Foundation does not
    /// fold it to i) by a private-use stand-in; compared in code point order (`"C"`).
    static func folded(_ text: SQLFragment) -> SQLFragment {
        "(replace(normalize(lower(upper(replace(normalize(\(text), NFD), 'ı', chr(57344)) COLLATE \"und-x-icu\")), NFD), chr(57344), 'ı') COLLATE \"C\")"
    }

    /// A folded text without its combining diacritical marks (U+0300–U+036F).
    static func withoutMarks(_ folded: SQLFragment) -> SQLFragment {
        "regexp_replace(\(folded), '[\\u0300-\\u036f]', '', 'g')"
    }
}
