/// Computes the view model of one generated file from the checked schema.
struct SchemaTranslator {
    let schema: CheckedSchema
    let accessLevel: AccessLevel
    /// The position of each entity in `schema.entities`, by name (bases are looked up per subclass).
    private let entityIndexByName: [String: Int]

    init(schema: CheckedSchema, accessLevel: AccessLevel) {
        self.schema = schema
        self.accessLevel = accessLevel
        var indexByName: [String: Int] = Dictionary(minimumCapacity: schema.entities.count)
        for (index, entity) in schema.entities.enumerated() where indexByName[entity.name] == nil {
            indexByName[entity.name] = index
        }
        self.entityIndexByName = indexByName
    }

    /// The entity named `name` (the first one, as `CheckedSchema.entity(named:)` gives).
    private func lookUpEntity(named name: String) -> CheckedEntity? {
        entityIndexByName[name].map { schema.entities[$0] }
    }

    /// The view model of the file `source`: the entities, top-level enums and containers it declares.
    func file(_ source: ModelSource) -> FileViewModel {
        let entities = schema.entities.filter { $0.range.file == source.path }.map(entity).positioned()
        let enums = schema.enums.filter { $0.range.file == source.path }.map(enumeration).positioned()
        let containers = schema.containers.filter { $0.range.file == source.path }.map(container).positioned()
        return FileViewModel(
            fileName: source.fileName, access: accessLevel.keyword, accessLevel: accessLevel.rawValue,
            entities: entities, enums: enums, containers: containers,
            hasEntities: !entities.isEmpty, hasEnums: !enums.isEmpty, hasContainers: !containers.isEmpty)
    }

    // MARK: Entities

    func entity(_ entity: CheckedEntity) -> EntityViewModel {
        let base = entity.baseName.flatMap(lookUpEntity(named:))
        let inherited = base.map { base in base.properties.map { property($0, of: base) } }?.filter(\.isStored) ?? []
        let properties = withSlots(entity.properties.map { property($0, of: entity) }, after: inherited)
        let stored = properties.filter(\.isStored)
        let uniqueGroups = entity.uniqueConstraints.map(keyPathGroup).positioned()
        let indexGroups = entity.indexes.map(keyPathGroup).positioned()
        return EntityViewModel(
            name: entity.name,
            swiftName: SwiftIdentifier.escaped(entity.name),
            nameLiteral: SwiftLiteral.string(entity.name),
            docLines: docLines(entity.doc),
            classKeyword: base == nil ? "class" : "final class",
            isSubclass: base != nil,
            hasSubclasses: !entity.subclassNames.isEmpty,
            isFinal: base != nil,
            entitySwiftName: SwiftIdentifier.escaped(entity.name),
            baseName: base?.name ?? "",
            baseSwiftName: base.map { SwiftIdentifier.escaped($0.name) } ?? "",
            rootName: base?.name ?? entity.name,
            rootSwiftName: SwiftIdentifier.escaped(base?.name ?? entity.name),
            overrideKeyword: base == nil ? "" : "override ",
            subclasses: entity.subclassNames.map(name).positioned(),
            properties: properties.positioned(),
            storedProperties: stored.positioned(),
            attributes: stored.filter(\.isAttribute).positioned(),
            relationships: stored.filter(\.isRelationship).positioned(),
            transientProperties: properties.filter(\.isTransient).positioned(),
            inheritedProperties: withSlots(inherited, after: []).positioned(),
            hasInheritedProperties: !inherited.isEmpty,
            valueProperties: properties.filter(\.isAttribute).positioned(),
            hasStoredProperties: !stored.isEmpty,
            hasRelationships: stored.contains(where: \.isRelationship),
            hasTransientProperties: properties.contains(where: \.isTransient),
            enums: entity.enums.map(enumeration).positioned(),
            hasEnums: !entity.enums.isEmpty,
            initializers: entity.initializers.map { initializer($0, of: entity, base: base) }.positioned(),
            uniqueConstraints: uniqueGroups,
            indexes: indexGroups,
            hasUniqueConstraints: !uniqueGroups.isEmpty,
            hasIndexes: !indexGroups.isEmpty)
    }

