// `modelgen diagram --format dot`: a Graphviz digraph of the checked schema.

/// Renders a checked schema as a Graphviz `digraph` (`dot -Tsvg` draws it).
///
/// Each entity is a record node (name, then its own attributes as `name: Type`); a subclass has an
/// edge to its base with a hollow arrowhead; each relationship is one edge with the multiplicity at
/// both ends (`taillabel` at the source, `headlabel` at the destination) and a label naming the
/// property, its delete rule, and the inverse with its delete rule. An edge with a `.cascade` side is
/// red, with a filled diamond at each end whose deletion cascades to the other end, so the delete
/// graph reads at a glance. Each struct is a dashed record node (`«struct» Name`, then its fields),
/// with a dashed edge from each entity or struct that holds it (a diamond at the holder).
enum DotDiagram {
    /// The diagram text, ending with a newline. Deterministic: the same schema gives the same bytes.
    public static func render(_ schema: CheckedSchema) -> String {
        render(DiagramModel(schema))
    }

    /// The diagram text of an already computed diagram model.
    public static func render(_ model: DiagramModel) -> String {
        var lines = [
            "digraph Model {",
            "    rankdir=BT;",
            "    node [shape=record, fontname=\"Helvetica\"];",
            "    edge [fontname=\"Helvetica\", fontsize=10, labeldistance=2];",
        ]
        for node in model.nodes {
            var label = "{" + (node.isStruct ? "«struct» " : "") + recordText(node.name)
            if !node.attributes.isEmpty {
                label += "|" + node.attributes.map { recordText($0) + "\\l" }.joined()
            }
            label += "}"
            let style = node.isStruct ? ", style=dashed" : ""
            lines.append("    \(quoted(node.name)) [label=\(quoted(label, escapingBackslashes: false))\(style)];")
        }
        for inheritance in model.inheritances {
            lines.append("    \(quoted(inheritance.subclass)) -> \(quoted(inheritance.base)) [arrowhead=empty];")
        }
        for edge in model.relationships {
            var attributes = ["label=\(quoted(edge.label))", "headlabel=\(quoted(edge.destinationMultiplicity))"]
            if let sourceMultiplicity = edge.sourceMultiplicity {
                attributes.append("taillabel=\(quoted(sourceMultiplicity))")
                attributes.append(edge.destinationCascades ? "arrowhead=diamond" : "arrowhead=none")
            } else {
                attributes.append("arrowhead=vee")
            }
            if edge.sourceCascades { attributes += ["dir=both", "arrowtail=diamond"] }
            if edge.sourceCascades || edge.destinationCascades { attributes += ["color=red", "fontcolor=red"] }
            lines.append("    \(quoted(edge.source)) -> \(quoted(edge.destination)) [\(attributes.joined(separator: ", "))];")
        }
        for composition in model.compositions {
            let attributes = ["label=\(quoted(composition.property))", "headlabel=\(quoted(composition.multiplicity))",
                              "arrowhead=none", "dir=both", "arrowtail=diamond", "style=dashed"]
            lines.append("    \(quoted(composition.owner)) -> \(quoted(composition.structName)) [\(attributes.joined(separator: ", "))];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A DOT string literal. Record labels are escaped already (their backslashes are escapes).
    static func quoted(_ text: String, escapingBackslashes: Bool = true) -> String {
        var result = "\""
        for character in text {
            switch character {
            case "\"": result += "\\\""
            case "\\" where escapingBackslashes: result += "\\\\"
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result + "\""
    }

    /// Text inside a record label, with the record syntax characters escaped.
    static func recordText(_ text: String) -> String {
        var result = ""
        for character in text {
            if "{}|<>\\".contains(character) { result += "\\" }
            result.append(character)
        }
        return result
    }
}
