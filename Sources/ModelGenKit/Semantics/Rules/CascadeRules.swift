// `cascade-cycle` (warning): `.cascade` delete rules that form a cycle, so that deleting one model can
// delete a whole connected graph of models.
//
// The graph: one node per relationship whose delete rule is `.cascade`; an edge from `A.p` (to `D`) to
// every cascade relationship that a model reached through `p` can have: one declared on `D`, on `D`'s
// base (inherited), or on a subclass of `D` (the model may be one). A cycle names each relationship
// once and passes through each model type once (no two relationships of the cycle are declared on
// the same entity or on an entity and its base: such a loop is two smaller cycles joined).
//
// Not reported: a cycle made only of parent-to-children relationships (to-many, with a to-one
// inverse), such as `Category.children` cascading to `Category` with `parent: Category?`: each child
// has one parent, so deleting a model deletes its subtree, never its parent or siblings.
//
// Each cycle is reported once, at the `.cascade` of its relationship that comes first in source
// order, naming the path from there (`A.bs → B, B.cs → C, C.as → A`). The search is bounded (at most
// `maximumCycles` cycles, `searchBudget` steps), so a model with a huge number of loops is still
// checked in bounded time.

enum CascadeRules {
    static let maximumCycles = 100
    static let searchBudget = 1_000_000

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

    /// True when one model can be of both entity types (the same one, or one the base of the other).
    private static func overlap(_ a: String, _ b: String, model: SemanticModel) -> Bool {
        a == b || model.entities[a]?.baseName == b || model.entities[b]?.baseName == a
    }

    /// The elementary cycles, each as edge indexes starting at its first edge in source order.
    /// Depth first from each edge in turn, through later edges only; iterative (no deep recursion).
    private static func cycles(edges: [Edge], successors: [[Int]], model: SemanticModel) -> [[Int]] {
        var found: [[Int]] = []
        var budget = searchBudget
        for start in edges.indices {
            var path = [start]
            var next = [0]
            while let depth = next.indices.last, budget > 0, found.count < maximumCycles {
                let current = path[depth]
                guard next[depth] < successors[current].count else {
                    path.removeLast()
                    next.removeLast()
                    continue
                }
                let candidate = successors[current][next[depth]]
                next[depth] += 1
                budget -= 1
                if candidate == start {
                    if !path.allSatisfy({ edges[$0].descendsTree }) { found.append(path) }
                    continue
                }
                guard candidate > start, !path.contains(candidate),
                      !path.contains(where: { overlap(edges[$0].owner, edges[candidate].owner, model: model) }) else { continue }
                path.append(candidate)
                next.append(0)
            }
            if budget <= 0 || found.count >= maximumCycles { break }
        }
        return found
    }

    private static func report(_ cycle: [Edge], model: inout SemanticModel) {
        guard let first = cycle.first else { return }
        let path = cycle.map { "\($0.owner).\($0.property) → \($0.destination)" }.joined(separator: ", ")
        let fix = cycle.count == 1 ? "use .nullify on '\(first.owner).\(first.property)'" : "use .nullify on one of these relationships"
        let notes = cycle.dropFirst().map { DiagnosticNote("'\($0.owner).\($0.property)' cascades to '\($0.destination)' here", at: $0.range) }
        model.sink.warning(.cascadeCycle, ".cascade delete rules form a cycle (\(path)): deleting one model can delete a whole connected graph of models; \(fix)",
                           at: first.range, notes: notes)
    }
}
