import Testing
@testable import ModelGenKit

/// Rule behavior on hand-built ASTs: which rules fire, and that one mistake gives one diagnostic.
@Suite struct RuleUnitTests {
    private func rules(_ build: (TestAST) -> [Declaration]) -> [String] {
        let ast = TestAST()
        return SchemaChecker.check([ast.file(build(ast))]).diagnostics.map(\.rule.rawValue)
    }

    @Test func guideWrongExamples() {
        let found = rules { a in
            [
                a.entity("Trip", [a.property("name", "String"), a.initializer(["name"])]),
                a.entity("BusinessTrip", base: "Trip", [a.property("company", "String"), a.initializer(["company"])]),
                a.entity("InternationalBusinessTrip", base: "BusinessTrip", [a.property("visa", "String"), a.initializer(["name", "company", "visa"], superArguments: ["name", "company"])]),
                a.entity("DomesticTrip", base: "Trip", []),
                a.entity("InternationalTrip", base: "Trip", [a.property("passportRequired", "Bool", default: .bool(true))]),
                a.container("C", ["Trip", "BusinessTrip"]),
            ]
        }
        #expect(found == ["missing-super-init", "flat-hierarchy", "label-only-subclass", "label-only-subclass", "redundant-registration"])
    }

    @Test func unknownTypeDoesNotCascade() {
        let found = rules { a in
            [a.entity("A", [a.property("x", "Strin"), a.initializer(["x"])]), a.entity("B", base: "Nope", [a.property("y", "Int"), a.initializer(["y"], superArguments: ["q"])])]
        }
        #expect(found == ["unknown-type", "unknown-type"])
    }

    @Test func cycleReportedOnce() {
        let found = rules { a in
            [a.entity("A", base: "B", [a.property("x", "Int")]), a.entity("B", base: "A", [a.property("y", "Int")]), a.entity("C", base: "A", [])]
        }
        #expect(found == ["inheritance-cycle"])
    }

    @Test func inverses() {
        let ambiguous = rules { a in
            [a.entity("A", [a.property("b", "B?")]), a.entity("B", [a.property("a1", "A?"), a.property("a2", "[A]")])]
        }
        #expect(ambiguous == ["ambiguous-inverse"])
        let mismatch = rules { a in
            [
                a.entity("A", [a.property("b", "[B]", default: .array([]), attributes: [a.attribute("Relationship", [("inverse", a.keyPath("B", "a1"))])])]),
                a.entity("B", [a.property("a1", "A?", attributes: [a.attribute("Relationship", [("inverse", a.keyPath("A", "c"))])]), a.property("a2", "A?"), a.property("name", "String?")]),
                a.entity("C", [a.property("a", "A?", attributes: [a.attribute("Relationship", [("inverse", a.keyPath("A", "name"))])])]),
            ]
        }
        // `B.a1` names a missing property (reported once); `A.b` still pairs with it; `C.a` names an attribute.
        #expect(mismatch == ["inverse-mismatch", "inverse-mismatch"])
    }

    @Test func attributesAndDefaults() {
        let found = rules { a in
            [a.entity("A", [
                a.property("n", "Int8", default: .integer("300")),
                a.property("s", "String", attributes: [a.attribute("Attribute", [(nil, a.member("externalStorage"))])]),
                a.property("t", "Int", attributes: [a.attribute("Transient")]),
                a.property("b", "B", attributes: [a.attribute("Relationship", [("deleteRule", a.member("noAction"))])]),
                a.property("hash", "UUID"),
            ]), a.entity("B", [a.property("a", "A?")])]
        }
        #expect(found == ["default-type-mismatch", "invalid-attribute", "invalid-attribute", "dangling-no-action", "optional-to-one", "reserved-name"])
    }
}

extension RuleUnitTests {
    @Test func optionalAttributesAreDataNotLabels() {
        let ast = TestAST()
        let file = ast.file([
            ast.entity("Trip", [ast.property("name", "String")]),
            ast.entity("InternationalTrip", base: "Trip", [ast.property("passportNumber", "String?")]),
            ast.entity("DomesticTrip", base: "Trip", [
                ast.property("regional", "Bool", default: .bool(false)),
                ast.property("memo", "String", default: .string(""), attributes: [ast.attribute("Transient")]),
            ]),
        ])
        let diagnostics = SchemaChecker.check([file]).diagnostics
        #expect(diagnostics.map(\.rule) == [.labelOnlySubclass])
        #expect(diagnostics.first?.message.contains("'DomesticTrip'") == true)
        #expect(diagnostics.first?.notes.first?.message.contains("case domestic }") == true)
    }
}
