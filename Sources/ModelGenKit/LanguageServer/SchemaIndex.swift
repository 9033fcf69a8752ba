// What the language server knows about the names of one schema (docs/Editors.md): every
// declaration, and every place a name is used (types, bases, container entries, key paths, init
// parameters, `super.init` arguments, enum cases in defaults, and `originalName:` strings, which
// name a declaration of the newest frozen version). Built from the syntax trees alone, so it also
// works on files with errors: whatever parsed is indexed.
//
// Each `.modelversion` file is a scope of its own (a frozen version is checked alone); the
// `.model` files share the scope "" (the current model).

/// A declared name: its scope and its qualified name (`Trip`, `Trip.accommodations`,
/// `PersonalTrip.Reason`, `PersonalTrip.Reason.vacation`).
struct SymbolKey: Hashable, Sendable {
    /// "" for the current model; a version file's path for a frozen version.
    var scope: String
    var name: String

    /// The last component of the name (what is written at a use).
    var simpleName: String { name.split(separator: ".").last.map(String.init) ?? name }
}

/// A declaration the index found.
struct IndexedSymbol {
    enum Declaration {
        case entity(EntityDecl)
        case enumeration(EnumDecl)
        case structure(StructDecl)
        case container(ContainerDecl)
        case property(PropertyDecl, owner: String)
        case enumCase(EnumCaseDecl, owner: String)
    }

    var key: SymbolKey
    var declaration: Declaration
    /// The file and name range of the (first) declaration.
    var path: String
    var nameRange: SourceRange
}

/// One use or declaration of a name in a file, by byte offsets.
struct Occurrence {
    var key: SymbolKey
    var start: Int
    var end: Int
    var isDeclaration: Bool
    /// Written in backticks (the range includes them).
    var isEscaped: Bool
}

struct SchemaIndex {
    private(set) var symbols: [SymbolKey: IndexedSymbol] = [:]
    /// Every occurrence, per file path, sorted by start.
    private(set) var occurrences: [String: [Occurrence]] = [:]
    /// Entity → its base, per scope.
    private(set) var bases: [SymbolKey: SymbolKey] = [:]
    /// Entity → its direct subclasses, in declaration order.
    private(set) var subclasses: [SymbolKey: [SymbolKey]] = [:]
    /// Entities and types by scope, in declaration order (for completion).
    private(set) var typeNames: [String: [SymbolKey]] = [:]
    /// Properties of each entity or struct, in declaration order (for completion).
    private(set) var members: [SymbolKey: [SymbolKey]] = [:]

    /// The versions in order (newest last): their scopes.
    private var versionScopes: [(version: SchemaVersion, scope: String)] = []

    init(files: [ModelFile]) {
        var scopes: [String: [ModelFile]] = [:]
        var order: [String] = []
        for file in files {
            let scope = SchemaVersion.isVersionFile(file.source.path) ? file.source.path : ""
            if scopes[scope] == nil { order.append(scope) }
            scopes[scope, default: []].append(file)
            if !scope.isEmpty, let version = SchemaVersion.ofVersionFile(scope) { versionScopes.append((version, scope)) }
        }
        versionScopes.sort { $0.version < $1.version }
        for scope in order { declare(scopes[scope] ?? [], scope: scope) }
        for scope in order {
            for file in scopes[scope] ?? [] { reference(file, scope: scope) }
        }
        for path in occurrences.keys {
            occurrences[path]?.sort { ($0.start, $1.end) < ($1.start, $0.end) }
        }
    }

    // MARK: Queries

    /// The occurrence at a byte offset of a file (the innermost, when one holds another); an
    /// offset just after a name counts (the cursor after the last letter).
    func occurrence(in path: String, at offset: Int) -> Occurrence? {
        guard let list = occurrences[path] else { return nil }
        var best: Occurrence?
        for occurrence in list where occurrence.start <= offset && offset <= occurrence.end {
            if let current = best, current.end - current.start <= occurrence.end - occurrence.start { continue }
            best = occurrence
        }
        return best
    }

