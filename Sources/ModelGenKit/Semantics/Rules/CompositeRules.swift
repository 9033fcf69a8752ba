// Rules about value types with members of their own: structs (composite attributes) and enums whose
// cases carry associated values.
//
// - Struct fields are attributes: `duplicate-property` for a name given twice, `reserved-name` for a
//   name the generated struct uses itself, `invalid-attribute` for any attribute (a field is plain
//   data, stored with its struct), `unknown-type`/`unsupported-type` for its type (an entity is
//   unsupported: relationships belong to entities), `default-type-mismatch` for its default. Fields
//   whose names differ only in case are `duplicate-property` (each is a column, `StorageNameRules`).
// - The protocols after a struct's name are passed through (`Conformances`).
// - Associated values hold values the same way (`duplicate-property` for a label given twice).
// - A struct or enum that holds itself, directly or through others (also through an optional or an
//   array), is `unsupported-type`: a stored value is a finite tree of columns and JSON. Reported once
//   per cycle, at the first member (in source order) on it; the types of the cycle are then skipped.

enum CompositeRules {
    static func check(_ model: inout SemanticModel) {
        collectFields(&model)
        resolveFieldTypes(&model)
        resolveAssociatedValues(&model)
        resolveFieldDefaults(&model)
        breakCycles(&model)
    }

    // MARK: - Fields

    private static func collectFields(_ model: inout SemanticModel) {
        let modelTypes = Conformances.modelTypeNames(model)
        for name in model.structOrder {
            guard var info = model.structs[name] else { continue }
            info.conformances = Conformances.passedThrough(info.decl.inheritance, implied: Conformances.implied, owner: "struct '\(name)'",
                                                           modelTypes: modelTypes, sink: &model.sink)
            var seen: [String: Identifier] = [:]
            // The fields by their name as SQLite compares column names (ASCII case folded).
            var lowered: [String: Identifier] = [:]
            for decl in info.decl.fields {
                for attribute in decl.attributes {
                    model.sink.error(.invalidAttribute, "attribute '@\(attribute.name.name)' does not apply to field '\(name).\(decl.name.name)': a struct's fields are stored with it, as plain values; put options on the entity's property of type '\(info.decl.name.name)'", at: attribute.range)
                }
                if let first = seen[decl.name.name] {
                    model.sink.error(.duplicateProperty, "struct '\(name)' declares field '\(decl.name.name)' twice: remove or rename one", at: decl.name.range,
                                     notes: [DiagnosticNote("'\(decl.name.name)' first declared here", at: first.range)])
                    continue
                }
                seen[decl.name.name] = decl.name
                if let first = lowered[StorageNameRules.foldedCase(decl.name.name)] {
                    model.sink.error(.duplicateProperty, "struct '\(name)' declares fields '\(first.name)' and '\(decl.name.name)', which differ only in case: a property of the struct stores each field in a column, and SQLite compares column names without case; rename one", at: decl.name.range,
                                     notes: [DiagnosticNote("'\(first.name)' declared here", at: first.range)])
                    continue
                }
                lowered[StorageNameRules.foldedCase(decl.name.name)] = decl.name
                if let reason = ReservedNames.fieldReason(decl.name.name) {
                    model.sink.error(.reservedName, "field '\(decl.name.name)' of struct '\(name)' collides with the generated struct: \(reason); rename it", at: decl.name.range)
                    continue
                }
                info.fields.append(FieldInfo(decl: decl))
            }
            model.structs[name] = info
        }
    }

    private static func resolveFieldTypes(_ model: inout SemanticModel) {
        updateFields(&model) { name, scope, field, model in
            field.type = TypeResolver.resolveValue(field.decl.type, owner: "'\(name).\(field.name)'", scope: scope, model: &model)
        }
    }

    /// Defaults are resolved once every field type is known (`S()` depends on the fields of `S`).
    private static func resolveFieldDefaults(_ model: inout SemanticModel) {
        updateFields(&model) { name, _, field, model in
            guard let type = field.type, let expression = field.decl.defaultValue else { return }
            switch DefaultValueResolver.resolve(expression, for: type, model: model) {
            case .success(let value):
                field.defaultValue = value
            case .failure(let mismatch):
                model.sink.error(.defaultTypeMismatch, "default value of '\(name).\(field.name)' does not fit its type '\(field.decl.type)': \(mismatch.reason)", at: expression.range)
            }
        }
    }

    /// Runs `update` on every field of every struct, in source order, with the struct's qualified
    /// name and the entity it is nested in.
    private static func updateFields(_ model: inout SemanticModel, _ update: (String, String?, inout FieldInfo, inout SemanticModel) -> Void) {
        for name in model.structOrder {
            guard var info = model.structs[name] else { continue }
            for index in info.fields.indices { update(name, info.ownerEntity, &info.fields[index], &model) }
            model.structs[name] = info
        }
    }

    // MARK: - Associated values

