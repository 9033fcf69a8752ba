// What `modelgen diagram` draws, computed once from the checked schema and shared by the Mermaid
// and DOT renderers: entity boxes with their attributes, inheritance edges, and one edge per
// relationship (a relationship and its inverse make a single edge).

/// The drawable content of a checked schema, in schema order.
struct DiagramModel: Hashable, Sendable {
    /// One box per entity.
    public struct Node: Hashable, Sendable {
        public var name: String
        /// `name: Type` of each attribute of the entity itself (relationships are edges).
        public var attributes: [String]
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

    /// Builds the diagram of `schema`. Deterministic: everything follows schema order.
    public init(_ schema: CheckedSchema) {
        nodes = schema.entities.map { entity in
            Node(name: entity.name, attributes: entity.properties.compactMap { property in
                guard case .attribute(let attribute) = property.kind else { return nil }
                return "\(property.name): \(Self.typeName(attribute))"
            })
        }
        inheritances = schema.entities.compactMap { entity in
            entity.baseName.map { Inheritance(subclass: entity.name, base: $0) }
        }
        relationships = Self.relationships(of: schema)
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
