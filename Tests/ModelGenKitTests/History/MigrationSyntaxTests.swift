import FuzzOracle
import Testing
@testable import ModelGenKit

/// `migration "1.0.0" -> "2.0.0" { custom }`: parsed, recovered from, formatted.
@Suite struct MigrationSyntaxTests {
    typealias S = SyntaxTestSupport

    @Test func parsesTheDeclarationWithItsDoc() throws {
        let (file, diagnostics) = S.parse("""
            entity Trip { duration: Int }

            /// Durations were text.
            migration "1.0.0" -> "2" {
                custom
            }
            migration "2" -> "2.1" { custom }
            """)
        #expect(S.summary(diagnostics) == [])
        let migrations = file.declarations.compactMap { declaration -> MigrationDecl? in
            if case .migration(let migration) = declaration { return migration }
            return nil
        }
        #expect(migrations.map { "\($0.from.text) -> \($0.to.text)" } == ["1.0.0 -> 2", "2 -> 2.1"])
        #expect(migrations.first?.doc?.lines == ["Durations were text."])
        #expect(migrations.first?.keywordRange.start.line == 4)
        #expect(migrations.first?.range.end.line == 6)
        #expect(migrations.first?.kind.name == "custom")
    }

    /// `migration` is a keyword only before a string: entities and properties may be called so.
    @Test func migrationIsAKeywordOnlyBeforeAString() throws {
        let (file, diagnostics) = S.parse("entity migration { migration: String }\nentity A { x: migration? }\n")
        #expect(S.summary(diagnostics) == [])
        #expect(S.entity("migration", in: file).map { S.properties(of: $0).map(\.name.name) } == ["migration"])
    }

    @Test func syntaxErrorsSayWhatWasExpected() {
        let cases: [(String, String)] = [
            ("migration \"1.x\" -> \"2\" { custom }", "1:11: expected a version MAJOR[.MINOR[.PATCH]] (\"1.0.0\") but found \"1.x\""),
            ("migration \"1\" \"2\" { custom }", "1:15: expected '->' and the version the step goes to (migration \"1\" -> \"2.0.0\" { custom }) but found string literal"),
            ("migration \"1\" -> 2 { custom }", "1:18: expected a version string (\"1.0.0\") after '->' but found integer literal '2'"),
            ("migration \"1\" -> \"2\"", "1:21: expected '{ custom }' after the versions of the migration but found end of file"),
            ("migration \"1\" -> \"2\" { lightweight }", "1:24: expected 'custom' in the braces of the migration (a declared step is custom: its code is written in Swift) but found identifier 'lightweight'"),
            ("migration \"1\" -> \"2\" { custom custom }", "1:31: expected '}' after 'custom' but found identifier 'custom'"),
            ("migration \"1\" -> \"-1\" { custom }", "1:18: expected a version MAJOR[.MINOR[.PATCH]] (\"1.0.0\") but found \"-1\""),
            ("migration \"1.2.3.4\" -> \"2\" { custom }", "1:11: expected a version MAJOR[.MINOR[.PATCH]] (\"1.0.0\") but found \"1.2.3.4\""),
        ]
        for (text, expected) in cases {
            #expect(S.summary(S.parse(text).diagnostics) == [expected], "\(text)")
        }
    }

    /// After a broken declaration the parser goes on at the next one.
    @Test func recoversAtTheNextDeclaration() {
        let (file, diagnostics) = S.parse("migration \"1\" -> { custom }\nentity Trip { name: String }\nmigration \"x\" -> \"2\" { custom }\ncontainer C { Trip }\n")
        #expect(S.summary(diagnostics).count == 2)
        #expect(S.entity("Trip", in: file) != nil)
        #expect(file.declarations.count == 2)
    }

    /// A `migration` line where an entity member is expected ends the entity (a new declaration).
    @Test func aMigrationInsideAnEntityBodyEndsIt() {
        let (file, diagnostics) = S.parse("entity Trip {\n    name: String\nmigration \"1\" -> \"2\" { custom }\n")
        #expect(S.summary(diagnostics) == ["3:1: expected '}' to end entity 'Trip' but found identifier 'migration'"])
        #expect(file.declarations.count == 2)
    }

    @Test func formatsOnOneLineWithItsDoc() {
        let formatted = ModelFormatterTests().formatKeepingMeaning(
            "entity T { d: Int }\n/// Text became minutes.\nmigration   \"1.0\"->\"2.0\" {\n  custom   // the stage is in Stages.swift\n}\n")
        #expect(formatted == """
            entity T {
                d: Int
            }

            /// Text became minutes.
            migration "1.0" -> "2.0" { custom } // the stage is in Stages.swift

            """)
    }

    /// The front end's properties (no crash, diagnostics inside the input, format round trip) hold
    /// for inputs with migration declarations, whole and cut anywhere.
    @Test func oraclePropertiesHold() {
        let text = "entity T { d: Int }\n/// Doc.\nmigration \"1.0.0\" -> \"2.0.0\" { custom }\nmigration \"2\" -> \"3\" {\ncustom\n}\n"
        let bytes = Array(text.utf8)
        for end in stride(from: 0, through: bytes.count, by: 3) {
            let failures = FrontEndOracle.check(Array(bytes[..<end]))
            #expect(failures.isEmpty, "\(failures) for \(String(decoding: bytes[..<end], as: UTF8.self))")
        }
    }
}
