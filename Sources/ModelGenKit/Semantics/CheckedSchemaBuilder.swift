// Turns a checked `SemanticModel` into the `CheckedSchema` that generation reads.
//
// The builder takes the model and frees it as it goes: each entity's working state is taken out of
// the model as soon as its `CheckedEntity` is built, with the syntax tree only it still holds,
// unless a subclass still to be built needs it (a subclass's inits start from its base's, and it
// inherits its base's `id`). So the run never holds the whole semantic model, the syntax trees and
// the whole schema at once: the peak of a run is the model at the end of checking
// (docs/Benchmarks.md, generator memory).

enum CheckedSchemaBuilder {
    /// The schema of `model`. Meant for a model without errors; on a model with errors it still
    /// returns a schema of what resolved (properties that did not resolve are left out).
    static func build(_ model: consuming SemanticModel) -> CheckedSchema {
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

        // Subclasses not yet built, by base; bases already built that wait for them.
        var pendingSubclasses: [String: Int] = [:]
        for name in model.entityOrder {
            if let base = model.entities[name]?.baseName { pendingSubclasses[base, default: 0] += 1 }
        }
        var waitingBases: Set<String> = []
        var entities: [CheckedEntity] = []
        for name in model.entityOrder {
            guard let info = model.entities[name] else { continue }
            entities.append(entity(
                info, initializers: InitializerResolver.initializers(of: name, model: model),
                idPropertyName: idPropertyName(of: info, model: model), structs: structsByOwner.removeValue(forKey: name) ?? []))
            guard pendingSubclasses[name, default: 0] == 0 else {
                waitingBases.insert(name)
                continue
            }
            // Drop it, then each base that was waiting only for it.
            var dropped = model.entities.removeValue(forKey: name)
            while let base = dropped?.baseName {
                pendingSubclasses[base, default: 0] -= 1
                guard pendingSubclasses[base, default: 0] == 0, waitingBases.remove(base) != nil else { break }
                dropped = model.entities.removeValue(forKey: base)
            }
        }
        let actors = model.modelActors.map { CheckedModelActor(name: $0.name.name, doc: $0.doc?.lines ?? [], range: $0.range) }
        return CheckedSchema(entities: entities.compacted(), enums: enums, containers: containers, structs: topLevelStructs, modelActors: actors)
    }

    private static func structure(_ info: StructInfo) -> CheckedStruct {
        let fields = info.fields.compactMap { field -> CheckedStruct.Field? in
            guard case .value(let type, let isOptional)? = field.type else { return nil }
            return CheckedStruct.Field(name: field.name, doc: field.decl.doc?.lines ?? [], range: field.decl.range,
                                       type: type, isOptional: isOptional, defaultValue: field.defaultValue)
        }
        return CheckedStruct(name: info.decl.name.name, qualifiedName: info.qualifiedName, ownerEntity: info.ownerEntity,
                             fields: fields, doc: info.decl.doc?.lines ?? [], range: info.decl.range, conformances: info.conformances)
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
                hasDefault: info.hasWrittenDefault, isOptionalToMany: isToMany && info.decl.type.isOptional))
        }
        return CheckedProperty(name: info.name, doc: info.decl.doc?.lines ?? [], range: info.decl.range, kind: kind, isTransient: options.isTransient)
    }
}
