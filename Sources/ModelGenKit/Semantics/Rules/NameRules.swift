// Rules about names: `duplicate-declaration`, `duplicate-property`, `reserved-name` (also for a
// declared `id` that cannot be the model's `Identifiable.id`), `invalid-attribute` for the attributes
// of an entity (`@Entity(originalName:)`), and `unknown-type` for names outside property types
// (constraint key paths; bases, containers and inverses are checked by their own rule families,
// property types by `TypeResolver`).

enum NameRules {
    /// `duplicate-declaration` for every declaration whose name was taken (see `SymbolTable`).
    static func reportDuplicates(_ duplicates: [DuplicateDeclaration], in model: inout SemanticModel) {
        for duplicate in duplicates {
            let name = duplicate.name.name
            let scope = duplicate.scope.map { " in entity '\($0)'" } ?? ""
            model.sink.error(.duplicateDeclaration, "\(duplicate.kind) '\(name)' is declared twice\(scope): rename or remove one (entities, enums, structs and containers share one namespace)",
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
        names += model.structOrder.compactMap { model.structs[$0]?.decl.name }
        names += model.containers.map(\.decl.name)
        names += model.modelActors.map(\.name)
        for name in names {
            if let reason = ReservedNames.typeReason(name.name) {
                model.sink.error(.reservedName, "'\(name.name)' cannot name a declaration: \(reason); choose another name", at: name.range)
            }
        }
    }

    /// A model actor takes `@ModelActor` and nothing else (`invalid-attribute`).
    static func checkModelActors(_ model: inout SemanticModel) {
        for actor in model.modelActors {
            var seen = false
            for attribute in actor.attributes {
                if attribute.name.name == "ModelActor", !attribute.hasParentheses, !seen {
                    seen = true
                    continue
                }
                let what = attribute.name.name == "ModelActor" ? (seen ? "@ModelActor is written twice" : "@ModelActor takes no arguments") : "unknown attribute '@\(attribute.name.name)'"
                model.sink.error(.invalidAttribute, "\(what) on actor '\(actor.name.name)': write '@ModelActor actor \(actor.name.name)'", at: attribute.range)
            }
        }
    }

    /// Builds each entity's property list (types still unresolved), reporting `duplicate-property`
    /// and `reserved-name`; such properties are left out.
    static func collectProperties(_ model: inout SemanticModel) {
        for entity in model.entityOrder {
            guard var info = model.entities[entity] else { continue }
            var seen: [String: Identifier] = [:]
            var declared: [String] = []
            // Reserved at the count declared, so that no list of a run keeps room it never uses.
            info.properties.reserveCapacity(info.decl.members.count { if case .property = $0 { true } else { false } })
            for member in info.decl.members {
                guard case .property(let decl) = member else { continue }
                let name = decl.name
                declared.append(name.name)
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
                info.properties.append(PropertyInfo(decl: decl))
            }
            info.declaredPropertyNames = SortedNames(declared)
            model.entities[entity] = info
        }
    }

    /// A declared `id` becomes the model's `Identifiable.id`: it must be a stored attribute of an
    /// entity without base (a subclass inherits its base's identity). Otherwise `reserved-name`.
    static func checkDeclaredIDs(_ model: inout SemanticModel) {
        for entity in model.entityOrder {
            guard let info = model.entities[entity], let index = info.properties.firstIndex(where: { $0.name == "id" }) else { continue }
            let property = info.properties[index]
            guard let type = property.type else { continue }
            let problem: String?
            if let base = info.baseName {
                problem = "a subclass has the identity of its base: declare 'id' on '\(base)' instead"
            } else if type.isRelationship {
                problem = "it is the model's Identifiable.id and must be an attribute, not a relationship"
            } else if property.options.isTransient {
                problem = "it is the model's Identifiable.id and must be stored: remove @Transient"
            } else {
                problem = nil
            }
            guard let problem else { continue }
            model.sink.error(.reservedName, "property 'id' of entity '\(entity)' cannot be declared here: \(problem)", at: property.decl.name.range)
            model.entities[entity]?.hasInvalidMembers = true
        }
    }

    /// `@Entity(originalName: "Old")` before an entity: its name in the previous schema. Any other
    /// attribute, argument or value is `invalid-attribute` (and ignored); so is an original name that
    /// is the name of another entity of the model, or that two entities share.
    static func checkEntityAttributes(_ model: inout SemanticModel) {
        var claimed: [String: (entity: String, range: SourceRange)] = [:]
        for entity in model.entityOrder {
            guard let info = model.entities[entity] else { continue }
            var originalName: String?
            var seenEntityAttribute = false
            for attribute in info.decl.attributes {
                guard attribute.name.name == "Entity" else {
                    model.sink.error(.invalidAttribute, "unknown attribute '@\(attribute.name.name)' on entity '\(entity)': an entity takes only @Entity(originalName: \"OldName\")", at: attribute.range)
                    continue
                }
                if seenEntityAttribute {
                    model.sink.error(.invalidAttribute, "@Entity is written twice on entity '\(entity)': keep one", at: attribute.range)
                    continue
                }
                seenEntityAttribute = true
                if attribute.arguments.isEmpty {
                    model.sink.error(.invalidAttribute, "@Entity on entity '\(entity)' needs its argument, e.g. '@Entity(originalName: \"OldName\")'", at: attribute.range)
                }
                for argument in attribute.arguments {
                    guard argument.label?.name == "originalName" else {
                        let written = argument.label.map { "'\($0.name):'" } ?? "an unlabeled argument"
                        model.sink.error(.invalidAttribute, "@Entity of '\(entity)' takes only 'originalName:', not \(written)", at: argument.range)
                        continue
                    }
                    guard originalName == nil else {
                        model.sink.error(.invalidAttribute, "'originalName:' is given twice in @Entity of '\(entity)': keep one", at: argument.range)
                        continue
                    }
                    guard case .string(let name) = argument.value.kind, !name.isEmpty else {
                        model.sink.error(.invalidAttribute, "'originalName:' of entity '\(entity)' takes the entity's previous name as a string, e.g. 'originalName: \"OldName\"'", at: argument.value.range)
                        continue
                    }
                    if name != entity, model.entities[name] != nil {
                        model.sink.error(.invalidAttribute, "'originalName: \"\(name)\"' of entity '\(entity)' names another entity of this model: the rename would take its stored rows; remove it or rename '\(name)'", at: argument.value.range,
                                         notes: [DiagnosticNote("'\(name)' declared here", at: model.entities[name]?.decl.name.range)])
                        continue
                    }
                    if let first = claimed[name] {
                        model.sink.error(.invalidAttribute, "entities '\(first.entity)' and '\(entity)' both name '\(name)' as their original name: only one can take its stored rows", at: argument.value.range,
                                         notes: [DiagnosticNote("'\(first.entity)' names it here", at: first.range)])
                        continue
                    }
                    claimed[name] = (entity, argument.value.range)
                    originalName = name
                }
            }
            model.entities[entity]?.originalName = originalName
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
                    if macro.kind == .unique, let structProperty = names.first(where: { isStructValued(model.property($0, of: entity)) }) {
                        let range = group.first { $0.components.first?.name == structProperty }?.range ?? macro.range
                        model.sink.error(.invalidAttribute, "#Unique of entity '\(entity)' names '\(structProperty)', a struct stored as several columns: make fields of other properties unique instead", at: range)
                        continue
                    }
                    switch macro.kind {
                    case .unique: info.uniqueConstraints.append(names)
                    case .index: info.indexes.append(names)
                    }
                }
            }
            model.entities[entity] = info
        }
    }

    /// True for a property whose type is a struct (optional or not): it is stored as several columns.
    static func isStructValued(_ property: PropertyInfo?) -> Bool {
        if case .value(.composite, _)? = property?.type { return true }
        return false
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
        let baseNames = info?.baseName.flatMap { model.entities[$0]?.declaredPropertyNames } ?? SortedNames()
        let declared = (info?.declaredPropertyNames.contains(component.name) ?? false) || baseNames.contains(component.name)
        if !declared {
            let candidates = model.allProperties(of: entity).map(\.name)
            let hint = NameDistance.suggestion(for: component.name, among: candidates)
            model.sink.error(.unknownType, "#\(macro) names '\(component.name)', which is no property of entity '\(entity)'", at: component.range, notes: hint)
        }
        return nil
    }
}
