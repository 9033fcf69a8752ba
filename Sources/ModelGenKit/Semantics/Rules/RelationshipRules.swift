// Rules about relationships: `optional-to-one`, `inverse-mismatch`, `ambiguous-inverse`,
// `dangling-no-action`, and `unknown-type` for an inverse key path whose root names nothing.
//
// Inverse resolution: an inverse written on one side pairs both sides; written on both sides,
// the two must name each other. Where neither side writes one, the inverse is inferred when the
// destination has exactly one candidate — a relationship property (own or its base's) whose
// destination is this entity or its base, not already paired — and that candidate has exactly one
// candidate too (this property). Several candidates → `ambiguous-inverse`; none → no inverse.

enum RelationshipRules {
    /// A property by owner and index in its owner's `properties`.
    private struct Ref: Equatable {
        var entity: String
        var index: Int
    }

    /// Every relationship property of the model, numbered in schema order; the rules keep what they
    /// find about each in arrays indexed by that number (no table keyed by name and index).
    private struct Relationships {
        var refs: [Ref] = []
        /// Relationship numbers by owner, then destination, in declaration order.
        var byOwner: [String: [String: [Int]]] = [:]

        /// The number of the relationship `index` of `entity`, which points to `destination`.
        func number(of entity: String, index: Int, destination: String) -> Int? {
            byOwner[entity]?[destination]?.first { refs[$0].index == index }
        }
    }

    /// Runs every relationship rule and stores the resolved inverses on the properties.
    static func check(_ model: inout SemanticModel) {
        let relationships = collectRelationships(model)
        let refs = relationships.refs
        checkOptionalToOne(refs, model: &model)

        let none = -1
        var pairs = Array(repeating: none, count: refs.count)
        var declared = Array(repeating: none, count: refs.count)
        var settled = Array(repeating: false, count: refs.count)
        // Inverses written in the model.
        for number in refs.indices {
            guard let keyPath = info(refs[number], model).options.inverse else { continue }
            settled[number] = true
            if let target = resolveDeclared(keyPath, of: number, in: relationships, model: &model) { declared[number] = target }
        }
        var claimedBy = Array(repeating: none, count: refs.count)
        for number in refs.indices {
            let target = declared[number]
            guard target != none, let keyPath = info(refs[number], model).options.inverse else { continue }
            let (ref, targetRef) = (refs[number], refs[target])
            settled[target] = true
            if declared[target] != none, declared[target] != number {
                let other = refs[declared[target]]
                model.sink.error(.inverseMismatch, "\(describe(ref, model)) names \(describe(targetRef, model)) as its inverse, but \(describe(targetRef, model)) names \(describe(other, model)): make both sides name each other",
                                 at: keyPath.range, notes: inverseNote(targetRef, model))
                continue
            }
            if claimedBy[target] != none, declared[target] == none {
                let first = refs[claimedBy[target]]
                model.sink.error(.inverseMismatch, "\(describe(targetRef, model)) is already the inverse of \(describe(first, model)): a relationship has one inverse; give \(describe(ref, model)) its own",
                                 at: keyPath.range, notes: [DiagnosticNote("\(describe(first, model)) names it here", at: info(first, model).options.inverse?.range)])
                continue
            }
            claimedBy[target] = number
            pairs[number] = target
            pairs[target] = number
        }
        inferInverses(refs.indices.filter { !settled[$0] }, in: relationships, pairs: &pairs, model: &model)

        for number in refs.indices where pairs[number] != none {
            let (ref, target) = (refs[number], pairs[number])
            let inverseName = info(refs[target], model).name
            model.entities[ref.entity]?.properties[ref.index].inverseName = inverseName
            model.entities[ref.entity]?.properties[ref.index].inverseDeclaredHere = declared[number] == target
        }
        checkNoAction(refs, pairs: pairs, model: &model)
    }

    /// Every relationship property in schema order, numbered, and indexed by owner and destination.
    private static func collectRelationships(_ model: SemanticModel) -> Relationships {
        var relationships = Relationships()
        for entity in model.entityOrder {
            guard let properties = model.entities[entity]?.properties else { continue }
            for (index, property) in properties.enumerated() {
                guard let destination = property.type?.destination else { continue }
                relationships.byOwner[entity, default: [:]][destination, default: []].append(relationships.refs.count)
                relationships.refs.append(Ref(entity: entity, index: index))
            }
        }
        return relationships
    }

