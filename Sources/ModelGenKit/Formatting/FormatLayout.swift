// The canonical code lines of a parsed file, without its comments: 4-space indent, one member per
// line, attributes on their own line before their property, one `case` per line.

/// Lays out the declarations of a file as `LayoutLine`s, in source order.
struct FormatLayout {
    let source: SourceFile
    private let spelling: SourceSpelling

    init(source: SourceFile) {
        self.source = source
        self.spelling = SourceSpelling(source: source)
    }

    func lines(of declarations: [Declaration]) -> [LayoutLine] {
        var lines: [LayoutLine] = []
        for declaration in declarations {
            switch declaration {
            case .entity(let entity): append(entity, to: &lines)
            case .enumeration(let enumeration): append(enumeration, depth: 0, to: &lines)
            case .container(let container): append(container, to: &lines)
            case .structure(let structure): append(structure, depth: 0, to: &lines)
            case .migration(let migration): append(migration, to: &lines)
            case .modelActor(let actor): append(actor, to: &lines)
            }
            if !lines.isEmpty { lines[lines.count - 1].endsTopLevelDeclaration = true }
        }
        return lines
    }

    // MARK: - Declarations

    private func append(_ entity: EntityDecl, to lines: inout [LayoutLine]) {
        for attribute in entity.attributes {
            lines.append(LayoutLine(depth: 0, text: spelling.attribute(attribute), anchor: attribute.range.start.offset, spanEnd: attribute.range.end.offset))
        }
        var header = "entity " + spelling.name(entity.name)
        if let base = entity.base { header += ": " + spelling.name(base) }
        let headerEnd = (entity.base ?? entity.name).range.end.offset
        let anchor = entity.attributes.isEmpty ? entity.range.start.offset : entity.keywordRange.start.offset
        lines.append(LayoutLine(depth: 0, text: header + " {", anchor: anchor, spanEnd: headerEnd, opensBlock: true))
        for member in entity.members {
            switch member {
            case .property(let property): append(property, depth: 1, to: &lines)
            case .initializer(let initializer): append(initializer, depth: 1, to: &lines)
            case .enumeration(let enumeration): append(enumeration, depth: 1, to: &lines)
            case .structure(let structure): append(structure, depth: 1, to: &lines)
            case .constraint(let constraint):
                lines.append(LayoutLine(depth: 1, text: spelling.constraint(constraint), anchor: constraint.range.start.offset, spanEnd: constraint.range.end.offset))
            }
        }
        lines.append(closingLine(of: entity.range, depth: 0))
    }

    /// `keyword Name: A, B {`, the line that opens an enum or a struct.
    private func headerLine(_ keyword: String, _ name: Identifier, _ inheritance: [Identifier], range: SourceRange, depth: Int) -> LayoutLine {
        var header = keyword + " " + spelling.name(name)
        if !inheritance.isEmpty {
            header += ": " + inheritance.map(spelling.name).joined(separator: ", ")
        }
        let headerEnd = (inheritance.last ?? name).range.end.offset
        return LayoutLine(depth: depth, text: header + " {", anchor: range.start.offset, spanEnd: headerEnd, opensBlock: true)
    }

    private func append(_ enumeration: EnumDecl, depth: Int, to lines: inout [LayoutLine]) {
        lines.append(headerLine("enum", enumeration.name, enumeration.inheritance, range: enumeration.range, depth: depth))
        for enumCase in enumeration.cases {
            var text = "case " + spelling.name(enumCase.name)
            if let values = enumCase.associatedValues {
                text += "(" + values.map { value in (value.label.map { spelling.name($0) + ": " } ?? "") + spelling.type(value.type) }.joined(separator: ", ") + ")"
            }
            if let rawValue = enumCase.rawValue { text += " = " + spelling.expression(rawValue) }
            let anchor = start(of: enumCase.range.start.offset, includingKeyword: "case")
            lines.append(LayoutLine(depth: depth + 1, text: text, anchor: anchor, spanEnd: max(anchor, enumCase.range.end.offset)))
        }
        lines.append(closingLine(of: enumeration.range, depth: depth))
    }

    private func append(_ structure: StructDecl, depth: Int, to lines: inout [LayoutLine]) {
        lines.append(headerLine("struct", structure.name, structure.inheritance, range: structure.range, depth: depth))
        for field in structure.fields { append(field, depth: depth + 1, to: &lines) }
        lines.append(closingLine(of: structure.range, depth: depth))
    }