    func property(_ property: CheckedProperty, of owner: CheckedEntity) -> PropertyViewModel {
        var model = PropertyViewModel(
            name: property.name, swiftName: SwiftIdentifier.escaped(property.name),
            nameLiteral: SwiftLiteral.string(property.name), docLines: docLines(property.doc),
            ownerName: owner.name, ownerSwiftName: SwiftIdentifier.escaped(owner.name), type: SwiftTypeName.of(property, in: owner.name), wrappedType: "", isOptional: false,
            isAttribute: false, isRelationship: false, isToOne: false, isToMany: false,
            isTransient: property.isTransient, isStored: !property.isTransient,
            hasDefault: false, defaultExpression: "", initialValue: "", hasInitialValue: false,
            valueKind: "", isEnum: false, isArray: false, elementType: "", elementKind: "", enumRawType: "",
            isUnique: false, preserveValueOnDeletion: false, externalStorage: false,
            hasOriginalName: false, originalName: "", originalNameLiteral: "",
            destination: "", destinationSwiftName: "", deleteRule: "", hasInverse: false, inverseName: "",
            inverseSwiftName: "", inverseNameLiteral: "", inverseDeclaredHere: false,
            hasMinimumModelCount: false, minimumModelCount: 0, hasMaximumModelCount: false, maximumModelCount: 0)
        switch property.kind {
        case .attribute(let attribute):
            model.isAttribute = true
            model.isOptional = attribute.isOptional
            model.wrappedType = SwiftTypeName.of(attribute.type, in: owner.name)
            model.valueKind = Self.kind(of: attribute.type)
            if case .array(let element) = attribute.type {
                model.isArray = true
                model.elementType = SwiftTypeName.of(element, in: owner.name)
                model.elementKind = Self.kind(of: element)
                if case .enumeration(_, let rawType) = element { model.enumRawType = rawType.rawValue }
            }
            if case .enumeration(_, let rawType) = attribute.type {
                model.isEnum = true
                model.enumRawType = rawType.rawValue
            }
            if let value = attribute.defaultValue {
                model.hasDefault = true
                model.defaultExpression = SwiftLiteral.defaultExpression(value, for: attribute.type)
                model.initialValue = model.defaultExpression
                model.hasConstantDefault = ![.newUUID, .now, .nil].contains(value)
            } else if attribute.isOptional {
                model.initialValue = "nil"
            }
            model.isUnique = attribute.isUnique
            model.preserveValueOnDeletion = attribute.preserveValueOnDeletion
            model.externalStorage = attribute.externalStorage
            setOriginalName(attribute.originalName, on: &model)
        case .relationship(let relationship):
            model.isRelationship = true
            model.isToMany = relationship.isToMany
            model.isToOne = !relationship.isToMany
            model.isOptional = !relationship.isToMany
            model.wrappedType = relationship.isToMany ? model.type : SwiftIdentifier.escaped(relationship.destination)
            model.hasDefault = relationship.hasDefault
            model.initialValue = relationship.isToMany ? "[]" : "nil"
            if relationship.hasDefault { model.defaultExpression = model.initialValue }
            model.destination = relationship.destination
            model.destinationSwiftName = SwiftIdentifier.escaped(relationship.destination)
            model.deleteRule = relationship.deleteRule.rawValue
            if let inverse = relationship.inverseName {
                model.hasInverse = true
                model.inverseName = inverse
                model.inverseSwiftName = SwiftIdentifier.escaped(inverse)
                model.inverseNameLiteral = SwiftLiteral.string(inverse)
            }
            model.inverseDeclaredHere = relationship.inverseDeclaredHere
            if let count = relationship.minimumModelCount {
                model.hasMinimumModelCount = true
                model.minimumModelCount = count
            }
            if let count = relationship.maximumModelCount {
                model.hasMaximumModelCount = true
                model.maximumModelCount = count
            }
            setOriginalName(relationship.originalName, on: &model)
        }
        model.hasInitialValue = !model.initialValue.isEmpty
        return model
    }

    /// Numbers stored attributes and relationships separately, continuing after the inherited ones.
    private func withSlots(_ properties: [PropertyViewModel], after inherited: [PropertyViewModel]) -> [PropertyViewModel] {
        var nextAttribute = inherited.filter(\.isAttribute).count
        var nextRelationship = inherited.filter(\.isRelationship).count
        return properties.map { property in
            var property = property
            guard property.isStored else { return property }
            if property.isAttribute {
                property.slot = nextAttribute
                nextAttribute += 1
            } else {
                property.slot = nextRelationship
                nextRelationship += 1
            }
            return property
        }
    }

    private func setOriginalName(_ originalName: String?, on model: inout PropertyViewModel) {
        guard let originalName else { return }
        model.hasOriginalName = true
        model.originalName = originalName
        model.originalNameLiteral = SwiftLiteral.string(originalName)
    }

    /// The storage kind of a value type, as the runtime names it.
    static func kind(of type: ValueType) -> String {
        switch type {
        case .bool: "bool"
        case .int: "int"
        case .int8: "int8"
        case .int16: "int16"
        case .int32: "int32"
        case .int64: "int64"
        case .uint8: "uint8"
        case .uint16: "uint16"
        case .uint32: "uint32"
        case .double: "double"
        case .float: "float"
        case .string: "string"
        case .date: "date"
        case .uuid: "uuid"
        case .data: "data"
        case .url: "url"
        case .decimal: "decimal"
        case .enumeration: "enumeration"
        case .array: "array"
        }
    }

    // MARK: Initializers

