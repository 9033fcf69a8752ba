// The canonical spelling of the small pieces of a declaration: names, types, values, attributes.

/// Spells AST fragments as canonical `.model` text. Literals keep their source spelling.
struct SourceSpelling {
    let source: SourceFile

    func name(_ identifier: Identifier) -> String {
        identifier.isEscaped ? "`\(identifier.name)`" : identifier.name
    }

    func name(_ part: TypeNamePart) -> String {
        part.isEscaped ? "`\(part.name)`" : part.name
    }

    func type(_ type: TypeExpr) -> String {
        switch type.kind {
        case .named(let parts): parts.map(name).joined(separator: ".")
        case .optional(let wrapped): self.type(wrapped) + "?"
        case .array(let element): "[" + self.type(element) + "]"
        case .dictionary(let key, let value): "[" + self.type(key) + ": " + self.type(value) + "]"
        case .tuple(let elements): "(" + elements.map(self.type).joined(separator: ", ") + ")"
        case .generic(let parts, let arguments): parts.map(name).joined(separator: ".") + "<" + arguments.map(self.type).joined(separator: ", ") + ">"
        }
    }

    func expression(_ expression: Expression) -> String {
        switch expression.kind {
        case .string(let value): literal(expression.range) ?? stringLiteral(value)
        case .integer(let text), .float(let text): literal(expression.range) ?? text
        case .bool(let value): value ? "true" : "false"
        case .nil: "nil"
        case .memberAccess(let member): "." + name(member)
        case .typeMember(let type, let member): (type + [member]).map(name).joined(separator: ".")
        case .array(let elements): "[" + elements.map(self.expression).joined(separator: ", ") + "]"
        case .call(let callee, let arguments):
            name(callee) + "(" + arguments.map { argument in
                (argument.label.map { name($0) + ": " } ?? "") + self.expression(argument.value)
            }.joined(separator: ", ") + ")"
        case .keyPath(let keyPath): self.keyPath(keyPath)
        }
    }

    func keyPath(_ keyPath: KeyPathExpr) -> String {
        "\\" + (keyPath.root.map(name) ?? "") + "." + keyPath.components.map(name).joined(separator: ".")
    }

    func attribute(_ attribute: AttributeDecl) -> String {
        var text = "@" + name(attribute.name)
        if attribute.hasParentheses {
            let arguments = attribute.arguments.map { argument in
                (argument.label.map { name($0) + ": " } ?? "") + expression(argument.value)
            }
            text += "(" + arguments.joined(separator: ", ") + ")"
        }
        return text
    }

    func constraint(_ constraint: ConstraintMacro) -> String {
        var text = "#" + constraint.kind.rawValue
        if let generic = constraint.genericArgument { text += "<" + name(generic) + ">" }
        let groups = constraint.groups.map { group in "[" + group.map(keyPath).joined(separator: ", ") + "]" }
        return text + "(" + groups.joined(separator: ", ") + ")"
    }

    /// The literal exactly as written, when its range covers one line of text.
    private func literal(_ range: SourceRange) -> String? {
        guard range.start.offset >= 0, range.start.offset < range.end.offset, range.end.offset <= source.bytes.count else { return nil }
        let bytes = source.bytes[range.start.offset..<range.end.offset]
        guard !bytes.contains(UInt8(ascii: "\n")), !bytes.contains(UInt8(ascii: "\r")) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A string literal for `value`, escaped as the lexer reads it back.
    private func stringLiteral(_ value: String) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