    /// Every enum with associated values, as (its place in the model, qualified name), in schema order.
    private static func enumsWithAssociatedValues(_ model: SemanticModel) -> [(entity: String?, name: String)] {
        var found: [(entity: String?, name: String)] = []
        for name in model.topLevelEnumOrder where model.topLevelEnums[name]?.checked?.hasAssociatedValues == true {
            found.append((nil, name))
        }
        for entity in model.entityOrder {
            for name in model.entities[entity]?.nestedEnumOrder ?? [] where model.entities[entity]?.nestedEnums[name]?.checked?.hasAssociatedValues == true {
                found.append((entity, name))
            }
        }
        return found
    }

    private static func resolveAssociatedValues(_ model: inout SemanticModel) {
        for (entity, name) in enumsWithAssociatedValues(model) {
            guard var info = entity.map({ model.entities[$0]?.nestedEnums[name] }) ?? model.topLevelEnums[name],
                  var checked = info.checked else { continue }
            for (index, caseDecl) in info.keptCases.enumerated() {
                var values: [CheckedAssociatedValue] = []
                var labels: [String: Identifier] = [:]
                for value in caseDecl.associatedValues ?? [] {
                    let label = value.label.flatMap { $0.name == "_" ? nil : $0 }
                    if let label {
                        if let first = labels[label.name] {
                            model.sink.error(.duplicateProperty, "case '\(caseDecl.name.name)' of enum '\(info.qualifiedName)' has two associated values labeled '\(label.name)': rename one", at: label.range,
                                             notes: [DiagnosticNote("'\(label.name)' first used here", at: first.range)])
                        }
                        labels[label.name] = label
                    }
                    let owner = "case '\(info.qualifiedName).\(caseDecl.name.name)'"
                    guard case .value(let type, let isOptional)? = TypeResolver.resolveValue(value.type, owner: owner, scope: info.ownerEntity, model: &model) else { continue }
                    values.append(CheckedAssociatedValue(label: label?.name, type: type, isOptional: isOptional))
                }
                checked.cases[index].associatedValues = values
            }
            info.checked = checked
            if let entity { model.entities[entity]?.nestedEnums[name] = info } else { model.topLevelEnums[name] = info }
        }
    }

    // MARK: - Cycles

    /// One way a struct or enum holds another: a field, or an associated value of a case.
    private struct Edge {
        var target: Int
        /// `Palette.primary` or `Shape.circle`.
        var member: String
        var range: SourceRange
    }

    /// A struct or enum with associated values, as a node of the "holds" graph.
    private struct Node {
        var qualifiedName: String
        var isStruct: Bool
        var range: SourceRange
        var edges: [Edge] = []
    }

    private static func breakCycles(_ model: inout SemanticModel) {
        var nodes: [Node] = []
        var index: [String: Int] = [:]
        for name in model.structOrder {
            guard let info = model.structs[name] else { continue }
            index[name] = nodes.count
            nodes.append(Node(qualifiedName: name, isStruct: true, range: info.decl.range))
        }
        for (entity, name) in enumsWithAssociatedValues(model) {
            guard let info = entity.map({ model.entities[$0]?.nestedEnums[name] }) ?? model.topLevelEnums[name] else { continue }
            index[info.qualifiedName] = nodes.count
            nodes.append(Node(qualifiedName: info.qualifiedName, isStruct: false, range: info.decl.range))
        }
        guard !nodes.isEmpty else { return }
        for name in model.structOrder {
            guard let info = model.structs[name], let from = index[name] else { continue }
            for field in info.fields {
                guard case .value(let type, _)? = field.type, let held = heldName(type), let target = index[held] else { continue }
                nodes[from].edges.append(Edge(target: target, member: "\(name).\(field.name)", range: field.decl.type.range))
            }
        }
        for (entity, name) in enumsWithAssociatedValues(model) {
            guard let info = entity.map({ model.entities[$0]?.nestedEnums[name] }) ?? model.topLevelEnums[name],
                  let checked = info.checked, let from = index[info.qualifiedName] else { continue }
            for (caseIndex, caseDecl) in info.keptCases.enumerated() {
                let declared = caseDecl.associatedValues ?? []
                // Resolved values keep their order; match them to the declared ones by position when all resolved.
                let resolved = checked.cases[caseIndex].associatedValues
                for (offset, value) in resolved.enumerated() {
                    guard let held = heldName(value.type), let target = index[held] else { continue }
                    let range = resolved.count == declared.count ? declared[offset].type.range : caseDecl.name.range
                    nodes[from].edges.append(Edge(target: target, member: "\(info.qualifiedName).\(caseDecl.name.name)", range: range))
                }
            }
        }
        let order = sourceOrder(of: nodes, model: model)
        for component in StronglyConnectedComponents.of(count: nodes.count, successors: { nodes[$0].edges.map(\.target) }) {
            let members = Set(component)
            let isCycle = component.count > 1 || nodes[component[0]].edges.contains { $0.target == component[0] }
            guard isCycle, let first = component.min(by: { order[$0] < order[$1] }) else { continue }
            let path = shortestCycle(from: first, within: members, nodes: nodes)
            report(path, nodes: nodes, model: &model)
            for member in component {
                let name = nodes[member].qualifiedName
                if nodes[member].isStruct {
                    model.structs[name]?.isBroken = true
                } else {
                    let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
                    if parts.count == 2 { model.entities[parts[0]]?.nestedEnums[parts[1]]?.checked = nil } else { model.topLevelEnums[name]?.checked = nil }
                }
            }
        }
    }

