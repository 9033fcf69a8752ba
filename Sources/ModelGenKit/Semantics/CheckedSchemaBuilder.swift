// Turns a checked `SemanticModel` into the `CheckedSchema` that generation reads.
//
// The builder takes the model and frees it as it goes: what one entity's schema needs from other
// entities (inits built on the base's, the inherited `id`) is worked out first, then each entity's
// working state is taken out of the model, turned into its `CheckedEntity` and dropped, with the
// syntax tree it alone still holds. A run so never holds the whole semantic model, its syntax
// trees and the whole schema at once (docs/Benchmarks.md, generator memory).

enum CheckedSchemaBuilder {
    /// The schema of `model`. Meant for a model without errors; on a model with errors it still
    /// returns a schema of what resolved (properties that did not resolve are left out).
    static func build(_ model: consuming SemanticModel) -> CheckedSchema {
        // What each entity takes from others, while they are all there.
        var initializers: [String: [CheckedInitializer]] = [:]
        var idPropertyNames: [String: String] = [:]
        initializers.reserveCapacity(model.entityOrder.count)
        for name in model.entityOrder {
            guard let info = model.entities[name] else { continue }
            initializers[name] = InitializerResolver.initializers(of: name, model: model)
            if let id = idPropertyName(of: info, model: model) { idPropertyNames[name] = id }
        }
        var structsByOwner: [String: [CheckedStruct]] = [:]
        var topLevelStructs: [CheckedStruct] = []
        for name in model.structOrder {
            guard let info = model.structs.removeValue(forKey: name) else { continue }
            if let owner = info.ownerEntity {
                structsByOwner[owner, default: []].append(structure(info))
            } else {
                topLevelStructs.append(structure(info))
            }
        }
        let enums = model.topLevelEnumOrder.compactMap { model.topLevelEnums[$0]?.checked }
        let containers = model.containers.map { info in
            CheckedContainer(name: info.decl.name.name, doc: info.decl.doc?.lines ?? [], listedEntities: info.listedEntities,
                             allEntities: info.allEntities, range: info.decl.range)
        }
        model.containers = []
        var entities: [CheckedEntity] = []
        entities.reserveCapacity(model.entityOrder.count)
        for name in model.entityOrder {
            guard let info = model.entities.removeValue(forKey: name) else { continue }
            entities.append(entity(info, initializers: initializers.removeValue(forKey: name) ?? [],
                                   idPropertyName: idPropertyNames[name], structs: structsByOwner.removeValue(forKey: name) ?? []))
        }
        return CheckedSchema(entities: entities, enums: enums, containers: containers, structs: topLevelStructs)
    }

    private static func structure(_ info: StructInfo) -> CheckedStruct {
        let fields = info.fields.compactMap { field -> CheckedStruct.Field? in
            guard case .value(let type, let isOptional)? = field.type else { return nil }
            return CheckedStruct.Field(name: field.name, doc: field.decl.doc?.lines ?? [], range: field.decl.range,
                                       type: type, isOptional: isOptional, defaultValue: field.defaultValue)
        }
        return CheckedStruct(name: info.decl.name.name, qualifiedName: info.qualifiedName, ownerEntity: info.ownerEntity,
                             fields: fields, doc: info.decl.doc?.lines ?? [], range: info.decl.range)
    }

    /// `id` when the entity or its base declares it (and it resolved).
    private static func idPropertyName(of info: EntityInfo, model: SemanticModel) -> String? {
        let owner = info.baseName.flatMap { model.entities[$0] } ?? info
        return owner.property(named: "id")?.isValid == true ? "id" : nil
    }

    private static func entity(_ info: EntityInfo, initializers: [CheckedInitializer], idPropertyName: String?, structs: [CheckedStruct]) -> CheckedEntity {
        var properties: [CheckedProperty] = []
        properties.reserveCapacity(info.properties.count)
        for property in info.properties {
            if let checked = checkedProperty(property) { properties.append(checked) }
        }
        return CheckedEntity(
            name: info.name,
            doc: info.decl.doc?.lines ?? [],
            range: info.decl.range,
            baseName: info.baseName,
            subclassNames: info.subclassNames,
            properties: properties,
            enums: info.nestedEnumOrder.compactMap { info.nestedEnums[$0]?.checked },
            initializers: initializers,
            uniqueConstraints: info.uniqueConstraints,
            indexes: info.indexes,
            structs: structs,
            originalName: info.originalName,
            idPropertyName: idPropertyName
        )
    }

    private static func checkedProperty(_ info: PropertyInfo) -> CheckedProperty? {
        guard let type = info.type else { return nil }
        let options = info.options
        let kind: CheckedProperty.Kind
        switch type {
        case .value(let value, let isOptional):
            kind = .attribute(CheckedAttribute(
                type: value, isOptional: isOptional, defaultValue: info.defaultValue, isUnique: options.isUnique,
                preserveValueOnDeletion: options.preserveValueOnDeletion, externalStorage: options.externalStorage,
                originalName: options.originalName))
        case .toOne(let destination, _), .toMany(let destination):
            var isToMany = false
            if case .toMany = type { isToMany = true }
            kind = .relationship(CheckedRelationship(
                destination: destination, isToMany: isToMany, deleteRule: options.deleteRule, inverseName: info.inverseName,
                inverseDeclaredHere: info.inverseDeclaredHere, minimumModelCount: options.minimumModelCount,
                maximumModelCount: options.maximumModelCount, originalName: options.originalName,
                hasDefault: info.hasWrittenDefault))
        }
        return CheckedProperty(name: info.name, doc: info.decl.doc?.lines ?? [], range: info.decl.range, kind: kind, isTransient: options.isTransient)
    }
}
