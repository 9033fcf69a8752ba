// Turns a checked `SemanticModel` into the `CheckedSchema` that generation reads.

enum CheckedSchemaBuilder {
    /// The schema of `model`. Meant for a model without errors; on a model with errors it still
    /// returns a schema of what resolved (properties that did not resolve are left out).
    static func build(_ model: SemanticModel) -> CheckedSchema {
        let entities = model.entityOrder.compactMap { name in model.entities[name].map { entity($0, model: model) } }
        let enums = model.topLevelEnumOrder.compactMap { model.topLevelEnums[$0]?.checked }
        let containers = model.containers.map { info in
            CheckedContainer(name: info.decl.name.name, doc: info.decl.doc?.lines ?? [], listedEntities: info.listedEntities,
                             allEntities: info.allEntities, range: info.decl.range)
        }
        let structs = model.structOrder.compactMap { name in model.structs[name].flatMap { $0.ownerEntity == nil ? structure($0) : nil } }
        return CheckedSchema(entities: entities, enums: enums, containers: containers, structs: structs)
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

    private static func entity(_ info: EntityInfo, model: SemanticModel) -> CheckedEntity {
        let structs = model.structOrder.compactMap { name in
            model.structs[name].flatMap { $0.ownerEntity == info.name ? structure($0) : nil }
        }
        return CheckedEntity(
            name: info.name,
            doc: info.decl.doc?.lines ?? [],
            range: info.decl.range,
            baseName: info.baseName,
            subclassNames: info.subclassNames,
            properties: info.properties.compactMap(property),
            enums: info.nestedEnumOrder.compactMap { info.nestedEnums[$0]?.checked },
            initializers: InitializerResolver.initializers(of: info.name, model: model),
            uniqueConstraints: info.uniqueConstraints,
            indexes: info.indexes,
            structs: structs,
            originalName: info.originalName,
            idPropertyName: idPropertyName(of: info, model: model)
        )
    }

    private static func property(_ info: PropertyInfo) -> CheckedProperty? {
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
