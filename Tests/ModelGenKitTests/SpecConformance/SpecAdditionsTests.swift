import Testing
@testable import ModelGenKit

/// docs/Language.md's additions that real SwiftData models use, docs/Rules.md's rows for them and docs/Migrations.md's
/// `@Entity(originalName:)`, sentence by sentence.
@Suite struct SpecAdditionsTests {
    /// "`struct Name { field: Type … }` (top level or inside an entity, like enums): a Codable value
    /// type, SwiftData's composite attribute."
    @Test func structsAtTopLevelAndInsideAnEntity() throws {
        let source = """
            struct Palette { primary: String; secondary: String }
            entity Theme {
                struct Border { width: Double }
                palette: Palette
                border: Border
            }
            entity Frame { border: Theme.Border }
            """
        #expect(SpecModel.findings(source) == [])
        let schema = try #require(SpecModel.lint(source).schema)
        #expect(schema.structs.map(\.qualifiedName) == ["Palette"])
        #expect(schema.entity(named: "Theme")?.structs.map(\.qualifiedName) == ["Theme.Border"])
    }

    /// "`[Struct]` and optional structs are allowed (an array is one JSON column)."
    @Test func arraysAndOptionalsOfStructs() throws {
        let source = "struct Part { name: String }\nentity Kit { parts: [Part] = []; spare: Part?; spares: [Part]? }\n"
        #expect(SpecModel.findings(source) == [])
        let kit = try #require(SpecModel.lint(source).schema?.entity(named: "Kit"))
        let types = kit.properties.map { property -> String in
            guard case .attribute(let attribute) = property.kind else { return "relationship" }
            return "\(attribute.type)" + (attribute.isOptional ? "?" : "")
        }
        #expect(types == ["[Part]", "Part?", "[Part]?"])
    }

    /// "Fields are attributes only (no relationships, no nested entity); a struct may hold enums and
    /// other structs."
    @Test func fieldsAreAttributesOnly() {
        let right = """
            enum Mood: String { case calm, busy }
            enum Shape: Codable { case circle(radius: Double), none }
            struct Inner { x: Int }
            struct Outer { mood: Mood; shape: Shape = .none; inner: Inner; inners: [Inner] = []; maybe: Inner? }
            entity E { outer: Outer }
            """
        #expect(SpecModel.findings(right) == [])
        #expect(SpecModel.findings("entity Trip { name: String }\nstruct S { trip: Trip? }\nstruct T { trips: [Trip] = [] }\n") == ["2:18 unsupported-type", "3:19 unsupported-type"])
        #expect(SpecModel.rules("struct S { entity E { x: Int } }\n").contains("syntax"))
    }

    /// "`id` may be declared (`@Attribute(.unique) id: String`, `id: UUID = UUID()`): it is then the
    /// model's `Identifiable.id`"; docs/Rules.md: "`id` is NOT reserved".
    @Test func idMayBeDeclared() throws {
        let source = "entity Bird { @Attribute(.unique) id: String; name: String }\nentity Sighting { id: UUID = UUID(); at: Date = .now }\n"
        #expect(SpecModel.findings(source) == [])
        let schema = try #require(SpecModel.lint(source).schema)
        #expect(schema.entity(named: "Bird")?.idPropertyName == "id")
        #expect(schema.entity(named: "Sighting")?.idPropertyName == "id")
        #expect(SpecModel.rules("entity A { persistentModelID: Int; modelContext: Int; hasChanges: Bool; isDeleted: Bool }\n") == Array(repeating: "reserved-name", count: 4))
    }

    /// "Foundation type aliases that models use are types: `TimeInterval` (stored as `Double`)."
    @Test func timeIntervalIsAType() throws {
        let source = "entity Timer { duration: TimeInterval = 90; lap: TimeInterval?; laps: [TimeInterval] = [] }\n"
        #expect(SpecModel.findings(source) == [])
        let generated = try #require(try SpecModel.generate(source))
        #expect(generated.contains("var duration: TimeInterval"))
        #expect(generated.contains("var laps: [TimeInterval]"))
    }

    /// "Date defaults `.now`, `Date.now`, `.distantPast`, `.distantFuture`, `Date()`;
    /// `Date(timeIntervalSinceReferenceDate: n)`."
    @Test func dateDefaults() throws {
        let source = """
            entity Event {
                a: Date = .now
                b: Date = Date.now
                c: Date = .distantPast
                d: Date = .distantFuture
                e: Date = Date()
                f: Date = Date(timeIntervalSinceReferenceDate: 86_400)
            }
            """
        #expect(SpecModel.findings(source) == [])
        let generated = try #require(try SpecModel.generate(source))
        #expect(generated.contains("Date.distantPast"))
        #expect(generated.contains("Date(timeIntervalSinceReferenceDate: 86400)"))
        #expect(SpecModel.findings("entity Event { a: String = .now; b: Int = .distantPast }\n") == ["1:28 default-type-mismatch", "1:43 default-type-mismatch"])
    }

    /// "An enum whose cases carry associated values is Codable and stored as JSON text."
    @Test func enumsWithAssociatedValues() throws {
        let source = "enum Shape { case circle(radius: Double), square(Double) }\nentity Drawing { shape: Shape; shapes: [Shape] = [] }\n"
        #expect(SpecModel.findings(source) == [])
        let shape = try #require(SpecModel.lint(source).schema?.enumeration(named: "Shape"))
        #expect(shape.rawType == nil && shape.hasAssociatedValues)
        #expect(SpecModel.rules("enum Shape: Int { case circle(radius: Double) }\n") == ["unsupported-type"])
        #expect(SpecModel.rules("enum Shape: Codable { case circle(radius: Double), circle(Int) }\n") == ["duplicate-case"])
    }

    /// docs/Migrations.md: "`@Entity(originalName: "Old") entity New { … }` for entities, the attribute on the line
    /// before the declaration or on the same line".
    @Test func entityOriginalNameOnEitherLine() throws {
        let source = "@Entity(originalName: \"Journey\")\nentity Trip { name: String }\n@Entity(originalName: \"Spot\") entity Place { name: String }\n"
        #expect(SpecModel.findings(source) == [])
        let schema = try #require(SpecModel.lint(source).schema)
        #expect(schema.entity(named: "Trip")?.originalName == "Journey")
        #expect(schema.entity(named: "Place")?.originalName == "Spot")
        #expect(SpecModel.findings("@Entity(renamedFrom: \"Old\") entity A { x: Int }\n") == ["1:9 invalid-attribute"])
    }

    /// docs/Rules.md `cascade-cycle` is a warning that names the path.
    @Test func cascadeCycleIsAWarningNamingThePath() throws {
        let source = "entity Person {\n    @Relationship(deleteRule: .cascade)\n    friends: [Person] = []\n}\n"
        let diagnostic = try #require(SpecModel.lint(source).diagnostics.first)
        #expect(diagnostic.rule == .cascadeCycle && diagnostic.severity == .warning)
        #expect(diagnostic.message.contains("Person.friends → Person"))
        #expect(RuleID.all.contains { $0.0 == .cascadeCycle && $0.1 == .warning })
    }
}
