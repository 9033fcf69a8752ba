// Top-level declarations and entity members.
extension Parser {
    // MARK: - Entity

    func parseEntity(doc: DocComment?, attributes: [AttributeDecl] = [], start: SourceLocation? = nil) throws -> EntityDecl {
        let keyword = advance()
        let name = try expectName("a name after 'entity'")
        var base: Identifier?
        if current.isPunctuation(":") {
            advance()
            base = try expectName("a base entity name after ':'")
        }
        var members: [EntityMember] = []
        try parseBody(of: "entity '\(name)'") { members.append(try parseEntityMember()) }
        return EntityDecl(doc: doc, name: name, base: base, members: members, range: range(from: start ?? keyword.range.start),
                          attributes: attributes, keywordRange: keyword.range)
    }

    // MARK: - Struct

    /// `struct Name[: Codable, …] { fields }`: fields only, written like properties.
    func parseStruct(doc: DocComment?) throws -> StructDecl {
        let keyword = advance()
        let name = try expectName("a name after 'struct'")
        let inheritance = try parseInheritance(first: "a protocol name ('Codable', 'Hashable', …) after ':'")
        var fields: [PropertyDecl] = []
        try parseBody(of: "struct '\(name)'") { fields.append(try parseField(of: name)) }
        return StructDecl(doc: doc, name: name, inheritance: inheritance, fields: fields, range: range(from: keyword.range.start))
    }

    /// One field of a struct: `[attributes] [var] name: Type [= default]` (attributes are read, and rejected later).
    func parseField(of structName: Identifier) throws -> PropertyDecl {
        let (doc, start) = (current.doc, current.range.start)
        let attributes = try parseLeadingAttributes()
        if current.isPunctuation("#") || current.isKeyword("init") || current.isKeyword("enum") || isAtStructKeyword {
            throw fail(expected: "a field ('name: Type') in struct '\(structName)' (a struct holds fields only)")
        }
        let isNamed = current.kind == .identifier || current.isKeyword("var")
        let isKeywordName = (current.kind == .keyword || current.kind == .boolLiteral || current.kind == .nilLiteral) && peek().isPunctuation(":")
        if !isNamed, !isKeywordName, attributes.isEmpty {
            throw fail(expected: "a field ('name: Type') in struct '\(structName)'")
        }
        return try parseProperty(doc: doc, attributes: attributes, start: start)
    }

    /// Reads a `{ … }` body up to its closing `}` (consumed), each member with `parseMember` after
    /// the separators before it. A body left open is reported (at the current token, with a note at
    /// its `{`) at the end of the file, at a new top-level declaration, or where `endsEarly` says so
    /// (the `}` is then missing for the enclosing body too). A member that fails is skipped to its
    /// end, then `afterRecovery` runs.
    func parseBody(of what: String, endsEarly: () -> Bool = { false }, afterRecovery: () -> Void = {}, member parseMember: () throws -> Void) throws {
        guard current.isPunctuation("{") else { throw fail(expected: "'{' to begin the body of \(what)") }
        let open = advance()
        let braceBase = braceDepth
        while true {
            skipSeparators()
            if current.isPunctuation("}") {
                advance()
                return
            }
            if isAtEnd || isAtTopLevelKeyword || collector.isFull {
                reportUnclosed(what, open: open)
                return
            }
            if endsEarly() {
                reportUnclosed(what, open: open)
                braceDepth = braceBase - 1
                return
            }
            let groupBase = groupDepth
            do {
                try parseMember()
            } catch {
                recoverToMemberEnd(braceBase: braceBase, groupBase: groupBase)
                afterRecovery()
            }
        }
    }

    /// `: A, B` after a declaration's name, or nothing when no `:` follows.
    func parseInheritance(first what: String) throws -> [Identifier] {
        guard current.isPunctuation(":") else { return [] }
        advance()
        var inheritance = [try expectName(what)]
        while current.isPunctuation(",") {
            advance()
            inheritance.append(try expectName("a protocol name after ','"))
        }
        return inheritance
    }

    /// Reports a body that ends (end of file or a new declaration) before its closing brace.
    func reportUnclosed(_ what: String, open: Token) {
        guard current.kind != .invalid else { return }
        collector.error("expected '}' to end \(what) but found \(current.displayName)", at: current.range,
                        notes: [DiagnosticNote("'{' of \(what) opened here", at: open.range)])
    }

    /// The attributes before a member or declaration, each followed by any line breaks.
    func parseLeadingAttributes() throws -> [AttributeDecl] {
        var attributes: [AttributeDecl] = []
        while current.isPunctuation("@") {
            attributes.append(try parseAttribute())
            skipNewlines()
        }
        return attributes
    }

