// The changes between two checked schemas (two versions of the model's history), each classified
// the way ModelStore classifies it when it opens a store (Sources/ModelStore/Migration/
// SchemaChangePlan.swift): inferred, needing a custom stage's code, or impossible for any stage.
// The two must agree: a step the generator lets through as lightweight must migrate at run time,
// and a step it stops must be one the runtime refuses. `SchemaDiffAgreementTests` (ModelStoreTests)
// checks both on the same examples, through generated code.
//
// Matching is the runtime's: entities and properties by name, then by `originalName`. Types are
// compared by the names the store records (`Int32`, `String`, `enum(String)`, `[Int]`), so the
// widening rules are the runtime's too.

internal import SchemaEvolution

/// How a change between two versions migrates.
public enum ChangeClassification: String, Hashable, Sendable {
    /// Migrated with no code (the list of docs/Migrations.md, "What is inferred").
    case inferred
    /// Needs a custom stage: the step must be declared `custom` and its code written.
    case needsCode
    /// No stage migrates it (an entity moved to another hierarchy).
    case impossible
}

/// One change between two versions.
public struct SchemaChange: Hashable, Sendable {
    /// What changed, `Entity.property: what` (`Trip.duration: type String → Int`).
    public var description: String
    public var classification: ChangeClassification
    /// The changed declaration in the newer schema; nil for a removal (nothing left to point at).
    public var range: SourceRange?

    init(_ description: String, _ classification: ChangeClassification, at range: SourceRange?) {
        self.description = description
        self.classification = classification
        self.range = range
    }
}

/// Compares an older schema with a newer one.
struct SchemaDiff {
    let old: CheckedSchema
    let new: CheckedSchema
    private(set) var changes: [SchemaChange] = []

    private let oldEntities: [String: CheckedEntity]
    private let newEntities: [String: CheckedEntity]
    /// New entity name → the old entity it continues.
    private var entityOrigin: [String: CheckedEntity] = [:]
    /// `Entity.property` (new names) → the old property it continues, with its old entity.
    private var propertyOrigin: [String: (entity: CheckedEntity, property: CheckedProperty)] = [:]
    /// `Entity.property` (new names) of the continued properties whose old values cannot be kept
    /// (the runtime refills them in a custom stage).
    private var refilled: Set<String> = []

    /// The changes from `old` to `new`, in the newer schema's order (removals after).
    static func changes(from old: CheckedSchema, to new: CheckedSchema) -> [SchemaChange] {
        SchemaDiff(old: old, new: new).changes
    }