    /// Every occurrence of `key`, by file.
    func occurrences(of key: SymbolKey) -> [(path: String, occurrence: Occurrence)] {
        var found: [(path: String, occurrence: Occurrence)] = []
        for path in occurrences.keys.sorted() {
            for occurrence in occurrences[path] ?? [] where occurrence.key == key { found.append((path, occurrence)) }
        }
        return found
    }

    /// The entity's base chain, nearest first (cycles cut).
    func baseChain(of entity: SymbolKey) -> [SymbolKey] {
        var chain: [SymbolKey] = []
        var current = entity
        while let base = bases[current], base != entity, !chain.contains(base), chain.count < 16 {
            chain.append(base)
            current = base
        }
        return chain
    }

    /// The property `name` of an entity or struct, also inherited from its bases.
    func property(_ name: String, of owner: SymbolKey) -> SymbolKey? {
        for candidate in [owner] + baseChain(of: owner) {
            let key = SymbolKey(scope: owner.scope, name: candidate.name + "." + name)
            if let symbol = symbols[key], case .property = symbol.declaration { return key }
        }
        return nil
    }

    /// The type a name written inside `context` (an entity or struct, nil at top level) denotes.
    func resolveType(_ parts: [String], scope: String, context: String?) -> SymbolKey? {
        guard !parts.isEmpty else { return nil }
        let name = parts.joined(separator: ".")
        if parts.count == 1, let context {
            // Inside `E.S`, `X` may be `E.S.X`, then `E.X`.
            var prefix = context
            while true {
                let key = SymbolKey(scope: scope, name: prefix + "." + name)
                if isType(key) { return key }
                guard let dot = prefix.lastIndex(of: ".") else { break }
                prefix = String(prefix[..<dot])
            }
        }
        let key = SymbolKey(scope: scope, name: name)
        return isType(key) ? key : nil
    }

    private func isType(_ key: SymbolKey) -> Bool {
        switch symbols[key]?.declaration {
        case .entity, .enumeration, .structure: true
        default: false
        }
    }

    /// The newest frozen version's scope holding a declaration named `name`.
    func newestVersion(declaring name: String) -> SymbolKey? {
        for (_, scope) in versionScopes.reversed() {
            let key = SymbolKey(scope: scope, name: name)
            if symbols[key] != nil { return key }
        }
        return nil
    }

    // MARK: Declarations

    private mutating func declare(_ files: [ModelFile], scope: String) {
        for file in files {
            let path = file.source.path
            for declaration in file.declarations {
                if case .entity(let entity) = declaration {
                    let key = add(.entity(entity), name: entity.name.name, identifier: entity.name, scope: scope, path: path)
                    if let base = entity.base { bases[key] = SymbolKey(scope: scope, name: base.name) }
                    for member in entity.members {
                        if case .property(let property) = member {
                            let propertyKey = add(.property(property, owner: key.name), name: key.name + "." + property.name.name,
                                                  identifier: property.name, scope: scope, path: path, listed: false)
                            members[key, default: []].append(propertyKey)
                        } else if case .enumeration(let nested) = member {
                            declareEnum(nested, prefix: key.name + ".", scope: scope, path: path)
                        } else if case .structure(let nested) = member {
                            declareStruct(nested, prefix: key.name + ".", scope: scope, path: path)
                        }
                    }
                } else if case .enumeration(let enumeration) = declaration {
                    declareEnum(enumeration, prefix: "", scope: scope, path: path)
                } else if case .structure(let structure) = declaration {
                    declareStruct(structure, prefix: "", scope: scope, path: path)
                } else if case .container(let container) = declaration {
                    add(.container(container), name: container.name.name, identifier: container.name, scope: scope, path: path, listed: false)
                }
            }
        }
        for (entity, base) in bases where symbols[base] != nil {
            subclasses[base, default: []].append(entity)
        }
        for base in subclasses.keys {
            subclasses[base]?.sort { (symbols[$0]?.nameRange.start.offset ?? 0, $0.name) < (symbols[$1]?.nameRange.start.offset ?? 0, $1.name) }
        }
    }

