import Foundation

extension PredicateExpressions.Equal: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        .scalar(try Equality.sql(lhs, rhs, negated: false, &context))
    }
}

extension PredicateExpressions.NotEqual: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        .scalar(try Equality.sql(lhs, rhs, negated: true, &context))
    }
}

extension PredicateExpressions.Comparison: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let left = try context.scalar(lhs)
        let right = try context.scalar(rhs)
        let symbol: String
        switch op {
        case .lessThan: symbol = "<"
        case .lessThanOrEqual: symbol = "<="
        case .greaterThan: symbol = ">"
        case .greaterThanOrEqual: symbol = ">="
        }
        // Both sides are non-optional in Swift, so never NULL where the result counts.
        return .scalar(ScalarTerm(context.dialect.compare(left.fragment, symbol, right.fragment, kind: left.kind), kind: .plain))
    }
}

/// `==` and `!=` with Swift's meaning for optionals: `nil == nil` is true, `nil == x` false.
/// SQL's `IS` / `IS NOT` (PostgreSQL's `IS NOT DISTINCT FROM`) compare NULLs that way and never
/// yield NULL.
enum Equality {
    static func sql(_ lhs: Any, _ rhs: Any, negated: Bool, _ context: inout TranslationContext) throws -> ScalarTerm {
        let dialect = context.dialect
        switch (try context.translate(lhs), try context.translate(rhs)) {
        case (.scalar(let left), .scalar(let right)):
            let kind = left.isNilLiteral ? right.kind : left.kind
            // Two Bools, one a stored value and the other a condition: compared as values.
            if (left.kind == .bool) != (right.kind == .bool) {
                return ScalarTerm(dialect.same(dialect.boolValue(left), dialect.boolValue(right), negated: negated, kind: .bool), kind: .plain)
            }
            if !negated, let indexed = IndexedEquality.sql(left, right, dialect) { return ScalarTerm(indexed, kind: .plain) }
            return ScalarTerm(dialect.same(left.fragment, right.fragment, negated: negated, kind: kind), kind: .plain)
        case (.model(let left), .model(let right)):
            return ScalarTerm(dialect.same(left.key, right.key, negated: negated, kind: .plain), kind: .plain)
        case (.identifier(let model), .scalar(let value)), (.scalar(let value), .identifier(let model)):
            let match = try IdentitySQL.equals(model, value, &context)
            return ScalarTerm(negated ? "(NOT \(match))" : match, kind: .plain)
        case (.identifier(let left), .identifier(let right)):
            // Two rows of one table are the same model when their keys are; of two tables,
            // only when both are nil.
            let same: SQLFragment = left.entity.tableName == right.entity.tableName
                ? dialect.same(left.key, right.key, negated: false, kind: .plain) : "(\(left.key) IS NULL AND \(right.key) IS NULL)"
            return ScalarTerm(negated ? "(NOT \(same))" : same, kind: .plain)
        case (.model(let model), .scalar(let value)), (.scalar(let value), .model(let model)):
            guard value.isNilLiteral else {
                throw PredicateTranslationError.unsupported("a model compared with a value")
            }
            return ScalarTerm("(\(model.key) \(raw: negated ? "IS NOT" : "IS") NULL)", kind: .plain)
        case (.composite(let composite), .scalar(let value)), (.scalar(let value), .composite(let composite)):
            let match = try CompositeEquality.equals(composite, value, &context)
            return ScalarTerm(negated ? "(NOT \(match))" : match, kind: .plain)
        default:
            throw PredicateTranslationError.unsupported("== or != on a to-many relationship, or between a struct and a model or another struct")
        }
    }
}

/// `==` between a column and a non-nil captured value, spelled so an index on the column serves
/// it, with Swift's answer kept (docs/Predicates.md, "Equality and indexes"): values the store
/// compares as the index does go to `columnIn` as they are; a `String` goes with every text equal
/// to it under canonical equivalence, or as a byte-prefix range and the equality
/// (`CanonicalEquivalents`). Nil when neither applies: then `same`, which no index serves.
enum IndexedEquality {
    static func sql(_ left: ScalarTerm, _ right: ScalarTerm, _ dialect: any SQLDialect) -> SQLFragment? {
        let (column, value) = left.isColumn ? (left, right) : (right, left)
        guard column.isColumn, !value.isColumn, column.kind == value.kind, let constant = value.constant,
              let stored = CapturedValue.sqlValue(of: constant), !stored.isNull else { return nil }
        if column.kind == .string {
            guard case .text(let text) = stored else { return nil }
            switch CanonicalEquivalents.lookup(text) {
            case .exact(let spellings):
                return dialect.columnIn(column.fragment, spellings.map { dialect.parameter(.text($0), type: String.self) })
            case .prefix(let prefix):
                return dialect.columnEquals(column.fragment, value.fragment, prefix: prefix)
            case .none:
                return nil
            }
        }
        guard dialect.comparesAsIndexed(column.kind) else { return nil }
        return dialect.columnIn(column.fragment, [value.fragment])
    }

