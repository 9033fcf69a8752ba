// Rules about inheritance: `inheritance-cycle`, `flat-hierarchy`, `shadowed-property`,
// `label-only-subclass`, and `unknown-type` for a base that names no entity.

enum HierarchyRules {
    /// Resolves every `entity X: Base` clause, reports unknown bases, cycles (once per cycle) and
    /// hierarchies deeper than a base and one level, and records subclasses.
    static func resolveBases(_ model: inout SemanticModel) {
        for entity in model.entityOrder {
            guard var info = model.entities[entity], let base = info.decl.base else { continue }
            if model.entities[base.name] != nil {
                info.baseName = base.name
            } else {
                let what = model.topLevelEnums[base.name] != nil ? "an enum" : model.containers.contains { $0.decl.name.name == base.name } ? "a container" : nil
                if let what {
                    model.sink.error(.unknownType, "entity '\(entity)' inherits from '\(base.name)', which is \(what), not an entity", at: base.range)
                } else {
                    let hint = NameDistance.suggestion(for: base.name, among: model.entityOrder)
                    model.sink.error(.unknownType, "entity '\(entity)' inherits from unknown entity '\(base.name)'", at: base.range, notes: hint)
                }
                info.hierarchyIsBroken = true
            }
            model.entities[entity] = info
        }
        breakCycles(&model)
        computeRoots(&model)
        reportDeepHierarchies(&model)
        for entity in model.entityOrder {
            guard let base = model.entities[entity]?.baseName else { continue }
            model.entities[base]?.subclassNames.append(entity)
        }
    }

    /// Finds each cycle once (every entity is walked once: linear time), reports it, and marks
    /// its members and the entities leading into it as broken.
    private static func breakCycles(_ model: inout SemanticModel) {
        var done: Set<String> = []
        var broken: Set<String> = []
        for entity in model.entityOrder where !done.contains(entity) {
            var path: [String] = []
            var position: [String: Int] = [:]
            var current: String? = entity
            while let name = current, !done.contains(name) {
                if let start = position[name] {
                    let cycle = Array(path[start...])
                    reportCycle(cycle, model: &model)
                    broken.formUnion(cycle)
                    break
                }
                position[name] = path.count
                path.append(name)
                current = model.entities[name]?.baseName
            }
            // Entities that lead into a cycle are broken too (silently: the cycle is reported).
            if let name = current, broken.contains(name) { broken.formUnion(path) }
            done.formUnion(path)
        }
        for name in broken {
            model.entities[name]?.baseName = nil
            model.entities[name]?.hierarchyIsBroken = true
        }
    }

    private static func reportCycle(_ cycle: [String], model: inout SemanticModel) {
        // Report at the member declared first, naming the whole loop from there.
        let order = Dictionary(uniqueKeysWithValues: model.entityOrder.enumerated().map { ($1, $0) })
        guard let first = cycle.min(by: { order[$0, default: 0] < order[$1, default: 0] }),
              let start = cycle.firstIndex(of: first), let base = model.entities[first]?.decl.base else { return }
        let loop = Array(cycle[start...] + cycle[..<start]) + [first]
        let notes = loop.dropFirst().dropLast().compactMap { member -> DiagnosticNote? in
            guard let clause = model.entities[member]?.decl.base else { return nil }
            return DiagnosticNote("'\(member)' inherits from '\(clause.name)' here", at: clause.range)
        }
        let message = cycle.count == 1
            ? "entity '\(first)' inherits from itself: remove ': \(first)'"
            : "entity '\(first)' inherits from itself through \(loop.joined(separator: " → ")): break the cycle"
        model.sink.error(.inheritanceCycle, message, at: base.range, notes: notes)
    }

    /// Sets every entity's `rootName` and `depth` (cycles are broken, so every chain ends), in linear time.
    private static func computeRoots(_ model: inout SemanticModel) {
        var known: [String: (root: String, depth: Int)] = [:]
        for entity in model.entityOrder where known[entity] == nil {
            var path: [String] = []
            var current = entity
            while known[current] == nil, let base = model.entities[current]?.baseName {
                path.append(current)
                current = base
            }
            let top = known[current] ?? (root: current, depth: 1)
            known[current] = top
            for (offset, name) in path.reversed().enumerated() { known[name] = (top.root, top.depth + offset + 1) }
        }
        for (name, place) in known {
            model.entities[name]?.rootName = place.root
            model.entities[name]?.depth = place.depth
        }
    }

    private static func reportDeepHierarchies(_ model: inout SemanticModel) {
        for entity in model.entityOrder {
            guard let info = model.entities[entity], let base = info.baseName, let clause = info.decl.base,
                  let baseInfo = model.entities[base], let grandBase = baseInfo.baseName else { continue }
            let root = info.rootName.isEmpty ? grandBase : info.rootName
            // The chain up to the root; a very long one is shortened in the middle.
            var chain = [entity, base]
            var current: String? = grandBase
            while let name = current, chain.count < 5 {
                chain.append(name)
                current = name == root ? nil : model.entities[name]?.baseName
            }
            if chain.last != root {
                if current != root { chain.append("…") }
                chain.append(root)
            }
            let middleProperties = baseInfo.decl.members.compactMap { member -> String? in
                if case .property(let p) = member { return p.name.name } else { return nil }
            }
            let moved = middleProperties.isEmpty ? "" : " (\(middleProperties.joined(separator: ", ")))"
            var notes: [DiagnosticNote] = []
            if let baseClause = baseInfo.decl.base {
                notes.append(DiagnosticNote("'\(base)' inherits from '\(grandBase)' here", at: baseClause.range))
            }
            notes.append(DiagnosticNote("make '\(entity)' inherit from '\(root)' and move the properties of '\(base)'\(moved) into '\(entity)' or '\(root)'; or replace the levels with an enum property on '\(root)'"))
            model.entities[entity]?.isTooDeep = true
            model.sink.error(.flatHierarchy, "entity '\(entity)' is \(levels(info.depth)) levels deep (\(chain.joined(separator: " → "))): keep a base and one level of subclasses", at: clause.range, notes: notes)
        }
    }

