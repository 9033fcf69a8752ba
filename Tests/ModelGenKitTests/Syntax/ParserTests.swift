import Testing
@testable import ModelGenKit

/// Every construct of docs/Language.md, parsed one at a time.
@Suite struct ParserTests {
    typealias S = SyntaxTestSupport

    private func parseClean(_ text: String) -> ModelFile {
        let (file, diagnostics) = S.parse(text)
        #expect(S.summary(diagnostics) == [], "unexpected diagnostics for:\n\(text)")
        return file
    }

    private func onlyEntity(_ text: String) throws -> EntityDecl {
        let file = parseClean(text)
        guard case .entity(let entity)? = file.declarations.first else { throw ParserTestError.noEntity }
        return entity
    }

    enum ParserTestError: Error { case noEntity, noEnum }

    @Test func topLevelEnumWithRawValues() throws {
        let file = parseClean("""
        enum Priority: Int, Codable {
            case low = -1, normal = 0
            case high = 1_0
        }
        enum Code: String { case a, b = "bee" }
        """)
        guard case .enumeration(let priority) = file.declarations[0], case .enumeration(let code) = file.declarations[1] else {
            throw ParserTestError.noEnum
        }
        #expect(priority.inheritance.map(\.name) == ["Int", "Codable"])
        #expect(priority.cases.map(\.name.name) == ["low", "normal", "high"])
        #expect(priority.cases.map(\.rawValue?.kind) == [.integer("-1"), .integer("0"), .integer("10")])
        #expect(code.cases.map(\.rawValue?.kind) == [nil, .string("bee")])
        #expect(code.cases[1].range.start.column == 29)
    }

    @Test func everyTypeForm() throws {
        let entity = try onlyEntity("""
        entity E {
            a: Int?
            b: [String]
            c: [K: V]
            d: (Int, String)
            e: ()
            f: Outer.Inner
            g: E??
            h: [[Int]?]?
        }
        """)
        let types = S.properties(of: entity).map(\.type)
        #expect(types.map(\.description) == ["Int?", "[String]", "[K: V]", "(Int, String)", "()", "Outer.Inner", "E??", "[[Int]?]?"])
        if case .optional(let inner) = types[6].kind, case .optional = inner.kind {} else {
            Issue.record("E?? is not an optional of an optional")
        }
        #expect(types[7].range.start.column == 8 && types[7].range.end.column == 17)
    }