    private static func info(_ ref: Ref, _ model: SemanticModel) -> PropertyInfo {
        model.entities[ref.entity]!.properties[ref.index]
    }

    private static func describe(_ ref: Ref, _ model: SemanticModel) -> String {
        "'\(ref.entity).\(info(ref, model).name)'"
    }

    private static func inverseNote(_ ref: Ref, _ model: SemanticModel) -> [DiagnosticNote] {
        let property = info(ref, model)
        return [DiagnosticNote("\(describe(ref, model)) names its inverse here", at: property.options.inverse?.range ?? property.decl.name.range)]
    }

    private static func checkOptionalToOne(_ relationships: [Ref], model: inout SemanticModel) {
        for ref in relationships {
            let property = info(ref, model)
            guard case .toOne(let destination, false) = property.type else { continue }
            model.sink.error(.optionalToOne, "to-one relationship '\(ref.entity).\(property.name)' must be optional: write '\(property.name): \(destination)?' (the related model can be deleted)", at: property.decl.type.range)
        }
    }

    /// The relationship `keyPath` names, when it is a valid inverse of relationship `number` (else reported, nil).
    private static func resolveDeclared(_ keyPath: KeyPathExpr, of number: Int, in relationships: Relationships, model: inout SemanticModel) -> Int? {
        let ref = relationships.refs[number]
        let property = info(ref, model)
        guard let root = keyPath.root, let component = keyPath.components.first, let destination = property.type?.destination else { return nil }
        let here = describe(ref, model)
        guard model.entities[root.name] != nil else {
            let hint = NameDistance.suggestion(for: root.name, among: model.entityOrder)
            model.sink.error(.unknownType, "the inverse of \(here) names unknown entity '\(root.name)'", at: root.range, notes: hint)
            return nil
        }
        guard model.entity(destination, isOrInheritsFrom: root.name) else {
            model.sink.error(.inverseMismatch, "the inverse of \(here) must be a property of its destination '\(destination)', not of '\(root.name)': write 'inverse: \\\(destination).…'",
                             at: keyPath.range, notes: candidateNotes(for: number, in: relationships, model: model))
            return nil
        }
        guard let owner = ownerOf(component.name, in: root.name, model: model),
              let index = model.entities[owner]?.properties.firstIndex(where: { $0.name == component.name }) else {
            let declared = model.entities[root.name]?.declaredPropertyNames.contains(component.name) ?? false
            if !declared {
                model.sink.error(.inverseMismatch, "the inverse of \(here) names '\(root.name).\(component.name)', which does not exist", at: keyPath.range, notes: candidateNotes(for: number, in: relationships, model: model))
            }
            return nil
        }
        let target = Ref(entity: owner, index: index)
        let targetInfo = info(target, model)
        guard let targetType = targetInfo.type else { return nil }
        guard let targetDestination = targetType.destination else {
            model.sink.error(.inverseMismatch, "the inverse of \(here) names \(describe(target, model)), which is not a relationship", at: keyPath.range,
                             notes: [DiagnosticNote("\(describe(target, model)) declared here", at: targetInfo.decl.name.range)] + candidateNotes(for: number, in: relationships, model: model))
            return nil
        }
        guard model.entity(ref.entity, isOrInheritsFrom: targetDestination) else {
            model.sink.error(.inverseMismatch, "the inverse of \(here) names \(describe(target, model)), which points to '\(targetDestination)', not to '\(ref.entity)'", at: keyPath.range,
                             notes: [DiagnosticNote("\(describe(target, model)) declared here", at: targetInfo.decl.name.range)] + candidateNotes(for: number, in: relationships, model: model))
            return nil
        }
        return relationships.number(of: owner, index: index, destination: targetDestination)
    }

    /// The entity (`entity` or its base) that declares property `name`.
    private static func ownerOf(_ name: String, in entity: String, model: SemanticModel) -> String? {
        if model.entities[entity]?.property(named: name) != nil { return entity }
        if let base = model.entities[entity]?.baseName, model.entities[base]?.property(named: name) != nil { return base }
        return nil
    }

