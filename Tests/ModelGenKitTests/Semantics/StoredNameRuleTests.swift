import Testing
@testable import ModelGenKit

/// Names the store compares without case (SQLite's table and column names), and values the stores
/// cannot keep (U+0000 in text): rejected by lint, since the store would never open (docs/Rules.md).
@Suite struct StoredNameRuleTests {
    private func findings(_ source: String) -> [String] { SpecModel.findings(source) }

    private func diagnostics(_ source: String) -> [Diagnostic] { SpecModel.lint(source).diagnostics }

    @Test func entitiesThatDifferOnlyInCaseAreOneTable() throws {
        let source = "entity Note { a: Int }\nentity note { b: Int }\n"
        #expect(findings(source) == ["2:8 duplicate-declaration"])
        let diagnostic = try #require(diagnostics(source).first)
        #expect(diagnostic.message.contains("differs from entity 'Note' only in case"))
        #expect(diagnostic.message.contains("SQLite"))
        #expect(diagnostic.notes.map(\.message) == ["'Note' declared here"])
        #expect(diagnostic.notes.first?.range?.start.line == 1)
        // SQLite folds ASCII letters only: these are two tables.
        #expect(findings("entity Été { a: Int }\nentity été { b: Int }\n") == [])
    }

    @Test func propertiesThatDifferOnlyInCaseAreOneColumn() throws {
        let source = "entity Person {\n    name: String\n    Name: String\n}\n"
        #expect(findings(source) == ["3:5 duplicate-property"])
        let diagnostic = try #require(diagnostics(source).first)
        #expect(diagnostic.message == "entity 'Person' declares properties 'name' and 'Name', which differ only in case: SQLite compares column names without case, so the store would keep both in one column; rename one")
        #expect(diagnostic.notes.first?.range?.start.line == 2)
        // A to-one relationship's key column is named like it; a to-many has none; a transient none.
        #expect(findings("entity A {\n    b: B?\n    B: Int\n}\nentity B { x: Int }\n") == ["3:5 duplicate-property"])
        #expect(findings("entity A {\n    bs: [B] = []\n    BS: Int\n}\nentity B { x: Int }\n") == [])
        #expect(findings("entity A {\n    x: Int\n    @Transient X: Int = 0\n}\n") == [])
        // A subclass's columns are `Sub.name`: a base's `name` and a subclass's `Name` do not collide,
        // nor do sibling subclasses.
        #expect(findings("entity A { name: Int }\nentity S: A { Name: Int }\nentity T: A { Name: Int; extra: Int }\n") == [])
        #expect(findings("entity A { x: Int }\nentity S: A { y: Int }\nentity T: A { Y: Int }\n") == [])
    }

    /// A struct property stores a column per field (`pos.x`): a subclass `Pos` of the same table
    /// stores its `x` in `Pos.x`, the same column up to case.
    @Test func flattenedStructColumnsCollideWithASubclassColumn() throws {
        let source = """
            struct P { x: Int; y: Int }
            entity A { pos: P }
            entity Pos: A { X: Int }
            """
        #expect(findings(source) == ["3:17 duplicate-property"])
        let diagnostic = try #require(diagnostics(source).first)
        #expect(diagnostic.message.contains("is stored in column 'Pos.X', and property 'pos' of entity 'A' in column 'pos.x'"))
        // An optional struct's presence column is named like the property.
        #expect(findings("struct P { x: Int }\nentity A { pos: P?; POS: Int }\n") == ["2:21 duplicate-property"])
    }

    @Test func structFieldsThatDifferOnlyInCase() throws {
        let source = "struct P {\n    x: Int\n    X: Int\n}\nentity A { p: P }\n"
        #expect(findings(source) == ["3:5 duplicate-property"])
        #expect(try #require(diagnostics(source).first).message.contains("fields 'x' and 'X', which differ only in case"))
    }

    /// U+0000 in text: SQLite cuts the DDL default there, PostgreSQL cannot store it.
    @Test func aStringHoldingNULIsNoDefault() throws {
        let source = #"""
            entity A {
                s: String = "a\u{0}b"
                t: [String] = ["ok", "\u{0}"]
                u: String = "\u{1}"
            }
            struct S { f: String = "\u{0}" }
            enum E: String { case a = "x\u{0}" }
            """#
        #expect(findings(source) == ["2:17 default-type-mismatch", "3:19 default-type-mismatch", "6:24 default-type-mismatch", "7:27 default-type-mismatch"])
        #expect(try #require(diagnostics(source).first).message.contains("cannot hold U+0000 (NUL)"))
    }
}
