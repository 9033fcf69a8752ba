import Foundation

/// A `#Predicate` on history transactions as an SQL condition on the transactions table.
struct HistoryFilter {
    /// The condition (`?` placeholders, quoted identifiers, portable SQL).
    var sql: String
    /// The values of the placeholders, in order.
    var bindings: [SQLValue]
    /// The token values the predicate asks for transactions after (`$0.token > t`, `>= t`):
    /// if history after one of them was deleted, the fetch would miss it (`historyTokenExpired`).
    var tokensAfter: [Int64]
}

/// Translates the predicates of `HistoryDescriptor<DefaultHistoryTransaction>`: comparisons of
/// `token`, `transactionIdentifier`, `timestamp` and `author` with captured values or literals,
/// `== nil`, `&&`, `||`, `!`, and constant `true` / `false`. Anything else throws
/// `ModelStoreError.unsupportedPredicate` naming it.
enum HistoryPredicateSQL {
    static func filter(_ predicate: Predicate<DefaultHistoryTransaction>) throws -> HistoryFilter {
        var translation = HistoryTranslation(variable: predicate.variable.key)
        do {
            let condition = try translation.condition(predicate.expression)
            return HistoryFilter(sql: condition.sql, bindings: condition.bindings, tokensAfter: translation.tokensAfter)
        } catch PredicateTranslationError.unsupported(let what) {
            throw ModelStoreError.unsupportedPredicate("history: " + what)
        }
    }

    /// The column a transaction key path stands for.
    static func column(for keyPath: AnyKeyPath) -> HistoryColumn? {
        switch keyPath {
        case \DefaultHistoryTransaction.token, \DefaultHistoryTransaction.transactionIdentifier, \DefaultHistoryTransaction.id:
            return .token
        case \DefaultHistoryTransaction.author:
            return .author
        case \DefaultHistoryTransaction.timestamp:
            return .timestamp
        default:
            return nil
        }
    }
}

/// A column of the transactions table a predicate can use.
enum HistoryColumn: String {
    case token, author, timestamp

    var sql: String { SQLQuote.identifier(rawValue) }
    var isNullable: Bool { self == .author }
}

/// What a history predicate expression translates to.
enum HistoryTerm {
    /// The transaction (`$0`).
    case transaction
    /// A column of the transaction.
    case column(HistoryColumn)
    /// A constant (NULL for nil).
    case value(SQLValue)
    /// A condition.
    case condition(sql: String, bindings: [SQLValue])
}

/// A predicate expression on history transactions that can be written as SQL (Foundation's
/// expression types conform below; any other names itself in the error).
protocol HistorySQLExpression {
    func historyTerm(_ translation: inout HistoryTranslation) throws -> HistoryTerm
}

/// The state of one translation.
struct HistoryTranslation {
    let variable: PredicateExpressions.VariableID
    var tokensAfter: [Int64] = []
    /// How many `!` enclose the expression being translated (a negated `token > t` asks for
    /// nothing after `t`).
    var negations = 0

    mutating func translate(_ expression: Any) throws -> HistoryTerm {
        guard let translatable = expression as? any HistorySQLExpression else {
            throw PredicateTranslationError.unsupported("unsupported predicate expression \(TranslationContext.name(of: expression))")
        }
        return try translatable.historyTerm(&self)
    }

    /// An expression that must be a condition (a constant Bool becomes one).
    mutating func condition(_ expression: Any) throws -> (sql: String, bindings: [SQLValue]) {
        switch try translate(expression) {
        case .condition(let sql, let bindings): return (sql, bindings)
        case .value(.integer(let flag)): return (flag != 0 ? "(1 = 1)" : "(1 = 0)", [])
        default: throw PredicateTranslationError.unsupported("\(TranslationContext.name(of: expression)) is not a condition")
        }
    }

    /// `==` / `!=` with Swift's meaning for nil (`author == nil`, `author != "x"` true for nil).
    mutating func equality(_ lhs: Any, _ rhs: Any, negated: Bool) throws -> HistoryTerm {
        let (column, value) = try columnAndValue(lhs, rhs, what: negated ? "!=" : "==")
        if value == .null {
            return .condition(sql: "(\(column.sql) IS \(negated ? "NOT " : "")NULL)", bindings: [])
        }
        if column.isNullable {
            return negated
                ? .condition(sql: "(\(column.sql) IS NULL OR \(column.sql) <> ?)", bindings: [value])
                : .condition(sql: "(\(column.sql) IS NOT NULL AND \(column.sql) = ?)", bindings: [value])
        }
        return .condition(sql: "(\(column.sql) \(negated ? "<>" : "=") ?)", bindings: [value])
    }

