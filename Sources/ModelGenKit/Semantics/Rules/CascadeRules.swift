// `cascade-cycle` (warning): `.cascade` delete rules that form a cycle, so that deleting one model can
// delete a whole connected graph of models.
//
// The graph: one node per relationship whose delete rule is `.cascade`; an edge from `A.p` (to `D`) to
// every cascade relationship that a model reached through `p` can have: one declared on `D`, on `D`'s
// base (inherited), or on a subclass of `D` (the model may be one). A cycle names each relationship
// once and passes through each model type once (no two relationships of the cycle are declared on
// the same entity or on an entity and its base: such a loop is two smaller cycles joined).
//
// A cycle made only of parent-to-children relationships (to-many, with a to-one inverse), such as
// `Category.children` cascading to `Category` with `parent: Category?`, is reported too: docs/Rules.md fires
// whenever an entity reaches itself through cascades (its "self-relationships"). Deleting such a model
// deletes its whole subtree; the message says so, so a tree reads differently from a loop.
//
// Each cycle is reported once, at the `.cascade` of its relationship that comes first in source
// order, naming the path from there (`A.bs → B, B.cs → C, C.as → A`). Relationships that lie on no
// loop cost nothing (only strongly connected components are searched), and the search of each
// component is bounded (at most `maximumCycles` cycles, `searchBudget` steps), so a model with a huge
// number of loops is still checked in bounded time.

enum CascadeRules {
    /// Per strongly connected component of cascade relationships.
    static let maximumCycles = 100
    static let searchBudget = 200_000

    /// A relationship with `deleteRule: .cascade`.
    private struct Edge {
        var owner: String
        var property: String
        var destination: String
        /// The `.cascade` as written.
        var range: SourceRange
        /// To-many with a to-one inverse: cascading through it descends a tree.
        var descendsTree: Bool
    }

    static func check(_ model: inout SemanticModel) {
        let edges = cascadeRelationships(model)
        guard !edges.isEmpty else { return }
        var byOwner: [String: [Int]] = [:]
        for (index, edge) in edges.enumerated() { byOwner[edge.owner, default: []].append(index) }
        let successors = edges.map { edge -> [Int] in
            let destination = edge.destination
            var owners = [destination]
            owners += model.entities[destination]?.subclassNames ?? []
            if let base = model.entities[destination]?.baseName { owners.append(base) }
            return owners.flatMap { byOwner[$0] ?? [] }.sorted()
        }
        for cycle in cycles(edges: edges, successors: successors, model: model) {
            report(cycle.map { edges[$0] }, model: &model)
        }
    }

    /// Every cascade relationship, in source order (entities in schema order, then properties).
    private static func cascadeRelationships(_ model: SemanticModel) -> [Edge] {
        var edges: [Edge] = []
        for entity in model.entityOrder {
            for property in model.entities[entity]?.properties ?? [] {
                guard let type = property.type, let destination = type.destination,
                      property.options.deleteRule == .cascade, let range = property.options.deleteRuleRange else { continue }
                var descendsTree = false
                if case .toMany = type, let inverseName = property.inverseName,
                   case .toOne? = model.property(inverseName, of: destination)?.type {
                    descendsTree = true
                }
                edges.append(Edge(owner: entity, property: property.name, destination: destination, range: range, descendsTree: descendsTree))
            }
        }
        return edges
    }

    /// The elementary cycles, each as edge indexes starting at its first edge in source order.
    /// Only edges of one strongly connected component can form a cycle together: each component with
    /// a loop is searched on its own, depth first from each of its edges in turn through later edges
    /// only, iteratively (no deep recursion), within its own step budget and cycle cap.
    private static func cycles(edges: [Edge], successors: [[Int]], model: SemanticModel) -> [[Int]] {
        // Entities as numbers, with their bases, so that "one model can be of both types" is O(1).
        var entityID: [String: Int] = [:]
        for edge in edges where entityID[edge.owner] == nil { entityID[edge.owner] = entityID.count }
        let owner = edges.map { entityID[$0.owner] ?? 0 }
        var baseOf = Array(repeating: -1, count: entityID.count)
        for (name, id) in entityID {
            if let base = model.entities[name]?.baseName, let baseID = entityID[base] { baseOf[id] = baseID }
        }
        let components = StronglyConnectedComponents.of(count: edges.count, successors: { successors[$0] })
        var componentOf = Array(repeating: 0, count: edges.count)
        for (index, component) in components.enumerated() {
            for edge in component { componentOf[edge] = index }
        }
        var found: [[Int]] = []
        for component in components.map({ $0.sorted() }).sorted(by: { $0[0] < $1[0] }) {
            guard component.count > 1 || successors[component[0]].contains(component[0]) else { continue }
            var budget = searchBudget
            var foundHere = 0
            var onPath = Array(repeating: false, count: edges.count)
            // How many edges of the path each entity owns, and how many its subclasses own.
            var owned = Array(repeating: 0, count: entityID.count)
            var ownedBySubclasses = Array(repeating: 0, count: entityID.count)
            func push(_ edge: Int, onto path: inout [Int], _ next: inout [Int]) {
                path.append(edge)
                next.append(0)
                onPath[edge] = true
                owned[owner[edge]] += 1
                if baseOf[owner[edge]] >= 0 { ownedBySubclasses[baseOf[owner[edge]]] += 1 }
            }
            for start in component {
                var path: [Int] = []
                var next: [Int] = []
                push(start, onto: &path, &next)
                while let depth = next.indices.last {
                    let current = path[depth]
                    guard next[depth] < successors[current].count, budget > 0, foundHere < maximumCycles else {
                        let edge = path.removeLast()
                        next.removeLast()
                        onPath[edge] = false
                        owned[owner[edge]] -= 1
                        if baseOf[owner[edge]] >= 0 { ownedBySubclasses[baseOf[owner[edge]]] -= 1 }
                        continue
                    }
                    let candidate = successors[current][next[depth]]
                    next[depth] += 1
                    budget -= 1
                    if candidate == start {
                        found.append(path)
                        foundHere += 1
                        continue
                    }
                    let candidateOwner = owner[candidate]
                    // Later edges of the same component only, each once, each model type once.
                    guard candidate > start, componentOf[candidate] == componentOf[start], !onPath[candidate],
                          owned[candidateOwner] == 0, ownedBySubclasses[candidateOwner] == 0,
                          baseOf[candidateOwner] < 0 || owned[baseOf[candidateOwner]] == 0 else { continue }
                    push(candidate, onto: &path, &next)
                }
            }
        }
        return found
    }

    private static func report(_ cycle: [Edge], model: inout SemanticModel) {
        guard let first = cycle.first else { return }
        let path = cycle.map { "\($0.owner).\($0.property) → \($0.destination)" }.joined(separator: ", ")
        let fix = cycle.count == 1 ? "use .nullify on '\(first.owner).\(first.property)'" : "use .nullify on one of these relationships"
        let notes = cycle.dropFirst().map { DiagnosticNote("'\($0.owner).\($0.property)' cascades to '\($0.destination)' here", at: $0.range) }
        // Parent-to-children only: each model has one parent, so a delete takes its subtree, not its parents.
        let reach = cycle.allSatisfy(\.descendsTree)
            ? "deleting one model deletes its whole subtree of models"
            : "deleting one model can delete a whole connected graph of models"
        model.sink.warning(.cascadeCycle, ".cascade delete rules form a cycle (\(path)): \(reach); \(fix)",
                           at: first.range, notes: notes)
    }
}
