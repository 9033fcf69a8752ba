// Direct `MustacheValue`s of the view model: the same keys and values its `Encodable` form gives
// (tested against `MustacheValueEncoder`), built without going through an `Encoder`.

/// A view model that builds its own Mustache value.
protocol MustacheValueConvertible {
    /// The value templates see: a dictionary keyed by the stored property names.
    var mustacheValue: MustacheValue { get }
}

extension Array where Element: MustacheValueConvertible {
    /// The elements' values as a Mustache array.
    var mustacheValue: MustacheValue { .array(map(\.mustacheValue)) }
}

extension Array where Element == String {
    /// The strings as a Mustache array.
    var mustacheValue: MustacheValue { .array(map(MustacheValue.string)) }
}

extension FileViewModel: MustacheValueConvertible {
    var mustacheValue: MustacheValue {
        .dictionary([
            "fileName": .string(fileName),
            "access": .string(access),
            "accessLevel": .string(accessLevel),
            "entities": entities.mustacheValue,
            "enums": enums.mustacheValue,
            "containers": containers.mustacheValue,
            "hasEntities": .bool(hasEntities),
            "hasEnums": .bool(hasEnums),
            "hasContainers": .bool(hasContainers),
        ])
    }
}

extension NameViewModel: MustacheValueConvertible {
    var mustacheValue: MustacheValue {
        .dictionary([
            "name": .string(name),
            "swiftName": .string(swiftName),
            "nameLiteral": .string(nameLiteral),
            "argumentLabel": .string(argumentLabel),
            "index": .int(index),
            "isFirst": .bool(isFirst),
            "isLast": .bool(isLast),
        ])
    }
}

extension EntityViewModel: MustacheValueConvertible {
    var mustacheValue: MustacheValue {
        // A property is in up to five of the lists below: its members are built once.
        var shared = SharedPropertyValues()
        return .dictionary([
            "name": .string(name),
            "swiftName": .string(swiftName),
            "nameLiteral": .string(nameLiteral),
            "docLines": docLines.mustacheValue,
            "classKeyword": .string(classKeyword),
            "isSubclass": .bool(isSubclass),
            "hasSubclasses": .bool(hasSubclasses),
            "isFinal": .bool(isFinal),
            "entitySwiftName": .string(entitySwiftName),
            "baseName": .string(baseName),
            "baseSwiftName": .string(baseSwiftName),
            "rootName": .string(rootName),
            "rootSwiftName": .string(rootSwiftName),
            "overrideKeyword": .string(overrideKeyword),
            "subclasses": subclasses.mustacheValue,
            "properties": shared.value(of: properties),
            "storedProperties": shared.value(of: storedProperties),
            "attributes": shared.value(of: attributes),
            "relationships": shared.value(of: relationships),
            "transientProperties": shared.value(of: transientProperties),
            "inheritedProperties": shared.value(of: inheritedProperties),
            "hasInheritedProperties": .bool(hasInheritedProperties),
            "valueProperties": shared.value(of: valueProperties),
            "hasStoredProperties": .bool(hasStoredProperties),
            "hasRelationships": .bool(hasRelationships),
            "hasTransientProperties": .bool(hasTransientProperties),
            "enums": enums.mustacheValue,
            "hasEnums": .bool(hasEnums),
            "initializers": initializers.mustacheValue,
            "uniqueConstraints": uniqueConstraints.mustacheValue,
            "indexes": indexes.mustacheValue,
            "hasUniqueConstraints": .bool(hasUniqueConstraints),
            "hasIndexes": .bool(hasIndexes),
            "index": .int(index),
            "isFirst": .bool(isFirst),
            "isLast": .bool(isLast),
        ])
    }
}

extension PropertyViewModel: MustacheValueConvertible {
    var mustacheValue: MustacheValue { .dictionary(members) }

    /// The members of `mustacheValue`.
    fileprivate var members: [String: MustacheValue] {
        [
            "name": .string(name),
            "swiftName": .string(swiftName),
            "nameLiteral": .string(nameLiteral),
            "docLines": docLines.mustacheValue,
            "ownerName": .string(ownerName),
            "ownerSwiftName": .string(ownerSwiftName),
            "type": .string(type),
            "wrappedType": .string(wrappedType),
            "isOptional": .bool(isOptional),
            "isAttribute": .bool(isAttribute),
            "isRelationship": .bool(isRelationship),
            "isToOne": .bool(isToOne),
            "isToMany": .bool(isToMany),
            "isTransient": .bool(isTransient),
            "isStored": .bool(isStored),
            "hasDefault": .bool(hasDefault),
            "defaultExpression": .string(defaultExpression),
            "hasConstantDefault": .bool(hasConstantDefault),
            "initialValue": .string(initialValue),
            "hasInitialValue": .bool(hasInitialValue),
            "valueKind": .string(valueKind),
            "isEnum": .bool(isEnum),
            "isArray": .bool(isArray),
            "elementType": .string(elementType),
            "elementKind": .string(elementKind),
            "enumRawType": .string(enumRawType),
            "isUnique": .bool(isUnique),
            "preserveValueOnDeletion": .bool(preserveValueOnDeletion),
            "externalStorage": .bool(externalStorage),
            "hasOriginalName": .bool(hasOriginalName),
            "originalName": .string(originalName),
            "originalNameLiteral": .string(originalNameLiteral),
            "destination": .string(destination),
            "destinationSwiftName": .string(destinationSwiftName),
            "deleteRule": .string(deleteRule),
            "hasInverse": .bool(hasInverse),
            "inverseName": .string(inverseName),
            "inverseSwiftName": .string(inverseSwiftName),
            "inverseNameLiteral": .string(inverseNameLiteral),
            "inverseDeclaredHere": .bool(inverseDeclaredHere),
            "hasMinimumModelCount": .bool(hasMinimumModelCount),
            "minimumModelCount": .int(minimumModelCount),
            "hasMaximumModelCount": .bool(hasMaximumModelCount),
            "maximumModelCount": .int(maximumModelCount),
            "slot": .int(slot),
            "index": .int(index),
            "isFirst": .bool(isFirst),
            "isLast": .bool(isLast),
        ]
    }
}

