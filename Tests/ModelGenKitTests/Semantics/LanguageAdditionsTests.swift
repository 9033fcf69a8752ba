import Testing
@testable import ModelGenKit

/// What faithful `.model` translations of real `@Model` classes write (docs/Language.md): plain
/// Codable enums, `CGFloat`, static-member defaults, protocols on structs and enums, default
/// arguments of declared inits, and the `unknown-type` note that suggests a struct.
@Suite struct LanguageAdditionsTests {
    private func findings(_ source: String) -> [String] { SpecModel.findings(source) }

    private func generate(_ source: String) throws -> String {
        try #require(try SpecModel.generate(source), "\(SpecModel.lint(source).diagnostics)")
    }

    // MARK: Plain enums

    @Test func aPlainEnumIsStoredByCaseName() throws {
        let source = """
            enum Provider: Codable { case ollama, openAI }
            enum Mood { case calm }
            entity Assistant {
                provider: Provider = .openAI
                moods: [Mood] = [.calm]
            }
            """
        #expect(findings(source) == [])
        let schema = try #require(SpecModel.lint(source).schema)
        let provider = try #require(schema.enumeration(named: "Provider"))
        #expect(provider.rawType == .string && !provider.hasDeclaredRawType && !provider.hasAssociatedValues)
        #expect(provider.cases.map(\.rawValue) == ["ollama", "openAI"])
        let generated = try generate(source)
        #expect(generated.contains("enum Provider: Codable, Hashable, Sendable, CaseIterable, ModelStore.CaseNameAttribute {"))
        #expect(generated.contains("case .openAI: \"openAI\""))
        #expect(!generated.contains("enum Provider: String"))
    }

    @Test func aPlainEnumTakesNoRawValuesAndOtherRawTypesStayUnsupported() {
        #expect(findings("enum E: Codable { case a = \"x\" }\n") == ["1:28 default-type-mismatch"])
        #expect(findings("enum E: Double { case a }\n") == ["1:9 unsupported-type"])
        #expect(findings("enum E: UInt8 { case a }\n") == ["1:9 unsupported-type"])
        // The raw type goes first, as in Swift.
        #expect(findings("enum E: Codable, String { case a }\n") == ["1:18 unknown-type"])
    }

    // MARK: Protocols

    @Test func anyProtocolIsPassedThrough() throws {
        let source = """
            struct Pt: Codable, Hashable, Identifiable { id: Int; x: Double }
            enum Level: String, Codable, Comparable { case low, high }
            enum Kind: Codable, Identifiable, Sendable { case a, b }
            enum Shape: Codable, CustomStringConvertible { case dot(Int), none }
            entity E { p: Pt; l: Level; k: Kind; s: Shape = .none }
            """
        #expect(findings(source) == [])
        let generated = try generate(source)
        #expect(generated.contains("struct Pt: Codable, Hashable, Sendable, ModelStore.CompositeAttribute, Identifiable {"))
        #expect(generated.contains("enum Level: String, Codable, Sendable, CaseIterable, ModelStore.SQLStorable, Comparable {"))
        #expect(generated.contains("enum Kind: Codable, Hashable, Sendable, CaseIterable, ModelStore.CaseNameAttribute, Identifiable {"))
        #expect(generated.contains("enum Shape: Codable, Hashable, Sendable, ModelStore.CodableAttribute, CustomStringConvertible {"))
        // A type of the model or a built-in value type is no protocol.
        #expect(findings("entity T { x: Int }\nstruct P: T { x: Int }\nstruct Q: Codable, Date { x: Int }\n") == ["2:11 unknown-type", "3:20 unknown-type"])
        // An enum with associated values still cannot be CaseIterable.
        #expect(findings("enum S: CaseIterable { case a(Int) }\n") == ["1:9 unsupported-type"])
    }

    // MARK: CGFloat

    @Test func cgFloatIsStoredAsADouble() throws {
        let source = "entity Box { width: CGFloat = 2; height: CGFloat? ; sizes: [CGFloat] = [1.5] }\n"
        #expect(findings(source) == [])
        let schema = try #require(SpecModel.lint(source).schema)
        let types = schema.entities[0].properties.map { property -> ValueType? in
            if case .attribute(let attribute) = property.kind { return attribute.type }
            return nil
        }
        #expect(types == [.cgFloat, .cgFloat, .array(.cgFloat)])
        let generated = try generate(source)
        #expect(generated.contains("var width: CGFloat") && generated.contains("defaultValue: 2)"))
        #expect(findings("entity Box { w: CGFloat = \"x\" }\n") == ["1:27 default-type-mismatch"])
    }

    // MARK: Static members

    @Test func aStaticMemberOfAStructIsADefault() throws {
        let source = """
            struct Rect { x: Double; y: Double }
            entity Frame {
                frame: Rect = .zero
                other: Rect = Rect.zero
                maybe: Rect? = .zero
            }
            """
        #expect(findings(source) == [])
        let generated = try generate(source)
        #expect(generated.contains("self._frame = Rect.zero") || generated.contains("frame: Rect = Rect.zero"))
        #expect(generated.contains("maybe: Rect? = Rect.zero"))
        #expect(findings("struct Rect { x: Double }\nstruct Other { y: Int }\nentity F { r: Rect = Other.zero }\n") == ["3:22 default-type-mismatch"])
    }

    // MARK: Init defaults