    @Test func everyDefaultForm() throws {
        let entity = try onlyEntity("""
        entity E {
            a: String = "x"
            b: Int = -3
            c: Double = 2.5
            d: Bool = true
            e: Int? = nil
            f: Kind = .first
            g: [Int] = []
            h: [String] = ["a", "b"]
            i: UUID = UUID()
            j: Date = Date()
        }
        """)
        let defaults = S.properties(of: entity).map { $0.defaultValue?.kind }
        #expect(defaults[0] == .string("x"))
        #expect(defaults[1] == .integer("-3"))
        #expect(defaults[2] == .float("2.5"))
        #expect(defaults[3] == .bool(true))
        #expect(defaults[4] == .nil)
        if case .memberAccess(let name)? = defaults[5] { #expect(name.name == "first") } else { Issue.record("f") }
        #expect(defaults[6] == .array([]))
        if case .array(let elements)? = defaults[7] {
            #expect(elements.map(\.kind) == [.string("a"), .string("b")])
        } else {
            Issue.record("h")
        }
        if case .call(let name, _)? = defaults[8] { #expect(name.name == "UUID") } else { Issue.record("i") }
        if case .call(let name, _)? = defaults[9] { #expect(name.name == "Date") } else { Issue.record("j") }
    }

    @Test func attributesBeforeAndOnTheSameLine() throws {
        let entity = try onlyEntity("""
        entity E {
            @Attribute(.unique, originalName: "x")
            @Attribute(.externalStorage)
            var a: Data
            @Transient cache: Int = 0
            @Relationship(deleteRule: .cascade, inverse: \\F.e, minimumModelCount: 1, maximumModelCount: 3, originalName: "o")
            fs: [F] = []
            @Relationship(
                deleteRule: .deny,
                inverse: \\G.e
            )
            g: G?
            @Custom() h: Int
        }
        """)
        let properties = S.properties(of: entity)
        #expect(properties.map(\.name.name) == ["a", "cache", "fs", "g", "h"])
        #expect(properties[0].hasVar)
        #expect(properties[0].attributes.map(\.name.name) == ["Attribute", "Attribute"])
        #expect(properties[0].attributes[0].arguments.map { $0.label?.name } == [nil, "originalName"])
        #expect(properties[0].attributes[0].arguments[1].value.kind == .string("x"))
        #expect(properties[0].range.start.line == 2)
        #expect(properties[1].attributes.map(\.name.name) == ["Transient"])
        #expect(properties[1].attributes[0].hasParentheses == false)
        let relationship = properties[2].attributes[0]
        #expect(relationship.arguments.map { $0.label?.name } == ["deleteRule", "inverse", "minimumModelCount", "maximumModelCount", "originalName"])
        #expect(relationship.arguments[2].value.kind == .integer("1"))
        #expect(properties[3].attributes[0].arguments.count == 2)
        #expect(properties[4].attributes[0].hasParentheses && properties[4].attributes[0].arguments.isEmpty)
    }

    @Test func initsAndConstraints() throws {
        let entity = try onlyEntity("""
        entity E: B {
            a: Int
            init(a, b) {
                super.init(b)
            }
            init(a) { super.init() }
            init() {}
            #Unique([\\.a], [\\.b, \\.c])
            #Index<E>([\\.a])
        }
        """)
        #expect(entity.base?.name == "B")
        let inits = S.inits(of: entity)
        #expect(inits.map { $0.parameters.map(\.name) } == [["a", "b"], ["a"], []])
        #expect(inits.map { $0.superInit?.arguments.map(\.name) } == [["b"], [], nil])
        #expect(inits[0].superInit?.range.start.line == 4)
        #expect(inits[0].range.end.line == 5)
        let macros = entity.members.compactMap { if case .constraint(let c) = $0 { c } else { nil } }
        #expect(macros.map(\.kind) == [.unique, .index])
        #expect(macros[0].groups.map { $0.map { $0.components.map(\.name) } } == [[["a"]], [["b"], ["c"]]])
        #expect(macros[0].groups[0][0].root == nil)
        #expect(macros[1].genericArgument?.name == "E")
    }

    @Test func containersAcceptCommasAndNewlines() {
        let file = parseClean("container Store {\n    A, B\n    C\n}\ncontainer Empty {}")
        guard case .container(let store) = file.declarations[0] else {
            Issue.record("no container")
            return
        }
        #expect(store.entries.map(\.name) == ["A", "B", "C"])
    }

    @Test func semicolonsSeparateMembers() throws {
        let entity = try onlyEntity("entity E { a: Int; b: String = \"x\"; init(a) }")
        #expect(entity.members.count == 3)
    }

    @Test func docCommentsAttachToMembersAndCases() throws {
        let file = parseClean("""
        /// Entity doc.
        entity E {
            /// Property doc,
            /// two lines.
            @Attribute(.unique)
            a: Int
            /// Init doc.
            init(a)
        }
        /// Enum doc.
        enum K: String {
            /// Case doc.
            case x
        }
        """)
        guard case .entity(let entity) = file.declarations[0], case .enumeration(let k) = file.declarations[1] else {
            Issue.record("declarations")
            return
        }
        #expect(entity.doc?.lines == ["Entity doc."])
        #expect(S.properties(of: entity)[0].doc?.lines == ["Property doc,", "two lines."])
        #expect(S.inits(of: entity)[0].doc?.lines == ["Init doc."])
        #expect(k.doc?.lines == ["Enum doc."])
        #expect(k.cases[0].doc?.lines == ["Case doc."])
    }

    @Test func keywordsInBackticksAreNames() throws {
        let entity = try onlyEntity("entity `enum` { `case`: Int }")
        #expect(entity.name.name == "enum" && entity.name.isEscaped)
        #expect(S.properties(of: entity)[0].name.name == "case")
    }

    @Test func typesNestedTooDeeplyAreAnError() {
        let deep = String(repeating: "[", count: 40) + "Int" + String(repeating: "]", count: 40)
        let (_, diagnostics) = S.parse("entity E {\n    a: \(deep)\n    b: Int\n}")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message.contains("type nested too deeply") == true)
        #expect(diagnostics.first?.range.start.line == 2)
    }

    @Test func oneRunReportsEveryIndependentError() {
        let (file, diagnostics) = S.parse("""
        entity A {
            name String
            ok: Int
            bad: = 3
        }
        entity B {
            init(a b)
            fine: String
        }
        enum K { case }
        container C { A, B }
        """)
        #expect(S.summary(diagnostics) == [
            "2:10: expected ':' and a type after property name 'name' but found identifier 'String'",
            "4:10: expected a type but found '='",
            "7:12: expected ',', '=' or ')' after 'a' but found identifier 'b'",
            "10:15: expected a case name after 'case' but found '}'",
        ])
        #expect(file.declarations.map(\.name.name) == ["A", "B", "K", "C"])
        #expect(S.entity("A", in: file).map { S.properties(of: $0).map(\.name.name) } == ["ok"])
        #expect(S.entity("B", in: file).map { S.properties(of: $0).map(\.name.name) } == ["fine"])
    }