    private init(old: CheckedSchema, new: CheckedSchema) {
        self.old = old
        self.new = new
        oldEntities = Dictionary(old.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        newEntities = Dictionary(new.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        matchEntities()
        for entity in new.entities { compare(entity) }
        checkRelationshipStorage()
        reportRemovals()
    }

    // MARK: Entities

    private mutating func matchEntities() {
        entityOrigin = matchOrigins(
            old: oldEntities, new: new.entities, newNames: Set(newEntities.keys), name: \.name, originalName: \.originalName
        ).origins
    }

    private static func kindOfEntity(_ entity: CheckedEntity) -> String {
        entity.baseName == nil ? "entity" : "subclass"
    }

    private mutating func compare(_ entity: CheckedEntity) {
        guard let origin = entityOrigin[entity.name] else {
            // A new entity has no stored rows: none of its properties needs a value.
            changes.append(SchemaChange("\(entity.name): \(Self.kindOfEntity(entity)) added", .inferred, at: entity.range))
            return
        }
        if origin.name != entity.name {
            changes.append(SchemaChange("\(entity.name): \(Self.kindOfEntity(entity)) renamed from \(origin.name)", .inferred, at: entity.range))
        }
        // An entity keeps its place: a root stays a root, a subclass keeps (the continuation of) its base.
        let expectedBase = entity.baseName.map { entityOrigin[$0]?.name ?? "(new) " + $0 }
        if expectedBase != origin.baseName {
            changes.append(SchemaChange(
                "\(entity.name): base changed (\(origin.baseName ?? "none") → \(entity.baseName ?? "none")); "
                    + "no migration moves stored rows to another hierarchy: add the new entity in one version, "
                    + "copy the rows in a custom stage, remove the old entity in the next",
                .impossible, at: entity.range))
        }
        matchProperties(of: entity, origin: origin)
        compareConstraints(of: entity, origin: origin)
    }

    // MARK: Properties

    /// The entity's own stored properties (not transient ones, not its base's).
    private func stored(_ entity: CheckedEntity) -> [CheckedProperty] {
        entity.properties.filter { !$0.isTransient }
    }

    private func property(named name: String, of entity: CheckedEntity) -> CheckedProperty? {
        entity.properties.first { $0.name == name && !$0.isTransient }
    }

    private mutating func matchProperties(of entity: CheckedEntity, origin: CheckedEntity) {
        var claimed = Set(stored(entity).compactMap { property(named: $0.name, of: origin)?.name })
        for property in stored(entity) {
            let label = entity.name + "." + property.name
            var previous = self.property(named: property.name, of: origin)
            if previous == nil, let originalName = property.originalName, self.property(named: originalName, of: entity) == nil,
                !claimed.contains(originalName)
            {
                previous = self.property(named: originalName, of: origin)
            }
            guard let previous else {
                propertyAdded(property, of: entity)
                continue
            }
            claimed.insert(previous.name)
            propertyOrigin[label] = (origin, previous)
            if previous.name != property.name {
                changes.append(SchemaChange("\(label): renamed from \(previous.name)", .inferred, at: property.range))
            }
            let before = changes.count
            compare(property, label: label, previous: previous)
            if changes.count == before, previous.name == property.name {
                let details = Self.recordedDetails(of: previous).changed(to: Self.recordedDetails(of: property))
                if !details.isEmpty {
                    changes.append(SchemaChange("\(label): \(details.joined(separator: ", ")) changed (recorded)", .inferred, at: property.range))
                }
            }
        }
        let keptOrder = stored(entity).compactMap { propertyOrigin[entity.name + "." + $0.name]?.property.name }
        if keptOrder != stored(origin).map(\.name).filter(keptOrder.contains) {
            changes.append(SchemaChange("\(entity.name): properties reordered (the table is rebuilt)", .inferred, at: entity.range))
        }
    }

    /// A property of an entity that existed before, with no old property to continue.
    private mutating func propertyAdded(_ property: CheckedProperty, of entity: CheckedEntity) {
        let label = entity.name + "." + property.name
        if let attribute = property.asAttribute, !attribute.isOptional, !Self.hasConstantDefault(attribute) {
            let hint = attribute.defaultValue == nil ? "" : " (a default computed when a model is made, such as UUID() or Date(), does not fill stored rows)"
            changes.append(SchemaChange("\(label): new required property without a default value\(hint)", .needsCode, at: property.range))
        } else {
            changes.append(SchemaChange("\(label): property added", .inferred, at: property.range))
        }
    }

    /// Whether the store gets the default as a constant (generated code passes it as `defaultValue:`).
    static func hasConstantDefault(_ attribute: CheckedAttribute) -> Bool {
        guard let value = attribute.defaultValue else { return false }
        return ![.newUUID, .now, .nil].contains(value)
    }

    private enum Kind: Equatable {
        case attribute, toOne, toMany

        var name: String {
            switch self {
            case .attribute: "attribute"
            case .toOne: "to-one relationship"
            case .toMany: "to-many relationship"
            }
        }
    }

    private static func kind(of property: CheckedProperty) -> Kind {
        switch property.kind {
        case .attribute: .attribute
        case .relationship(let relationship): relationship.isToMany ? .toMany : .toOne
        }
    }

    private mutating func compare(_ property: CheckedProperty, label: String, previous: CheckedProperty) {
        let range = property.range
        switch (previous.kind, property.kind) {
        case (.attribute(let was), .attribute(let now)):
            let oldType = Self.storedTypeName(was.type)
            let newType = Self.storedTypeName(now.type)
            if !storedTypeWidens(oldType, to: newType) {
                changes.append(SchemaChange("\(label): type \(oldType) → \(newType)", .needsCode, at: range))
                refilled.insert(label)
                return
            }
            if let oldFields = Self.structFields(of: was.type, in: old), let newFields = Self.structFields(of: now.type, in: new) {
                for (what, classification) in newFields.classifiedChanges(from: oldFields) {
                    changes.append(SchemaChange("\(label): \(what)", classification, at: range))
                }
            }
            if oldType != newType {
                changes.append(SchemaChange("\(label): type \(oldType) → \(newType) (widened)", .inferred, at: range))
            } else if case .enumeration(let oldName, _) = was.type, case .enumeration(let newName, _) = now.type,
                Self.enumCases(oldName, in: old) != Self.enumCases(newName, in: new)
            {
                changes.append(SchemaChange("\(label): enum cases changed", .inferred, at: range))
            }
            if was.isOptional && !now.isOptional {
                if Self.hasConstantDefault(now) {
                    changes.append(SchemaChange("\(label): optional → required, stored nils take the default", .inferred, at: range))
                } else {
                    changes.append(SchemaChange("\(label): optional → required without a default value", .needsCode, at: range))
                }
            } else if !was.isOptional && now.isOptional {
                changes.append(SchemaChange("\(label): required → optional", .inferred, at: range))
            }
            if was.isUnique != now.isUnique {
                changes.append(SchemaChange("\(label): \(now.isUnique ? "made unique (stored duplicates fail the migration)" : "no longer unique")", .inferred, at: range))
            }
        case (.relationship(let was), .relationship(let now)):
            if was.isToMany && !now.isToMany {
                changes.append(SchemaChange("\(label): to-many → to-one", .needsCode, at: range))
                refilled.insert(label)
                return
            }
            if entityOrigin[now.destination]?.name != was.destination {
                changes.append(SchemaChange("\(label): destination \(was.destination) → \(now.destination)", .needsCode, at: range))
                refilled.insert(label)
                return
            }
            if !was.isToMany && now.isToMany {
                changes.append(SchemaChange("\(label): to-one → to-many", .inferred, at: range))
            }
            if was.deleteRule != now.deleteRule {
                changes.append(SchemaChange("\(label): delete rule .\(was.deleteRule.rawValue) → .\(now.deleteRule.rawValue)", .inferred, at: range))
            }
        default:
            changes.append(SchemaChange(
                "\(label): \(Self.kind(of: previous).name) → \(Self.kind(of: property).name)", .needsCode, at: range))
            refilled.insert(label)
        }
    }

    private static func enumCases(_ qualifiedName: String, in schema: CheckedSchema) -> [String?] {
        schema.enumeration(named: qualifiedName)?.cases.map(\.rawValue) ?? []
    }

    private mutating func compareConstraints(of entity: CheckedEntity, origin: CheckedEntity) {
        if origin.name == entity.name, origin.originalName != entity.originalName {
            changes.append(SchemaChange("\(entity.name): originalName changed (recorded)", .inferred, at: entity.range))
        }
        let renamed = { (group: [String]) in group.map { self.oldName(of: $0, in: entity) } }
        var differing = Set(entity.uniqueConstraints.map(renamed)).symmetricDifference(Set(origin.uniqueConstraints))
        // A `.unique` that came or went is reported on its property.
        for property in stored(entity) {
            guard let attribute = property.asAttribute, let (_, previous) = propertyOrigin[entity.name + "." + property.name],
                let was = previous.asAttribute, was.isUnique != attribute.isUnique
            else { continue }
            differing.remove([previous.name])
        }
        if !differing.isEmpty {
            changes.append(SchemaChange("\(entity.name): unique constraints changed (stored duplicates of a new one fail the migration)", .inferred, at: entity.range))
        }
        if Set(entity.indexes.map(renamed)) != Set(origin.indexes) {
            changes.append(SchemaChange("\(entity.name): #Index groups changed", .inferred, at: entity.range))
        }
    }

    /// The old name of a property of the new entity (itself when it is new or kept its name).
    private func oldName(of property: String, in entity: CheckedEntity) -> String {
        propertyOrigin[entity.name + "." + property]?.property.name ?? property
    }

    // MARK: Relationship storage

    /// A to-many relationship that is kept keeps its storage, unless its inverse changed from
    /// to-one to to-many (a join table filled from the old key column): a join table cannot become a
    /// key column without choosing among several links.
    private mutating func checkRelationshipStorage() {
        for entity in new.entities {
            for property in stored(entity) {
                guard let relationship = property.asRelationship, relationship.isToMany else { continue }
                let label = entity.name + "." + property.name
                guard !refilled.contains(label), let (_, previous) = propertyOrigin[label], let was = previous.asRelationship,
                    was.isToMany
                else { continue }
                let wasJoin = usesJoinTable(was, in: oldEntities)
                let isJoin = usesJoinTable(relationship, in: newEntities)
                let count = changes.count
                if wasJoin && !isJoin {
                    changes.append(SchemaChange(
                        "\(label): its links move from a join table to the key of \(relationship.destination).\(relationship.inverseName ?? "?") (the inverse became to-one)",
                        .needsCode, at: property.range))
                } else if !wasJoin && !isJoin, let inverse = relationship.inverseName,
                    !refilled.contains(relationship.destination + "." + inverse),
                    let (_, previousInverse) = propertyOrigin[relationship.destination + "." + inverse],
                    previousInverse.name != was.inverseName
                {
                    changes.append(SchemaChange("\(label): inverse changed (\(was.inverseName ?? "none") → \(inverse))", .needsCode, at: property.range))
                }
                if changes.count > count {
                    // The change found here says more than the recorded inverse change.
                    changes.removeAll { $0.description.hasPrefix(label + ": ") && $0.description.hasSuffix(" changed (recorded)") }
                }
            }
        }
    }

    /// Whether a to-many relationship is stored in a join table (no inverse, or a to-many inverse).
    private func usesJoinTable(_ relationship: CheckedRelationship, in entities: [String: CheckedEntity]) -> Bool {
        guard let inverseName = relationship.inverseName, let destination = entities[relationship.destination] else { return true }
        let inverse = property(named: inverseName, of: destination)
            ?? destination.baseName.flatMap { entities[$0] }.flatMap { property(named: inverseName, of: $0) }
        guard let inverse else { return true }
        return inverse.asRelationship?.isToMany ?? false
    }

    // MARK: Removals

    private mutating func reportRemovals() {
        let continued = Set(entityOrigin.values.map(\.name))
        for entity in old.entities where !continued.contains(entity.name) {
            changes.append(SchemaChange("\(entity.name): \(Self.kindOfEntity(entity)) removed (its stored rows are deleted)", .inferred, at: nil))
        }
        for entity in new.entities {
            guard let origin = entityOrigin[entity.name] else { continue }
            let kept = Set(stored(entity).compactMap { propertyOrigin[entity.name + "." + $0.name]?.property.name })
            for property in stored(origin) where !kept.contains(property.name) {
                changes.append(SchemaChange("\(entity.name).\(property.name): property removed (its stored values are dropped)", .inferred, at: entity.range))
            }
        }
    }

    // MARK: What the store records

    /// What the store records of a property besides its kind and type: compared to find changes
    /// that migrate by being recorded (and to tell whether two schemas are the same to the store).
    struct RecordedDetails: Hashable {
        var defaultValue: DefaultValue?
        var options: [String] = []
        var originalName: String?
        var inverse: String?
        var counts: [Int?] = []

        /// The names of the details that differ in `other`.
        func changed(to other: RecordedDetails) -> [String] {
            var names: [String] = []
            if defaultValue != other.defaultValue { names.append("default") }
            if options != other.options { names.append("attribute options") }
            if originalName != other.originalName { names.append("originalName") }
            if inverse != other.inverse { names.append("inverse") }
            if counts != other.counts { names.append("model counts") }
            return names
        }
    }

    static func recordedDetails(of property: CheckedProperty) -> RecordedDetails {
        switch property.kind {
        case .attribute(let attribute):
            var options: [String] = []
            if attribute.externalStorage { options.append("externalStorage") }
            if attribute.preserveValueOnDeletion { options.append("preserveValueOnDeletion") }
            if attribute.isUnique { options.append("unique") }
            return RecordedDetails(
                defaultValue: hasConstantDefault(attribute) ? attribute.defaultValue : nil, options: options,
                originalName: attribute.originalName)
        case .relationship(let relationship):
            return RecordedDetails(
                originalName: relationship.originalName, inverse: relationship.inverseName,
                counts: [relationship.minimumModelCount, relationship.maximumModelCount])
        }
    }

    /// Everything the store records of a schema's entities (ModelStore's `StoredEntity`s): two
    /// schemas with the same signature are the same schema to a store, which then migrates nothing.
    static func storageSignature(of schema: CheckedSchema) -> Set<[String]> {
        Set(schema.entities.map { entity in
            var fields = [entity.name, entity.baseName ?? "", entity.originalName ?? ""]
            fields.append(entity.uniqueConstraints.map { $0.joined(separator: ",") }.joined(separator: ";"))
            fields.append(entity.indexes.map { $0.joined(separator: ",") }.joined(separator: ";"))
            for property in entity.properties where !property.isTransient {
                let details = recordedDetails(of: property)
                var kind: String
                switch property.kind {
                case .attribute(let attribute):
                    kind = storedTypeName(attribute.type) + (attribute.isOptional ? "?" : "")
                    if case .enumeration(let name, _) = attribute.type {
                        kind += "(" + enumCases(name, in: schema).map { $0 ?? "" }.joined(separator: ",") + ")"
                    }
                    if let fields = structFields(of: attribute.type, in: schema) {
                        kind += " {" + fields.entries.joined(separator: ", ") + "}"
                    }
                case .relationship(let relationship):
                    kind = (relationship.isToMany ? "[" + relationship.destination + "]" : relationship.destination + "?")
                        + " ." + relationship.deleteRule.rawValue
                }
                fields.append("\(property.name): \(kind) \(details)")
            }
            return fields
        })
    }

    // MARK: Stored type names (ModelStore's ValueTypeName)

    /// The name the store records for an attribute's value type.
    static func storedTypeName(_ type: ValueType) -> String {
        switch type {
        case .enumeration(_, let rawType): "enum(\(rawType.rawValue))"
        // Swift's name of the type (`String(describing:)`): a nested type's own name.
        case .enumWithAssociatedValues(let name), .composite(let name): String(name.split(separator: ".").last ?? Substring(name))
        case .array(let element): "[" + storedTypeName(element) + "]"
        // A built-in type: its row of `ScalarType` (`Double` for `TimeInterval` and `CGFloat`).
        default: type.scalar?.storedTypeName ?? type.description
        }
    }

    /// The fields of a struct attribute (`S`, `S?`, `[S]`), as the store records them; nil for
    /// another type.
    static func structFields(of type: ValueType, in schema: CheckedSchema) -> StructFields? {
        switch type {
        case .array(let element): return structFields(of: element, in: schema)
        case .composite(let name):
            guard let structure = schema.structure(named: name) else { return nil }
            var entries: [String] = []
            appendFields(of: structure, prefix: "", in: schema, into: &entries)
            return StructFields(entries)
        default: return nil
        }
    }

    private static func appendFields(of structure: CheckedStruct, prefix: String, in schema: CheckedSchema, into entries: inout [String]) {
        for field in structure.fields {
            let path = prefix + field.name
            entries.append(path + ": " + storedTypeName(field.type) + (field.isOptional ? "?" : ""))
            if case .composite(let name) = field.type, let nested = schema.structure(named: name) {
                appendFields(of: nested, prefix: path + ".", in: schema, into: &entries)
            }
        }
    }
}

extension CheckedProperty {
    /// The attribute, when the property is one.
    fileprivate var asAttribute: CheckedAttribute? {
        if case .attribute(let attribute) = kind { return attribute }
        return nil
    }

    /// The relationship, when the property is one.
    fileprivate var asRelationship: CheckedRelationship? {
        if case .relationship(let relationship) = kind { return relationship }
        return nil
    }

    /// The name in the previous version (`originalName:`).
    fileprivate var originalName: String? { asAttribute?.originalName ?? asRelationship?.originalName }
}

extension StructFields {
    /// Every change from `old` (the shared rules of `StructFields`, which `SchemaDiffAgreementTests`
    /// holds to ModelStore's plan), described after `Entity.property: `, with how it migrates.
    func classifiedChanges(from old: StructFields) -> [(String, ChangeClassification)] {
        changes(from: old).map { change in
            let what: String
            switch change {
            case .added(let path, let isOptional): what = isOptional ? "field \(path) added" : "new required field \(path)"
            case .removed(let path): what = "field \(path) removed"
            case .typeChanged(let path, let from, let to): what = "field \(path) type \(from) → \(to)"
            case .widened(let path, let from, let to): what = "field \(path) type \(from) → \(to) (widened)"
            case .madeOptional(let path): what = "field \(path) required → optional"
            case .madeRequired(let path): what = "field \(path) optional → required"
            }
            return (what, change.needsCode ? .needsCode : .inferred)
        }
    }
}
