import FuzzOracle
import Testing
@testable import ModelGenKit

/// `modelgen format` on the wave-2 constructs: canonical layout, comments kept, idempotent.
extension ModelFormatterTests {
    @Test func structsGetTheLayoutOfEntities() {
        let formatted = formatKeepingMeaning("struct P: Codable { a: Int; var b: String? = nil }\nentity T { struct B { w: Double = 1 }\n b: B = B() }\n")
        #expect(formatted == """
            struct P: Codable {
                a: Int
                var b: String? = nil
            }

            entity T {
                struct B {
                    w: Double = 1
                }
                b: B = B()
            }

            """)
    }

    @Test func associatedValuesStayOnTheirCaseLine() {
        let formatted = formatKeepingMeaning("enum Shape: Codable { case circle(\n radius: Double ,\n label:String?), none; case square( Double ) }\n")
        #expect(formatted == "enum Shape: Codable {\n    case circle(radius: Double, label: String?)\n    case none\n    case square(Double)\n}\n")
    }

    @Test func entityAttributesGoOnTheirOwnLine() {
        let formatted = formatKeepingMeaning("/// Renamed.\n@Entity(originalName:\"Journey\") entity Trip { name: String }\n")
        #expect(formatted == "/// Renamed.\n@Entity(originalName: \"Journey\")\nentity Trip {\n    name: String\n}\n")
    }

    @Test func dateDefaultsKeepTheirSpelling() {
        let source = "entity E { a: Date = .now; b: Date = Date.now; c: Date = Date(timeIntervalSinceReferenceDate:-1_000.5); d: TimeInterval = 1_0 }\n"
        let formatted = formatKeepingMeaning(source)
        #expect(formatted == "entity E {\n    a: Date = .now\n    b: Date = Date.now\n    c: Date = Date(timeIntervalSinceReferenceDate: -1_000.5)\n    d: TimeInterval = 1_0\n}\n")
    }

    @Test func commentsAroundTheNewConstructsAreKept() {
        let source = """
            // before
            struct P { // opens
                /// The a.
                a: Int // the a
                // last
            }
            @Entity(originalName: "Old") // renamed
            entity E { p: P }
            enum K: Codable {
                case a(Int) // carries
            }

            """
        let formatted = formatKeepingMeaning(source)
        #expect(formatted.contains("struct P { // opens\n    /// The a.\n    a: Int // the a\n    // last\n}\n"))
        #expect(formatted.contains("@Entity(originalName: \"Old\") // renamed\nentity E {\n"))
        #expect(formatted.contains("    case a(Int) // carries\n"))
    }

    /// The fuzz oracle's properties hold for a model using every construct: it lints, formats to
    /// itself, generates (to memory) deterministically and draws.
    @Test func theFuzzOracleHoldsForTheNewConstructs() {
        let source = """
            struct Palette: Codable { primary: String; secondary: String? = nil; shades: [Shade] = [] }
            struct Shade { level: Int = 0 }
            enum Shape: Codable { case circle(radius: Double), square(Double), none }
            @Entity(originalName: "OldTheme") entity Theme {
                struct Border { width: Double = 1 }
                @Attribute(.unique) id: String
                palette: Palette
                border: Border = Border()
                shape: Shape = .none
                duration: TimeInterval = 3
                created: Date = .now
                epoch: Date = Date(timeIntervalSinceReferenceDate: 0)
                @Relationship(deleteRule: .cascade) children: [Theme] = []
            }
            entity DarkTheme: Theme { contrast: Double = 1.0 }
            """
        let lint = SpecModel.lint(source, path: FrontEndOracle.path)
        #expect(lint.schema != nil)
        #expect(lint.diagnostics.map(\.rule) == [.cascadeCycle])
        #expect(FrontEndOracle.check(Array(source.utf8)).map(\.description) == [])
        #expect(FrontEndOracle.check(Array("struct S { a: S? }\nenum E { case e(E) }\n@Entity(x: 1) entity A { }\n".utf8)).map(\.description) == [])
    }
}
