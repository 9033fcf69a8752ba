import Testing
@testable import ModelGenKit

/// What the checked schema carries for the constructs of docs/Language.md "Additions (wave 2)": the
/// generation of these constructs builds on exactly these values.
@Suite struct AdditionsSchemaTests {
    static let source = """
        /// Colours.
        struct Palette: Codable {
            primary: String
            secondary: String? = nil
            accent: Accent = .blue
            shades: [Shade] = []
        }

        struct Shade { name: String; level: Int = 0 }

        enum Accent: String { case blue, red }

        /// A shape.
        enum Shape: Codable {
            case circle(radius: Double)
            case square(Double, label: String?)
            case none
        }

        @Entity(originalName: "OldTheme")
        entity Theme {
            struct Border { width: Double = 1; style: String = "solid" }
            @Attribute(.unique) id: String
            palette: Palette
            optionalPalette: Palette?
            palettes: [Palette] = []
            border: Border = Border()
            duration: TimeInterval = 3
            created: Date = .now
            updated: Date = Date.now
            made: Date = Date()
            past: Date = .distantPast
            future: Date? = Date.distantFuture
            epoch: Date = Date(timeIntervalSinceReferenceDate: -1.5)
            shape: Shape = .none
            shapes: [Shape] = []
            kind: Kind = Theme.Kind.dark
            enum Kind: String { case light, dark }
        }

        entity DarkTheme: Theme { contrast: Double = 1.0 }

        entity Plain { name: String }
        """

    let schema: CheckedSchema

    init() throws {
        let result = SpecModel.lint(Self.source)
        #expect(result.diagnostics.map(\.message) == [])
        schema = try #require(result.schema)
    }

    private func attribute(_ entity: String, _ name: String) -> CheckedAttribute? {
        guard case .attribute(let attribute)? = schema.entity(named: entity)?.properties.first(where: { $0.name == name })?.kind else { return nil }
        return attribute
    }

    @Test func topLevelAndNestedStructs() throws {
        #expect(schema.structs.map(\.qualifiedName) == ["Palette", "Shade"])
        let palette = try #require(schema.structure(named: "Palette"))
        #expect(palette.doc == ["Colours."])
        #expect(palette.ownerEntity == nil)
        #expect(palette.fields.map(\.name) == ["primary", "secondary", "accent", "shades"])
        #expect(palette.fields.map(\.type) == [.string, .string, .enumeration(qualifiedName: "Accent", rawType: .string), .array(.composite(qualifiedName: "Shade"))])
        #expect(palette.fields.map(\.isOptional) == [false, true, false, false])
        #expect(palette.fields.map(\.defaultValue) == [nil, .nil, .enumCase("blue"), .array([])])
        let theme = try #require(schema.entity(named: "Theme"))
        #expect(theme.structs.map(\.qualifiedName) == ["Theme.Border"])
        #expect(theme.structs.first?.name == "Border")
        #expect(theme.structs.first?.ownerEntity == "Theme")
        #expect(schema.structure(named: "Theme.Border")?.fields.map(\.defaultValue) == [.integer("1"), .string("solid")])
    }

    @Test func propertiesOfStructTypes() {
        #expect(attribute("Theme", "palette")?.type == .composite(qualifiedName: "Palette"))
        #expect(attribute("Theme", "palette")?.isOptional == false)
        #expect(attribute("Theme", "optionalPalette")?.type == .composite(qualifiedName: "Palette"))
        #expect(attribute("Theme", "optionalPalette")?.isOptional == true)
        #expect(attribute("Theme", "palettes")?.type == .array(.composite(qualifiedName: "Palette")))
        #expect(attribute("Theme", "border")?.type == .composite(qualifiedName: "Theme.Border"))
        #expect(attribute("Theme", "border")?.defaultValue == .defaultStruct)
    }

    @Test func declaredIDIsTheIdentityOfTheHierarchy() {
        #expect(schema.entity(named: "Theme")?.idPropertyName == "id")
        #expect(schema.entity(named: "DarkTheme")?.idPropertyName == "id")
        #expect(schema.entity(named: "Plain")?.idPropertyName == nil)
        #expect(attribute("Theme", "id")?.isUnique == true)
        #expect(schema.entity(named: "Theme")?.uniqueConstraints == [["id"]])
    }

