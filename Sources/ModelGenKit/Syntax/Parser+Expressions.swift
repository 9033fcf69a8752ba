// Types, values, attributes, key paths and the `#Unique` / `#Index` macros.
extension Parser {
    // MARK: - Types

    /// Reads a type; nesting deeper than `maximumTypeDepth` is a `syntax` error (no deep recursion).
    func parseType(depth: Int = 1) throws -> TypeExpr {
        guard depth <= Parser.maximumTypeDepth else { throw tooDeep() }
        let start = current.range.start
        var type: TypeExpr
        if current.isPunctuation("[") {
            advance()
            let element = try parseType(depth: depth + 1)
            if current.isPunctuation(":") {
                advance()
                let value = try parseType(depth: depth + 1)
                try expect("]", "']' to close the dictionary type")
                type = TypeExpr(.dictionary(element, value), range: range(from: start))
            } else {
                try expect("]", "']' to close the array type '[\(element)'")
                type = TypeExpr(.array(element), range: range(from: start))
            }
        } else if current.isPunctuation("(") {
            advance()
            var elements: [TypeExpr] = []
            while !current.isPunctuation(")") {
                elements.append(try parseType(depth: depth + 1))
                guard current.isPunctuation(",") else { break }
                advance()
            }
            try expect(")", "',' or ')' in the tuple type")
            type = TypeExpr(.tuple(elements), range: range(from: start))
        } else if current.kind == .identifier {
            var parts = [TypeNamePart(try expectName("a type"))]
            while current.isPunctuation(".") {
                advance()
                parts.append(TypeNamePart(try expectName("a type name after '.'")))
            }
            parts = interned(parts)
            if current.isPunctuation("<") {
                advance()
                var arguments: [TypeExpr] = []
                while !current.isPunctuation(">") {
                    arguments.append(try parseType(depth: depth + 1))
                    guard current.isPunctuation(",") else { break }
                    advance()
                }
                try expect(">", "',' or '>' in the generic type")
                type = TypeExpr(.generic(parts, arguments), range: range(from: start))
            } else {
                type = TypeExpr(.named(parts), range: range(from: start))
            }
        } else {
            throw fail(expected: "a type")
        }
        var level = depth
        while current.isPunctuation("?") {
            level += 1
            guard level <= Parser.maximumTypeDepth else { throw tooDeep() }
            advance()
            type = TypeExpr(.optional(type), range: range(from: start))
        }
        return type
    }

    /// The list of the file that holds these parts, so that every type spelled alike shares it.
    private func interned(_ parts: [TypeNamePart]) -> [TypeNamePart] {
        if let shared = typeNames[parts] { return shared }
        let shared = parts.compacted()
        typeNames[shared] = shared
        return shared
    }

    private func tooDeep() -> Failure {
        collector.error("type nested too deeply (at most \(Parser.maximumTypeDepth) levels)", at: current.range)
        return Failure()
    }

    // MARK: - Values

    /// A default value or attribute argument: a scalar value or a one-level array of them.
    func parseValue(expected what: String) throws -> Expression {
        guard current.isPunctuation("[") else { return try parseScalarValue(expected: what) }
        let start = advance().range.start
        var elements: [Expression] = []
        skipNewlines()
        while !current.isPunctuation("]") {
            if current.isPunctuation("[") {
                collector.error("expected a literal but found '['; an array value holds literals, not arrays", at: current.range)
                throw Failure()
            }
            elements.append(try parseScalarValue(expected: "an array element (a literal or '.case')"))
            skipLineBreak(before: "]")
            guard current.isPunctuation(",") else { break }
            advance()
            skipNewlines()
        }
        try expect("]", "',' or ']' in the array")
        return Expression(.array(elements), range: range(from: start))
    }

    /// A literal, `nil`, `.case`, `Type.member`, `Type()`, `Type(label: literal)` or a key path.
    /// Inside the arguments of a call (`allowsCall` false) a call is not read: values nest one level at most.
    func parseScalarValue(expected what: String, allowsCall: Bool = true) throws -> Expression {
        let token = current
        let kind: ExpressionKind
        switch token.kind {
        case .stringLiteral: kind = .string(token.text)
        case .integerLiteral: kind = .integer(token.text)
        case .floatLiteral: kind = .float(token.text)
        case .boolLiteral: kind = .bool(token.text == "true")
        case .nilLiteral: kind = .nil
        case .identifier where peek().isPunctuation("(") && allowsCall:
            let name = try expectName(what)
            let arguments = try parseCallArguments(of: name)
            return Expression(.call(name, arguments), range: range(from: token.range.start))
        case .identifier where peek().isPunctuation("."):
            var parts = [try expectName(what)]
            while current.isPunctuation(".") {
                advance()
                parts.append(try expectName("a name after '.'"))
            }
            let member = parts.removeLast()
            return Expression(.typeMember(parts, member), range: range(from: token.range.start))
        case .punctuation where token.text == ".":
            advance()
            let name = try expectName("a case name after '.'")
            return Expression(.memberAccess(name), range: range(from: token.range.start))
        case .punctuation where token.text == "\\":
            let path = try parseKeyPath()
            return Expression(.keyPath(path), range: path.range)
        default:
            throw fail(expected: what)
        }
        advance()
        return Expression(kind, range: token.range)
    }

