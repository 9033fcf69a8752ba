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
    private struct Ref: Hashable {
        var entity: String
        var index: Int
    }

    /// Runs every relationship rule and stores the resolved inverses on the properties.
    static func check(_ model: inout SemanticModel) {
        let relationships = collectRelationships(&model)
        checkOptionalToOne(relationships, model: &model)

        var pairs: [Ref: Ref] = [:]
        var declared: [Ref: Ref] = [:]
        var settled: Set<Ref> = []
        // Inverses written in the model.
        for ref in relationships {
            guard let keyPath = info(ref, model).options.inverse else { continue }
            settled.insert(ref)
            if let target = resolveDeclared(keyPath, of: ref, model: &model) { declared[ref] = target }
        }
        var claimedBy: [Ref: Ref] = [:]
        for ref in relationships {
            guard let target = declared[ref], let keyPath = info(ref, model).options.inverse else { continue }
            settled.insert(target)
            if let other = declared[target], other != ref {
                model.sink.error(.inverseMismatch, "\(describe(ref, model)) names \(describe(target, model)) as its inverse, but \(describe(target, model)) names \(describe(other, model)): make both sides name each other",
                                 at: keyPath.range, notes: inverseNote(target, model))
                continue
            }
            if let first = claimedBy[target], declared[target] == nil {
                model.sink.error(.inverseMismatch, "\(describe(target, model)) is already the inverse of \(describe(first, model)): a relationship has one inverse; give \(describe(ref, model)) its own",
                                 at: keyPath.range, notes: [DiagnosticNote("\(describe(first, model)) names it here", at: info(first, model).options.inverse?.range)])
                continue
            }
            claimedBy[target] = ref
            pairs[ref] = target
            pairs[target] = ref
        }
        inferInverses(relationships.filter { !settled.contains($0) }, pairs: &pairs, model: &model)

        for (ref, target) in pairs {
            let targetInfo = info(target, model)
            model.entities[ref.entity]?.properties[ref.index].inverseName = targetInfo.name
            model.entities[ref.entity]?.properties[ref.index].inverseDeclaredHere = declared[ref] == target
        }
        checkNoAction(relationships, pairs: pairs, model: &model)
    }

    /// Every relationship property in schema order; fills `model.relationshipIndex`.
    private static func collectRelationships(_ model: inout SemanticModel) -> [Ref] {
        var refs: [Ref] = []
        for entity in model.entityOrder {
            guard let properties = model.entities[entity]?.properties else { continue }
            for (index, property) in properties.enumerated() {
                guard let destination = property.type?.destination else { continue }
                refs.append(Ref(entity: entity, index: index))
                model.relationshipIndex[entity, default: [:]][destination, default: []].append(index)
            }
        }
        return refs
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

    /// The property `keyPath` names, when it is a valid inverse of `ref` (else reported, nil).
    private static func resolveDeclared(_ keyPath: KeyPathExpr, of ref: Ref, model: inout SemanticModel) -> Ref? {
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
                             at: keyPath.range, notes: candidateNotes(for: ref, model: model))
            return nil
        }
        guard let owner = ownerOf(component.name, in: root.name, model: model),
              let index = model.entities[owner]?.properties.firstIndex(where: { $0.name == component.name }) else {
            let declared = model.entities[root.name]?.declaredPropertyNames.contains(component.name) ?? false
            if !declared {
                model.sink.error(.inverseMismatch, "the inverse of \(here) names '\(root.name).\(component.name)', which does not exist", at: keyPath.range, notes: candidateNotes(for: ref, model: model))
            }
            return nil
        }
        let target = Ref(entity: owner, index: index)
        let targetInfo = info(target, model)
        guard let targetType = targetInfo.type else { return nil }
        guard let targetDestination = targetType.destination else {
            model.sink.error(.inverseMismatch, "the inverse of \(here) names \(describe(target, model)), which is not a relationship", at: keyPath.range,
                             notes: [DiagnosticNote("\(describe(target, model)) declared here", at: targetInfo.decl.name.range)] + candidateNotes(for: ref, model: model))
            return nil
        }
        guard model.entity(ref.entity, isOrInheritsFrom: targetDestination) else {
            model.sink.error(.inverseMismatch, "the inverse of \(here) names \(describe(target, model)), which points to '\(targetDestination)', not to '\(ref.entity)'", at: keyPath.range,
                             notes: [DiagnosticNote("\(describe(target, model)) declared here", at: targetInfo.decl.name.range)] + candidateNotes(for: ref, model: model))
            return nil
        }
        return target
    }

    /// The entity (`entity` or its base) that declares property `name`.
    private static func ownerOf(_ name: String, in entity: String, model: SemanticModel) -> String? {
        if model.entities[entity]?.property(named: name) != nil { return entity }
        if let base = model.entities[entity]?.baseName, model.entities[base]?.property(named: name) != nil { return base }
        return nil
    }

    /// Relationship properties on `ref`'s destination (or its base) that point back at `ref`'s
    /// entity (or its base), in declaration order. Looked up by owner and destination, so that
    /// inference stays fast with many relationships.
    private static func candidates(for ref: Ref, among pool: Set<Ref>?, model: SemanticModel) -> [Ref] {
        guard let destination = model.entities[ref.entity]?.properties[ref.index].type?.destination,
              let destinationInfo = model.entities[destination] else { return [] }
        let owners = [destinationInfo.baseName, destination].compactMap { $0 }
        let targets = [ref.entity, model.entities[ref.entity]?.baseName].compactMap { $0 }
        var result: [Ref] = []
        for owner in owners {
            guard let byDestination = model.relationshipIndex[owner] else { continue }
            let found = targets.flatMap { byDestination[$0] ?? [] }.sorted { $0 < $1 }
            result += found.map { Ref(entity: owner, index: $0) }.filter { $0 != ref && (pool?.contains($0) ?? true) }
        }
        return result
    }

    private static func candidateNotes(for ref: Ref, model: SemanticModel) -> [DiagnosticNote] {
        let found = candidates(for: ref, among: nil, model: model)
        guard let destination = info(ref, model).type?.destination else { return [] }
        if found.isEmpty { return [DiagnosticNote("'\(destination)' has no relationship back to '\(ref.entity)'")] }
        return [DiagnosticNote("candidates: " + found.map { "\\\($0.entity).\(info($0, model).name)" }.joined(separator: ", "))]
    }

    private static func inferInverses(_ open: [Ref], pairs: inout [Ref: Ref], model: inout SemanticModel) {
        let pool = Set(open)
        var candidateSets: [Ref: [Ref]] = [:]
        for ref in open { candidateSets[ref] = candidates(for: ref, among: pool, model: model) }
        for ref in open {
            let found = candidateSets[ref] ?? []
            if found.count > 1 {
                let property = info(ref, model)
                let destination = property.type?.destination ?? ""
                let names = found.map { "'\(info($0, model).name)'" }.joined(separator: ", ")
                let notes = found.map { DiagnosticNote("candidate \(describe($0, model)) declared here", at: info($0, model).decl.name.range) }
                model.sink.error(.ambiguousInverse, "relationship \(describe(ref, model)) has several possible inverses on '\(destination)' (\(names)): name one with '@Relationship(inverse: \\\(found[0].entity).\(info(found[0], model).name))'",
                                 at: property.decl.name.range, notes: notes)
            } else if let only = found.first, candidateSets[only] == [ref] {
                pairs[ref] = only
            }
        }
    }

    private static func checkNoAction(_ relationships: [Ref], pairs: [Ref: Ref], model: inout SemanticModel) {
        for ref in relationships {
            let property = info(ref, model)
            guard property.options.deleteRule == .noAction, let range = property.options.deleteRuleRange,
                  let inverse = pairs[ref], let inverseType = info(inverse, model).type else { continue }
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
