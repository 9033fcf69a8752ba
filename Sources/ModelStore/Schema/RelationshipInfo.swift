/// A relationship as the in-memory graph needs it: its slot, its inverse's slot, how it is stored.
/// Computed from generated metadata alone, so it works for models not yet in any context.
struct RelationshipInfo {
    let name: String
    /// The slot in models of the declaring entity and its subclasses.
    let slot: Int
    let isToMany: Bool
    let destination: ModelObject.Type
    let deleteRule: DeleteRule
    let observe: ObservationHook
    /// The inverse relationship, if any.
    let inverse: Inverse?

    struct Inverse {
        let name: String
        let slot: Int
        let isToMany: Bool
        let observe: ObservationHook
    }

    /// Many-to-many or to-many without inverse: stored in a join table.
    var usesJoinTable: Bool { isToMany && (inverse == nil || inverse!.isToMany) }

    /// To-one: stored as a key column in the model's own row.
    var usesKeyColumn: Bool { !isToMany }

    /// Every relationship of `type` (the base's first, then the entity's own), in slot order.
    static func all(for type: ModelObject.Type) -> [RelationshipInfo] {
        let declared = declaredRelationships(of: type)
        return declared.enumerated().map { slot, entry in
            let (property, relationship) = entry
            var inverse: Inverse?
            if let inverseName = relationship.inverse {
                let candidates = declaredRelationships(of: relationship.destination)
                if let index = candidates.firstIndex(where: { $0.0.name == inverseName }) {
                    let other = candidates[index].1
                    inverse = Inverse(name: inverseName, slot: index, isToMany: other.isToMany, observe: other.observe)
                }
            }
            return RelationshipInfo(name: property.name, slot: slot, isToMany: relationship.isToMany,
                                    destination: relationship.destination, deleteRule: relationship.deleteRule,
                                    observe: relationship.observe, inverse: inverse)
        }
    }

    /// The relationships of `type` and its base, base first.
    static func declaredRelationships(of type: ModelObject.Type) -> [(PropertyMetadata, RelationshipMetadata)] {
        let metadata = type.schemaMetadata
        var result: [(PropertyMetadata, RelationshipMetadata)] = []
        if let base = metadata.base { result = declaredRelationships(of: base) }
        for property in metadata.properties {
            if let relationship = property.relationship { result.append((property, relationship)) }
        }
        return result
    }
}

/// What a save's delete rules and its detaching of deleted models read of a relationship, copied
/// without a retain: a `RelationshipInfo` copy retains and releases its names and its observation
/// closures (four of each a copy), which those loops paid per deleted model (docs/Benchmarks.md,
/// "Writes").
struct RelationshipRoute {
    /// The slot in models of the declaring entity and its subclasses.
    let slot: Int
    let isToMany: Bool
    /// The destination class (a metatype: copied without a retain).
    let destination: ModelObject.Type
    let deleteRule: DeleteRule
    /// The inverse relationship's slot in models of the destination; -1 without an inverse.
    let inverseSlot: Int

    /// Whether a save follows it from a deleted model (`.cascade`, `.deny`).
    var isFollowedOnDelete: Bool { deleteRule == .cascade || deleteRule == .deny }

    /// The routes of `infos`, in their order.
    static func routes(_ infos: [RelationshipInfo]) -> [RelationshipRoute] {
        infos.map { info in
            RelationshipRoute(slot: info.slot, isToMany: info.isToMany, destination: info.destination, deleteRule: info.deleteRule,
                              inverseSlot: info.inverse?.slot ?? -1)
        }
    }
}