    /// A comparison of a column with a constant, either way round.
    mutating func comparison(_ lhs: Any, _ rhs: Any, _ op: PredicateExpressions.ComparisonOperator) throws -> HistoryTerm {
        var symbol: String
        switch op {
        case .lessThan: symbol = "<"
        case .lessThanOrEqual: symbol = "<="
        case .greaterThan: symbol = ">"
        case .greaterThanOrEqual: symbol = ">="
        }
        let left = try translate(lhs)
        let right = try translate(rhs)
        let column: HistoryColumn
        let value: SQLValue
        switch (left, right) {
        case (.column(let c), .value(let v)):
            (column, value) = (c, v)
        case (.value(let v), .column(let c)):
            (column, value) = (c, v)
            symbol = ["<": ">", "<=": ">=", ">": "<", ">=": "<="][symbol] ?? symbol
        default:
            throw PredicateTranslationError.unsupported("a comparison that is not between a transaction property and a value")
        }
        guard value != .null, !column.isNullable else {
            throw PredicateTranslationError.unsupported("\(symbol) on an optional value")
        }
        if negations % 2 == 0, column == .token, symbol == ">" || symbol == ">=", case .integer(let token) = value {
            tokensAfter.append(symbol == ">" ? token : token - 1)
        }
        return .condition(sql: "(\(column.sql) \(symbol) ?)", bindings: [value])
    }

    private mutating func columnAndValue(_ lhs: Any, _ rhs: Any, what: String) throws -> (HistoryColumn, SQLValue) {
        switch (try translate(lhs), try translate(rhs)) {
        case (.column(let column), .value(let value)), (.value(let value), .column(let column)):
            return (column, value)
        default:
            throw PredicateTranslationError.unsupported("\(what) that is not between a transaction property and a value")
        }
    }

    /// A captured value or literal as SQL (a token as its value, a date as seconds since 2001).
    static func constant(_ value: Any) -> SQLValue? {
        if let token = value as? DefaultHistoryToken { return .integer(token.value) }
        if let token = value as? DefaultHistoryToken? { return token.map { .integer($0.value) } ?? .null }
        return CapturedValue.sqlValue(of: value)
    }
}

extension PredicateExpressions.Variable: HistorySQLExpression {
    func historyTerm(_ translation: inout HistoryTranslation) throws -> HistoryTerm {
        guard key == translation.variable else { throw PredicateTranslationError.unsupported("a predicate variable other than the transaction") }
        return .transaction
    }
}

extension PredicateExpressions.KeyPath: HistorySQLExpression {
    func historyTerm(_ translation: inout HistoryTranslation) throws -> HistoryTerm {
        guard case .transaction = try translation.translate(root), let column = HistoryPredicateSQL.column(for: keyPath) else {
            throw PredicateTranslationError.unsupported("key path \(keyPath) (only token, transactionIdentifier, timestamp and author of the transaction)")
        }
        return .column(column)
    }
}

extension PredicateExpressions.Value: HistorySQLExpression {
    func historyTerm(_ translation: inout HistoryTranslation) throws -> HistoryTerm {
        guard let constant = HistoryTranslation.constant(value) else {
            throw PredicateTranslationError.unsupported("a captured value of type \(Output.self)")
        }
        return .value(constant)
    }
}

extension PredicateExpressions.NilLiteral: HistorySQLExpression {
    func historyTerm(_ translation: inout HistoryTranslation) throws -> HistoryTerm {
        .value(.null)
    }
}

extension PredicateExpressions.Equal: HistorySQLExpression {
    func historyTerm(_ translation: inout HistoryTranslation) throws -> HistoryTerm {
        try translation.equality(lhs, rhs, negated: false)
    }
}

extension PredicateExpressions.NotEqual: HistorySQLExpression {
    func historyTerm(_ translation: inout HistoryTranslation) throws -> HistoryTerm {
        try translation.equality(lhs, rhs, negated: true)
    }
}

extension PredicateExpressions.Comparison: HistorySQLExpression {
    func historyTerm(_ translation: inout HistoryTranslation) throws -> HistoryTerm {
        try translation.comparison(lhs, rhs, op)
    }
}

extension PredicateExpressions.Conjunction: HistorySQLExpression {
    func historyTerm(_ translation: inout HistoryTranslation) throws -> HistoryTerm {
        let left = try translation.condition(lhs)
        let right = try translation.condition(rhs)
        return .condition(sql: "(\(left.sql) AND \(right.sql))", bindings: left.bindings + right.bindings)
    }
}

extension PredicateExpressions.Disjunction: HistorySQLExpression {
    func historyTerm(_ translation: inout HistoryTranslation) throws -> HistoryTerm {
        let left = try translation.condition(lhs)
        let right = try translation.condition(rhs)
        return .condition(sql: "(\(left.sql) OR \(right.sql))", bindings: left.bindings + right.bindings)
    }
}

extension PredicateExpressions.Negation: HistorySQLExpression {
    func historyTerm(_ translation: inout HistoryTranslation) throws -> HistoryTerm {
        translation.negations += 1
        defer { translation.negations -= 1 }
        let inner = try translation.condition(wrapped)
        return .condition(sql: "(NOT \(inner.sql))", bindings: inner.bindings)
    }
}