    /// `values.contains(column)` for distinct non-nil captured `values` of the column's type, as
    /// `columnIn` (beyond `CapturedList.longList` values, spellings included, as one parameter);
    /// nil otherwise.
    static func membership(_ column: ScalarTerm, _ values: [(value: SQLValue, type: Any.Type)], _ dialect: any SQLDialect) -> SQLFragment? {
        guard column.isColumn, let first = values.first else { return nil }
        var list = values
        if column.kind == .string {
            // The values are distinct under Swift's `==` (the caller's set), so their spellings are.
            list = []
            for (value, type) in values {
                guard case .text(let text) = value, case .exact(let equal) = CanonicalEquivalents.lookup(text) else { return nil }
                list += equal.map { (SQLValue.text($0), type) }
            }
        } else if column.kind == .bool || !dialect.comparesAsIndexed(column.kind) {
            return nil
        }
        if list.count > CapturedList.longList {
            guard list.allSatisfy({ $0.type == first.type }) else { return nil }
            return dialect.columnIn(column.fragment, values: list.map(\.value), type: first.type)
        }
        return dialect.columnIn(column.fragment, list.map { dialect.parameter($0.value, type: $0.type) })
    }
}

/// A struct compared with `nil` or with a captured struct: column by column, as its columns store
/// it, each compared as Swift compares the field's type (spelled by the dialect).
enum CompositeEquality {
    static func equals(_ composite: CompositeReference, _ value: ScalarTerm, _ context: inout TranslationContext) throws -> SQLFragment {
        let dialect = context.dialect
        let never: SQLFragment = "\(raw: dialect.falseCondition)"
        let isNil = composite.isNil ?? never
        if value.isNilLiteral { return "(\(isNil))" }
        guard let constant = value.constant as? any SQLStorable else {
            throw PredicateTranslationError.unsupported("a struct compared with a value that is not a captured struct")
        }
        let columns = composite.columns
        var stored = storedValues(of: constant)
        let hasPresence = columns.first.map { $0.details.isPresence && $0.details.fieldPath.count == composite.path.count } ?? false
        if stored.count == columns.count + 1 {
            // A captured optional against a struct that cannot be nil.
            if stored[0] == .null { return never }
            stored.removeFirst()
        } else if stored.count == columns.count - 1, hasPresence {
            stored.insert(.integer(1), at: 0)
        }
        guard stored.count == columns.count else {
            throw PredicateTranslationError.unsupported("a struct compared with a captured value of another type")
        }
        if hasPresence, stored[0] == .null { return "(\(isNil))" }
        var tests: [SQLFragment] = ["(NOT \(isNil))"]
        for (column, value) in zip(columns, stored) {
            let kind: ValueKind = column.details.valueType == "String" ? .string : column.details.valueType == "Decimal" ? .decimal : .plain
            tests.append(dialect.same(composite.model.column(column.column, &context), .parameter(value), negated: false, kind: kind))
        }
        return "(\(SQLFragment.joined(tests, separator: " AND ")))"
    }

    private static func storedValues<Value: SQLStorable>(of value: Value) -> [SQLValue] {
        RowEncoder.storedValues(of: value)
    }
}

