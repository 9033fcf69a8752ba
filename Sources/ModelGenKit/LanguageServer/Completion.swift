import Foundation

// Completion for `modelgen lsp` (docs/Editors.md): what may be written at the cursor, judged from
// the text of its line before it: types after `name:`, attributes after `@`, their options and
// labels inside `@Attribute(…)` and `@Relationship(…)`, delete rules after `deleteRule:`, entities
// and then their properties in key paths (`inverse: \Trip.`), bases after `entity Name:`, and
// keywords at the start of a line.

extension LanguageServer {
    /// LSP `CompletionItemKind`s used here.
    private enum ItemKind: Int {
        case property = 10, keyword = 14, enumMember = 20, `class` = 7, `enum` = 13, `struct` = 22, value = 12, constant = 21
    }

    private func item(_ label: String, _ kind: ItemKind, detail: String? = nil, insert: String? = nil) -> JSON {
        var json: [String: JSON] = ["label": .string(label), "kind": .int(kind.rawValue)]
        if let detail { json["detail"] = .string(detail) }
        if let insert { json["insertText"] = .string(insert) }
        return .object(json)
    }

    static let attributeNames = ["Attribute", "Relationship", "Transient", "Entity"]
    static let attributeOptions = ["unique", "preserveValueOnDeletion", "externalStorage", "ephemeral", "spotlight", "allowsCloudEncryption"]
    static let deleteRules = ["cascade", "nullify", "deny", "noAction"]
    static let relationshipLabels = ["deleteRule", "inverse", "minimumModelCount", "maximumModelCount", "originalName"]
    static let declarationKeywords = ["entity", "enum", "struct", "container", "migration"]
    static let memberKeywords = ["var", "init", "case", "enum", "struct"]