    func parseEntityMember() throws -> EntityMember {
        let (doc, start) = (current.doc, current.range.start)
        let attributes = try parseLeadingAttributes()
        if isAtStructKeyword {
            if let first = attributes.first {
                collector.error("attributes apply to properties only, not to a struct", at: first.range)
            }
            return .structure(try parseStruct(doc: doc))
        }
        if current.isPunctuation("#") || current.isKeyword("init") || current.isKeyword("enum") {
            if let first = attributes.first {
                collector.error("attributes apply to properties only, not to \(current.displayName)", at: first.range)
            }
            let what = current.isPunctuation("#") ? "the macro" : "the initializer"
            let member: EntityMember
            if current.isPunctuation("#") {
                member = .constraint(try parseConstraintMacro())
            } else if current.isKeyword("init") {
                member = .initializer(try parseInit(doc: doc))
            } else {
                return .enumeration(try parseEnum(doc: doc, isNested: true))
            }
            try expectMemberEnd(after: what)
            return member
        }
        return .property(try parseProperty(doc: doc, attributes: attributes, start: start))
    }

    func parseProperty(doc: DocComment?, attributes: [AttributeDecl], start: SourceLocation) throws -> PropertyDecl {
        var hasVar = false
        if current.isKeyword("var") {
            advance()
            hasVar = true
        }
        guard current.kind == .identifier else {
            if current.kind == .keyword || current.kind == .boolLiteral || current.kind == .nilLiteral, peek().isPunctuation(":") {
                collector.error("expected a property name but found \(current.displayName); write `\(current.text)` in backticks to use it as a name", at: current.range)
                throw Failure()
            }
            if attributes.isEmpty, !hasVar {
                throw fail(expected: "a member (a property 'name: Type', 'init', 'enum', '#Unique' or '#Index')")
            }
            throw fail(expected: "a property name")
        }
        let name = try expectName("a property name")
        guard current.isPunctuation(":") else { throw fail(expected: "':' and a type after property name '\(name)'") }
        advance()
        let type = try parseType()
        var defaultValue: Expression?
        if current.isPunctuation("=") {
            advance()
            defaultValue = try parseValue(expected: "a default value (a literal, 'nil', '.case', '[…]', 'UUID()' or 'Date()') after '='")
        }
        let property = PropertyDecl(doc: doc, attributes: attributes, hasVar: hasVar, name: name, type: type,
                                    defaultValue: defaultValue, range: range(from: start))
        try expectMemberEnd(after: "property '\(name)'")
        return property
    }

    /// Requires the end of a member (newline, `;`, `}` or end of file) without consuming it.
    func expectMemberEnd(after what: String) throws {
        guard isAtMemberEnd else { throw fail(expected: "a new line or ';' after \(what)") }
    }

    // MARK: - Init

    func parseInit(doc: DocComment?) throws -> InitDecl {
        let keyword = advance()
        try expect("(", "'(' after 'init'")
        let (parameters, defaults) = try parseInitParameters()
        var superInit: SuperInitCall?
        if current.isPunctuation("{") {
            advance()
            skipSeparators()
            if current.isKeyword("super") {
                let superToken = advance()
                try expect(".", "'.init(…)' after 'super'")
                guard current.isKeyword("init") else { throw fail(expected: "'init' after 'super.'") }
                advance()
                try expect("(", "'(' after 'super.init'")
                let arguments = try parseNameList(closer: ")", expected: "a parameter name in the arguments of 'super.init'")
                superInit = SuperInitCall(arguments: arguments, range: range(from: superToken.range.start))
                skipSeparators()
            }
            guard current.isPunctuation("}") else {
                throw fail(expected: superInit == nil ? "'super.init(…)' or '}' in the body of 'init'" : "'}' after 'super.init(…)'")
            }
            advance()
        }
        return InitDecl(doc: doc, parameters: parameters, superInit: superInit, keywordRange: keyword.range, range: range(from: keyword.range.start),
                        parameterDefaults: defaults)
    }

