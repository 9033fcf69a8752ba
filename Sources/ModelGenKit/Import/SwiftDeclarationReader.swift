// Reads the declaration subset SwiftData models use (docs/CommandLine.md "modelgen import") from
// Swift tokens: `@Model` classes, their stored properties and designated inits, Codable structs and
// enums, `VersionedSchema` and `SchemaMigrationPlan` enums, typealiases. Everything else is skipped
// whole (bodies by their braces) and reported as a note saying where it must go.

final class SwiftDeclarationReader {
    private var tokens: [SwiftToken]
    private var position = 0
    private let path: String
    private(set) var notes: [ImportMessage] = []
    private var typeDepth = 0
    private var scopeDepth = 0

    private static let modifiers: Set<String> = [
        "public", "private", "fileprivate", "internal", "package", "open", "final", "static", "override", "required",
        "convenience", "lazy", "weak", "unowned", "nonisolated", "dynamic", "mutating", "nonmutating", "indirect", "optional",
        "isolated", "consuming", "borrowing", "distributed",
    ]

    init(path: String, tokens: [SwiftToken]) {
        self.path = path
        self.tokens = tokens
    }

    /// Reads a whole file.
    static func read(path: String, bytes: [UInt8]) throws(SwiftReadError) -> (scope: ImportedScope, notes: [ImportMessage]) {
        let reader = SwiftDeclarationReader(path: path, tokens: [])
        reader.tokens = try reader.resolveConditionalCompilation(SwiftTokenizer.tokenize(bytes))
        let scope = try reader.readScope(closer: false, owner: nil)
        return (scope, reader.notes)
    }

    // MARK: - Tokens