    func completion(_ path: String, _ offset: Int) -> JSON {
        guard let document = workspace.document(path) else { return [] }
        let bytes = document.bytes
        let end = max(0, min(offset, bytes.count))
        var start = end
        while start > 0, bytes[start - 1] != 10, bytes[start - 1] != 13 { start -= 1 }
        let line = String(decoding: bytes[start..<end], as: UTF8.self)
        let group = workspace.group(of: path)
        let index = group?.index ?? SchemaIndex(files: [])
        let scope = SchemaVersion.isVersionFile(path) ? path : ""
        let enclosing = enclosingType(path, offset: end, scope: scope)

        if Self.match(#"deleteRule:\s*\.?[A-Za-z_]*$"#, line) != nil {
            return .array(Self.deleteRules.map { item($0, .enumMember, detail: "delete rule", insert: line.hasSuffix(".") || Self.match(#"\.[A-Za-z_]*$"#, line) != nil ? $0 : "." + $0) })
        }
        if let captures = Self.match(#"\\([A-Za-z_][A-Za-z0-9_]*)?\.([A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z0-9_]*$"#, line) {
            // Key path components: the properties of the root (or of the enclosing entity).
            let root = captures.first.flatMap { $0 }
            var owner: SymbolKey?
            if let root { owner = index.resolveType([root], scope: scope, context: enclosing?.name) } else { owner = enclosing }
            guard let owner else { return [] }
            var items: [JSON] = []
            for key in [owner] + index.baseChain(of: owner) {
                for member in index.members[key] ?? [] {
                    if case .property(let decl, _) = index.symbols[member]?.declaration {
                        items.append(item(member.simpleName, .property, detail: decl.type.description))
                    }
                }
            }
            return .array(items)
        }
        if Self.match(#"\\[A-Za-z_0-9]*$"#, line) != nil || Self.match(#"^\s*entity\s+[^:]+:\s*[A-Za-z_0-9]*$"#, line) != nil
            || Self.match(#"^\s*container\b.*[{,]\s*[A-Za-z_0-9]*$"#, line) != nil {
            return .array(entities(index, scope: scope))
        }
        if let captures = Self.match(#"@([A-Za-z]+)\(([^)]*)$"#, line), let name = captures.first.flatMap({ $0 }) {
            let inside = captures.count > 1 ? captures[1] ?? "" : ""
            let afterDot = Self.match(#"\.[A-Za-z_]*$"#, inside) != nil
            switch name {
            case "Attribute":
                return .array(Self.attributeOptions.map { item(afterDot ? $0 : "." + $0, .enumMember, detail: "attribute option", insert: $0 == "" ? nil : (afterDot ? $0 : "." + $0)) }
                    + (afterDot ? [] : [item("originalName:", .property, detail: "the name in the previous version", insert: "originalName: ")]))
            case "Relationship":
                return .array(Self.relationshipLabels.map { item($0 + ":", .property, detail: "relationship argument", insert: $0 + ": ") })
            case "Entity":
                return .array([item("originalName:", .property, detail: "the entity's name in the previous version", insert: "originalName: ")])
            default:
                return []
            }
        }
        if Self.match(#"@[A-Za-z]*$"#, line) != nil {
            return .array(Self.attributeNames.map { item($0, .keyword, detail: "attribute") })
        }
        if Self.match(#"^\s*(@\S+\s+)*(var\s+)?[A-Za-z_`][A-Za-z0-9_`]*\s*:\s*[\[\]A-Za-z0-9_.?:\s]*$"#, line) != nil
            || Self.match(#"^\s*(enum|struct)\s+[A-Za-z_0-9]+\s*:"#, line) != nil {
            return .array(types(index, scope: scope, enclosing: enclosing))
        }
        if Self.match(#"^\s*[A-Za-z]*$"#, line) != nil {
            let keywords = enclosing == nil ? Self.declarationKeywords : Self.memberKeywords
            return .array(keywords.map { item($0, .keyword) })
        }
        return []
    }

    private func entities(_ index: SchemaIndex, scope: String) -> [JSON] {
        (index.typeNames[scope] ?? []).compactMap { key in
            if case .entity(let entity) = index.symbols[key]?.declaration {
                return item(key.name, .class, detail: entity.base.map { "entity: \($0.name)" } ?? "entity")
            }
            return nil
        }
    }

    private func types(_ index: SchemaIndex, scope: String, enclosing: SymbolKey?) -> [JSON] {
        var items = TypeResolver.builtinTypes.keys.sorted().map { item($0, .struct, detail: "built-in type") }
        for key in index.typeNames[scope] ?? [] {
            var label = key.name
            if let enclosing, label.hasPrefix(enclosing.name + ".") { label = String(label.dropFirst(enclosing.name.count + 1)) }
            switch index.symbols[key]?.declaration {
            case .entity: items.append(item(label, .class, detail: "entity"))
            case .enumeration: items.append(item(label, .enum, detail: "enum"))
            case .structure: items.append(item(label, .struct, detail: "struct"))
            default: break
            }
        }
        return items
    }

    /// The entity (or top-level struct) whose braces hold the offset.
    private func enclosingType(_ path: String, offset: Int, scope: String) -> SymbolKey? {
        guard let tree = workspace.group(of: path)?.parsed[path]?.tree else { return nil }
        for declaration in tree.declarations {
            let range = declaration.range
            guard range.start.offset < offset, offset <= range.end.offset else { continue }
            if case .entity(let entity) = declaration { return SymbolKey(scope: scope, name: entity.name.name) }
            if case .structure(let structure) = declaration { return SymbolKey(scope: scope, name: structure.name.name) }
        }
        return nil
    }

    /// The captures of the first match of `pattern` in `text` (nil when it does not match).
    static func match(_ pattern: String, _ text: String) -> [String?]? {
        guard let regex = CompletionPatterns.shared.regex(pattern) else { return nil }
        let range = NSRange(text.startIndex..., in: text)
        guard let match = regex.firstMatch(in: text, range: range) else { return nil }
        return (1..<max(1, match.numberOfRanges)).map { index in
            Range(match.range(at: index), in: text).map { String(text[$0]) }
        }
    }
}

/// The completion patterns, each compiled once.
final class CompletionPatterns: @unchecked Sendable {
    static let shared = CompletionPatterns()
    private let lock = NSLock()
    private var compiled: [String: NSRegularExpression] = [:]

    func regex(_ pattern: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let regex = compiled[pattern] { return regex }
        let regex = try? NSRegularExpression(pattern: pattern)
        compiled[pattern] = regex
        return regex
    }
}