    /// `a, b = value)` after `init(`: property names, each with an optional default argument (line
    /// breaks after `(` and `,` and before `)`), consuming the `)`.
    func parseInitParameters() throws -> ([Identifier], [Expression?]) {
        var names: [Identifier] = []
        var defaults: [Expression?] = []
        skipNewlines()
        while !current.isPunctuation(")") {
            let name = try expectName("a property name in the parameter list of 'init'")
            names.append(name)
            if current.isPunctuation("=") {
                advance()
                defaults.append(try parseValue(expected: "a default argument (a literal, 'nil', '.member', '[…]', 'UUID()' or 'Date()') after '=' for '\(name)'"))
            } else {
                defaults.append(nil)
            }
            skipLineBreak(before: ")")
            guard current.isPunctuation(",") else { break }
            advance()
            skipNewlines()
        }
        try expect(")", "',', '=' or ')' after '\(names.last?.name ?? "(")'")
        return (names, defaults)
    }

    /// Reads `a, b, c)` after an opening parenthesis (line breaks after `(` and `,` and before the closer), consuming the closer.
    func parseNameList(closer: String, expected what: String) throws -> [Identifier] {
        var names: [Identifier] = []
        skipNewlines()
        while !current.isPunctuation(closer) {
            names.append(try expectName(what))
            skipLineBreak(before: closer)
            guard current.isPunctuation(",") else { break }
            advance()
            skipNewlines()
        }
        try expect(closer, "',' or '\(closer)' after '\(names.last?.name ?? "(")'")
        return names
    }

    // MARK: - Enum

    /// An enum; a nested one (`isNested`) also ends, with an error, at a line that starts an entity member.
    func parseEnum(doc: DocComment?, isNested: Bool = false) throws -> EnumDecl {
        let keyword = advance()
        let name = try expectName("a name after 'enum'")
        let inheritance = try parseInheritance(first: "a raw type ('String' or 'Int') after ':'")
        var cases: [EnumCaseDecl] = []
        try parseBody(of: "enum '\(name)'", endsEarly: { isNested && isAtEntityMemberStart }) {
            cases.append(contentsOf: try parseCaseLine(enumName: name))
        }
        return EnumDecl(doc: doc, name: name, inheritance: inheritance, cases: cases, range: range(from: keyword.range.start))
    }

    /// True at a token that starts an entity member (`@`, `#`, `init`, `var`, `enum`, `struct`, or `name:`).
    var isAtEntityMemberStart: Bool {
        current.isPunctuation("@") || current.isPunctuation("#") || current.isKeyword("init")
            || current.isKeyword("var") || current.isKeyword("enum") || isAtStructKeyword
            || (current.kind == .identifier && peek().isPunctuation(":"))
    }

    /// `case a, b = "bee"` (one line of an enum body).
    func parseCaseLine(enumName: Identifier) throws -> [EnumCaseDecl] {
        guard current.isKeyword("case") else { throw fail(expected: "'case' in enum '\(enumName)'") }
        let keyword = advance()
        var cases: [EnumCaseDecl] = []
        while true {
            let name = try expectName(cases.isEmpty ? "a case name after 'case'" : "a case name after ','")
            var associatedValues: [AssociatedValueDecl]?
            if current.isPunctuation("(") {
                associatedValues = try parseAssociatedValues(of: name)
            }
            var rawValue: Expression?
            if current.isPunctuation("=") {
                advance()
                rawValue = try parseScalarValue(expected: "a raw value (a string or integer literal) after '='")
            }
            let start = cases.isEmpty ? keyword.range.start : name.range.start
            cases.append(EnumCaseDecl(doc: cases.isEmpty ? keyword.doc : nil, name: name, rawValue: rawValue, range: range(from: start),
                                      associatedValues: associatedValues))
            guard current.isPunctuation(",") else { break }
            advance()
        }
        try expectMemberEnd(after: "enum case '\(cases[cases.count - 1].name)'")
        return cases
    }

    /// `(label: Type, Type)` after a case name (line breaks after `(` and `,` and before `)`), consuming the `)`.
    func parseAssociatedValues(of caseName: Identifier) throws -> [AssociatedValueDecl] {
        advance()
        inMultilineArguments = true
        skipNewlines()
        var values: [AssociatedValueDecl] = []
        repeat {
            if values.isEmpty, current.isPunctuation(")") {
                throw fail(expected: "an associated value type in case '\(caseName)' (write the case without '()' when it carries none)")
            }
            let start = current.range.start
            let label = try parseArgumentLabel()
            let type = try parseType()
            values.append(AssociatedValueDecl(label: label, type: type, range: range(from: start)))
            skipLineBreak(before: ")")
            guard current.isPunctuation(",") else { break }
            advance()
            skipNewlines()
        } while true
        try expect(")", "',' or ')' after an associated value of case '\(caseName)'")
        inMultilineArguments = false
        return values
    }

    // MARK: - Container

    func parseContainer(doc: DocComment?) throws -> ContainerDecl {
        let keyword = advance()
        let name = try expectName("a name after 'container'")
        guard current.isPunctuation("{") else { throw fail(expected: "'{' to begin the entity list of container '\(name)'") }
        var entries: [Identifier] = []
        try parseBody(of: "container '\(name)'", afterRecovery: { if current.isPunctuation(",") { advance() } }) {
            let entry = try expectName("an entity name in container '\(name)'")
            entries.append(entry)
            if current.isPunctuation(",") {
                advance()
            } else if !isAtMemberEnd {
                throw fail(expected: "',' or '}' after '\(entry)' in container '\(name)'")
            }
        }
        return ContainerDecl(doc: doc, name: name, entries: entries, range: range(from: keyword.range.start))
    }
}