    private mutating func declareEnum(_ enumeration: EnumDecl, prefix: String, scope: String, path: String) {
        let key = add(.enumeration(enumeration), name: prefix + enumeration.name.name, identifier: enumeration.name, scope: scope, path: path)
        for enumCase in enumeration.cases {
            add(.enumCase(enumCase, owner: key.name), name: key.name + "." + enumCase.name.name, identifier: enumCase.name,
                scope: scope, path: path, listed: false)
        }
    }

    private mutating func declareStruct(_ structure: StructDecl, prefix: String, scope: String, path: String) {
        let key = add(.structure(structure), name: prefix + structure.name.name, identifier: structure.name, scope: scope, path: path)
        for field in structure.fields {
            let fieldKey = add(.property(field, owner: key.name), name: key.name + "." + field.name.name, identifier: field.name,
                               scope: scope, path: path, listed: false)
            members[key, default: []].append(fieldKey)
        }
    }

    /// Records a declaration (the first of a name is the one definitions go to; every one is an
    /// occurrence, so a rename renames duplicates too).
    @discardableResult
    private mutating func add(
        _ declaration: IndexedSymbol.Declaration, name: String, identifier: Identifier, scope: String, path: String, listed: Bool = true
    ) -> SymbolKey {
        let key = SymbolKey(scope: scope, name: name)
        if symbols[key] == nil {
            symbols[key] = IndexedSymbol(key: key, declaration: declaration, path: path, nameRange: identifier.range)
            if listed { typeNames[scope, default: []].append(key) }
        }
        record(key, identifier, path: path, isDeclaration: true)
        return key
    }

    private mutating func record(_ key: SymbolKey, _ identifier: Identifier, path: String, isDeclaration: Bool = false) {
        record(key, start: identifier.range.start.offset, end: identifier.range.end.offset, path: path,
               isDeclaration: isDeclaration, isEscaped: identifier.isEscaped)
    }

    private mutating func record(_ key: SymbolKey, start: Int, end: Int, path: String, isDeclaration: Bool = false, isEscaped: Bool = false) {
        guard end >= start else { return }
        occurrences[path, default: []].append(Occurrence(key: key, start: start, end: end, isDeclaration: isDeclaration, isEscaped: isEscaped))
    }

    // MARK: References

    private mutating func reference(_ file: ModelFile, scope: String) {
        let path = file.source.path
        for declaration in file.declarations {
            if case .entity(let entity) = declaration {
                let entityKey = SymbolKey(scope: scope, name: entity.name.name)
                if let base = entity.base, let key = resolveType([base.name], scope: scope, context: nil) {
                    record(key, base, path: path)
                }
                for attribute in entity.attributes {
                    referenceOriginalName(attribute, file: file, owner: nil)
                }
                for member in entity.members {
                    if case .property(let property) = member {
                        referenceProperty(property, owner: entityKey, file: file, scope: scope)
                    } else if case .initializer(let initializer) = member {
                        for parameter in initializer.parameters {
                            if let key = property(parameter.name, of: entityKey) { record(key, parameter, path: path) }
                        }
                        for argument in initializer.superInit?.arguments ?? [] {
                            if let key = property(argument.name, of: entityKey) { record(key, argument, path: path) }
                        }
                    } else if case .enumeration(let nested) = member {
                        referenceEnum(nested, context: entityKey.name, file: file, scope: scope)
                    } else if case .structure(let nested) = member {
                        referenceStruct(nested, key: SymbolKey(scope: scope, name: entityKey.name + "." + nested.name.name), file: file, scope: scope)
                    } else if case .constraint(let macro) = member {
                        if let argument = macro.genericArgument, let key = resolveType([argument.name], scope: scope, context: nil) {
                            record(key, argument, path: path)
                        }
                        for group in macro.groups {
                            for keyPath in group { referenceKeyPath(keyPath, implicitRoot: entityKey, file: file, scope: scope) }
                        }
                    }
                }
            } else if case .enumeration(let enumeration) = declaration {
                referenceEnum(enumeration, context: nil, file: file, scope: scope)
            } else if case .structure(let structure) = declaration {
                referenceStruct(structure, key: SymbolKey(scope: scope, name: structure.name.name), file: file, scope: scope)
            } else if case .container(let container) = declaration {
                for entry in container.entries {
                    if let key = resolveType([entry.name], scope: scope, context: nil) { record(key, entry, path: path) }
                }
            }
        }
    }