    private func append(_ container: ContainerDecl, to lines: inout [LayoutLine]) {
        let entries = container.entries.map(spelling.name).joined(separator: ", ")
        let text = "container " + spelling.name(container.name) + (entries.isEmpty ? " {}" : " { " + entries + " }")
        lines.append(LayoutLine(depth: 0, text: text, anchor: container.range.start.offset, spanEnd: container.range.end.offset))
    }

    /// `migration "1.0.0" -> "2.0.0" { custom }` on one line, like a container.
    private func append(_ migration: MigrationDecl, to lines: inout [LayoutLine]) {
        let text = "migration \"\(migration.from.text)\" -> \"\(migration.to.text)\" { \(migration.kind.name) }"
        lines.append(LayoutLine(depth: 0, text: text, anchor: migration.range.start.offset, spanEnd: migration.range.end.offset))
    }

    /// `@ModelActor actor Name` on one line (an empty body is dropped).
    private func append(_ actor: ModelActorDecl, to lines: inout [LayoutLine]) {
        let attributes = actor.attributes.map { spelling.attribute($0) + " " }.joined()
        let text = attributes + "actor " + spelling.name(actor.name)
        lines.append(LayoutLine(depth: 0, text: text, anchor: actor.range.start.offset, spanEnd: actor.range.end.offset))
    }

    // MARK: - Members

    private func append(_ property: PropertyDecl, depth: Int, to lines: inout [LayoutLine]) {
        for attribute in property.attributes {
            lines.append(LayoutLine(depth: depth, text: spelling.attribute(attribute), anchor: attribute.range.start.offset, spanEnd: attribute.range.end.offset))
        }
        var text = property.hasVar ? "var " : ""
        text += spelling.name(property.name) + ": " + spelling.type(property.type)
        if let value = property.defaultValue { text += " = " + spelling.expression(value) }
        let anchor = property.attributes.isEmpty
            ? property.range.start.offset
            : start(of: property.name.range.start.offset, includingKeyword: property.hasVar ? "var" : nil)
        lines.append(LayoutLine(depth: depth, text: text, anchor: anchor, spanEnd: max(anchor, property.range.end.offset)))
    }

    private func append(_ initializer: InitDecl, depth: Int, to lines: inout [LayoutLine]) {
        let parameters = initializer.parameters.enumerated().map { index, name in
            spelling.name(name) + (initializer.defaultValue(at: index).map { " = " + spelling.expression($0) } ?? "")
        }
        let text = "init(" + parameters.joined(separator: ", ") + ")"
        let anchor = initializer.keywordRange.start.offset
        guard let superInit = initializer.superInit else {
            lines.append(LayoutLine(depth: depth, text: text, anchor: anchor, spanEnd: initializer.range.end.offset))
            return
        }
        let lastParameter = initializer.parameters.indices.last.map { initializer.defaultValue(at: $0)?.range ?? initializer.parameters[$0].range }
        let headerEnd = (lastParameter ?? initializer.keywordRange).end.offset
        lines.append(LayoutLine(depth: depth, text: text + " {", anchor: anchor, spanEnd: headerEnd, opensBlock: true))
        let call = "super.init(" + superInit.arguments.map(spelling.name).joined(separator: ", ") + ")"
        lines.append(LayoutLine(depth: depth + 1, text: call, anchor: superInit.range.start.offset, spanEnd: superInit.range.end.offset))
        lines.append(closingLine(of: initializer.range, depth: depth))
    }

    // MARK: - Source positions

    /// The `}` that ends `range`.
    private func closingLine(of range: SourceRange, depth: Int) -> LayoutLine {
        var offset = min(range.end.offset, source.bytes.count) - 1
        while offset > range.start.offset, isWhitespace(source.bytes[offset]) { offset -= 1 }
        let anchor = max(offset, range.start.offset)
        return LayoutLine(depth: depth, text: "}", anchor: anchor, spanEnd: anchor + 1, closesBlock: true)
    }

    /// `offset`, or the start of `keyword` when only whitespace separates it from `offset`.
    private func start(of offset: Int, includingKeyword keyword: String?) -> Int {
        guard let keyword else { return offset }
        var end = min(offset, source.bytes.count)
        while end > 0, isWhitespace(source.bytes[end - 1]) { end -= 1 }
        let keywordBytes = Array(keyword.utf8)
        let start = end - keywordBytes.count
        guard start >= 0, Array(source.bytes[start..<end]) == keywordBytes else { return offset }
        if start > 0, isIdentifierByte(source.bytes[start - 1]) { return offset }
        return start
    }

    private func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    private func isIdentifierByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "`")
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
