import Foundation
import Testing
@testable import ModelGenKit

/// docs/Language.md "The `.model` language", sentence by sentence: each test names the sentence it checks.
@Suite struct SpecLanguageTests {
    /// "This is the seed's model in it": the model of docs/Language.md's contract, verbatim, is valid.
    @Test func theSeedModelOfSection2IsValid() throws {
        let source = """
            /// A journey with dates.
            entity Trip {
                name: String
                startDate: Date
                endDate: Date

                @Attribute(.preserveValueOnDeletion)
                identifier: UUID = UUID()

                @Relationship(deleteRule: .cascade, inverse: \\Accommodation.trip)
                accommodations: [Accommodation] = []

                init(name, startDate, endDate)
            }

            entity BusinessTrip: Trip {
                company: String
                expenseReport: String?
                meetingAgenda: String?

                init(name, startDate, endDate, company) {
                    super.init(name, startDate, endDate)
                }
            }

            entity PersonalTrip: Trip {
                enum Reason: String, Codable {
                    case vacation
                    case family
                    case adventure
                }

                reason: Reason
                companions: [String] = []

                init(name, startDate, endDate, reason) {
                    super.init(name, startDate, endDate)
                }
            }

            entity Accommodation {
                name: String
                @Relationship(inverse: \\Trip.accommodations)
                trip: Trip?
                init(name)
            }

            container TripStore { Trip, Accommodation }

            """
        #expect(SpecModel.findings(source) == [])
        let generated = try #require(try SpecModel.generate(source))
        #expect(generated.contains("/// A journey with dates.\ninternal class Trip"))
    }

    /// "Comments: `//` to end of line, `/* … */` (may nest)."
    @Test func commentsNest() {
        #expect(SpecModel.findings("/* a /* b */ c */ // d\nentity A { x: Int /* e */ }\n") == [])
        #expect(SpecModel.rules("/* a /* b */ entity A { x: Int }\n") == ["syntax"])
    }

    /// "`///` doc comments attach to the next declaration and are carried into the generated code".
    @Test func docCommentsAreCarried() throws {
        let generated = try #require(try SpecModel.generate("/// An A.\nentity A {\n    /// The x.\n    x: Int\n}\n/// A colour.\nenum C: Int {\n    /// Red.\n    case red\n}\n"))
        #expect(generated.contains("/// An A.\ninternal class A"))
        #expect(generated.contains("    /// The x.\n    internal var x: Int"))
        #expect(generated.contains("/// A colour.\ninternal enum C"))
        #expect(generated.contains("    /// Red.\n    case red"))
    }

    /// "A name in backticks (`` `default` ``) is an identifier even where it is a keyword of this language.
    /// Keywords: `entity`, `enum`, `case`, `init`, `container`, `super`, `var`."
    @Test func backtickedKeywordsAreNames() throws {
        let source = "entity `entity` { `case`: Int = 0; `var`: String = \"\"; `container`: Int = 1 }\n"
        #expect(SpecModel.findings(source) == [])
        let generated = try #require(try SpecModel.generate(source))
        #expect(generated.contains("var `case`: Int"))
        #expect(generated.contains("var `var`: String"))
        #expect(SpecModel.rules("entity A { case: Int }\n").contains("syntax"))
    }

    /// "Identifiers: a letter or `_`, then letters, digits, `_` (Unicode letters allowed)."
    @Test func unicodeIdentifiers() {
        #expect(SpecModel.findings("entity Café { prénom_2: String; größe: Int = 0 }\n") == [])
    }

    /// "Literals: strings with `\\\"`, `\\\\`, `\\n`, `\\t`, `\\u{…}`; integers (with `_` and `-`); floating point;
    /// `true`, `false`, `nil`."
    @Test func literals() throws {
        let source = #"entity A { s: String = "q\"b\\c\n\t\u{1F600}"; i: Int = -1_000; d: Double = -2.5e3; b: Bool = false; o: Int? = nil }"#
        #expect(SpecModel.findings(source + "\n") == [])
        let generated = try #require(try SpecModel.generate(source + "\n"))
        #expect(generated.contains(#"s: String = "q\"b\\c\n\t😀""#))
        #expect(generated.contains("i: Int = -1000"))
    }