/// `persistentModelID` compared with captured identifiers. A model's identifier is its store, its
/// entity name and its row key (`PersistentIdentifier`), so an identifier of this store matches
/// the row with that key whose type column names that entity. A temporary identifier (of a model
/// not saved yet), one of another store (or naming no store: compared exactly, as `==` does in
/// memory; docs/Runtime.md, "Identifiers") or one of an entity stored in another table matches
/// no stored row.
enum IdentitySQL {
    /// `model.persistentModelID == value` (0 or 1), `value` a captured identifier or nil.
    static func equals(_ model: ModelReference, _ value: ScalarTerm, _ context: inout TranslationContext) throws -> SQLFragment {
        if value.isNilLiteral { return "(\(model.key) IS NULL)" }
        guard let constant = value.constant else {
            throw PredicateTranslationError.unsupported("persistentModelID compared with a value that is not a captured PersistentIdentifier")
        }
        switch identifier(constant) {
        case .some(.some(let identifier)): return matches(model, [identifier], &context)
        case .some(.none): return "(\(model.key) IS NULL)"
        case .none: throw PredicateTranslationError.unsupported("persistentModelID compared with a captured \(type(of: constant))")
        }
    }

    /// `identifiers.contains(model.persistentModelID)` (0 or 1); `nil` among them matches no model.
    static func contains(_ model: ModelReference, in elements: [Any], _ context: inout TranslationContext) throws -> SQLFragment {
        var identifiers: [PersistentIdentifier] = []
        var includesNil = false
        for element in elements {
            switch identifier(element) {
            case .some(.some(let identifier)): identifiers.append(identifier)
            case .some(.none): includesNil = true
            case .none: throw PredicateTranslationError.unsupported("contains(_:) on captured values of type \(type(of: element))")
            }
        }
        let match = matches(model, identifiers, &context)
        return includesNil ? "(\(match) OR \(model.key) IS NULL)" : match
    }

    /// The identifier in a captured value: `.some(id)`, `.some(nil)` for nil, `.none` for
    /// another type.
    private static func identifier(_ value: Any) -> PersistentIdentifier?? {
        if let optional = value as? any OptionalTypeInfo {
            guard let wrapped = optional.wrappedAny else { return .some(nil) }
            return identifier(wrapped)
        }
        guard let identifier = value as? PersistentIdentifier else { return .none }
        return .some(identifier)
    }

    /// Whether the model's row is one of the saved models `identifiers` name (0 or 1).
    private static func matches(_ model: ModelReference, _ identifiers: [PersistentIdentifier], _ context: inout TranslationContext) -> SQLFragment {
        var rowsByEntity: [(entity: String, rows: [Int64])] = []
        // Duplicates dropped through a set: linear in the number of identifiers (#26, item 10).
        var seen = Set<RowOfEntity>()
        for identifier in identifiers {
            guard let row = identifier.rowID, identifier.storeIdentifier == context.store,
                  let entity = context.schema.entity(named: identifier.entityName),
                  entity.tableName == model.entity.tableName,
                  seen.insert(RowOfEntity(entity: entity.index, row: row)).inserted else { continue }
            if let index = rowsByEntity.firstIndex(where: { $0.entity == entity.name }) {
                rowsByEntity[index].rows.append(row)
            } else {
                rowsByEntity.append((entity.name, [row]))
            }
        }
        if rowsByEntity.isEmpty { return "\(raw: context.dialect.falseCondition)" }
        // A table of one entity needs no type test.
        let oneType = (context.schema.entity(named: model.entity.tableName)?.typeNames.count ?? 0) == 1
        // The keys as one `IN` (or `IS` / `=`) the row key's index serves, never NULL (a long list
        // as one parameter, as for captured values: `CapturedList.longList`), then in a table of
        // several entities the type of each key (docs/Predicates.md, "Equality and indexes").
        let dialect = context.dialect
        func keys(_ rows: [Int64]) -> SQLFragment {
            if rows.count > CapturedList.longList, let one = dialect.columnIn(model.key, values: rows.map(SQLValue.integer), type: Int64.self) {
                return one
            }
            return dialect.columnIn(model.key, rows.map { .parameter(.integer($0)) })
        }
        let all = keys(rowsByEntity.flatMap(\.rows))
        if oneType { return all }
        let typeColumn = model.typeColumn(&context)
        if rowsByEntity.count == 1 {
            return "(\(all) AND \(typeColumn) = \(SQLFragment.parameter(.text(rowsByEntity[0].entity))))"
        }
        let types = rowsByEntity.map { entity, rows -> SQLFragment in
            "(\(keys(rows)) AND \(typeColumn) = \(SQLFragment.parameter(.text(entity))))"
        }
        return "(\(all) AND (\(SQLFragment.joined(types, separator: " OR "))))"
    }
}

/// A row of one entity, for dropping repeated identifiers.
private struct RowOfEntity: Hashable {
    let entity: Int
    let row: Int64
}