    private var current: SwiftToken { tokens[position] }
    private func peek(_ offset: Int = 1) -> SwiftToken { tokens[min(position + offset, tokens.count - 1)] }
    @discardableResult private func advance() -> SwiftToken {
        let token = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    private func error(_ message: String, at token: SwiftToken? = nil) -> SwiftReadError {
        let token = token ?? current
        return SwiftReadError(line: token.line, column: token.column, message: message)
    }

    private func note(_ message: String, line: Int) {
        notes.append(ImportMessage(path: path, line: line, column: 1, severity: .note, message: message))
    }

    private func skipped(_ message: String, line: Int) -> ImportMessage {
        ImportMessage(path: path, line: line, column: 1, severity: .note, message: message)
    }

    private func expect(_ punctuation: String, _ what: String) throws(SwiftReadError) {
        guard current.is(punctuation) else { throw error("expected \(what) but found \(describe(current))") }
        advance()
    }

    private func expectName(_ what: String) throws(SwiftReadError) -> SwiftToken {
        guard current.kind == .identifier else { throw error("expected \(what) but found \(describe(current))") }
        return advance()
    }

    private func describe(_ token: SwiftToken) -> String {
        switch token.kind {
        case .end: "the end of the file"
        case .string: "a string literal"
        default: "'\(token.text)'"
        }
    }

    private static func isOpener(_ token: SwiftToken) -> Bool { token.is("{") || token.is("(") || token.is("[") }
    private static func isCloser(_ token: SwiftToken) -> Bool { token.is("}") || token.is(")") || token.is("]") }

    /// At an opener: consumes up to and with its matching closer; returns the tokens inside.
    @discardableResult private func skipBalanced() throws(SwiftReadError) -> ArraySlice<SwiftToken> {
        let open = advance()
        let closer = open.is("{") ? "}" : open.is("(") ? ")" : "]"
        var stack = [closer]
        let start = position
        while !stack.isEmpty {
            let token = current
            if token.kind == .end { throw error("expected '\(closer)' to match the '\(open.text)' at line \(open.line):\(open.column) but found the end of the file", at: token) }
            if Self.isOpener(token) {
                stack.append(token.is("{") ? "}" : token.is("(") ? ")" : "]")
            } else if Self.isCloser(token) {
                guard token.text == stack.last else {
                    throw error("expected '\(stack.last ?? closer)' but found '\(token.text)'", at: token)
                }
                stack.removeLast()
            }
            advance()
        }
        return tokens[start..<(position - 1)]
    }

    /// Skips the rest of a declaration: balanced groups whole, up to a token that starts a line, a
    /// `;` or the `}` of the enclosing body.
    private func skipDeclaration() throws(SwiftReadError) {
        var first = true
        while current.kind != .end, !current.is("}"), !current.is(";") {
            if !first, current.startsLine, !continuesDeclaration(current) { break }
            first = false
            if Self.isOpener(current) {
                try skipBalanced()
                continue
            }
            if Self.isCloser(current) { throw error("unexpected '\(current.text)'") }
            advance()
        }
        if current.is(";") { advance() }
    }

    /// A token at a line start that still belongs to the declaration before (`where`, `->`, `{`, `.`).
    private func continuesDeclaration(_ token: SwiftToken) -> Bool {
        token.is("{") || token.is("->") || token.is(".") || token.isWord("where") || token.isWord("throws")
            || token.isWord("async") || token.isWord("rethrows")
    }

    // MARK: - Conditional compilation

    /// Keeps the first branch of each `#if … #endif` and notes the branches not read.
    private func resolveConditionalCompilation(_ input: [SwiftToken]) throws(SwiftReadError) -> [SwiftToken] {
        struct Frame {
            var token: SwiftToken
            var condition: String
            var branch = 0
            var others: [String] = []
        }
        var output: [SwiftToken] = []
        var stack: [Frame] = []
        var index = 0
        while index < input.count {
            let token = input[index]
            let next = index + 1 < input.count ? input[index + 1] : token
            guard token.is("#"), next.kind == .identifier, !next.spaceBefore,
                ["if", "elseif", "else", "endif"].contains(next.text)
            else {
                if stack.allSatisfy({ $0.branch == 0 }) { output.append(token) }
                index += 1
                continue
            }
            // The condition: the rest of the line.
            var end = index + 2
            while end < input.count, !input[end].startsLine, input[end].kind != .end { end += 1 }
            let condition = SwiftText.join(input[(index + 2)..<end])
            switch next.text {
            case "if":
                stack.append(Frame(token: token, condition: condition))
            case "elseif", "else":
                guard !stack.isEmpty else { throw error("'#\(next.text)' without '#if'", at: token) }
                stack[stack.count - 1].branch += 1
                stack[stack.count - 1].others.append("'#\(next.text)\(condition.isEmpty ? "" : " " + condition)' (line \(token.line))")
            default:
                guard let frame = stack.popLast() else { throw error("'#endif' without '#if'", at: token) }
                if !frame.others.isEmpty, stack.allSatisfy({ $0.branch == 0 }) {
                    note(
                        "conditional compilation: the first branch ('#if \(frame.condition)') was read; "
                            + "\(frame.others.joined(separator: ", ")) was not: move what differs into Swift beside the model",
                        line: frame.token.line)
                }
            }
            index = end
        }
        if let open = stack.last { throw error("'#if \(open.condition)' without '#endif'", at: open.token) }
        return output
    }

    // MARK: - Declarations

    private struct Prefix {
        var doc: [String]
        var line: Int
        var blankLineBefore = false
        var attributes: [(name: String, arguments: ArraySlice<SwiftToken>?, token: SwiftToken)] = []
        var modifiers: Set<String> = []

        func has(_ attribute: String) -> Bool { attributes.contains { $0.name == attribute } }
        func attribute(_ name: String) -> (name: String, arguments: ArraySlice<SwiftToken>?, token: SwiftToken)? {
            attributes.first { $0.name == name }
        }
    }

    private func readPrefix() throws(SwiftReadError) -> Prefix {
        var prefix = Prefix(doc: current.doc, line: current.line, blankLineBefore: current.blankLineBefore)
        while true {
            if current.is("@"), peek().kind == .identifier {
                let at = advance()
                var name = advance().text
                while current.is("."), peek().kind == .identifier, !current.spaceBefore {
                    advance()
                    name = advance().text  // SwiftData.Attribute → Attribute
                }
                var arguments: ArraySlice<SwiftToken>?
                if current.is("("), !current.spaceBefore { arguments = try skipBalanced() }
                prefix.attributes.append((name, arguments, at))
            } else if current.kind == .identifier, !current.isBackticked, Self.modifiers.contains(current.text),
                peek().kind == .identifier || peek().is("(") || peek().is("@")
            {
                prefix.modifiers.insert(advance().text)
                if current.is("("), !current.spaceBefore { try skipBalanced() }  // private(set)
            } else if current.isWord("class"), ["var", "let", "func", "subscript"].contains(peek().text) {
                prefix.modifiers.insert(advance().text)
            } else {
                return prefix
            }
        }
    }

    /// Reads declarations up to the `}` that closes the scope (consumed) or the end of the file.
    private func readScope(closer: Bool, owner: String?) throws(SwiftReadError) -> ImportedScope {
        scopeDepth += 1
        defer { scopeDepth -= 1 }
        guard scopeDepth <= 64 else { throw error("declarations nested too deeply (at most 64 levels)") }
        var scope = ImportedScope()
        let where_ = owner.map { " in '\($0)'" } ?? ""
        while true {
            while current.is(";") { advance() }
            if current.kind == .end {
                if closer { throw error("expected '}' to close '\(owner ?? "")' but found the end of the file") }
                return scope
            }
            if current.is("}") {
                guard closer else { throw error("unexpected '}'") }
                advance()
                return scope
            }
            let prefix = try readPrefix()
            let keyword = current
            let word = keyword.kind == .identifier && !keyword.isBackticked ? keyword.text : ""
            switch word {
            case "import":
                advance()
                try skipDeclaration()
            case "class" where prefix.has("Model"):
                scope.entities.append(try readEntity(prefix))
            case "class":
                advance()
                let name = try expectName("a class name").text
                try skipDeclaration()
                scope.skipped.append(skipped("class '\(name)'\(where_) is not a '@Model' class: not imported; keep it in Swift", line: prefix.line))
            case "actor" where prefix.has("ModelActor"):
                advance()
                let name = try expectName("an actor name").text
                if current.is(":") {
                    while !current.is("{"), current.kind != .end { advance() }
                }
                if current.is("{") {
                    let body = try skipBalanced()
                    if !body.isEmpty {
                        scope.skipped.append(skipped(
                            "the members of model actor '\(name)' are not part of the model: put them in a Swift extension ('extension \(name) { … }')",
                            line: prefix.line))
                    }
                }
                scope.actors.append((prefix.doc, name))
            case "enum":
                advance()
                let name = try expectName("an enum name")
                let inheritance = try readInheritance()
                let bare = inheritance.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
                if bare.contains("VersionedSchema") || bare.contains("SchemaMigrationPlan") {
                    try expect("{", "'{' to open enum '\(name.text)'")
                    let body = try readScope(closer: true, owner: name.text)
                    let kind: NamedScope.Kind = bare.contains("VersionedSchema") ? .versionedSchema : .migrationPlan
                    scope.scopes.append(NamedScope(kind: kind, name: name.text, line: prefix.line, scope: body))
                } else {
                    scope.enums.append(try readEnumBody(prefix, name: name.text, inheritance: inheritance, owner: owner))
                }
            case "struct":
                advance()
                let name = try expectName("a struct name")
                let inheritance = try readInheritance()
                scope.structs.append(try readStructBody(prefix, name: name.text, inheritance: inheritance))
            case "extension":
                advance()
                // `extension [Element]` (and `[Key: Value]`): sugar for Array and Dictionary.
                var name = current.is("[") ? try readTypeText() : try expectName("a type name after 'extension'").text
                while current.is("."), peek().kind == .identifier {
                    advance()
                    name += "." + advance().text
                }
                while !current.is("{"), current.kind != .end { advance() }
                try expect("{", "'{' to open the extension of '\(name)'")
                let body = try readScope(closer: true, owner: name)
                scope.scopes.append(NamedScope(kind: .extension, name: name, line: prefix.line, scope: body))
            case "typealias":
                advance()
                let name = try expectName("a typealias name").text
                try expect("=", "'=' after typealias '\(name)'")
                let target = try readTypeText()
                scope.typealiases.append((name, target, prefix.line))
            case "var", "let":
                let line = prefix.line
                let isModels = peek().isWord("models"), isVersion = peek().isWord("versionIdentifier")
                let isSchemas = peek().isWord("schemas")
                let memberName = peek().text
                let start = position
                try skipDeclaration()
                let slice = tokens[start..<position]
                if isVersion {
                    let numbers = slice.filter { $0.kind == .number }.compactMap { Int($0.text) }
                    scope.versionIdentifier = (numbers, line)
                } else if isModels {
                    scope.models = Self.selfReferences(in: slice)
                } else if isSchemas {
                    scope.schemas = Self.selfReferences(in: slice)
                } else {
                    scope.customStages += Self.customStages(in: slice)
                    if !isStagesMember(memberName, slice) {
                        scope.skipped.append(skipped(
                            "\(keyword.text) '\(memberName)'\(where_) is not part of the model: keep it in Swift", line: line))
                    }
                }
            case "func", "init", "subscript", "deinit", "protocol", "macro", "operator", "precedencegroup", "actor":
                advance()
                let name = current.kind == .identifier ? current.text : keyword.text
                let start = position
                try skipDeclaration()
                scope.customStages += Self.customStages(in: tokens[start..<position])
                let what = keyword.text == "init" || keyword.text == "deinit" || keyword.text == "subscript" ? keyword.text : "\(keyword.text) '\(name)'"
                scope.skipped.append(skipped("\(what)\(where_) is not part of the model: keep it in Swift", line: prefix.line))
            case "case" where owner != nil:
                throw error("'case' in '\(owner ?? "")', which is read as a VersionedSchema or migration plan")
            default:
                if keyword.is("#"), peek().kind == .identifier {
                    advance()
                    let name = advance().text
                    try skipDeclaration()
                    scope.skipped.append(skipped("'#\(name)'\(where_) is not part of the model: keep it in Swift", line: prefix.line))
                } else if !prefix.attributes.isEmpty || !prefix.modifiers.isEmpty, keyword.kind == .end || keyword.is("}") {
                    throw error("expected a declaration after its attributes but found \(describe(keyword))")
                } else if owner == nil, prefix.attributes.isEmpty, prefix.modifiers.isEmpty, !keyword.is("}"), keyword.kind != .end {
                    // Top-level code (a main.swift): statements, skipped; one note for the file.
                    try skipDeclaration()
                    if !scope.skipped.contains(where: { $0.message.hasPrefix("top-level code") }) {
                        scope.skipped.append(skipped("top-level code is not part of the model: keep it in Swift", line: keyword.line))
                    }
                } else {
                    throw error("expected a declaration but found \(describe(keyword))")
                }
            }
        }
    }

    /// The stages list of a plan (`static var stages: [MigrationStage] { … }`) and the stages it names are the plan's own business.
    private func isStagesMember(_ name: String, _ slice: ArraySlice<SwiftToken>) -> Bool {
        name == "stages" || !Self.customStages(in: slice).isEmpty || slice.contains { $0.isWord("lightweight") }
    }

    /// `A.self`, `SchemaV1.Trip.self` in a list: the names before `.self`.
    private static func selfReferences(in slice: ArraySlice<SwiftToken>) -> [String] {
        let list = Array(slice)
        var names: [String] = []
        for index in list.indices where list[index].isWord("self") && index >= 2 && list[index - 1].is(".") {
            var parts = [list[index - 2].text]
            var cursor = index - 3
            while cursor >= 1, list[cursor].is("."), list[cursor - 1].kind == .identifier {
                parts.insert(list[cursor - 1].text, at: 0)
                cursor -= 2
            }
            names.append(parts.joined(separator: "."))
        }
        return names
    }

    /// `.custom(fromVersion: A.self, toVersion: B.self, …)` in a slice.
    private static func customStages(in slice: ArraySlice<SwiftToken>) -> [(from: String, to: String, line: Int)] {
        let list = Array(slice)
        var stages: [(String, String, Int)] = []
        for index in list.indices where list[index].isWord("custom") && index + 1 < list.count && list[index + 1].is("(") {
            // The arguments up to the matching ')'.
            var depth = 0
            var end = index + 1
            repeat {
                if isOpener(list[end]) { depth += 1 } else if isCloser(list[end]) { depth -= 1 }
                end += 1
            } while depth > 0 && end < list.count
            let arguments = list[(index + 1)..<end]
            func version(_ label: String) -> String? {
                guard let at = arguments.firstIndex(where: { $0.isWord(label) }) else { return nil }
                return selfReferences(in: list[at..<end]).first
            }
            if let from = version("fromVersion"), let to = version("toVersion") { stages.append((from, to, list[index].line)) }
        }
        return stages
    }

    /// `: A, B.C, D` before a body (generic clauses and `where` skipped).
    private func readInheritance() throws(SwiftReadError) -> [String] {
        var names: [String] = []
        if current.is("<") { try skipAngles() }
        guard current.is(":") else {
            if current.isWord("where") { while !current.is("{"), current.kind != .end { advance() } }
            return names
        }
        advance()
        while true {
            names.append(try readTypeText())
            guard current.is(",") else { break }
            advance()
        }
        if current.isWord("where") { while !current.is("{"), current.kind != .end { advance() } }
        return names
    }

    private func skipAngles() throws(SwiftReadError) {
        var depth = 0
        repeat {
            if current.is("<") { depth += 1 } else if current.is(">") { depth -= 1 }
            if current.kind == .end { throw error("expected '>'") }
            advance()
        } while depth > 0
    }

    // MARK: - Types

    /// A type, as `.model` spells it: module prefixes (`Swift.`, `Foundation.`) dropped,
    /// `Optional<T>` as `T?`, `Array<T>` as `[T]`, `T!` as `T?`.
    private func readTypeText() throws(SwiftReadError) -> String {
        typeDepth += 1
        defer { typeDepth -= 1 }
        guard typeDepth <= 64 else { throw error("type nested too deeply (at most 64 levels)") }
        var text: String
        // Attributes and specifiers of a function's parameter type (`@escaping @Sendable`, `inout`).
        var specifiers = ""
        while true {
            if current.is("@"), peek().kind == .identifier {
                advance()
                specifiers += "@" + advance().text + " "
                if current.is("("), !current.spaceBefore { try skipBalanced() }
            } else if ["inout", "sending", "borrowing", "consuming", "isolated", "__owned", "__shared"].contains(current.text),
                current.kind == .identifier, peek().kind == .identifier || peek().is("(") || peek().is("[") || peek().is("@")
            {
                specifiers += advance().text + " "
            } else {
                break
            }
        }
        if !specifiers.isEmpty { return specifiers + (try readTypeText()) }
        if current.isWord("any") || current.isWord("some") {
            let word = advance().text
            return word + " " + (try readTypeText())
        }
        if current.is("[") {
            advance()
            let element = try readTypeText()
            if current.is(":") {
                advance()
                let value = try readTypeText()
                try expect("]", "']' to close the dictionary type")
                text = "[\(element): \(value)]"
            } else {
                try expect("]", "']' to close the array type")
                text = "[\(element)]"
            }
        } else if current.is("(") {
            let inside = try skipBalanced()
            text = "(" + SwiftText.join(inside) + ")"
            if current.is("->") {
                advance()
                text += " -> " + (try readTypeText())
            }
        } else {
            var parts = [try expectName("a type").text]
            while current.is("."), peek().kind == .identifier {
                advance()
                parts.append(advance().text)
            }
            while parts.count > 1, ["Swift", "Foundation", "CoreGraphics", "SwiftData", "ModelStore"].contains(parts[0]) {
                parts.removeFirst()
            }
            var arguments: [String] = []
            if current.is("<"), !current.spaceBefore {
                advance()
                while !current.is(">") {
                    arguments.append(try readTypeText())
                    guard current.is(",") else { break }
                    advance()
                }
                try expect(">", "'>' to close the generic arguments")
            }
            let name = parts.joined(separator: ".")
            switch (name, arguments.count) {
            case ("Optional", 1): text = arguments[0] + "?"
            case ("Array", 1): text = "[\(arguments[0])]"
            case ("Dictionary", 2): text = "[\(arguments[0]): \(arguments[1])]"
            case (_, 0): text = name
            default: text = name + "<" + arguments.joined(separator: ", ") + ">"
            }
        }
        while (current.is("?") || current.is("!")), !current.spaceBefore {
            if current.is("!") { note("'\(text)!' is read as '\(text)?' (the model has no implicitly unwrapped optionals)", line: current.line) }
            advance()
            text += "?"
        }
        if current.is("."), peek().isWord("Type") || peek().isWord("Protocol") {
            advance()
            text += "." + advance().text
        }
        if current.is("&") {
            advance()
            text += " & " + (try readTypeText())  // a protocol composition
        }
        return text
    }

    // MARK: - Expressions

    /// The tokens of an expression up to the end of its declaration (a line start at depth 0, `;`,
    /// `,` at depth 0, `{` at depth 0 or the enclosing `}`).
    private func readExpressionTokens(stopAtComma: Bool) throws(SwiftReadError) -> ArraySlice<SwiftToken> {
        let start = position
        var first = true
        while current.kind != .end, !current.is("}"), !current.is(";"), !current.is("{") || first {
            if !first, current.startsLine, !current.is("."), !current.is(")"), !current.is("]") { break }
            if stopAtComma, current.is(",") { break }
            if Self.isCloser(current) { break }
            first = false
            if Self.isOpener(current) {
                try skipBalanced()
                continue
            }
            advance()
        }
        return tokens[start..<position]
    }

    // MARK: - Models

    private func readEntity(_ prefix: Prefix) throws(SwiftReadError) -> ImportedEntity {
        advance()  // class
        let name = try expectName("a class name").text
        let inheritance = try readInheritance()
        try expect("{", "'{' to open class '\(name)'")
        var entity = ImportedEntity(
            doc: prefix.doc, line: prefix.line, name: name, inheritance: inheritance, properties: [], enums: [], structs: [], inits: [], macros: [])
        for other in prefix.attributes where other.name != "Model" {
            note("attribute '@\(other.name)' of class '\(name)' is not part of the model: add it in Swift", line: other.token.line)
        }
        try readMembers(of: name, isModel: true) { member throws(SwiftReadError) in
            switch member {
            case .property(let property): entity.properties.append(property)
            case .initializer(let initializer): entity.inits.append(initializer)
            case .enumeration(let enumeration): entity.enums.append(enumeration)
            case .structure(let structure): entity.structs.append(structure)
            case .macro(let text): entity.macros.append(text)
            }
        }
        return entity
    }

    private enum Member {
        case property(ImportedProperty)
        case initializer(ImportedInit)
        case enumeration(ImportedEnum)
        case structure(ImportedStruct)
        case macro(String)
    }

    /// The members of a model class (`isModel`) or struct, up to its `}`.
    private func readMembers(of owner: String, isModel: Bool, _ add: (Member) throws(SwiftReadError) -> Void) throws(SwiftReadError) {
        scopeDepth += 1
        defer { scopeDepth -= 1 }
        guard scopeDepth <= 64 else { throw error("declarations nested too deeply (at most 64 levels)") }
        let kind = isModel ? "class" : "struct"
        let elsewhere = isModel
            ? "put it in a Swift extension of the generated class ('extension \(owner) { … }')"
            : "put it in a Swift extension of the generated struct ('extension \(owner) { … }')"
        while true {
            while current.is(";") { advance() }
            if current.is("}") {
                advance()
                return
            }
            if current.kind == .end { throw error("expected '}' to close \(kind) '\(owner)' but found the end of the file") }
            let prefix = try readPrefix()
            let keyword = current
            if keyword.is("#"), peek().kind == .identifier, peek().text == "Unique" || peek().text == "Index", isModel {
                advance()
                let macro = advance().text
                let start = position
                try skipDeclaration()
                try add(.macro("#" + macro + macroArguments(tokens[start..<position])))
                continue
            }
            guard keyword.kind == .identifier, !keyword.isBackticked else {
                throw error("expected a member of \(kind) '\(owner)' but found \(describe(keyword))")
            }
            switch keyword.text {
            case "var", "let":
                if prefix.modifiers.contains("static") || prefix.modifiers.contains("class") {
                    advance()
                    let name = current.text
                    try skipDeclaration()
                    note("static property '\(owner).\(name)' is not stored in the model: \(elsewhere)", line: prefix.line)
                    continue
                }
                for property in try readStoredProperties(prefix, owner: owner, elsewhere: elsewhere, isModel: isModel) {
                    try add(.property(property))
                }
            case "init" where isModel:
                if let initializer = try readInit(prefix, owner: owner) { try add(.initializer(initializer)) }
            case "enum":
                advance()
                let name = try expectName("an enum name").text
                let inheritance = try readInheritance()
                let enumeration = try readEnumBody(prefix, name: name, inheritance: inheritance, owner: owner)
                if isModel {
                    try add(.enumeration(enumeration))
                } else {
                    note("enum '\(owner).\(name)' nested in a struct is not part of the model: declare it at the top level", line: prefix.line)
                }
            case "struct" where isModel:
                advance()
                let name = try expectName("a struct name").text
                let inheritance = try readInheritance()
                try add(.structure(try readStructBody(prefix, name: name, inheritance: inheritance)))
            default:
                advance()
                let name = current.kind == .identifier ? " '\(current.text)'" : ""
                try skipDeclaration()
                let what = ["func", "class", "struct", "typealias", "protocol", "actor"].contains(keyword.text)
                    ? "\(keyword.text)\(name)" : "'\(keyword.text)'"
                note("\(what) in \(kind) '\(owner)' is not part of the model: \(elsewhere)", line: prefix.line)
            }
        }
    }

    /// `#Unique<X>([\.a], [\X.b, \.c])` → `<X>([\.a], [\.b, \.c])`: key paths as `\.name`.
    private func macroArguments(_ slice: ArraySlice<SwiftToken>) -> String {
        var list = Array(slice)
        var index = 0
        while index < list.count {
            if list[index].is("\\"), index + 2 < list.count, list[index + 1].kind == .identifier, list[index + 2].is(".") {
                list.remove(at: index + 1)
            }
            index += 1
        }
        var text = SwiftText.join(list[...])
        if let angle = text.firstIndex(of: ">"), text.hasPrefix("<") {
            // A version-qualified type argument (`<SchemaV1.Trip>`) by its own name.
            let argument = text[text.index(after: text.startIndex)..<angle]
            if let last = argument.split(separator: ".").last { text = "<" + last + text[angle...] }
        }
        return text
    }

    /// `var a: T = d`, `let a: T`, `var a = 1, b = 2`; a computed property or one with observers is noted.
    private func readStoredProperties(_ prefix: Prefix, owner: String, elsewhere: String, isModel: Bool) throws(SwiftReadError) -> [ImportedProperty] {
        let isConstant = advance().isWord("let")
        var properties: [ImportedProperty] = []
        while true {
            guard current.kind == .identifier else {
                throw error("expected a property name in '\(owner)' but found \(describe(current)) (patterns are not read)")
            }
            let nameToken = advance()
            let name = SwiftText.name(nameToken)
            var type: String?
            var defaultValue: String?
            var defaultTokens: ArraySlice<SwiftToken> = []
            if current.is(":") {
                advance()
                type = try readTypeText()
            }
            if current.is("=") {
                advance()
                defaultTokens = try readExpressionTokens(stopAtComma: true)
                guard !defaultTokens.isEmpty else {
                    throw error("expected a default value after '=' for property '\(owner).\(nameToken.text)' but found \(describe(current))")
                }
                defaultValue = SwiftText.defaultValue(defaultTokens)
            }
            if current.is("{") {
                let body = try skipBalanced()
                let observers = body.first.map { $0.isWord("willSet") || $0.isWord("didSet") } ?? false
                if observers {
                    note("the observers of property '\(owner).\(nameToken.text)' (willSet/didSet) are not part of the model: "
                        + "the property is imported without them; call that code from a method in a Swift extension", line: prefix.line)
                } else {
                    note("computed property '\(owner).\(nameToken.text)' is not stored: \(elsewhere)", line: prefix.line)
                    if current.is(",") { advance() } else { return properties }
                    continue
                }
            }
            guard let type = type ?? SwiftText.inferredType(defaultTokens) else {
                if !isModel {
                    // A struct the models may not even use: noted, not an error (a model using it gets lint's error).
                    note("the type of '\(owner).\(nameToken.text)' cannot be told without its declaration: the field is left out; write its type", line: prefix.line)
                    guard current.is(",") else { break }
                    advance()
                    continue
                }
                throw error(
                    "cannot tell the type of property '\(owner).\(nameToken.text)': write its type ('\(nameToken.text): Type')", at: nameToken)
            }
            if !defaultTokens.isEmpty, defaultValue == nil {
                note("the default '\(SwiftText.join(defaultTokens))' of '\(owner).\(nameToken.text)' is not a default the model can hold "
                    + "(a literal, nil, .case, [], UUID(), Date(), .now, a static member): it is left out; set the value in an init", line: prefix.line)
            }
            var attributes: [String] = []
            for attribute in prefix.attributes {
                switch attribute.name {
                case "Attribute": if let text = attributeText(attribute.arguments, owner: owner, property: nameToken.text, line: attribute.token.line) { attributes.append(text) }
                case "Relationship": attributes.append(relationshipText(attribute.arguments, owner: owner, property: nameToken.text, line: attribute.token.line))
                case "Transient": attributes.append("@Transient")
                default: note("attribute '@\(attribute.name)' of '\(owner).\(nameToken.text)' is not part of the model: it is left out", line: attribute.token.line)
                }
            }
            if !isModel, !attributes.isEmpty {
                note("attributes of struct field '\(owner).\(nameToken.text)' are left out (a struct's fields have none)", line: prefix.line)
                attributes = []
            }
            if isConstant, isModel {
                note("'let' property '\(owner).\(nameToken.text)' becomes a 'var' of the generated class (a model's stored properties are settable)", line: prefix.line)
            }
            if prefix.modifiers.contains("weak") || prefix.modifiers.contains("lazy") || prefix.modifiers.contains("unowned") {
                note("modifier '\(prefix.modifiers.intersection(["weak", "lazy", "unowned"]).sorted().joined(separator: " "))' of '\(owner).\(nameToken.text)' is left out", line: prefix.line)
            }
            properties.append(ImportedProperty(
                doc: properties.isEmpty ? prefix.doc : [], line: nameToken.line, attributes: attributes, name: name, type: type,
                defaultValue: defaultValue, blankLineBefore: properties.isEmpty && prefix.blankLineBefore))
            guard current.is(",") else { break }
            advance()
        }
        if current.is(";") { advance() }
        return properties
    }

    /// `@Attribute(.unique, originalName: "x")` keeping what the model holds.
    private func attributeText(_ arguments: ArraySlice<SwiftToken>?, owner: String, property: String, line: Int) -> String? {
        var kept: [String] = []
        for argument in SwiftText.splitArguments(arguments ?? []) {
            let text = SwiftText.join(argument)
            switch text {
            case ".unique", ".externalStorage", ".preserveValueOnDeletion": kept.append(text)
            default:
                if text.hasPrefix("originalName:") {
                    kept.append(text)
                } else {
                    note("'\(text)' of '@Attribute' on '\(owner).\(property)' has no equivalent in the model: it is left out", line: line)
                }
            }
        }
        return kept.isEmpty ? nil : "@Attribute(" + kept.joined(separator: ", ") + ")"
    }

    /// `@Relationship(deleteRule: .cascade, inverse: \Trip.x, …)`.
    private func relationshipText(_ arguments: ArraySlice<SwiftToken>?, owner: String, property: String, line: Int) -> String {
        var kept: [String] = []
        for argument in SwiftText.splitArguments(arguments ?? []) {
            let text = SwiftText.join(argument)
            let label = text.split(separator: ":").first.map(String.init) ?? ""
            switch label {
            case "deleteRule", "minimumModelCount", "maximumModelCount", "originalName":
                kept.append(text)
            case "inverse":
                // `\SchemaV1.Trip.x` → `\Trip.x`.
                let path = text.dropFirst("inverse:".count).trimmingCharacters(in: .whitespaces)
                let parts = path.dropFirst().split(separator: ".")
                kept.append(parts.count > 2 ? "inverse: \\" + parts.suffix(2).joined(separator: ".") : text)
            default:
                note("'\(text)' of '@Relationship' on '\(owner).\(property)' has no equivalent in the model: it is left out", line: line)
            }
        }
        return kept.isEmpty ? "@Relationship" : "@Relationship(" + kept.joined(separator: ", ") + ")"
    }

    /// A designated init: its parameters that set the property of their name, and `super.init(…)`.
    private func readInit(_ prefix: Prefix, owner: String) throws(SwiftReadError) -> ImportedInit? {
        let keyword = advance()
        let elsewhere = "put it in a Swift extension of the generated class ('extension \(owner) { convenience init(…) }')"
        if prefix.modifiers.contains("convenience") || current.is("?") || current.is("!") || current.is("<") {
            try skipDeclaration()
            let what = prefix.modifiers.contains("convenience") ? "convenience init" : "failable or generic init"
            note("\(what) of '\(owner)' is not part of the model: \(elsewhere)", line: prefix.line)
            return nil
        }
        guard current.is("(") else { throw error("expected '(' after 'init' but found \(describe(current))") }
        let parameterTokens = try skipBalanced()
        var parameters: [(label: String, name: String, defaultValue: String?, defaultText: String, line: Int)] = []
        for parameter in SwiftText.splitArguments(parameterTokens) {
            let list = Array(parameter)
            guard let colon = list.firstIndex(where: { $0.is(":") }), colon >= 1 else {
                throw error("expected 'name: Type' in the parameters of an init of '\(owner)'", at: list.first ?? keyword)
            }
            let name = list[colon - 1].text
            let label = colon >= 2 ? list[colon - 2].text : name
            var defaultValue: String?
            var defaultText = ""
            if let equals = list.firstIndex(where: { $0.is("=") }) {
                defaultText = SwiftText.join(list[(equals + 1)...])
                defaultValue = SwiftText.defaultValue(list[(equals + 1)...])
            }
            parameters.append((label, name, defaultValue, defaultText, list[0].line))
        }
        while !current.is("{"), current.kind != .end, !current.startsLine || current.isWord("throws") { advance() }
        guard current.is("{") else {
            note("init of '\(owner)' without a body is not read", line: prefix.line)
            return nil
        }
        let body = Array(try skipBalanced())
        if prefix.modifiers.contains("required") || parameters.first?.label == "backingData" || parameters.first?.label == "from" {
            note("'\(prefix.modifiers.contains("required") ? "required " : "")init(\(parameters.map { $0.label + ":" }.joined()))' of '\(owner)' is not part of the model: the generated class has its own", line: prefix.line)
            return nil
        }
        // Statements: a new one at a line start or after ';' at depth 0.
        var statements: [[SwiftToken]] = []
        var depth = 0
        for token in body {
            if depth == 0, token.startsLine || statements.isEmpty { statements.append([]) }
            if token.is(";"), depth == 0 {
                statements.append([])
                continue
            }
            if Self.isOpener(token) { depth += 1 } else if Self.isCloser(token) { depth -= 1 }
            statements[statements.count - 1].append(token)
        }
        var assigned: [String: String] = [:]  // property → parameter
        var superArguments: [String]?
        var others: [(line: Int, text: String)] = []
        for statement in statements where !statement.isEmpty {
            var tokens = statement[...]
            if tokens.count >= 2, tokens[tokens.startIndex].isWord("self"), tokens[tokens.startIndex + 1].is(".") { tokens = tokens.dropFirst(2) }
            if tokens.count == 3, tokens[tokens.startIndex].kind == .identifier, tokens[tokens.startIndex + 1].is("="),
                tokens[tokens.startIndex + 2].kind == .identifier, parameters.contains(where: { $0.name == tokens[tokens.startIndex + 2].text })
            {
                assigned[tokens[tokens.startIndex].text] = tokens[tokens.startIndex + 2].text
                continue
            }
            if statement.count >= 4, statement[0].isWord("super"), statement[1].is("."), statement[2].isWord("init"), statement[3].is("("), statement.last?.is(")") == true {
                var names: [String] = []
                var readable = true
                for argument in SwiftText.splitArguments(statement[4..<(statement.count - 1)]) {
                    let list = Array(argument)
                    if list.count == 3, list[1].is(":"), list[2].kind == .identifier, list[0].text == list[2].text,
                        parameters.contains(where: { $0.name == list[2].text })
                    {
                        names.append(list[2].text)
                    } else {
                        readable = false
                    }
                }
                if readable {
                    superArguments = names
                    continue
                }
            }
            others.append((statement[0].line, SwiftText.join(statement[...])))
        }
        var result = ImportedInit(doc: prefix.doc, parameters: [], superArguments: superArguments)
        let superNames = Set(superArguments ?? [])
        for parameter in parameters {
            let setsItsProperty = assigned[parameter.name] == parameter.name
            guard setsItsProperty || superNames.contains(parameter.name) else {
                let target = assigned.first { $0.value == parameter.name }?.key
                note(
                    "parameter '\(parameter.name)' of an init of '\(owner)' "
                        + (target.map { "sets property '\($0)': the model's init takes '\($0)' instead" } ?? "does not set the property of its name: it is left out")
                        + "; for another signature, \(elsewhere)", line: parameter.line)
                if let target, !result.parameters.contains(where: { $0.name == target }) { result.parameters.append((target, nil)) }
                continue
            }
            if parameter.label != parameter.name {
                note("the argument label '\(parameter.label)' of '\(owner).init' becomes '\(parameter.name)' (the model's init labels each argument by its property)", line: parameter.line)
            }
            if !parameter.defaultText.isEmpty, parameter.defaultValue == nil {
                note("the default '\(parameter.defaultText)' of parameter '\(parameter.name)' of '\(owner).init' is not a default the model can hold: it is left out", line: parameter.line)
            }
            result.parameters.append((parameter.name, parameter.defaultValue))
        }
        for other in others {
            note("statement '\(other.text)' in an init of '\(owner)' is not part of the model (an init only sets properties): \(elsewhere)", line: other.line)
        }
        return result
    }

    // MARK: - Enums and structs

    private func readEnumBody(_ prefix: Prefix, name: String, inheritance: [String], owner: String?) throws(SwiftReadError) -> ImportedEnum {
        try expect("{", "'{' to open enum '\(name)'")
        var enumeration = ImportedEnum(doc: prefix.doc, line: prefix.line, name: name, inheritance: inheritance, cases: [])
        let qualified = owner.map { "\($0).\(name)" } ?? name
        while true {
            while current.is(";") { advance() }
            if current.is("}") {
                advance()
                return enumeration
            }
            if current.kind == .end { throw error("expected '}' to close enum '\(name)' but found the end of the file") }
            let memberPrefix = try readPrefix()
            if current.isWord("case") {
                advance()
                var first = true
                while true {
                    let caseName = try expectName("a case name in enum '\(name)'")
                    var text = "case " + SwiftText.name(caseName)
                    if current.is("("), !current.spaceBefore || true, !current.startsLine {
                        let inside = try skipBalanced()
                        var values: [String] = []
                        for argument in SwiftText.splitArguments(inside) {
                            let list = Array(argument)
                            if let equals = list.firstIndex(where: { $0.is("=") }) {
                                note("the default of an associated value of '\(qualified).\(caseName.text)' is left out", line: caseName.line)
                                values.append(SwiftText.typeText(list[..<equals]))
                            } else {
                                values.append(SwiftText.typeText(list[...]))
                            }
                        }
                        text += "(" + values.joined(separator: ", ") + ")"
                    }
                    if current.is("=") {
                        advance()
                        let value = try readExpressionTokens(stopAtComma: true)
                        text += " = " + SwiftText.join(value)
                    }
                    enumeration.cases.append((first ? memberPrefix.doc : [], text))
                    first = false
                    guard current.is(",") else { break }
                    advance()
                }
                continue
            }
            let keyword = current.text
            advance()
            let memberName = current.kind == .identifier ? " '\(current.text)'" : ""
            try skipDeclaration()
            note("\(keyword)\(memberName) in enum '\(qualified)' is not part of the model: put it in a Swift extension ('extension \(qualified) { … }')", line: memberPrefix.line)
        }
    }

    private func readStructBody(_ prefix: Prefix, name: String, inheritance: [String]) throws(SwiftReadError) -> ImportedStruct {
        try expect("{", "'{' to open struct '\(name)'")
        var structure = ImportedStruct(doc: prefix.doc, line: prefix.line, name: name, inheritance: inheritance, fields: [])
        try readMembers(of: name, isModel: false) { member throws(SwiftReadError) in
            if case .property(let field) = member { structure.fields.append(field) }
        }
        return structure
    }
}
