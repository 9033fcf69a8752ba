import Foundation

// The requests of `modelgen lsp` beyond diagnostics (docs/Editors.md, "What the server does").

extension LanguageServer {
    // MARK: Formatting

    /// `modelgen format`'s layout, as one edit of the whole text; nothing for a file with syntax
    /// errors (it is never formatted) or one already formatted.
    func formatting(_ path: String) -> JSON {
        guard let document = workspace.document(path) else { return [] }
        guard let text = ModelFormatter.format(SourceFile(path: path, bytes: document.bytes)).text,
              Array(text.utf8) != document.bytes else { return [] }
        return [["range": document.range(0, document.bytes.count), "newText": .string(text)]]
    }

    // MARK: Document symbols

    func documentSymbols(_ path: String) -> JSON {
        guard let document = workspace.document(path) else { return [] }
        let tree = workspace.group(of: path)?.parsed[path]?.tree ?? Parser.parse(SourceFile(path: path, bytes: document.bytes)).file
        func symbol(_ name: String, _ kind: Int, _ range: SourceRange, _ selection: SourceRange, detail: String? = nil, children: [JSON] = []) -> JSON {
            // The selection must lie inside the range.
            let start = min(range.start.offset, selection.start.offset)
            let end = max(range.end.offset, selection.end.offset)
            var json: [String: JSON] = [
                "name": .string(name.isEmpty ? "_" : name), "kind": .int(kind),
                "range": document.range(start, end), "selectionRange": document.range(of: selection),
            ]
            if let detail { json["detail"] = .string(detail) }
            if !children.isEmpty { json["children"] = .array(children) }
            return .object(json)
        }
        func property(_ property: PropertyDecl, kind: Int) -> JSON {
            symbol(property.name.name, kind, property.range, property.name.range, detail: property.type.description)
        }
        func enumeration(_ decl: EnumDecl) -> JSON {
            symbol(decl.name.name, 10, decl.range, decl.name.range, detail: decl.inheritance.map(\.name).joined(separator: ", "),
                   children: decl.cases.map { symbol($0.name.name, 22, $0.range, $0.name.range) })
        }
        func structure(_ decl: StructDecl) -> JSON {
            symbol(decl.name.name, 23, decl.range, decl.name.range, children: decl.fields.map { property($0, kind: 8) })
        }
        var symbols: [JSON] = []
        for declaration in tree.declarations {
            if case .entity(let entity) = declaration {
                var children: [JSON] = []
                for member in entity.members {
                    if case .property(let decl) = member {
                        children.append(property(decl, kind: 7))
                    } else if case .initializer(let decl) = member {
                        let name = "init(" + decl.parameters.map(\.name).joined(separator: ", ") + ")"
                        children.append(symbol(name, 9, decl.range, decl.keywordRange))
                    } else if case .enumeration(let decl) = member {
                        children.append(enumeration(decl))
                    } else if case .structure(let decl) = member {
                        children.append(structure(decl))
                    }
                }
                symbols.append(symbol(entity.name.name, 5, entity.range, entity.name.range, detail: entity.base.map { ": " + $0.name }, children: children))
            } else if case .enumeration(let decl) = declaration {
                symbols.append(enumeration(decl))
            } else if case .structure(let decl) = declaration {
                symbols.append(structure(decl))
            } else if case .container(let decl) = declaration {
                symbols.append(symbol(decl.name.name, 3, decl.range, decl.name.range, detail: decl.entries.map(\.name).joined(separator: ", ")))
            } else if case .migration(let decl) = declaration {
                symbols.append(symbol("migration \(decl.from.text) -> \(decl.to.text)", 24, decl.range, decl.keywordRange))
            }
        }
        return .array(symbols)
    }

    // MARK: Navigation

    /// The occurrence under the cursor and the index it belongs to.
    private func occurrence(_ path: String, _ offset: Int) -> (SchemaIndex, Occurrence)? {
        guard let index = workspace.group(of: path)?.index, let occurrence = index.occurrence(in: path, at: offset) else { return nil }
        return (index, occurrence)
    }

    private func location(_ path: String, start: Int, end: Int) -> JSON? {
        guard let document = workspace.document(path) else { return nil }
        return ["uri": .string(uri(path)), "range": document.range(start, end)]
    }

    func definition(_ path: String, _ offset: Int) -> JSON {
        guard let (index, occurrence) = occurrence(path, offset), let symbol = index.symbols[occurrence.key] else { return .null }
        return location(symbol.path, start: symbol.nameRange.start.offset, end: symbol.nameRange.end.offset) ?? .null
    }

