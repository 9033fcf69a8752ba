import Testing
@testable import ModelGenKit

/// The constructs of docs/Language.md "Additions (wave 2)", parsed one at a time, and their syntax errors.
@Suite struct AdditionsParserTests {
    typealias S = SyntaxTestSupport

    private func parseClean(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> ModelFile {
        let (file, diagnostics) = S.parse(text)
        #expect(S.summary(diagnostics) == [], "unexpected diagnostics for:\n\(text)", sourceLocation: sourceLocation)
        return file
    }

    private func defaults(of text: String) -> [ExpressionKind?] {
        let file = parseClean(text)
        guard case .entity(let entity)? = file.declarations.first else { return [] }
        return S.properties(of: entity).map { $0.defaultValue?.kind }
    }

    @Test func topLevelStructWithFieldsConformancesAndDocs() throws {
        let file = parseClean("""
            /// Colours.
            struct Palette: Codable, Hashable {
                /// The main one.
                primary: String
                var secondary: String? = nil; accents: [String] = []
            }
            """)
        guard case .structure(let palette)? = file.declarations.first else {
            Issue.record("no struct")
            return
        }
        #expect(palette.name.name == "Palette")
        #expect(palette.doc?.lines == ["Colours."])
        #expect(palette.inheritance.map(\.name) == ["Codable", "Hashable"])
        #expect(palette.fields.map(\.name.name) == ["primary", "secondary", "accents"])
        #expect(palette.fields[0].doc?.lines == ["The main one."])
        #expect(palette.fields[1].hasVar)
        #expect(palette.fields[1].type.description == "String?")
        #expect(palette.fields[2].defaultValue?.kind == .array([]))
        #expect(palette.range.start.line == 2 && palette.range.end.line == 6)
    }

    @Test func structNestedInAnEntity() throws {
        let file = parseClean("entity Theme {\n    struct Border { width: Double = 1 }\n    border: Border\n}\n")
        let theme = try #require(S.entity("Theme", in: file))
        guard case .structure(let border) = theme.members[0] else {
            Issue.record("the first member is not a struct")
            return
        }
        #expect(border.name.name == "Border")
        #expect(border.fields.map(\.name.name) == ["width"])
        #expect(S.properties(of: theme).map(\.name.name) == ["border"])
    }

    /// `struct` is a keyword only before a name: a property or an entity may still be called `struct`.
    @Test func structIsAKeywordOnlyBeforeAName() throws {
        let file = parseClean("entity A { struct: Int; `struct`: String }\nentity struct { x: Int }\n")
        #expect(S.entity("A", in: file).map { S.properties(of: $0).map(\.name.name) } == ["struct", "struct"])
        #expect(S.entity("struct", in: file) != nil)
    }

    @Test func enumCasesWithAssociatedValues() throws {
        let file = parseClean("""
            enum Shape: Codable {
                case circle(radius: Double), square(Double)
                case polygon(
                    corners: [Point],
                    closed: Bool?
                )
                case none
            }
            """)
        guard case .enumeration(let shape)? = file.declarations.first else {
            Issue.record("no enum")
            return
        }
        #expect(shape.cases.map(\.name.name) == ["circle", "square", "polygon", "none"])
        let circle = try #require(shape.cases[0].associatedValues)
        #expect(circle.map { $0.label?.name } == ["radius"])
        #expect(circle.map(\.type.description) == ["Double"])
        #expect(shape.cases[1].associatedValues?.map { $0.label?.name } == [nil])
        #expect(shape.cases[2].associatedValues?.map(\.type.description) == ["[Point]", "Bool?"])
        #expect(shape.cases[3].associatedValues == nil)
    }

    @Test func dateDefaultsAndQualifiedMembers() {
        let kinds = defaults(of: """
            entity E {
                a: Date = .now
                b: Date = Date.now
                c: Date = .distantPast
                d: Date = Date(timeIntervalSinceReferenceDate: -12.5)
                e: Kind = Outer.Kind.first
                f: Date = Date()
                g: TimeInterval = 60
            }
            """)
        #expect(kinds.count == 7)
        if case .memberAccess(let member)? = kinds[0] { #expect(member.name == "now") } else { Issue.record("a: \(String(describing: kinds[0]))") }
        if case .typeMember(let type, let member)? = kinds[1] {
            #expect(type.map(\.name) == ["Date"] && member.name == "now")
        } else {
            Issue.record("b: \(String(describing: kinds[1]))")
        }
        if case .call(let callee, let arguments)? = kinds[3] {
            #expect(callee.name == "Date")
            #expect(arguments.map { $0.label?.name } == ["timeIntervalSinceReferenceDate"])
            #expect(arguments.map(\.value.kind) == [.float("-12.5")])
        } else {
            Issue.record("d: \(String(describing: kinds[3]))")
        }
        if case .typeMember(let type, let member)? = kinds[4] {
            #expect(type.map(\.name) == ["Outer", "Kind"] && member.name == "first")
        } else {
            Issue.record("e: \(String(describing: kinds[4]))")
        }
        if case .call(let callee, let arguments)? = kinds[5] { #expect(callee.name == "Date" && arguments.isEmpty) } else { Issue.record("f") }
        #expect(kinds[6] == .integer("60"))
    }

    @Test func entityAttributeOnTheLineBeforeOrTheSameLine() throws {
        let file = parseClean("""
            /// Renamed.
            @Entity(originalName: "Journey")
            entity Trip { name: String }
            @Entity(originalName: "Spot") entity Place { name: String }
            """)
        let trip = try #require(S.entity("Trip", in: file))
        #expect(trip.attributes.map(\.name.name) == ["Entity"])
        #expect(trip.attributes[0].arguments.map(\.value.kind) == [.string("Journey")])
        #expect(trip.doc?.lines == ["Renamed."])
        #expect(trip.range.start.line == 2 && trip.keywordRange.start.line == 3)
        let place = try #require(S.entity("Place", in: file))
        #expect(place.attributes.first?.arguments.first?.label?.name == "originalName")
        #expect(place.keywordRange.start.column == 31)
    }

    @Test func syntaxErrorsOfTheNewConstructs() {
        let (_, diagnostics) = S.parse("""
            struct S {
                init(a)
                a: Int
            }
            enum E: Codable { case a() }
            entity D { at: Date = Date(Date()) }
            @Entity(originalName: "X") enum F: String { case a }
            """)
        #expect(S.summary(diagnostics) == [
            "2:5: expected a field ('name: Type') in struct 'S' (a struct holds fields only) but found keyword 'init'",
            "5:26: expected an associated value type in case 'a' (write the case without '()' when it carries none) but found ')'",
            "6:28: expected an argument of 'Date(…)' but found identifier 'Date'",
            "7:28: expected 'entity' after @Entity (at the top level, attributes apply to entities) but found keyword 'enum'",
        ])
    }

    /// An `@Entity` line starts a new declaration: an entity left open before it is reported there,
    /// and the attributed entity after it is read whole.
    @Test func anEntityAttributeLineEndsAnUnclosedEntity() throws {
        let (file, diagnostics) = S.parse("entity A {\n    x: Int\n@Entity(originalName: \"Old\")\nentity B { y: Int }\n")
        #expect(S.summary(diagnostics) == ["3:1: expected '}' to end entity 'A' but found '@'"])
        #expect(S.entity("B", in: file)?.attributes.count == 1)
    }

    /// A struct left open at the end of the file is reported, and its fields are kept.
    @Test func anUnclosedStructIsReported() {
        let (file, diagnostics) = S.parse("struct S {\n    a: Int\n")
        #expect(S.summary(diagnostics) == ["3:1: expected '}' to end struct 'S' but found end of file"])
        if case .structure(let s)? = file.declarations.first { #expect(s.fields.count == 1) } else { Issue.record("no struct") }
    }
}
