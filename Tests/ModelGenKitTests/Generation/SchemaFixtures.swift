@testable import ModelGenKit

/// Hand-built checked schemas, for testing generation independently of the semantic stage.
enum SchemaFixtures {
    static func range(_ file: String, line: Int = 1) -> SourceRange {
        SourceRange(file: file, start: SourceLocation(line: line, column: 1, offset: 0), end: SourceLocation(line: line, column: 2, offset: 1))
    }

    static func attribute(
        _ name: String, _ type: ValueType, optional: Bool = false, default value: DefaultValue? = nil,
        unique: Bool = false, transient: Bool = false, doc: [String] = [], file: String = "Test.model"
    ) -> CheckedProperty {
        CheckedProperty(
            name: name, doc: doc, range: range(file),
            kind: .attribute(CheckedAttribute(
                type: type, isOptional: optional, defaultValue: value, isUnique: unique,
                preserveValueOnDeletion: false, externalStorage: false, originalName: nil)),
            isTransient: transient)
    }

    static func relationship(
        _ name: String, to destination: String, toMany: Bool, inverse: String?, deleteRule: DeleteRule = .nullify,
        file: String = "Test.model"
    ) -> CheckedProperty {
        CheckedProperty(
            name: name, doc: [], range: range(file),
            kind: .relationship(CheckedRelationship(
                destination: destination, isToMany: toMany, deleteRule: deleteRule, inverseName: inverse,
                inverseDeclaredHere: true, minimumModelCount: nil, maximumModelCount: nil, originalName: nil,
                hasDefault: toMany)),
            isTransient: false)
    }

    static func parameter(_ name: String, owner: String, defaulted: Bool = false) -> CheckedInitializer.Parameter {
        CheckedInitializer.Parameter(name: name, owner: owner, hasDefaultArgument: defaulted)
    }

    static func entity(
        _ name: String, base: String? = nil, subclasses: [String] = [], properties: [CheckedProperty],
        enums: [CheckedEnum] = [], initializers: [CheckedInitializer], file: String = "Test.model", doc: [String] = []
    ) -> CheckedEntity {
        CheckedEntity(
            name: name, doc: doc, range: range(file), baseName: base, subclassNames: subclasses,
            properties: properties, enums: enums, initializers: initializers, uniqueConstraints: [], indexes: [])
    }

    /// A schema whose names are all Swift keywords.
    static var keywords: CheckedSchema {
        let kind = CheckedEnum(
            name: "Type", qualifiedName: "Protocol.Type", ownerEntity: "Protocol", rawType: .string,
            cases: [.init(name: "default", doc: [], rawValue: "default"), .init(name: "case", doc: [], rawValue: "k")],
            doc: [], range: range("Test.model"))
        let entity = entity(
            "Protocol",
            properties: [
                attribute("default", .int, default: .integer("1")),
                attribute("self", .string),
                attribute("class", .enumeration(qualifiedName: "Protocol.Type", rawType: .string), default: .enumCase("default")),
            ],
            enums: [kind],
            initializers: [CheckedInitializer(
                doc: [], parameters: [parameter("default", owner: "Protocol", defaulted: true), parameter("self", owner: "Protocol")],
                superArguments: nil, isSynthesized: true)])
        return CheckedSchema(entities: [entity], enums: [], containers: [])
    }
}

extension SchemaFixtures {
    /// Samples/Trips.model as the semantic stage resolves it.
    static var trips: CheckedSchema {
        let file = "Trips.model"
        let tripInit = CheckedInitializer(
            doc: [], parameters: ["name", "startDate", "endDate"].map { parameter($0, owner: "Trip") },
            superArguments: nil, isSynthesized: false)
        let trip = entity(
            "Trip", subclasses: ["BusinessTrip", "PersonalTrip"],
            properties: [
                attribute("name", .string, file: file), attribute("startDate", .date, file: file),
                attribute("endDate", .date, file: file),
                CheckedProperty(
                    name: "identifier", doc: [], range: range(file),
                    kind: .attribute(CheckedAttribute(
                        type: .uuid, isOptional: false, defaultValue: .newUUID, isUnique: false,
                        preserveValueOnDeletion: true, externalStorage: false, originalName: nil)),
                    isTransient: false),
                relationship("accommodations", to: "Accommodation", toMany: true, inverse: "trip", deleteRule: .cascade, file: file),
            ],
            initializers: [tripInit], file: file, doc: ["A journey with dates."])
        let business = entity(
            "BusinessTrip", base: "Trip",
            properties: [
                attribute("company", .string, file: file), attribute("expenseReport", .string, optional: true, file: file),
                attribute("meetingAgenda", .string, optional: true, file: file),
            ],
            initializers: [CheckedInitializer(
                doc: [],
                parameters: ["name", "startDate", "endDate"].map { parameter($0, owner: "Trip") } + [parameter("company", owner: "BusinessTrip")],
                superArguments: ["name", "startDate", "endDate"], isSynthesized: false)],
            file: file)
        let reasonType = ValueType.enumeration(qualifiedName: "PersonalTrip.Reason", rawType: .string)
        let reason = CheckedEnum(
            name: "Reason", qualifiedName: "PersonalTrip.Reason", ownerEntity: "PersonalTrip", rawType: .string,
            cases: ["vacation", "family", "adventure"].map { .init(name: $0, doc: [], rawValue: $0) }, doc: [], range: range(file))
        let personal = entity(
            "PersonalTrip", base: "Trip",
            properties: [attribute("reason", reasonType, file: file), attribute("companions", .array(.string), default: .array([]), file: file)],
            enums: [reason],
            initializers: [CheckedInitializer(
                doc: [],
                parameters: ["name", "startDate", "endDate"].map { parameter($0, owner: "Trip") } + [parameter("reason", owner: "PersonalTrip")],
                superArguments: ["name", "startDate", "endDate"], isSynthesized: false)],
            file: file)
        var tripRelationship = relationship("trip", to: "Trip", toMany: false, inverse: "accommodations", file: file)
        if case .relationship(var details) = tripRelationship.kind {
            details.hasDefault = false
            tripRelationship.kind = .relationship(details)
        }
        let accommodation = entity(
            "Accommodation", properties: [attribute("name", .string, file: file), tripRelationship],
            initializers: [CheckedInitializer(doc: [], parameters: [parameter("name", owner: "Accommodation")], superArguments: nil, isSynthesized: false)],
            file: file)
        let container = CheckedContainer(
            name: "TripStore", doc: [], listedEntities: ["Trip", "Accommodation"],
            allEntities: ["Trip", "BusinessTrip", "PersonalTrip", "Accommodation"], range: range(file))
        return CheckedSchema(entities: [trip, business, personal, accommodation], enums: [], containers: [container])
    }
}