    func references(_ path: String, _ offset: Int, includeDeclaration: Bool) -> JSON {
        guard let (index, occurrence) = occurrence(path, offset) else { return .null }
        return .array(index.occurrences(of: occurrence.key).compactMap { found in
            guard includeDeclaration || !found.occurrence.isDeclaration else { return nil }
            return location(found.path, start: found.occurrence.start, end: found.occurrence.end)
        })
    }

    func prepareRename(_ path: String, _ offset: Int) -> JSON {
        guard let (index, occurrence) = occurrence(path, offset), renamable(occurrence.key, index) == nil,
              let document = workspace.document(path) else { return .null }
        return ["range": document.range(occurrence.start, occurrence.end), "placeholder": .string(occurrence.key.simpleName)]
    }

    /// Why a symbol cannot be renamed, or nil.
    private func renamable(_ key: SymbolKey, _ index: SchemaIndex) -> String? {
        guard key.scope.isEmpty else { return "'\(key.name)' is declared in a frozen version, which is never rewritten" }
        switch index.symbols[key]?.declaration {
        case .entity, .property: return nil
        case .enumeration, .structure, .container, .enumCase: return nil
        case nil: return "'\(key.name)' is not declared"
        }
    }

    /// Renames an entity, type, case or property: its declarations and every use in the schema's
    /// `.model` files (types, bases, container entries, key paths, init parameters).
    func rename(_ path: String, _ position: LSPPosition, to newName: String) -> Result<JSON, RequestFailure> {
        guard Self.isIdentifier(newName) else {
            return .failure(.invalidParams("'\(newName)' is not a name: a letter or '_', then letters, digits or '_'"))
        }
        guard let document = workspace.document(path), let (index, occurrence) = occurrence(path, document.offset(of: position)) else {
            return .failure(.invalidParams("there is no entity, type or property to rename here"))
        }
        if let reason = renamable(occurrence.key, index) { return .failure(.invalidParams(reason)) }
        var changes: [String: JSON] = [:]
        for found in index.occurrences(of: occurrence.key) where found.path.hasSuffix(".model") {
            guard let document = workspace.document(found.path) else { continue }
            let escape = found.occurrence.isEscaped || Self.keywords.contains(newName)
            let edit: JSON = ["range": document.range(found.occurrence.start, found.occurrence.end),
                              "newText": .string(escape ? "`\(newName)`" : newName)]
            changes[uri(found.path), default: []] = .array((changes[uri(found.path)]?.array ?? []) + [edit])
        }
        return .success(["changes": .object(changes)])
    }