    /// Relationships on the destination of relationship `number` (or on its base) that point back at
    /// its entity (or its base), in declaration order, among `pool` when given. Looked up by owner
    /// and destination, so that inference stays fast with many relationships.
    private static func candidates(for number: Int, in relationships: Relationships, among pool: [Bool]?, model: SemanticModel) -> [Int] {
        let ref = relationships.refs[number]
        guard let destination = model.entities[ref.entity]?.properties[ref.index].type?.destination,
              let destinationInfo = model.entities[destination] else { return [] }
        let owners = [destinationInfo.baseName, destination].compactMap { $0 }
        let targets = [ref.entity, model.entities[ref.entity]?.baseName].compactMap { $0 }
        var result: [Int] = []
        for owner in owners {
            guard let byDestination = relationships.byOwner[owner] else { continue }
            // Numbers follow declaration order within one owner.
            let found = targets.flatMap { byDestination[$0] ?? [] }.sorted()
            result += found.filter { $0 != number && (pool?[$0] ?? true) }
        }
        return result
    }

    private static func candidateNotes(for number: Int, in relationships: Relationships, model: SemanticModel) -> [DiagnosticNote] {
        let ref = relationships.refs[number]
        let found = candidates(for: number, in: relationships, among: nil, model: model).map { relationships.refs[$0] }
        guard let destination = info(ref, model).type?.destination else { return [] }
        if found.isEmpty { return [DiagnosticNote("'\(destination)' has no relationship back to '\(ref.entity)'")] }
        return [DiagnosticNote("candidates: " + found.map { "\\\($0.entity).\(info($0, model).name)" }.joined(separator: ", "))]
    }

    private static func inferInverses(_ open: [Int], in relationships: Relationships, pairs: inout [Int], model: inout SemanticModel) {
        var pool = Array(repeating: false, count: relationships.refs.count)
        for number in open { pool[number] = true }
        var candidateSets = Array(repeating: [Int](), count: relationships.refs.count)
        for number in open { candidateSets[number] = candidates(for: number, in: relationships, among: pool, model: model) }
        for number in open {
            let ref = relationships.refs[number]
            let found = candidateSets[number].map { relationships.refs[$0] }
            if found.count > 1 {
                let property = info(ref, model)
                let destination = property.type?.destination ?? ""
                let names = found.map { "'\(info($0, model).name)'" }.joined(separator: ", ")
                let notes = found.map { DiagnosticNote("candidate \(describe($0, model)) declared here", at: info($0, model).decl.name.range) }
                model.sink.error(.ambiguousInverse, "relationship \(describe(ref, model)) has several possible inverses on '\(destination)' (\(names)): name one with '@Relationship(inverse: \\\(found[0].entity).\(info(found[0], model).name))'",
                                 at: property.decl.name.range, notes: notes)
            } else if let only = candidateSets[number].first, candidateSets[only] == [number] {
                pairs[number] = only
            }
        }
    }

    private static func checkNoAction(_ relationships: [Ref], pairs: [Int], model: inout SemanticModel) {
        for (number, ref) in relationships.enumerated() {
            let property = info(ref, model)
            guard property.options.deleteRule == .noAction, let range = property.options.deleteRuleRange, pairs[number] >= 0 else { continue }
            let inverse = relationships[pairs[number]]
            guard let inverseType = info(inverse, model).type else { continue }
            let inverseIsToOne: Bool
            if case .toOne = inverseType { inverseIsToOne = true } else { inverseIsToOne = false }
            var selfIsToMany = false
            if case .toMany = property.type { selfIsToMany = true }
            guard inverseIsToOne || selfIsToMany else { continue }
            let what = inverseIsToOne ? "would keep pointing at the deleted '\(ref.entity)'" : "would keep join rows to the deleted '\(ref.entity)'"
            model.sink.warning(.danglingNoAction, ".noAction on \(describe(ref, model)) leaves its inverse \(describe(inverse, model)) dangling: it \(what); use .nullify (the default) or .cascade",
                               at: range, notes: [DiagnosticNote("inverse \(describe(inverse, model)) declared here", at: info(inverse, model).decl.name.range)])
        }
    }
}
