import Testing
@testable import ModelGenKit

/// A run with syntax errors still checks the declarations that parsed, without follow-on errors.
@Suite struct SyntaxCascadeTests {
    private let source = SourceFile(path: "mixed.model", text: """
        entity Trip {
            name: String
            startDate Date
            init(name, startDate)
        }

        entity BusinessTrip: Trip {
            company: String
            init(company)
        }

        entity Stay {
            trip: Tirp?
            place: Place?
        }

        entity : Place {
        }
        """)

    @Test func semanticRulesRunBesideSyntaxErrors() {
        let result = Run.lint([source])
        let found = result.diagnostics.map { "\($0.range.start.line):\($0.rule)" }
        #expect(found == ["3:syntax", "9:missing-super-init", "13:unknown-type", "17:syntax"])
        #expect(result.schema == nil)
    }

    @Test func followOnErrorsOfABrokenDeclarationAreDropped() {
        // `init(name, startDate)` names the property lost by recovery: no unknown-init-parameter.
        // `Place` occurs in the broken declaration at line 17: no unknown-type for `place: Place?`.
        let rules = Run.lint([source]).diagnostics.map(\.rule)
        #expect(!rules.contains(.unknownInitParameter))
        #expect(rules.filter { $0 == .unknownType }.count == 1)
    }

    @Test func aCleanRunIsUnfiltered() {
        let clean = SourceFile(path: "c.model", text: "entity A {\n    b: Bee\n}\n")
        #expect(Run.lint([clean]).diagnostics.map(\.rule) == [.unknownType])
    }
}