    /// "Newlines separate members; `;` may also."
    @Test func semicolonsSeparateMembers() {
        #expect(SpecModel.findings("entity A { x: Int; y: Int = 0; init(x) }; entity B { z: Int }\n").filter { !$0.hasSuffix("syntax") } == [])
        #expect(SpecModel.findings("entity A { x: Int; y: Int = 0; init(x) }\nentity B { z: Int }\n") == [])
        #expect(SpecModel.rules("entity A { x: Int y: Int }\n") == ["syntax"])
    }

    /// "Property: `[attributes] [var] name: Type [= default]`. Attributes may stand on the lines before or on the same line."
    @Test func varKeywordAndAttributePlacement() throws {
        let source = """
            entity A {
                var x: Int
                @Attribute(.unique) var code: String
                @Attribute(.unique)
                @Attribute(originalName: "old")
                other: String
                @Attribute(.unique, originalName: "x") third: String
            }

            """
        #expect(SpecModel.findings(source) == [])
        let schema = try #require(SpecModel.lint(source).schema)
        let entity = try #require(schema.entities.first { $0.name == "A" })
        #expect(entity.properties.map(\.name) == ["x", "code", "other", "third"])
    }

    /// "`enum Name: String { case a, b = "bee" }` or `: Int` raw values; `, Codable` may follow the raw
    /// type and changes nothing. Enums may also be declared inside an entity; outside it they are named `Entity.Enum`."
    @Test func enumsAndQualifiedNames() throws {
        let source = """
            enum Letter: String { case a, b = "bee" }
            enum Level: Int, Codable { case low, high = 10 }
            entity Holder {
                enum Kind: Int { case one = 1, two }
                kind: Kind = .two
            }
            entity User { kind: Holder.Kind = .one; letter: Letter = .b; level: Level? }

            """
        #expect(SpecModel.findings(source) == [])
        let generated = try #require(try SpecModel.generate(source))
        #expect(generated.contains("case b = \"bee\""))
        #expect(generated.contains("case high = 10"))
        #expect(generated.contains("case two = 2"))
        #expect(generated.contains("var kind: Holder.Kind"))
        #expect(SpecModel.rules("entity User { kind: Kind }\nentity Holder { enum Kind: Int { case a }; k: Kind = .a }\n") == ["unknown-type"])
    }

    /// "Declarations (top level, any order, any number of files)": an entity may use a later one or one of another file.
    @Test func declarationsInAnyOrderAndFiles() {
        #expect(SpecModel.findings("container S { A }\nentity A { b: B? }\nentity B { a: [A] = []; e: E = .x }\nenum E: String { case x }\n") == [])
        let result = Run.lint([
            SourceFile(path: "One.model", bytes: Array("entity A { b: B? }\n".utf8)),
            SourceFile(path: "Two.model", bytes: Array("entity B { a: [A] = [] }\ncontainer S { A, B }\n".utf8)),
        ])
        #expect(result.diagnostics.isEmpty)
    }

    /// "Defaults: a literal, `nil`, `.caseName`, `[]`, an array of literals, `UUID()`, `Date()`."
    @Test func everyDefaultForm() throws {
        let source = """
            enum E: String { case x, y }
            entity A {
                s: String = "s"; i: Int = 1; d: Double = 1.5; b: Bool = true
                o: String? = nil
                e: E = .y
                list: [Int] = []
                names: [String] = ["a", "b"]
                id2: UUID = UUID()
                when: Date = Date()
            }

            """
        #expect(SpecModel.findings(source) == [])
        let generated = try #require(try SpecModel.generate(source))
        #expect(generated.contains("e: E = .y"))
        #expect(generated.contains("names: [String] = [\"a\", \"b\"]"))
        #expect(generated.contains("id2: UUID = UUID()"))
        #expect(generated.contains("when: Date = Date()"))
    }

