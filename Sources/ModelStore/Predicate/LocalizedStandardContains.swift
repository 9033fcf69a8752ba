import Foundation

#if !canImport(Darwin)
// Apple's Foundation declares this expression; swift-corelibs-foundation does not, so
// `#Predicate { $0.name.localizedStandardContains(x) }` would not compile on Linux.
// ModelStore declares it with Apple's name and shape, so the same predicate compiles and
// evaluates everywhere.

extension PredicateExpressions {
    /// `root.localizedStandardContains(other)`: case- and diacritic-insensitive containment
    /// as Foundation's `StringProtocol.localizedStandardContains` defines it.
    public struct StringLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        public typealias Output = Bool

        /// The text searched.
        public let root: Root
        /// The text searched for.
        public let other: Other

        /// Creates the expression.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
            try root.evaluate(bindings).localizedStandardContains(try other.evaluate(bindings))
        }
    }

    /// What `#Predicate` calls for `localizedStandardContains`.
    public static func build_localizedStandardContains<Root, Other>(_ root: Root, _ other: Other) -> StringLocalizedStandardContains<Root, Other> {
        StringLocalizedStandardContains(root: root, other: other)
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

extension PredicateExpressions.StringLocalizedStandardContains: Codable where Root: Codable, Other: Codable {}

extension PredicateExpressions.StringLocalizedStandardContains: Sendable where Root: Sendable, Other: Sendable {}
#endif
