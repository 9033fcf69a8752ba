import Foundation

// Integer and Double arithmetic: SQLite and PostgreSQL compute integers as Int64 and reals as
// Double, like Swift for Int and Double (overflow, which traps in Swift, is out of scope). Float
// and Decimal arithmetic would not round like Swift, so it is refused.

extension PredicateExpressions.Arithmetic: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let symbol: String
        switch op {
        case .add: symbol = "+"
        case .subtract: symbol = "-"
        case .multiply: symbol = "*"
        }
        return .scalar(try ArithmeticSQL.binary(symbol, lhs, rhs, &context))
    }
}

extension PredicateExpressions.IntDivision: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        .scalar(try ArithmeticSQL.binary("/", lhs, rhs, &context))
    }
}

extension PredicateExpressions.IntRemainder: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        .scalar(try ArithmeticSQL.binary("%", lhs, rhs, &context))
    }
}

extension PredicateExpressions.FloatDivision: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let left = try ArithmeticSQL.operand(lhs, &context)
        let right = try ArithmeticSQL.operand(rhs, &context)
        return .scalar(ScalarTerm("(\(context.dialect.floatingPoint(left.fragment)) / \(right.fragment))", kind: .plain))
    }
}

extension PredicateExpressions.UnaryMinus: SQLPredicateExpression {
    func sqlTerm(_ context: inout TranslationContext) throws -> SQLTerm {
        let value = try ArithmeticSQL.operand(wrapped, &context)
        return .scalar(ScalarTerm("(- \(value.fragment))", kind: .plain))
    }
}

enum ArithmeticSQL {
    static func binary(_ symbol: String, _ lhs: Any, _ rhs: Any, _ context: inout TranslationContext) throws -> ScalarTerm {
        let left = try operand(lhs, &context)
        let right = try operand(rhs, &context)
        return ScalarTerm("(\(left.fragment) \(raw: symbol) \(right.fragment))", kind: .plain)
    }

    static func operand(_ expression: Any, _ context: inout TranslationContext) throws -> ScalarTerm {
        let value = try context.scalar(expression)
        switch value.kind {
        case .plain: return value
        case .float: throw PredicateTranslationError.unsupported("arithmetic on Float (SQL computes in Double precision)")
        case .decimal: throw PredicateTranslationError.unsupported("arithmetic on Decimal (SQL would not round as Decimal does)")
        default: throw PredicateTranslationError.unsupported("arithmetic on a value that is not a number")
        }
    }
}
