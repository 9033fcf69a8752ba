// Rules about property attributes and defaults: `invalid-attribute` and `default-type-mismatch`
// (`unsupported-type` is reported while resolving types, see `TypeResolver`).
// An attribute that does not fit is reported and then ignored; the property stays in the schema.

enum AttributeRules {
    /// Options ModelGen knows from SwiftData's `@Attribute` but does not support.
    static let unsupportedAttributeOptions: Set<String> = ["transformable", "spotlight", "encrypt", "allowsCloudEncryption", "ephemeral"]

    /// Resolves the types, attributes and defaults of every property.
    static func resolveProperties(_ model: inout SemanticModel) {
        for entity in model.entityOrder {
            guard var info = model.entities[entity] else { continue }
            for index in info.properties.indices {
                var property = info.properties[index]
                property.type = TypeResolver.resolve(property.decl.type, of: property.name, in: entity, model: &model)
                if let type = property.type {
                    property.options = options(of: property.decl, type: type, entity: entity, sink: &model.sink)
                    property.defaultValue = defaultValue(of: property.decl, type: type, entity: entity, model: &model)
                    if property.options.isUnique { info.uniqueConstraints.append([property.name]) }
                } else {
                    info.hasInvalidMembers = true
                }
                info.properties[index] = property
            }
            model.entities[entity] = info
        }
    }

    private static func defaultValue(of decl: PropertyDecl, type: ResolvedType, entity: String, model: inout SemanticModel) -> DefaultValue? {
        guard let expression = decl.defaultValue else { return nil }
        // An optional to-many may default to nil (the same as `[]`: no related models).
        if case .toMany = type, decl.type.isOptional, case .nil = expression.kind { return .nil }
        switch DefaultValueResolver.resolve(expression, for: type, model: model) {
        case .success(let value):
            return value
        case .failure(let mismatch):
            model.sink.error(.defaultTypeMismatch, "default value of '\(entity).\(decl.name.name)' does not fit its type '\(decl.type)': \(mismatch.reason)", at: expression.range)
            return nil
        }
    }

    private static func options(of decl: PropertyDecl, type: ResolvedType, entity: String, sink: inout DiagnosticSink) -> PropertyOptions {
        var options = PropertyOptions()
        let property = "'\(entity).\(decl.name.name)'"
        let names = decl.attributes.map(\.name.name)
        for written in decl.attributes {
            // A label given twice is reported; the first occurrence counts.
            var attribute = written
            var seen: Set<String> = []
            attribute.arguments = written.arguments.filter { argument in
                guard let label = argument.label, !seen.insert(label.name).inserted else { return true }
                sink.error(.invalidAttribute, "'\(label.name):' is given twice in @\(written.name.name) of \(property): keep one", at: label.range)
                return false
            }
            switch attribute.name.name {
            case "Attribute":
                if type.isRelationship {
                    let isUnique = attribute.arguments.contains { if case .memberAccess(let m) = $0.value.kind { m.name == "unique" } else { false } }
                    let message = isUnique
                        ? "'.unique' does not apply to relationship \(property): make an attribute of the destination unique instead"
                        : "@Attribute does not apply to relationship \(property): use @Relationship(…) for its options"
                    sink.error(.invalidAttribute, message, at: attribute.range)
                    continue
                }
                if !attribute.hasParentheses || attribute.arguments.isEmpty {
                    sink.error(.invalidAttribute, "@Attribute on \(property) needs options, e.g. '@Attribute(.unique)'", at: attribute.range)
                }
                for argument in attribute.arguments {
                    attributeArgument(argument, type: type, property: property, into: &options, sink: &sink)
                }
            case "Relationship":
                guard case .value(let value, _) = type else {
                    for argument in attribute.arguments {
                        relationshipArgument(argument, type: type, property: property, into: &options, sink: &sink)
                    }
                    if let min = options.minimumModelCount, let max = options.maximumModelCount, min > max {
                        sink.error(.invalidAttribute, "minimumModelCount \(min) of \(property) is larger than maximumModelCount \(max)", at: attribute.range)
                    }
                    continue
                }
                sink.error(.invalidAttribute, "@Relationship does not apply to \(property), a plain attribute of type '\(value)': remove it (relationships are properties of an entity type)", at: attribute.range)
            case "Transient":
                if attribute.hasParentheses {
                    sink.error(.invalidAttribute, "@Transient takes no arguments: write '@Transient'", at: attribute.range)
                }
                if names.contains("Attribute") || names.contains("Relationship") {
                    sink.error(.invalidAttribute, "@Transient \(property) is not stored: remove its @Attribute/@Relationship or @Transient", at: attribute.range)
                } else if type.isRelationship {
                    sink.error(.invalidAttribute, "@Transient does not apply to relationship \(property): relationships are always stored", at: attribute.range)
                } else if decl.defaultValue == nil {
                    sink.error(.invalidAttribute, "@Transient \(property) needs a default value: it is not stored, so it starts from its default, e.g. '\(decl.name.name): \(decl.type) = …'", at: attribute.range)
                } else {
                    options.isTransient = true
                }
            default:
                sink.error(.invalidAttribute, "unknown attribute '@\(attribute.name.name)' on \(property): use @Attribute, @Relationship or @Transient", at: attribute.range)
            }
        }
        return options
    }

