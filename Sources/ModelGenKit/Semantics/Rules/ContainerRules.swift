// Rules about containers: `redundant-registration`, `unregistered-base`, and `unknown-type` for
// an entry that names no entity. Also computes each container's entities:
// `listedEntities` = the listed roots (a listed subclass is replaced by its base, duplicates and
// redundant subclasses dropped), `allEntities` = those roots and all their subclasses, in schema order.

enum ContainerRules {
    static func check(_ model: inout SemanticModel) {
        for index in model.containers.indices {
            let decl = model.containers[index].decl
            let container = decl.name.name
            var roots: [String] = []
            var rootSet: Set<String> = []
            func addRoot(_ name: String) { if rootSet.insert(name).inserted { roots.append(name) } }
            // Where each name is first listed (positions, not copies of the entries: a container
            // may list every entity of a large model).
            var firstEntry: [String: Int] = [:]
            firstEntry.reserveCapacity(decl.entries.count)
            for (position, entry) in decl.entries.enumerated() where firstEntry[entry.name] == nil { firstEntry[entry.name] = position }

            for (position, entry) in decl.entries.enumerated() {
                let name = entry.name
                guard let info = model.entities[name] else {
                    let what = model.topLevelEnums[name] != nil ? ", which is an enum, not an entity" : ""
                    let hint = NameDistance.suggestion(for: name, among: model.entityOrder)
                    model.sink.error(.unknownType, what.isEmpty ? "container '\(container)' lists unknown entity '\(name)'" : "container '\(container)' lists '\(name)'\(what)", at: entry.range, notes: what.isEmpty ? hint : [])
                    continue
                }
                if let first = firstEntry[name], first != position {
                    model.sink.warning(.redundantRegistration, "container '\(container)' lists '\(name)' twice: remove one", at: entry.range,
                                       notes: [DiagnosticNote("first listed here", at: decl.entries[first].range)])
                    continue
                }
                guard let base = info.baseName else {
                    addRoot(name)
                    continue
                }
                if let baseEntry = firstEntry[base] {
                    model.sink.warning(.redundantRegistration, "container '\(container)' lists '\(name)', which comes with its base '\(base)': remove '\(name)'", at: entry.range,
                                       notes: [DiagnosticNote("'\(base)' listed here brings all its subclasses", at: decl.entries[baseEntry].range)])
                } else {
                    model.sink.warning(.unregisteredBase, "container '\(container)' lists subclass '\(name)' but not its base '\(base)': '\(base)' and all its subclasses are added; list '\(base)' instead", at: entry.range,
                                       notes: [DiagnosticNote("'\(base)' declared here", at: model.entities[base]?.decl.name.range)])
                }
                addRoot(rootOf(name, model: model))
            }
            let included = closure(of: roots, model: model)
            model.containers[index].listedEntities = roots
            model.containers[index].allEntities = model.entityOrder.filter { included.contains($0) }
        }
    }

    private static func rootOf(_ entity: String, model: SemanticModel) -> String {
        let root = model.entities[entity]?.rootName ?? ""
        return root.isEmpty ? entity : root
    }

    /// The roots and all their subclasses (transitively).
    private static func closure(of roots: [String], model: SemanticModel) -> Set<String> {
        var included: Set<String> = []
        var pending = roots
        while let next = pending.popLast() {
            guard included.insert(next).inserted else { continue }
            pending += model.entities[next]?.subclassNames ?? []
        }
        return included
    }
}