    func initializer(_ initializer: CheckedInitializer, of entity: CheckedEntity, base: CheckedEntity?) -> InitializerViewModel {
        let parameterNames = Set(initializer.parameters.map(\.name))
        let allProperties = (base?.properties ?? []) + entity.properties
        let parameters = initializer.parameters.map { parameter -> ParameterViewModel in
            let declared = allProperties.first { $0.name == parameter.name }
            let owner = parameter.owner == entity.name ? entity : (base ?? entity)
            let model = declared.map { property($0, of: owner) }
            let defaultArgument = parameter.hasDefaultArgument ? (model?.initialValue ?? "") : ""
            return ParameterViewModel(
                name: parameter.name, swiftName: SwiftIdentifier.escaped(parameter.name),
                type: model?.type ?? "", hasDefaultArgument: !defaultArgument.isEmpty, defaultArgument: defaultArgument)
        }
        // Own attributes (from a parameter or their initial value) are set before `super.init`;
        // relationships (kept by the runtime) and base
        // properties not passed to `super.init` are set through their setters after it.
        let superArguments = initializer.superArguments ?? []
        var before: [AssignmentViewModel] = []
        var after: [AssignmentViewModel] = []
        for own in entity.properties {
            let name = SwiftIdentifier.escaped(own.name)
            let isParameter = parameterNames.contains(own.name)
            if case .relationship = own.kind {
                if isParameter { after.append(AssignmentViewModel(name: own.name, swiftName: name, value: name, isParameter: true)) }
            } else {
                // A transient property starts with its default where it is declared.
                if own.isTransient && !isParameter { continue }
                let value = isParameter ? name : property(own, of: entity).initialValue
                if !value.isEmpty { before.append(AssignmentViewModel(name: own.name, swiftName: name, value: value, isParameter: isParameter)) }
            }
        }
        for inherited in base?.properties ?? [] where parameterNames.contains(inherited.name) && !superArguments.contains(inherited.name) {
            let name = SwiftIdentifier.escaped(inherited.name)
            after.append(AssignmentViewModel(name: inherited.name, swiftName: name, value: name, isParameter: true))
        }
        // An init with the labels and types of one of the base's inits overrides it.
        func signature(_ parameters: [CheckedInitializer.Parameter]) -> [String] {
            parameters.map { parameter in
                let declared = allProperties.first { $0.name == parameter.name }
                return parameter.name + ":" + (declared.map { SwiftTypeName.of($0) } ?? "")
            }
        }
        // A base's `init()` overrides the runtime base class's `ModelObject.init()`.
        let overridesBase = base?.initializers.contains { signature($0.parameters) == signature(initializer.parameters) }
            ?? initializer.parameters.isEmpty
        return InitializerViewModel(
            docLines: docLines(initializer.doc), isSynthesized: initializer.isSynthesized,
            overrideKeyword: overridesBase ? "override " : "",
            parameters: parameters.positioned(), hasParameters: !parameters.isEmpty,
            assignments: before.positioned(),
            hasSuperInit: initializer.superArguments != nil,
            superArguments: superArguments.map(name).positioned(),
            assignmentsAfterSuperInit: after.positioned())
    }

    // MARK: Enums, containers, helpers

    func enumeration(_ enumeration: CheckedEnum) -> EnumViewModel {
        let cases = enumeration.cases.map { item -> EnumCaseViewModel in
            let literal = enumeration.rawType == .string ? SwiftLiteral.string(item.rawValue) : item.rawValue
            return EnumCaseViewModel(
                name: item.name, swiftName: SwiftIdentifier.escaped(item.name), docLines: docLines(item.doc),
                rawValueLiteral: literal,
                hasExplicitRawValue: enumeration.rawType == .int || item.rawValue != item.name)
        }
        return EnumViewModel(
            name: enumeration.name, swiftName: SwiftIdentifier.escaped(enumeration.name),
            qualifiedName: enumeration.qualifiedName, docLines: docLines(enumeration.doc),
            rawType: enumeration.rawType.rawValue, cases: cases.positioned())
    }

    func container(_ container: CheckedContainer) -> ContainerViewModel {
        ContainerViewModel(
            name: container.name, swiftName: SwiftIdentifier.escaped(container.name),
            docLines: docLines(container.doc),
            entities: container.allEntities.map(name).positioned(),
            listedEntities: container.listedEntities.map(name).positioned())
    }

    private func keyPathGroup(_ names: [String]) -> KeyPathGroupViewModel {
        KeyPathGroupViewModel(properties: names.map(name).positioned())
    }

    private func name(_ name: String) -> NameViewModel {
        NameViewModel(
            name: name, swiftName: SwiftIdentifier.escaped(name), nameLiteral: SwiftLiteral.string(name),
            argumentLabel: SwiftIdentifier.argumentLabel(name)
        )
    }

    /// `///` lines of a doc comment (no trailing space on an empty line).
    private func docLines(_ lines: [String]) -> [String] {
        lines.map { $0.isEmpty ? "///" : "/// " + $0 }
    }
}
