import Testing
@testable import ModelGenKit

/// The rules of docs/Rules.md applied to the wave-2 constructs: each diagnostic's rule and position.
@Suite struct AdditionsRuleTests {
    private func findings(_ source: String) -> [String] { SpecModel.findings(source) }

    @Test func structFieldsAreAttributes() {
        let source = """
            struct S {
                a: Int
                a: String
                b: Strin
                c: E
                d: [[Int]]
                @Attribute(.unique) e: Int
                hashValue: Int
                f: Int8 = 300
            }
            entity E { s: S? }
            struct T: Codable, Comparable { x: Int }
            """
        #expect(findings(source) == [
            "3:5 duplicate-property", "4:8 unknown-type", "5:8 unsupported-type", "6:8 unsupported-type",
            "7:5 invalid-attribute", "8:5 reserved-name", "9:15 default-type-mismatch",
        ])
    }

    @Test func structNamesShareTheNamespace() {
        #expect(findings("struct A { x: Int }\nentity A { y: Int }\nenum B: String { case b }\nstruct B { }\n") == [
            "2:8 duplicate-declaration", "4:8 duplicate-declaration",
        ])
        // Nested enums and structs share their entity's namespace; the same name in two entities is fine.
        #expect(findings("entity A {\n    enum K: String { case k }\n    struct K { x: Int }\n}\nentity B { struct K { x: Int } }\n") == ["3:12 duplicate-declaration"])
        #expect(findings("struct Date { x: Int }\n") == ["1:8 reserved-name"])
    }

    /// Nested structs resolve inside their entity (and its subclasses), and as `Entity.Struct` outside.
    @Test func nestedStructsResolveLikeNestedEnums() {
        let source = """
            entity A {
                struct Inner { x: Int = 0 }
                inner: Inner = Inner()
            }
            entity B: A { more: Inner? }
            entity C { a: A.Inner; b: Inner }
            struct Top { inner: A.Inner }
            """
        #expect(findings(source) == ["6:27 unknown-type"])
    }

    /// "Cycles of structs are an error": `unsupported-type`, once per cycle, at the first member on it.
    @Test func valueTypesThatHoldThemselves() {
        #expect(findings("struct Node { next: Node? }\nentity E { n: Node }\n") == ["1:21 unsupported-type"])
        #expect(findings("struct A { b: B }\nstruct B { list: [A] = [] }\nstruct C { a: A }\n") == ["1:15 unsupported-type"])
        #expect(findings("enum Tree: Codable { case leaf(Int), node([Tree]) }\n") == ["1:43 unsupported-type"])
        #expect(findings("struct Box { shape: Shape }\nenum Shape: Codable { case boxed(Box), none }\n") == ["1:21 unsupported-type"])
        let message = SpecModel.lint("struct A { b: B }\nstruct B { list: [A] = [] }\n").diagnostics.first?.message ?? ""
        #expect(message.hasPrefix("struct 'A' holds itself (A.b → B, B.list → A)"))
    }

    @Test func structDefaults() {
        let source = """
            struct Full { x: Int = 1; y: String? }
            struct Partial { x: Int; y: Int = 0 }
            entity E {
                a: Full = Full()
                b: Partial = Partial()
                c: Full? = nil
                d: [Full] = []
                e: Full = .none
                f: Full = Full(x: 2)
                g: Full = Partial()
            }
            """
        // `e: Full = .none` names a static member of `Full`, which the Swift compiler checks (docs/Language.md).
        #expect(findings(source) == ["5:18 default-type-mismatch", "9:15 default-type-mismatch", "10:15 default-type-mismatch"])
        let messages = SpecModel.lint(source).diagnostics.map(\.message)
        #expect(messages[0].contains("'Partial()' needs every field to have a default, and 'x' has none"))
    }

    @Test func uniqueDoesNotApplyToAStruct() {
        let source = """
            struct P { a: Int }
            entity E {
                @Attribute(.unique) p: P
                q: P
                #Unique([\\.q])
                #Index([\\.q])
            }
            """
        #expect(findings(source) == ["3:16 invalid-attribute", "5:14 invalid-attribute"])
    }

    @Test func associatedValues() {
        let source = """
            enum A: String { case a(Int) }
            enum B: Codable, CaseIterable { case b(Int) }
            enum C: Codable { case c(x: Int, x: String), d = 1 }
            enum D { case d(Trip?), e(Missing), f([Int: String]) }
            enum F: Codable { case f(Int), f(String) }
            entity Trip { g: G = .g; h: G = .h }
            enum G { case g(Int), h }
            """
        #expect(findings(source) == [
            "1:9 unsupported-type", "2:18 unsupported-type", "3:34 duplicate-property", "3:50 default-type-mismatch",
            "4:17 unsupported-type", "4:27 unknown-type", "4:39 unsupported-type", "5:32 duplicate-case", "6:22 default-type-mismatch",
        ])
    }

    /// `id` is the model's `Identifiable.id`: allowed on a base (any stored attribute type), not on a
    /// subclass, not as a relationship or transient. Other reserved names stay reserved.
    @Test func declaredID() {
        #expect(findings("entity A { @Attribute(.unique) id: String }\nentity B { id: UUID = UUID() }\nentity C { id: Int }\n") == [])
        #expect(findings("entity A { name: String }\nentity B: A { id: String }\n") == ["2:15 reserved-name"])
        #expect(findings("entity A { id: B? }\nentity B { a: A? }\n") == ["1:12 reserved-name"])
        #expect(findings("entity A { @Transient id: Int = 0 }\n") == ["1:23 reserved-name"])
        #expect(findings("entity A { id: Int; persistentModelID: Int; hashValue: Int }\n") == ["1:21 reserved-name", "1:45 reserved-name"])
        #expect(findings("entity A { id: Int }\nentity B: A { id: Int }\n") == ["2:15 shadowed-property"])
    }

    @Test func entityAttributes() {
        let source = """
            @Entity(originalName: "Old") entity A { x: Int }
            @Entity entity B { x: Int }
            @Entity(originalName: "Old") entity C { x: Int }
            @Entity(originalName: "A") entity D { x: Int }
            @Entity(originalName: "X", originalName: "Y") @Model entity E { x: Int }
            @Entity(originalName: "F") entity F { x: Int }
            @Entity(originalName: "G1") @Entity(originalName: "G2") entity G { x: Int }
            """
        #expect(findings(source) == [
            "2:1 invalid-attribute", "3:23 invalid-attribute", "4:23 invalid-attribute",
            "5:28 invalid-attribute", "5:47 invalid-attribute", "7:29 invalid-attribute",
        ])
        let schema = SpecModel.lint("@Entity(originalName: \"F\") entity F { x: Int }\n").schema
        #expect(schema?.entity(named: "F")?.originalName == "F")
    }

    @Test func timeIntervalDefaults() {
        #expect(findings("entity A { a: TimeInterval = 1; b: TimeInterval = -2.5; c: TimeInterval? = nil; d: [TimeInterval] = [1, 2.5] }\n") == [])
        #expect(findings("entity A { a: TimeInterval = \"1\"; b: TimeInterval = 1e999 }\n") == ["1:30 default-type-mismatch", "1:53 default-type-mismatch"])
    }

    @Test func dateDefaultsFitDatesOnly() {
        #expect(findings("entity A { a: Date? = .now; b: [Date] = [.now, Date.distantPast, Date(timeIntervalSinceReferenceDate: 1_000)] }\n") == [])
        let wrong = "entity A {\n    a: Int = .now\n    b: String? = Date.distantPast\n    c: Date = Date.today\n    d: Date = Date(timeIntervalSinceReferenceDate: \"0\")\n    e: UUID = Date()\n    f: Date = UUID()\n}\n"
        #expect(findings(wrong) == ["2:14 default-type-mismatch", "3:18 default-type-mismatch", "4:15 default-type-mismatch", "5:15 default-type-mismatch", "6:15 default-type-mismatch", "7:15 default-type-mismatch"])
    }

    /// `Enum.case` names a case of the property's enum; another enum's case is a mismatch.
    @Test func qualifiedEnumCaseDefaults() {
        let source = "enum K: String { case a, b }\nenum L: String { case a }\nentity E {\n    x: K = K.b\n    y: K = L.a\n    z: K = K.c\n}\n"
        #expect(findings(source) == ["5:12 default-type-mismatch", "6:12 default-type-mismatch"])
    }
}