    private static func attributeArgument(_ argument: AttributeArgument, type: ResolvedType, property: String, into options: inout PropertyOptions, sink: inout DiagnosticSink) {
        if let label = argument.label {
            guard label.name == "originalName" else {
                sink.error(.invalidAttribute, "unknown @Attribute argument '\(label.name):' on \(property): only 'originalName:' and the options .unique, .preserveValueOnDeletion, .externalStorage", at: argument.range)
                return
            }
            guard case .string(let name) = argument.value.kind else {
                sink.error(.invalidAttribute, "'originalName:' of \(property) takes a string, e.g. 'originalName: \"oldName\"'", at: argument.value.range)
                return
            }
            options.originalName = name
            return
        }
        guard case .memberAccess(let option) = argument.value.kind else {
            sink.error(.invalidAttribute, "@Attribute options of \(property) are written '.unique', '.preserveValueOnDeletion' or '.externalStorage'", at: argument.range)
            return
        }
        switch option.name {
        case "unique":
            if case .value(.composite(let name), _) = type {
                sink.error(.invalidAttribute, "'.unique' does not apply to \(property), a struct '\(name)' stored as several columns: remove it", at: argument.range)
            } else {
                options.isUnique = true
            }
        case "preserveValueOnDeletion":
            options.preserveValueOnDeletion = true
        case "externalStorage":
            if case .value(.data, _) = type {
                options.externalStorage = true
            } else {
                sink.error(.invalidAttribute, "'.externalStorage' applies only to Data, and \(property) is not Data: remove it", at: argument.range)
            }
        case let name where unsupportedAttributeOptions.contains(name):
            sink.error(.invalidAttribute, "option '.\(name)' on \(property) is not supported by ModelGen: remove it", at: argument.range)
        default:
            sink.error(.invalidAttribute, "unknown @Attribute option '.\(option.name)' on \(property): use .unique, .preserveValueOnDeletion or .externalStorage", at: argument.range)
        }
    }

    private static func relationshipArgument(_ argument: AttributeArgument, type: ResolvedType, property: String, into options: inout PropertyOptions, sink: inout DiagnosticSink) {
        guard let label = argument.label else {
            if case .memberAccess(let option) = argument.value.kind, option.name == "unique" {
                sink.error(.invalidAttribute, "'.unique' does not apply to relationship \(property): make an attribute of the destination unique instead", at: argument.range)
            } else {
                sink.error(.invalidAttribute, "@Relationship arguments of \(property) are labeled: deleteRule:, inverse:, minimumModelCount:, maximumModelCount:, originalName:", at: argument.range)
            }
            return
        }
        switch label.name {
        case "deleteRule":
            if case .memberAccess(let rule) = argument.value.kind, let deleteRule = DeleteRule(rawValue: rule.name) {
                options.deleteRule = deleteRule
                options.deleteRuleRange = argument.value.range
            } else {
                sink.error(.invalidAttribute, "unknown delete rule for \(property): use .cascade, .nullify, .deny or .noAction", at: argument.value.range)
            }
        case "inverse":
            if case .keyPath(let keyPath) = argument.value.kind, keyPath.root != nil, keyPath.components.count == 1 {
                options.inverse = keyPath
            } else {
                sink.error(.invalidAttribute, "'inverse:' of \(property) takes a key path to the other side, e.g. 'inverse: \\Entity.property'", at: argument.value.range)
            }
        case "minimumModelCount", "maximumModelCount":
            guard case .toMany = type else {
                sink.error(.invalidAttribute, "'\(label.name):' applies only to to-many relationships, and \(property) is to-one: remove it", at: argument.range)
                return
            }
            guard case .integer(let text) = argument.value.kind, let count = Int(text), count >= 0 else {
                sink.error(.invalidAttribute, "'\(label.name):' of \(property) takes a count (an integer 0 or more)", at: argument.value.range)
                return
            }
            if label.name == "minimumModelCount" { options.minimumModelCount = count } else { options.maximumModelCount = count }
        case "originalName":
            if case .string(let name) = argument.value.kind {
                options.originalName = name
            } else {
                sink.error(.invalidAttribute, "'originalName:' of \(property) takes a string, e.g. 'originalName: \"oldName\"'", at: argument.value.range)
            }
        default:
            sink.error(.invalidAttribute, "unknown @Relationship argument '\(label.name):' on \(property): use deleteRule:, inverse:, minimumModelCount:, maximumModelCount: or originalName:", at: argument.range)
        }
    }
}