    private static func levels(_ depth: Int) -> String {
        let words = [3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"]
        return words[depth] ?? String(depth)
    }

    /// `shadowed-property`: a subclass property with the name of a base property (left out).
    static func checkShadowedProperties(_ model: inout SemanticModel) {
        for entity in model.entityOrder {
            guard var info = model.entities[entity], let base = info.baseName, let baseInfo = model.entities[base] else { continue }
            var kept: [PropertyInfo] = []
            kept.reserveCapacity(info.properties.count)
            for property in info.properties {
                guard baseInfo.declaredPropertyNames.contains(property.name) else {
                    kept.append(property)
                    continue
                }
                let notes = baseInfo.property(named: property.name).map { [DiagnosticNote("'\(base).\(property.name)' declared here", at: $0.decl.name.range)] } ?? []
                model.sink.error(.shadowedProperty, "property '\(property.name)' of '\(entity)' redeclares '\(base).\(property.name)': a subclass inherits it already; remove it here or rename it", at: property.decl.name.range, notes: notes)
                info.hasInvalidMembers = true
            }
            info.properties = kept
            model.entities[entity] = info
        }
    }

    /// `label-only-subclass`: a subclass that adds no stored property, or no relationship and only
    /// `Bool` attributes (`Bool` or `Bool?`) that all have written defaults: flags that repeat the
    /// category. Real data with a default (`perdiem: Double = 0.0`) is not a label, nor is an
    /// optional flag without a default. All label subclasses of one base share the suggested enum,
    /// with one case each.
    static func checkLabelOnlySubclasses(_ model: inout SemanticModel) {
        for base in model.entityOrder {
            guard let baseInfo = model.entities[base], !baseInfo.hierarchyIsBroken, baseInfo.baseName == nil else { continue }
            let labels = baseInfo.subclassNames.filter { isLabelOnly($0, model: model) }
            guard !labels.isEmpty else { continue }
            let (enumName, propertyName) = suggestedEnumName(for: baseInfo, model: model)
            let cases = labels.map { caseName(for: $0, base: base) }
            let suggestion = "replace the subclasses with an enum property on '\(base)': enum \(enumName): String, Codable { case \(cases.joined(separator: ", ")) }; \(propertyName): \(enumName)"
            for label in labels {
                guard let info = model.entities[label] else { continue }
                let stored = info.properties.filter { !$0.options.isTransient }
                var notes = [DiagnosticNote(suggestion, at: baseInfo.decl.name.range)]
                if !stored.isEmpty {
                    let moved = stored.map { "\($0.name): \(optionalSpelling($0.decl.type))" }.joined(separator: ", ")
                    notes.append(DiagnosticNote("and move \(stored.count == 1 ? "its property" : "its properties") to '\(base)' as \(moved)"))
                }
                let reason = stored.isEmpty ? "adds no stored property" : "adds only Bool flags with default values"
                model.sink.error(.labelOnlySubclass, "subclass '\(label)' of '\(base)' \(reason): it is only a category label; use an enum property on '\(base)' instead", at: info.decl.name.range, notes: notes)
            }
        }
    }

    private static func isLabelOnly(_ entity: String, model: SemanticModel) -> Bool {
        guard let info = model.entities[entity], !info.hierarchyIsBroken, !info.hasInvalidMembers else { return false }
        guard info.properties.allSatisfy(\.isValid) else { return false }
        let stored = info.properties.filter { !$0.options.isTransient }
        if stored.isEmpty { return true }
        return stored.allSatisfy { property in
            guard case .value(.bool, _)? = property.type else { return false }
            return property.hasWrittenDefault
        }
    }

    /// `Category`/`category`, or another name when the base uses that one already.
    private static func suggestedEnumName(for base: EntityInfo, model: SemanticModel) -> (String, String) {
        for candidate in ["Category", "Kind", "Variant", "Subtype"] {
            let property = lowerCamel(candidate)
            if base.nestedEnums[candidate] == nil, !base.declaredPropertyNames.contains(property) { return (candidate, property) }
        }
        return ("Category", "category")
    }

    /// `DomesticTrip` of `Trip` → `domestic`.
    static func caseName(for subclass: String, base: String) -> String {
        var stem = subclass
        if stem.hasSuffix(base), stem.count > base.count { stem.removeLast(base.count) }
        return lowerCamel(stem)
    }

    /// `Domestic` → `domestic`, `URLTrip` → `urlTrip`.
    static func lowerCamel(_ name: String) -> String {
        let characters = Array(name)
        var upper = 0
        while upper < characters.count, characters[upper].isUppercase { upper += 1 }
        if upper == 0 { return name }
        let lowered = upper > 1 && upper < characters.count ? upper - 1 : upper
        return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
    }

    private static func optionalSpelling(_ type: TypeExpr) -> String {
        if case .optional = type.kind { return type.description }
        return "\(type)?"
    }
}
