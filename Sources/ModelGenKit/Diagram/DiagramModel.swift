// What `modelgen diagram` draws, computed once from the checked schema and shared by the Mermaid
// and DOT renderers: entity boxes with their attributes, struct boxes with their fields, inheritance
// edges, one edge per relationship (a relationship and its inverse make a single edge; a side that
// cascades deletes is marked), and one edge from each property or field of a struct type to the struct.

/// The drawable content of a checked schema, in schema order.
struct DiagramModel: Hashable, Sendable {
    /// One box per entity, then one per struct.
    public struct Node: Hashable, Sendable {
        /// The entity's name, or the struct's qualified name (`Theme.Palette`).
        public var name: String
        /// `name: Type` of each attribute of the entity itself (relationships are edges), or of each field of a struct.
        public var attributes: [String]
        /// A struct (a composite attribute type) rather than an entity.
        public var isStruct: Bool = false
    }

    /// A property of `owner` (an entity or a struct) whose type is the struct `structName`: its
    /// value is stored inside the owner's row.
    public struct Composition: Hashable, Sendable {
        public var owner: String
        public var property: String
        public var structName: String
        /// `1`, `0..1` for an optional, `*` for an array.
        public var multiplicity: String
    }

    /// `subclass` inherits from `base`.
    public struct Inheritance: Hashable, Sendable {
        public var subclass: String
        public var base: String
    }

    /// One relationship, with its inverse when it has one.
    public struct Relationship: Hashable, Sendable {
        /// The entity that declares `sourceProperty`.
        public var source: String
        public var sourceProperty: String
        public var sourceDeleteRule: DeleteRule
        /// How many `destination` models one `source` model relates to (`0..1`, `*`, `1..5`).
        public var destinationMultiplicity: String
        /// The entity `sourceProperty` points to.
        public var destination: String
        /// The inverse property (on `destination` or its base), if any.
        public var inverseProperty: String?
        public var inverseDeleteRule: DeleteRule?
        /// How many `source` models one `destination` model relates to; `nil` without an inverse.
        public var sourceMultiplicity: String?

        /// Deleting a source model deletes its destination models (`sourceDeleteRule` is `.cascade`).
        public var sourceCascades: Bool { sourceDeleteRule == .cascade }
        /// Deleting a destination model deletes its source models (the inverse's rule is `.cascade`).
        public var destinationCascades: Bool { inverseDeleteRule == .cascade }

        /// `accommodations (cascade) / trip (nullify)`: the source side first.
        public var label: String {
            var text = "\(sourceProperty) (\(sourceDeleteRule.rawValue))"
            if let inverseProperty, let inverseDeleteRule {
                text += " / \(inverseProperty) (\(inverseDeleteRule.rawValue))"
            }
            return text
        }
    }

    public var nodes: [Node]
    public var inheritances: [Inheritance]
    public var relationships: [Relationship]
    public var compositions: [Composition]

    /// Builds the diagram of `schema`. Deterministic: everything follows schema order.
    public init(_ schema: CheckedSchema) {
        nodes = schema.entities.map { entity in
            Node(name: entity.name, attributes: entity.properties.compactMap { property in
                guard case .attribute(let attribute) = property.kind else { return nil }
                return "\(property.name): \(Self.typeName(attribute))"
            })
        }
        let structs = schema.structs + schema.entities.flatMap(\.structs)
        nodes += structs.map { structure in
            Node(name: structure.qualifiedName, attributes: structure.fields.map { field in
                "\(field.name): \(field.type)" + (field.isOptional ? "?" : "")
            }, isStruct: true)
        }
        inheritances = schema.entities.compactMap { entity in
            entity.baseName.map { Inheritance(subclass: entity.name, base: $0) }
        }
        relationships = Self.relationships(of: schema)
        compositions = []
        for entity in schema.entities {
            for property in entity.properties {
                guard case .attribute(let attribute) = property.kind else { continue }
                if let edge = Self.composition(entity.name, property.name, attribute.type, attribute.isOptional) { compositions.append(edge) }
            }
        }
        for structure in structs {
            for field in structure.fields {
                if let edge = Self.composition(structure.qualifiedName, field.name, field.type, field.isOptional) { compositions.append(edge) }
            }
        }
    }

    /// The edge from `owner.property` to the struct its type holds, if it holds one.
    private static func composition(_ owner: String, _ property: String, _ type: ValueType, _ isOptional: Bool) -> Composition? {
        switch type {
        case .composite(let name):
            return Composition(owner: owner, property: property, structName: name, multiplicity: isOptional ? "0..1" : "1")
        case .array(.composite(let name)):
            return Composition(owner: owner, property: property, structName: name, multiplicity: "*")
        default:
            return nil
        }
    }

    /// The Swift spelling of an attribute's type (`[String]`, `PersonalTrip.Reason?`).
    static func typeName(_ attribute: CheckedAttribute) -> String {
        "\(attribute.type)" + (attribute.isOptional ? "?" : "")
    }

    /// `0..1` for a to-one; `*`, `m..*`, `0..n` or `m..n` for a to-many (counts of 0 mean no bound).
    static func multiplicity(_ relationship: CheckedRelationship) -> String {
        guard relationship.isToMany else { return "0..1" }
        let minimum = relationship.minimumModelCount.flatMap { $0 > 0 ? $0 : nil }
        let maximum = relationship.maximumModelCount.flatMap { $0 > 0 ? $0 : nil }
        switch (minimum, maximum) {
        case (nil, nil): return "*"
        case (let minimum?, nil): return "\(minimum)..*"
        case (nil, let maximum?): return "0..\(maximum)"
        case (let minimum?, let maximum?): return "\(minimum)..\(maximum)"
        }
    }

    private struct PropertyKey: Hashable {
        var entity: String
        var property: String
    }

    /// One edge per relationship pair, drawn from the side declared first in schema order.
    private static func relationships(of schema: CheckedSchema) -> [Relationship] {
        var drawn = Set<PropertyKey>()
        var result: [Relationship] = []
        for entity in schema.entities {
            for property in entity.properties {
                guard case .relationship(let relationship) = property.kind else { continue }
                let key = PropertyKey(entity: entity.name, property: property.name)
                if drawn.contains(key) { continue }
                drawn.insert(key)
                var edge = Relationship(
                    source: entity.name, sourceProperty: property.name,
                    sourceDeleteRule: relationship.deleteRule,
                    destinationMultiplicity: multiplicity(relationship),
                    destination: relationship.destination,
                    inverseProperty: nil, inverseDeleteRule: nil, sourceMultiplicity: nil)
                if let inverseName = relationship.inverseName,
                   let (owner, inverse) = inverseRelationship(named: inverseName, on: relationship.destination, in: schema) {
                    drawn.insert(PropertyKey(entity: owner, property: inverseName))
                    edge.inverseProperty = inverseName
                    edge.inverseDeleteRule = inverse.deleteRule
                    edge.sourceMultiplicity = multiplicity(inverse)
                }
                result.append(edge)
            }
        }
        return result
    }

    /// The relationship property `name` of `entityName` or of its base, with the entity that declares it.
    private static func inverseRelationship(named name: String, on entityName: String, in schema: CheckedSchema) -> (String, CheckedRelationship)? {
        var current = schema.entity(named: entityName)
        var visited = Set<String>()
        while let entity = current, visited.insert(entity.name).inserted {
            for property in entity.properties where property.name == name {
                if case .relationship(let relationship) = property.kind { return (entity.name, relationship) }
                return nil
            }
            current = entity.baseName.flatMap { schema.entity(named: $0) }
        }
        return nil
    }
}