    /// `(label: value, value)` after a type name, consuming the `)`; the values are literals or `.member`s.
    func parseCallArguments(of callee: Identifier) throws -> [CallArgument] {
        try expect("(", "'(' after '\(callee)'")
        var arguments: [CallArgument] = []
        while !current.isPunctuation(")") {
            let start = current.range.start
            let label = try parseArgumentLabel()
            let value = try parseScalarValue(expected: label.map { "a literal after '\($0):'" } ?? "an argument of '\(callee)(…)'", allowsCall: false)
            arguments.append(CallArgument(label: label, value: value, range: range(from: start)))
            guard current.isPunctuation(",") else { break }
            advance()
        }
        try expect(")", "',' or ')' in the arguments of '\(callee)(…)'")
        return arguments
    }

    /// `label:` before an argument, when one is written (the `:` is consumed).
    func parseArgumentLabel() throws -> Identifier? {
        guard current.kind == .identifier, peek().isPunctuation(":") else { return nil }
        let label = try expectName("an argument label")
        advance()
        return label
    }

    /// `\Root.a.b` or `\.a`.
    func parseKeyPath() throws -> KeyPathExpr {
        let start = try expect("\\", "a key path such as '\\.name'").range.start
        var root: Identifier?
        if current.kind == .identifier { root = try expectName("a type name") }
        guard current.isPunctuation(".") else { throw fail(expected: "'.' and a property name in the key path") }
        var components: [Identifier] = []
        while current.isPunctuation(".") {
            advance()
            components.append(try expectName("a property name after '.' in the key path"))
        }
        return KeyPathExpr(root: root, components: components, range: range(from: start))
    }

    // MARK: - Attributes

    /// `@Name` or `@Name(arguments)`; any name and arguments are read (the semantic stage checks them).
    func parseAttribute() throws -> AttributeDecl {
        let at = advance()
        guard current.range.start.offset == at.range.end.offset else { throw fail(expected: "an attribute name right after '@'") }
        let name = try expectName("an attribute name after '@'")
        var arguments: [AttributeArgument] = []
        var hasParentheses = false
        if current.isPunctuation("(") {
            advance()
            hasParentheses = true
            inMultilineArguments = true
            skipNewlines()
            while !current.isPunctuation(")") {
                let start = current.range.start
                let label = try parseArgumentLabel()
                if label != nil { skipNewlines() }
                let value = try parseValue(expected: label.map { "a value after '\($0):'" } ?? "an argument of '@\(name)'")
                arguments.append(AttributeArgument(label: label, value: value, range: range(from: start)))
                skipLineBreak(before: ")")
                guard current.isPunctuation(",") else { break }
                advance()
                skipNewlines()
            }
            try expect(")", "',' or ')' in the arguments of '@\(name)'")
            inMultilineArguments = false
        }
        return AttributeDecl(name: name, arguments: arguments, hasParentheses: hasParentheses, range: range(from: at.range.start))
    }

    // MARK: - Macros

    /// `#Unique<E>([\.a], [\.b, \.c])` or `#Index(...)`.
    func parseConstraintMacro() throws -> ConstraintMacro {
        let hash = advance()
        guard current.kind == .identifier, let kind = ConstraintMacro.Kind(rawValue: current.text) else {
            throw fail(expected: "'Unique' or 'Index' after '#'")
        }
        advance()
        var generic: Identifier?
        if current.isPunctuation("<") {
            advance()
            generic = try expectName("an entity name after '<'")
            try expect(">", "'>' after the entity name")
        }
        try expect("(", "'(' after '#\(kind.rawValue)'")
        inMultilineArguments = true
        skipNewlines()
        var groups: [[KeyPathExpr]] = []
        while !current.isPunctuation(")") {
            try expect("[", "'[' to begin a list of key paths such as '[\\.name]'")
            skipNewlines()
            var paths: [KeyPathExpr] = []
            while !current.isPunctuation("]") {
                paths.append(try parseKeyPath())
                skipLineBreak(before: "]")
                guard current.isPunctuation(",") else { break }
                advance()
                skipNewlines()
            }
            try expect("]", "',' or ']' after a key path")
            groups.append(paths)
            skipLineBreak(before: ")")
            guard current.isPunctuation(",") else { break }
            advance()
            skipNewlines()
        }
        try expect(")", "',' or ')' after a key path list")
        inMultilineArguments = false
        return ConstraintMacro(kind: kind, genericArgument: generic, groups: groups, range: range(from: hash.range.start))
    }
}