    private mutating func referenceEnum(_ enumeration: EnumDecl, context: String?, file: ModelFile, scope: String) {
        for enumCase in enumeration.cases {
            for value in enumCase.associatedValues ?? [] { referenceType(value.type, context: context, file: file, scope: scope) }
        }
    }

    private mutating func referenceStruct(_ structure: StructDecl, key: SymbolKey, file: ModelFile, scope: String) {
        for field in structure.fields { referenceProperty(field, owner: key, file: file, scope: scope) }
    }

    private mutating func referenceProperty(_ property: PropertyDecl, owner: SymbolKey, file: ModelFile, scope: String) {
        let path = file.source.path
        referenceType(property.type, context: owner.name, file: file, scope: scope)
        for attribute in property.attributes {
            for argument in attribute.arguments {
                if case .keyPath(let keyPath) = argument.value.kind {
                    referenceKeyPath(keyPath, implicitRoot: owner, file: file, scope: scope)
                }
            }
            referenceOriginalName(attribute, file: file, owner: owner)
        }
        guard let value = property.defaultValue else { return }
        let enumKey = namedType(of: property.type).flatMap { resolveType($0, scope: scope, context: owner.name) }
        var values = [value]
        if case .array(let elements) = value.kind { values = elements }
        for value in values {
            if case .memberAccess(let member) = value.kind, let enumKey {
                let key = SymbolKey(scope: scope, name: enumKey.name + "." + member.name)
                if symbols[key] != nil { record(key, member, path: path) }
            } else if case .typeMember(let typeParts, let member) = value.kind,
                      let typeKey = resolveType(typeParts.map(\.name), scope: scope, context: owner.name) {
                if let last = typeParts.last { record(typeKey, start: typeParts[0].range.start.offset, end: last.range.end.offset, path: path) }
                let key = SymbolKey(scope: scope, name: typeKey.name + "." + member.name)
                if symbols[key] != nil { record(key, member, path: path) }
            }
        }
    }

    /// `originalName: "old"` of a property (or of an entity, `@Entity(originalName:)`): a use of
    /// the name in the newest frozen version that declares it.
    private mutating func referenceOriginalName(_ attribute: AttributeDecl, file: ModelFile, owner: SymbolKey?) {
        guard file.source.path.hasSuffix(".model") else { return }
        for argument in attribute.arguments where argument.label?.name == "originalName" {
            guard case .string(let old) = argument.value.kind else { continue }
            let target: SymbolKey?
            if let owner {
                // The entity's old name, if it was renamed too, else its name.
                let entityName = originalEntityName(owner.name) ?? owner.name
                target = newestVersion(declaring: entityName + "." + old) ?? newestVersion(declaring: owner.name + "." + old)
            } else {
                target = newestVersion(declaring: old)
            }
            guard let target else { continue }
            // The text between the quotes.
            let range = argument.value.range
            record(target, start: min(range.start.offset + 1, range.end.offset), end: max(range.start.offset, range.end.offset - 1),
                   path: file.source.path)
        }
    }

    /// The `@Entity(originalName:)` of an entity of the current model.
    private func originalEntityName(_ entity: String) -> String? {
        guard case .entity(let decl) = symbols[SymbolKey(scope: "", name: entity)]?.declaration else { return nil }
        for attribute in decl.attributes {
            for argument in attribute.arguments where argument.label?.name == "originalName" {
                if case .string(let old) = argument.value.kind { return old }
            }
        }
        return nil
    }