    @Test func declaredInitsTakeDefaultArguments() throws {
        let source = """
            entity Trip {
                name: String
                startDate: Date
                count: Int = 1
                tags: [String] = []
                init(name, startDate = .now, count = 3, tags = ["a"])
            }
            """
        #expect(findings(source) == [])
        let generated = try generate(source)
        #expect(generated.contains("init(name: String, startDate: Date = Date(), count: Int = 3, tags: [String] = [\"a\"])"))
        let trip = try #require(SpecModel.lint(source).schema?.entities.first)
        #expect(trip.initializers[0].parameters.map(\.hasDefaultArgument) == [false, true, true, true])
        #expect(findings("entity T {\n    n: Int\n    init(n = \"x\")\n}\n") == ["3:14 default-type-mismatch"])
        #expect(findings("entity T {\n    n: Int\n    init(n = )\n}\n") == ["3:14 syntax"])
    }

    /// A subclass's `super.init` may leave out a base parameter that has a default argument.
    @Test func superInitMayLeaveOutADefaultedParameter() {
        let source = """
            entity Trip {
                name: String
                days: Int
                init(name, days = 1)
            }
            entity Cruise: Trip {
                ship: String
                init(name, ship) {
                    super.init(name)
                }
            }
            """
        #expect(findings(source) == [])
    }

    @Test func formatKeepsDefaultArguments() throws {
        let source = "entity Trip {\n    name: String\n    start: Date\n    init(name, start = .now)\n}\n"
        let formatted = try ModelGen.format(.files([SourceFile(path: "F.model", text: source)]))
        #expect(formatted.formatted == [source])
    }

    // MARK: Optional to-many, model actors

    @Test func anOptionalToManyIsAToMany() throws {
        let source = """
            entity Folder {
                @Relationship(deleteRule: .cascade, inverse: \\Note.folder)
                notes: [Note]? = []
                drafts: [Note]? = nil
                width: CGFloat = 1
            }
            entity Note {
                folder: Folder?
                inbox: Folder?
            }
            """
        #expect(findings(source) == [])
        let folder = try #require(SpecModel.lint(source).schema?.entities.first)
        let relationships = folder.properties.compactMap { property -> CheckedRelationship? in
            if case .relationship(let relationship) = property.kind { return relationship }
            return nil
        }
        #expect(relationships.map(\.isToMany) == [true, true] && relationships.map(\.isOptionalToMany) == [true, true])
        let generated = try generate(source)
        #expect(generated.contains("var notes: [Note]? {"))
        #expect(generated.contains(".toMany(Folder._$notes, \\Folder.notes, deleteRule: .cascade, inverse: \"folder\")"))
        #expect(findings("entity A { bs: [B]? = [] }\nentity B { x: Int }\n") == [])
        #expect(findings("entity A { bs: [B]? = 3 }\nentity B { x: Int }\n") == ["1:23 default-type-mismatch"])
        // The diagram draws it as a to-many; CGFloat is named as written.
        let diagram = try ModelGen.diagram(.files([SourceFile(path: "D.model", text: source)]), format: .mermaid)
        let text = try #require(diagram.text)
        #expect(text.contains("width: CGFloat") && text.contains("\"*\""))
    }

    @Test func aModelActorIsGeneratedAsSwiftDataExpandsIt() throws {
        let source = "entity Trip { name: String }\n/// Imports trips.\n@ModelActor actor TripImporter\n@ModelActor\nactor Other { }\n"
        #expect(findings(source) == [])
        let generated = try generate(source)
        #expect(generated.contains("""
            /// Imports trips.
            internal actor TripImporter: ModelStore.ModelActor {
                internal nonisolated let modelExecutor: any ModelStore.ModelExecutor
                internal nonisolated let modelContainer: ModelStore.ModelContainer

                internal init(modelContainer: ModelStore.ModelContainer) {
                    let modelContext = ModelStore.ModelContext(modelContainer)
                    self.modelExecutor = ModelStore.DefaultSerialModelExecutor(modelContext: modelContext)
                    self.modelContainer = modelContainer
                }
            }
            """))
        #expect(findings("entity A { x: Int }\n@ModelActor actor A\n") == ["2:19 duplicate-declaration"])
        #expect(findings("@ModelActor() actor B\n") == ["1:1 invalid-attribute"])
        #expect(findings("@ModelActor actor B { func f() }\n") == ["1:23 syntax"])
        #expect(findings("@ModelActor struct B\n") == ["1:13 syntax"])
        // format writes it on one line; freeze leaves it out of the version (not part of the schema).
        let formatted = try ModelGen.format(.files([SourceFile(path: "F.model", text: source)]))
        #expect(formatted.formatted.first?.contains("@ModelActor actor Other\n") == true)
    }

    // MARK: unknown-type

    @Test func anUnknownCapitalizedTypeSuggestsAStruct() throws {
        let diagnostic = try #require(SpecModel.lint("entity F { frame: Rectangle }\n").diagnostics.first)
        #expect(diagnostic.rule == .unknownType)
        #expect(diagnostic.message.contains("declare an entity, enum or struct"))
        #expect(diagnostic.notes.contains { $0.message.contains("'struct Rectangle {") })
        let lower = try #require(SpecModel.lint("entity F { frame: rect }\n").diagnostics.first)
        #expect(!lower.notes.contains { $0.message.contains("struct") })
    }
}