    @Test func missingClosingBraceIsOneErrorAndTheNextDeclarationParses() {
        let (file, diagnostics) = S.parse("entity A {\n    a: Int\n\nentity B { b: Int }\n")
        #expect(S.summary(diagnostics) == ["4:1: expected '}' to end entity 'A' but found keyword 'entity'"])
        #expect(diagnostics[0].notes.first?.range?.start.line == 1)
        #expect(file.declarations.map(\.name.name) == ["A", "B"])
    }

    @Test func membersOutsideAnEntity() {
        let (_, diagnostics) = S.parse("name: String\nentity A {}\n")
        #expect(diagnostics.count == 1)
        #expect(diagnostics[0].message.hasPrefix("expected a declaration ('entity', 'enum', 'struct' or 'container') but found identifier 'name'"))
    }
}

extension ParserTests {
    @Test func keywordAsPropertyNameSuggestsBackticks() {
        let (file, diagnostics) = S.parse("entity A {\n    container: String\n    entity: Int\n    ok: Int\n}\nentity B {}\n")
        #expect(S.summary(diagnostics) == [
            "2:5: expected a property name but found keyword 'container'; write `container` in backticks to use it as a name",
            "3:5: expected a property name but found keyword 'entity'; write `entity` in backticks to use it as a name",
        ])
        #expect(file.declarations.map(\.name.name) == ["A", "B"])
        #expect(S.entity("A", in: file).map { S.properties(of: $0).map(\.name.name) } == ["ok"])
    }
}

extension ParserTests {
    @Test func listsMayContinueAfterCommasAndCloseOnTheirOwnLine() throws {
        let entity = try onlyEntity("""
        entity E: B {
            tags: [String] = [
                "a",
                "b"
            ]
            init(
                a,
                b
            ) {
                super.init(
                    b
                )
            }
            #Unique(
                [\\.a,
                 \\.b],
                [\\.c]
            )
        }
        """)
        #expect(S.properties(of: entity).first?.defaultValue.map { if case .array(let e) = $0.kind { e.count } else { 0 } } == 2)
        #expect(S.inits(of: entity).first?.parameters.map(\.name) == ["a", "b"])
        #expect(S.inits(of: entity).first?.superInit?.arguments.map(\.name) == ["b"])
    }
}