    /// `\Root.a.b` or `\.a` (root: the enclosing entity): the root type, then each component as a
    /// property of the type before it.
    private mutating func referenceKeyPath(_ keyPath: KeyPathExpr, implicitRoot: SymbolKey, file: ModelFile, scope: String) {
        let path = file.source.path
        var current: SymbolKey?
        if let root = keyPath.root {
            current = resolveType([root.name], scope: scope, context: implicitRoot.name)
            if let current { record(current, root, path: path) }
        } else {
            current = implicitRoot
        }
        for component in keyPath.components {
            guard let owner = current, let key = property(component.name, of: owner) else { return }
            record(key, component, path: path)
            current = nil
            if case .property(let decl, _) = symbols[key]?.declaration, let parts = namedType(of: decl.type) {
                current = resolveType(parts, scope: scope, context: owner.name)
            }
        }
    }

    /// The name a type comes down to, through optionals and arrays (`[Trip]?` → `Trip`).
    private func namedType(of type: TypeExpr) -> [String]? {
        var type = type
        for _ in 0..<Parser.maximumTypeDepth + 1 {
            if case .named(let parts) = type.kind { return parts.map(\.name) }
            if case .optional(let inner) = type.kind { type = inner } else if case .array(let inner) = type.kind { type = inner } else { return nil }
        }
        return nil
    }

    /// The type names written in a type (each part of `Outer.Inner` found in the source text).
    private mutating func referenceType(_ type: TypeExpr, context: String?, file: ModelFile, scope: String) {
        var pending = [type]
        var steps = 0
        while let next = pending.popLast(), steps < 1_000 {
            steps += 1
            if case .named(let parts) = next.kind {
                referenceTypeName(parts, range: next.range, context: context, file: file, scope: scope)
            } else if case .optional(let inner) = next.kind {
                pending.append(inner)
            } else if case .array(let inner) = next.kind {
                pending.append(inner)
            } else if case .dictionary(let key, let value) = next.kind {
                pending += [key, value]
            } else if case .tuple(let elements) = next.kind {
                pending += elements
            } else if case .generic(let parts, let arguments) = next.kind {
                referenceTypeName(parts, range: next.range, context: context, file: file, scope: scope)
                pending += arguments
            }
        }
    }

    private mutating func referenceTypeName(_ parts: [TypeNamePart], range: SourceRange, context: String?, file: ModelFile, scope: String) {
        let bytes = file.source.bytes
        var index = max(0, range.start.offset)
        let end = min(bytes.count, range.end.offset)
        var spans: [(start: Int, end: Int, escaped: Bool)] = []
        for part in parts {
            let name = Array(part.name.utf8)
            guard let found = Self.find(name, in: bytes, from: index, to: end) else { return }
            var span = (start: found, end: found + name.count, escaped: false)
            if span.start > 0, span.end < bytes.count, bytes[span.start - 1] == UInt8(ascii: "`"), bytes[span.end] == UInt8(ascii: "`") {
                span = (span.start - 1, span.end + 1, true)
            }
            spans.append(span)
            index = span.end
        }
        let names = parts.map(\.name)
        let path = file.source.path
        // `Outer.Inner`: `Outer` names a type too.
        if names.count > 1, let outer = resolveType([names[0]], scope: scope, context: context), let first = spans.first {
            record(outer, start: first.start, end: first.end, path: path, isEscaped: first.escaped)
        }
        if let key = resolveType(names, scope: scope, context: context), let last = spans.last {
            record(key, start: last.start, end: last.end, path: path, isEscaped: last.escaped)
        }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int, to end: Int) -> Int? {
        guard !needle.isEmpty, end - start >= needle.count else { return nil }
        var index = start
        while index + needle.count <= end {
            if bytes[index] == needle[0], Array(bytes[index..<(index + needle.count)]) == needle { return index }
            index += 1
        }
        return nil
    }
}
