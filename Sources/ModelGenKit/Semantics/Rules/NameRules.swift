// Rules about names: `duplicate-declaration`, `duplicate-property`, `reserved-name`, and
// `unknown-type` for names outside property types (constraint key paths; bases, containers and
// inverses are checked by their own rule families, property types by `TypeResolver`).

enum NameRules {
    /// `duplicate-declaration` for every declaration whose name was taken (see `SymbolTable`).
    static func reportDuplicates(_ duplicates: [DuplicateDeclaration], in model: inout SemanticModel) {
        for duplicate in duplicates {
            let name = duplicate.name.name
            let scope = duplicate.scope.map { " in entity '\($0)'" } ?? ""
            model.sink.error(.duplicateDeclaration, "\(duplicate.kind) '\(name)' is declared twice\(scope): rename or remove one (entities, enums and containers share one namespace)",
                             at: duplicate.name.range, notes: [DiagnosticNote("'\(name)' first declared here", at: duplicate.first.range)])
        }
    }

    /// `reserved-name` for entities, enums and containers named like a type the generated code uses.
    static func checkTypeNames(_ model: inout SemanticModel) {
        var names: [Identifier] = []
        for entity in model.entityOrder {
            guard let info = model.entities[entity] else { continue }
            names.append(info.decl.name)
            names += info.nestedEnumOrder.compactMap { info.nestedEnums[$0]?.decl.name }
        }
        names += model.topLevelEnumOrder.compactMap { model.topLevelEnums[$0]?.decl.name }
        names += model.containers.map(\.decl.name)
        for name in names {
            if let reason = ReservedNames.typeReason(name.name) {
                model.sink.error(.reservedName, "'\(name.name)' cannot name a declaration: \(reason); choose another name", at: name.range)
            }
        }
    }

    /// Builds each entity's property list (types still unresolved), reporting `duplicate-property`
    /// and `reserved-name`; such properties are left out.
    static func collectProperties(_ model: inout SemanticModel) {
        for entity in model.entityOrder {
            guard var info = model.entities[entity] else { continue }
            var seen: [String: Identifier] = [:]
            for member in info.decl.members {
                guard case .property(let decl) = member else { continue }
                let name = decl.name
                info.declaredPropertyNames.insert(name.name)
                if let first = seen[name.name] {
                    model.sink.error(.duplicateProperty, "entity '\(entity)' declares property '\(name.name)' twice: remove or rename one", at: name.range,
                                     notes: [DiagnosticNote("'\(name.name)' first declared here", at: first.range)])
                    info.hasInvalidMembers = true
                    continue
                }
                seen[name.name] = name
                if let reason = ReservedNames.propertyReason(name.name) {
                    model.sink.error(.reservedName, "property '\(name.name)' of entity '\(entity)' collides with the generated API: \(reason); rename it", at: name.range)
                    info.hasInvalidMembers = true
                    continue
                }
                info.properties.append(PropertyInfo(decl: decl, owner: entity))
            }
            model.entities[entity] = info
        }
    }

    /// Resolves `#Unique` and `#Index` key paths (`unknown-type` for a name that is no property of
    /// the entity or its base, or a generic argument that is not the entity).
    static func checkConstraintMacros(_ model: inout SemanticModel) {
        for entity in model.entityOrder {
            guard var info = model.entities[entity] else { continue }
            for member in info.decl.members {
                guard case .constraint(let macro) = member else { continue }
                if let argument = macro.genericArgument, argument.name != entity {
                    model.sink.error(.unknownType, "#\(macro.kind.rawValue)<\(argument.name)> inside entity '\(entity)' must name '\(entity)': write '#\(macro.kind.rawValue)<\(entity)>' or leave '<\(argument.name)>' out", at: argument.range)
                    continue
                }
                for group in macro.groups {
                    var names: [String] = []
                    for keyPath in group {
                        if let name = resolveKeyPath(keyPath, in: entity, macro: macro.kind.rawValue, model: &model) { names.append(name) }
                    }
                    guard names.count == group.count, !names.isEmpty else { continue }
                    switch macro.kind {
                    case .unique: info.uniqueConstraints.append(names)
                    case .index: info.indexes.append(names)
                    }
                }
            }
            model.entities[entity] = info
        }
    }

    private static func resolveKeyPath(_ keyPath: KeyPathExpr, in entity: String, macro: String, model: inout SemanticModel) -> String? {
        if let root = keyPath.root, root.name != entity {
            model.sink.error(.unknownType, "key path '\\\(root.name)' in #\(macro) of entity '\(entity)' must start with '\\.' or '\\\(entity).'", at: root.range)
            return nil
        }
        guard keyPath.components.count == 1, let component = keyPath.components.first else {
            model.sink.error(.unknownType, "a key path in #\(macro) names one property of '\(entity)', as in '\\.name'", at: keyPath.range)
            return nil
        }
        if let property = model.property(component.name, of: entity) {
            return property.isValid ? property.name : nil
        }
        let info = model.entities[entity]
        let baseNames = info?.baseName.flatMap { model.entities[$0]?.declaredPropertyNames } ?? []
        let declared = (info?.declaredPropertyNames.contains(component.name) ?? false) || baseNames.contains(component.name)
        if !declared {
            let candidates = model.allProperties(of: entity).map(\.name)
            let hint = NameDistance.suggestion(for: component.name, among: candidates)
            model.sink.error(.unknownType, "#\(macro) names '\(component.name)', which is no property of entity '\(entity)'", at: component.range, notes: hint)
        }
        return nil
    }
}
