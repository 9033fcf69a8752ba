import Foundation

#if !canImport(Darwin)
// Apple's Foundation declares this expression; swift-foundation declares it only for Apple
// platforms, so `#Predicate { $0.name.caseInsensitiveCompare(x) == .orderedSame }` would not
// compile on Linux. ModelStore declares it with Apple's name and shape, so the same predicate
// compiles and evaluates everywhere.

extension PredicateExpressions {
    /// `root.caseInsensitiveCompare(other)`: Foundation's case-insensitive comparison.
    public struct StringCaseInsensitiveCompare<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        public typealias Output = ComparisonResult

        /// The text compared.
        public let root: Root
        /// The text it is compared with.
        public let other: Other

        /// Creates the expression.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
            try root.evaluate(bindings).caseInsensitiveCompare(try other.evaluate(bindings))
        }
    }

    /// What `#Predicate` calls for `caseInsensitiveCompare`.
    public static func build_caseInsensitiveCompare<Root, Other>(_ root: Root, _ other: Other) -> StringCaseInsensitiveCompare<Root, Other> {
        StringCaseInsensitiveCompare(root: root, other: other)
    }
}

extension PredicateExpressions.StringCaseInsensitiveCompare: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

extension PredicateExpressions.StringCaseInsensitiveCompare: Codable where Root: Codable, Other: Codable {}

extension PredicateExpressions.StringCaseInsensitiveCompare: Sendable where Root: Sendable, Other: Sendable {}
#endif