    static let keywords: Set<String> = ["entity", "enum", "case", "init", "container", "super", "var", "struct", "migration", "true", "false", "nil"]

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || $0.properties.numericType != nil }
    }

    // MARK: Hover

    func hover(_ path: String, _ offset: Int) -> JSON {
        guard let (index, occurrence) = occurrence(path, offset), let symbol = index.symbols[occurrence.key],
              let document = workspace.document(path) else { return .null }
        let text = hoverText(symbol, index)
        return ["contents": ["kind": "markdown", "value": .string(text)], "range": document.range(occurrence.start, occurrence.end)]
    }

    /// The source text of a range of the declaring file.
    private func sourceText(_ range: SourceRange) -> String {
        guard let bytes = workspace.document(range.file)?.bytes else { return "" }
        let start = max(0, min(range.start.offset, bytes.count))
        let end = max(start, min(range.end.offset, bytes.count))
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private func hoverText(_ symbol: IndexedSymbol, _ index: SchemaIndex) -> String {
        var code: [String] = []
        var doc: DocComment?
        var extra: [String] = []
        let version = symbol.key.scope.isEmpty ? nil : SchemaVersion.ofVersionFile(symbol.key.scope)
        switch symbol.declaration {
        case .entity(let entity):
            doc = entity.doc
            code = entity.attributes.map { sourceText($0.range) }
            code.append("entity \(entity.name.name)" + (entity.base.map { ": \($0.name)" } ?? ""))
            let chain = index.baseChain(of: symbol.key)
            if !chain.isEmpty { extra.append("Base: " + chain.map { "`\($0.name)`" }.joined(separator: " → ")) }
            let subclasses = index.subclasses[symbol.key] ?? []
            if !subclasses.isEmpty { extra.append("Subclasses: " + subclasses.map { "`\($0.name)`" }.joined(separator: ", ")) }
            let properties = (index.members[symbol.key] ?? []).count
            extra.append(properties == 1 ? "1 property" : "\(properties) properties")
        case .property(let property, let owner):
            doc = property.doc
            code = property.attributes.map { sourceText($0.range) }
            let nameStart = property.name.range.start
            var declaration = sourceText(SourceRange(file: property.range.file, start: nameStart, end: property.range.end))
            if property.hasVar { declaration = "var " + declaration }
            code.append(declaration)
            let isField = { if case .structure = index.symbols[SymbolKey(scope: symbol.key.scope, name: owner)]?.declaration { true } else { false } }()
            extra.append((isField ? "Field of struct " : "Property of entity ") + "`\(owner)`")
        case .enumeration(let enumeration):
            doc = enumeration.doc
            let inheritance = enumeration.inheritance.map(\.name).joined(separator: ", ")
            code.append("enum \(symbol.key.name)" + (inheritance.isEmpty ? "" : ": " + inheritance))
            code += enumeration.cases.map { "    " + sourceText($0.range) }
        case .structure(let structure):
            doc = structure.doc
            code.append("struct \(symbol.key.name)")
            code += structure.fields.map { "    " + sourceText($0.range) }
        case .container(let container):
            doc = container.doc
            code.append("container \(container.name.name) { " + container.entries.map(\.name).joined(separator: ", ") + " }")
        case .enumCase(let enumCase, let owner):
            doc = enumCase.doc
            code.append("case " + sourceText(enumCase.range))
            extra.append("Case of enum `\(owner)`")
        }
        var parts = ["```swift\n" + code.joined(separator: "\n") + "\n```"]
        if let lines = doc?.lines, !lines.isEmpty { parts.append(lines.joined(separator: "\n")) }
        parts += extra
        if let version { parts.append("Frozen in version \(version) (`\((symbol.key.scope as NSString).lastPathComponent)`)") }
        return parts.joined(separator: "\n\n")
    }

    // MARK: Code actions

    /// Quick fixes: each "did you mean 'X'?" note of a diagnostic in the range replaces the
    /// misspelled name with X.
    func codeActions(_ path: String, _ range: JSON) -> JSON {
        guard let group = workspace.group(of: path), let document = workspace.document(path) else { return [] }
        let lower = LSPPosition(range["start"]).map(document.offset(of:)) ?? 0
        let upper = LSPPosition(range["end"]).map(document.offset(of:)) ?? document.bytes.count
        var actions: [JSON] = []
        for diagnostic in group.diagnostics[path] ?? [] {
            guard diagnostic.range.start.offset <= upper, diagnostic.range.end.offset >= lower else { continue }
            let suggestions = diagnostic.notes.flatMap { Self.suggestions(in: $0.message) }
            guard !suggestions.isEmpty, let span = misspelling(in: diagnostic, document) else { continue }
            for suggestion in suggestions {
                let edit: JSON = ["range": document.range(span.start, span.end), "newText": .string(suggestion)]
                actions.append([
                    "title": .string("Replace '\(span.text)' with '\(suggestion)'"), "kind": "quickfix",
                    "diagnostics": [diagnosticJSON(diagnostic, warningsAsErrors: group.configuration.warningsAsErrors ?? false)],
                    "isPreferred": .bool(suggestions.count == 1),
                    "edit": ["changes": [uri(path): [edit]]],
                ])
            }
        }
        return .array(actions)
    }

    /// The names of a "did you mean 'A' or 'B'?" note.
    static func suggestions(in note: String) -> [String] {
        guard note.hasPrefix("did you mean ") else { return [] }
        return note.split(separator: "'", omittingEmptySubsequences: false).enumerated().compactMap { index, part in
            index % 2 == 1 && !part.isEmpty ? String(part) : nil
        }
    }

    /// The misspelled name a diagnostic is about: a name its message quotes, found as a whole word
    /// in its range (the last component of a dotted name).
    private func misspelling(in diagnostic: Diagnostic, _ document: TextDocument) -> (start: Int, end: Int, text: String)? {
        let bytes = document.bytes
        let start = max(0, min(diagnostic.range.start.offset, bytes.count))
        let end = max(start, min(diagnostic.range.end.offset, bytes.count))
        let quoted = diagnostic.message.split(separator: "'", omittingEmptySubsequences: false).enumerated().compactMap { index, part in
            index % 2 == 1 && !part.isEmpty ? String(part.split(separator: ".").last ?? part) : nil
        }
        for name in quoted {
            let needle = Array(name.utf8)
            var index = start
            while index + needle.count <= end, !needle.isEmpty {
                if Array(bytes[index..<(index + needle.count)]) == needle,
                   index == 0 || !Self.isNameByte(bytes[index - 1]),
                   index + needle.count == bytes.count || !Self.isNameByte(bytes[index + needle.count]) {
                    return (index, index + needle.count, name)
                }
                index += 1
            }
        }
        return nil
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || byte >= 0x80 || (byte >= 48 && byte <= 57) || (byte | 0x20 >= 97 && byte | 0x20 <= 122)
    }
}