    /// The struct or enum a value of `type` holds inline or in an array, if any.
    private static func heldName(_ type: ValueType) -> String? {
        switch type {
        case .composite(let name), .enumWithAssociatedValues(let name): name
        case .array(let element): heldName(element)
        default: nil
        }
    }

    /// Each node's rank in source order (by input file, then position).
    private static func sourceOrder(of nodes: [Node], model: SemanticModel) -> [Int] {
        let fileRank = Dictionary(model.filePaths.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let sorted = nodes.indices.sorted { lhs, rhs in
            let (l, r) = (nodes[lhs].range, nodes[rhs].range)
            return (fileRank[l.file] ?? Int.max, l.start.offset) < (fileRank[r.file] ?? Int.max, r.start.offset)
        }
        var rank = Array(repeating: 0, count: nodes.count)
        for (position, node) in sorted.enumerated() { rank[node] = position }
        return rank
    }

    /// The edges of a shortest cycle from `start` back to it, inside one strongly connected component
    /// (breadth first, edges in declaration order: deterministic).
    private static func shortestCycle(from start: Int, within members: Set<Int>, nodes: [Node]) -> [Edge] {
        var reachedBy: [Int: (from: Int, edge: Edge)] = [:]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            for edge in nodes[current].edges where members.contains(edge.target) {
                if edge.target == start {
                    var path = [edge]
                    var node = current
                    while node != start, let step = reachedBy[node] {
                        path.append(step.edge)
                        node = step.from
                    }
                    return path.reversed()
                }
                if reachedBy[edge.target] == nil {
                    reachedBy[edge.target] = (current, edge)
                    queue.append(edge.target)
                }
            }
        }
        return []
    }

    private static func report(_ path: [Edge], nodes: [Node], model: inout SemanticModel) {
        guard let first = path.first else { return }
        let steps = path.map { "\($0.member) → \(nodes[$0.target].qualifiedName)" }.joined(separator: ", ")
        let start = nodes[path.last?.target ?? first.target].qualifiedName
        let kind = nodes[path.last?.target ?? first.target].isStruct ? "struct" : "enum"
        let notes = path.dropFirst().map { DiagnosticNote("'\($0.member)' holds '\(nodes[$0.target].qualifiedName)' here", at: $0.range) }
        model.sink.error(.unsupportedType, "\(kind) '\(start)' holds itself (\(steps)): a stored value cannot contain itself, not even through an optional or an array; make the inner part an entity with a relationship",
                         at: first.range, notes: notes)
    }
}

/// Strongly connected components of a directed graph (Tarjan's algorithm, iterative: no recursion
/// as deep as the graph).
enum StronglyConnectedComponents {
    /// The components of the graph of `count` nodes, each a list of node indexes.
    static func of(count: Int, successors: (Int) -> [Int]) -> [[Int]] {
        var indexOf = Array(repeating: -1, count: count)
        var lowLink = Array(repeating: 0, count: count)
        var onStack = Array(repeating: false, count: count)
        var stack: [Int] = []
        var components: [[Int]] = []
        var nextIndex = 0
        for root in 0..<count where indexOf[root] < 0 {
            // Each frame: a node and the position of the next successor to visit.
            var frames: [(node: Int, successors: [Int], next: Int)] = [(root, successors(root), 0)]
            indexOf[root] = nextIndex
            lowLink[root] = nextIndex
            nextIndex += 1
            stack.append(root)
            onStack[root] = true
            while let frame = frames.last {
                let node = frame.node
                if frame.next < frame.successors.count {
                    let successor = frame.successors[frame.next]
                    frames[frames.count - 1].next += 1
                    if indexOf[successor] < 0 {
                        indexOf[successor] = nextIndex
                        lowLink[successor] = nextIndex
                        nextIndex += 1
                        stack.append(successor)
                        onStack[successor] = true
                        frames.append((successor, successors(successor), 0))
                    } else if onStack[successor] {
                        lowLink[node] = min(lowLink[node], indexOf[successor])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last?.node { lowLink[parent] = min(lowLink[parent], lowLink[node]) }
                if lowLink[node] == indexOf[node] {
                    var component: [Int] = []
                    while let member = stack.popLast() {
                        onStack[member] = false
                        component.append(member)
                        if member == node { break }
                    }
                    components.append(component)
                }
            }
        }
        return components
    }
}