extension InitializerViewModel: MustacheValueConvertible {
    var mustacheValue: MustacheValue {
        .dictionary([
            "docLines": docLines.mustacheValue,
            "isSynthesized": .bool(isSynthesized),
            "overrideKeyword": .string(overrideKeyword),
            "parameters": parameters.mustacheValue,
            "hasParameters": .bool(hasParameters),
            "assignments": assignments.mustacheValue,
            "hasSuperInit": .bool(hasSuperInit),
            "superArguments": superArguments.mustacheValue,
            "assignmentsAfterSuperInit": assignmentsAfterSuperInit.mustacheValue,
            "index": .int(index),
            "isFirst": .bool(isFirst),
            "isLast": .bool(isLast),
        ])
    }
}

extension ParameterViewModel: MustacheValueConvertible {
    var mustacheValue: MustacheValue {
        .dictionary([
            "name": .string(name),
            "swiftName": .string(swiftName),
            "type": .string(type),
            "hasDefaultArgument": .bool(hasDefaultArgument),
            "defaultArgument": .string(defaultArgument),
            "index": .int(index),
            "isFirst": .bool(isFirst),
            "isLast": .bool(isLast),
        ])
    }
}

extension AssignmentViewModel: MustacheValueConvertible {
    var mustacheValue: MustacheValue {
        .dictionary([
            "name": .string(name),
            "swiftName": .string(swiftName),
            "value": .string(value),
            "isParameter": .bool(isParameter),
            "index": .int(index),
            "isFirst": .bool(isFirst),
            "isLast": .bool(isLast),
        ])
    }
}

extension KeyPathGroupViewModel: MustacheValueConvertible {
    var mustacheValue: MustacheValue {
        .dictionary([
            "properties": properties.mustacheValue,
            "index": .int(index),
            "isFirst": .bool(isFirst),
            "isLast": .bool(isLast),
        ])
    }
}

extension EnumViewModel: MustacheValueConvertible {
    var mustacheValue: MustacheValue {
        .dictionary([
            "name": .string(name),
            "swiftName": .string(swiftName),
            "qualifiedName": .string(qualifiedName),
            "docLines": docLines.mustacheValue,
            "rawType": .string(rawType),
            "cases": cases.mustacheValue,
            "index": .int(index),
            "isFirst": .bool(isFirst),
            "isLast": .bool(isLast),
        ])
    }
}

extension EnumCaseViewModel: MustacheValueConvertible {
    var mustacheValue: MustacheValue {
        .dictionary([
            "name": .string(name),
            "swiftName": .string(swiftName),
            "docLines": docLines.mustacheValue,
            "rawValueLiteral": .string(rawValueLiteral),
            "hasExplicitRawValue": .bool(hasExplicitRawValue),
            "index": .int(index),
            "isFirst": .bool(isFirst),
            "isLast": .bool(isLast),
        ])
    }
}

extension ContainerViewModel: MustacheValueConvertible {
    var mustacheValue: MustacheValue {
        .dictionary([
            "name": .string(name),
            "swiftName": .string(swiftName),
            "docLines": docLines.mustacheValue,
            "entities": entities.mustacheValue,
            "listedEntities": listedEntities.mustacheValue,
            "index": .int(index),
            "isFirst": .bool(isFirst),
            "isLast": .bool(isLast),
        ])
    }
}

/// The Mustache values of one entity's properties, built once per property and reused in every
/// list that holds it: a list element differs from another list's copy only in `index`,
/// `isFirst` and `isLast`, so those three members are set on a copy of the shared dictionary.
private struct SharedPropertyValues {
    /// Built members by property name, with the property they were built from (position reset).
    private var built: [String: [(property: PropertyViewModel, members: [String: MustacheValue])]] = [:]

    /// The list's value, equal to `list.mustacheValue`.
    mutating func value(of list: [PropertyViewModel]) -> MustacheValue {
        .array(list.map { property in
            var members = members(of: property)
            members["index"] = .int(property.index)
            members["isFirst"] = .bool(property.isFirst)
            members["isLast"] = .bool(property.isLast)
            return .dictionary(members)
        })
    }

    /// The members of `property`, from an equal property (ignoring position) built before if any.
    private mutating func members(of property: PropertyViewModel) -> [String: MustacheValue] {
        var unpositioned = property
        unpositioned.index = 0
        unpositioned.isFirst = false
        unpositioned.isLast = false
        if let found = built[property.name]?.first(where: { $0.property == unpositioned }) { return found.members }
        let members = unpositioned.members
        built[property.name, default: []].append((unpositioned, members))
        return members
    }
}