    @Test func timeIntervalKeepsItsSpelling() {
        #expect(attribute("Theme", "duration")?.type == .timeInterval)
        #expect(ValueType.timeInterval.description == "TimeInterval")
        #expect(attribute("Theme", "duration")?.defaultValue == .integer("3"))
    }

    @Test func dateDefaults() {
        #expect(attribute("Theme", "created")?.defaultValue == .now)
        #expect(attribute("Theme", "updated")?.defaultValue == .now)
        #expect(attribute("Theme", "made")?.defaultValue == .now)
        #expect(attribute("Theme", "past")?.defaultValue == .distantPast)
        #expect(attribute("Theme", "future")?.defaultValue == .distantFuture)
        #expect(attribute("Theme", "epoch")?.defaultValue == .dateSinceReferenceDate("-1.5"))
        #expect(attribute("Theme", "kind")?.defaultValue == .enumCase("dark"))
    }

    @Test func enumWithAssociatedValues() throws {
        let shape = try #require(schema.enumeration(named: "Shape"))
        #expect(shape.hasAssociatedValues)
        #expect(shape.rawType == nil)
        #expect(shape.doc == ["A shape."])
        #expect(shape.cases.map(\.name) == ["circle", "square", "none"])
        #expect(shape.cases.map(\.rawValue) == [nil, nil, nil])
        #expect(shape.cases[0].associatedValues == [CheckedAssociatedValue(label: "radius", type: .double, isOptional: false)])
        #expect(shape.cases[1].associatedValues == [
            CheckedAssociatedValue(label: nil, type: .double, isOptional: false),
            CheckedAssociatedValue(label: "label", type: .string, isOptional: true),
        ])
        #expect(shape.cases[2].associatedValues.isEmpty)
        #expect(attribute("Theme", "shape")?.type == .enumWithAssociatedValues(qualifiedName: "Shape"))
        #expect(attribute("Theme", "shape")?.defaultValue == .enumCase("none"))
        #expect(attribute("Theme", "shapes")?.type == .array(.enumWithAssociatedValues(qualifiedName: "Shape")))
        // A raw-value enum keeps its raw type and values.
        #expect(schema.enumeration(named: "Accent")?.rawType == .string)
        #expect(schema.enumeration(named: "Theme.Kind")?.cases.map(\.rawValue) == ["light", "dark"])
    }

    @Test func entityOriginalName() {
        #expect(schema.entity(named: "Theme")?.originalName == "OldTheme")
        #expect(schema.entity(named: "DarkTheme")?.originalName == nil)
    }

    /// A subclass adding real data with a default is a real subclass (no `label-only-subclass`).
    @Test func subclassWithDefaultedDataIsKept() {
        #expect(schema.entity(named: "Theme")?.subclassNames == ["DarkTheme"])
    }

    /// Every construct of the additions generates (nothing is refused as "not generated yet").
    @Test func everyConstructGenerates() throws {
        let result = try ModelGen.run(.files([SourceFile(path: "Additions.model", text: Self.source)]))
        #expect(result.diagnostics.map(\.message) == [])
        let text = try #require(result.outputs.first?.contents)
        #expect(text.contains("internal struct Palette: Codable, Hashable, Sendable, ModelStore.CompositeAttribute {"))
        #expect(text.contains("internal enum Shape: Codable, Hashable, Sendable, ModelStore.CodableAttribute {"))
        #expect(text.contains("originalName: \"OldTheme\""))
        let theme = try #require(text.components(separatedBy: "// MARK: - Theme\n").last?.components(separatedBy: "// MARK: - DarkTheme").first)
        #expect(theme.contains("    internal var id: String {"), "a declared id is the identity")
        #expect(!theme.contains("var id: ModelStore.PersistentIdentifier") && !theme.contains("identifierKeyPath"))
        #expect(text.contains("    internal var id: ModelStore.PersistentIdentifier { persistentModelID }"), "Plain declares no id")
    }
}