    /// A Decimal default keeps every digit (a float literal would go through Double); a float default that
    /// overflows its type is a `default-type-mismatch`, not a silent `inf`.
    @Test func numericDefaultsAreExactOrRejected() throws {
        let generated = try #require(try SpecModel.generate(
            "entity A { p: Decimal = 0.1; big: Decimal = 12345678901234567890.5; n: Decimal = 3; huge: Decimal = 99999999999999999999; f: Double = 99999999999999999999 }\n"))
        #expect(generated.contains("p: Decimal = Decimal(string: \"0.1\")!"))
        #expect(generated.contains("big: Decimal = Decimal(string: \"12345678901234567890.5\")!"))
        #expect(generated.contains("n: Decimal = 3,"))
        #expect(generated.contains("huge: Decimal = Decimal(string: \"99999999999999999999\")!"))
        #expect(generated.contains("f: Double = 99999999999999999999.0"))
        #expect(SpecModel.findings("entity A {\n    d: Double = 1e400\n    f: Float = 1e39\n    g: Float = 3.0e38\n}\n")
            == ["2:17 default-type-mismatch", "3:16 default-type-mismatch"])
    }

    /// "`@Attribute(.unique, originalName: "x")`" and every `@Relationship` argument, "every argument optional".
    @Test func everyAttributeForm() {
        let source = """
            entity A {
                @Attribute(.unique) u: String
                @Attribute(.preserveValueOnDeletion) p: String
                @Attribute(.externalStorage) blob: Data?
                @Attribute(originalName: "old") renamed: Int = 0
                @Attribute(.unique, originalName: "x") both: String
                @Transient cache: Int = 0
                @Relationship(deleteRule: .cascade, inverse: \\B.a, minimumModelCount: 0, maximumModelCount: 3, originalName: "bees")
                bs: [B] = []
                @Relationship(deleteRule: .deny) cs: [C] = []
                @Relationship(deleteRule: .noAction) d: D?
                @Relationship() e: D?
            }
            entity B { a: A? }
            entity C { @Relationship(deleteRule: .nullify) a: A? }
            entity D { name: String = "" }

            """
        #expect(SpecModel.findings(source) == [])
    }

    /// "`#Unique([\\.a], [\\.b, \\.c])` and `#Index(…)`, as SwiftData's `#Unique<E>` / `#Index<E>` (the `<E>` may be
    /// written and must then name the entity)."
    @Test func uniqueAndIndexMacros() {
        let good = "entity A {\n    a: Int; b: Int; c: Int\n    #Unique([\\.a], [\\.b, \\.c])\n    #Index<A>([\\.a], [\\.b, \\.c])\n    #Unique<A>([\\.c])\n}\n"
        #expect(SpecModel.findings(good) == [])
        let wrong = "entity A {\n    a: Int\n    #Unique<B>([\\.a])\n    #Index<B>([\\.a])\n}\nentity B { x: Int }\n"
        #expect(SpecModel.findings(wrong) == ["3:13 unknown-type", "4:12 unknown-type"])
        #expect(SpecModel.findings("entity A {\n    a: Int\n    #Index([\\.nope])\n}\n") == ["3:15 unknown-type"])
    }

    /// "Several inits may be declared. Where none is, a memberwise init is synthesized (base parameters
    /// first, then the entity's own; optional and defaulted ones get default arguments)."
    @Test func memberwiseInitOrderAndDefaults() throws {
        let source = """
            entity Base { name: String; note: String?; rank: Int = 3 }
            entity Sub: Base { extra: Double; tags: [String] = [] }
            entity Many { a: Int; b: Int = 0; init(a); init(a, b) }

            """
        let generated = try #require(try SpecModel.generate(source))
        #expect(generated.contains("init(name: String, note: String? = nil, rank: Int = 3) {"))
        #expect(generated.contains("init(name: String, note: String? = nil, rank: Int = 3, extra: Double, tags: [String] = []) {"))
        #expect(generated.contains("init(a: Int) {"))
        #expect(generated.contains("init(a: Int, b: Int) {"))
    }

    /// "An inverse may be written on one side or on both; when written on neither, it is inferred if
    /// exactly one candidate exists." "`[A]` against `[B]` is many-to-many."
    @Test func inverseOnOneSideBothOrNeither() throws {
        let oneSide = "entity A { @Relationship(inverse: \\B.a) bs: [B] = [] }\nentity B { a: A? }\n"
        let both = "entity A { @Relationship(inverse: \\B.a) bs: [B] = [] }\nentity B { @Relationship(inverse: \\A.bs) a: A? }\n"
        let neither = "entity A { bs: [B] = [] }\nentity B { a: A? }\n"
        let manyToMany = "entity A { bs: [B] = [] }\nentity B { as_: [A] = [] }\n"
        for source in [oneSide, both, neither, manyToMany] {
            #expect(SpecModel.findings(source) == [])
            let schema = try #require(SpecModel.lint(source).schema)
            let a = try #require(schema.entities.first { $0.name == "A" })
            guard case .relationship(let relationship) = a.properties.first?.kind else {
                Issue.record("A.bs is no relationship in \(source)")
                continue
            }
            #expect(relationship.inverseName != nil, "\(source)")
        }
    }
}
