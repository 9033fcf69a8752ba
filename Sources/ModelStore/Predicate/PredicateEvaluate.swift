import Foundation

#if !canImport(Darwin)
// Apple's Foundation (macOS 14.4) lets `#Predicate<Trip> { other.evaluate($0) }` use a captured
// predicate inside another one, as `PredicateExpressions.PredicateEvaluate`. swift-foundation
// 6.3.1 offers none of it outside Apple platforms: the macro rejects `evaluate(_:)`, the
// expression type does not exist and `Predicate` is not `Codable` (so a captured one is no
// `StandardPredicateExpression`). The translator still handles Apple's expression (see
// `PredicateExpressions+Evaluate.swift`); this internal stand-in with Apple's name and shape
// lets that translation compile and be tested here. It is not API.

extension PredicateExpressions {
    /// `predicate.evaluate(input…)`: a predicate evaluated inside another one.
    struct PredicateEvaluate<Condition: PredicateExpression, each Input: PredicateExpression>: PredicateExpression
    where Condition.Output == Predicate<repeat (each Input).Output> {
        typealias Output = Bool

        /// The predicate evaluated (a captured one).
        let predicate: Condition
        /// The values it is evaluated with.
        let input: (repeat each Input)

        init(predicate: Condition, input: repeat each Input) {
            self.predicate = predicate
            self.input = (repeat each input)
        }

        func evaluate(_ bindings: PredicateBindings) throws -> Bool {
            try predicate.evaluate(bindings).evaluate(repeat try (each input).evaluate(bindings))
        }
    }
}
#endif
