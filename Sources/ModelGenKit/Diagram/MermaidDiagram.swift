// `modelgen diagram --format mermaid`: a Mermaid class diagram of the checked schema.

/// Renders a checked schema as a Mermaid `classDiagram`.
///
/// Each entity is a class listing its own attributes as `name: Type`; a subclass points to its base
/// with an inheritance arrow; each relationship is one line, with the multiplicity at both ends
/// (only at the destination for a relationship without an inverse) and a label naming the property,
/// its delete rule, and the inverse with its delete rule. A side whose delete rule is `.cascade`
/// carries a composition diamond (`*--`): deleting a model there deletes the models at the other end,
/// so the diamonds trace the delete graph. Each struct is a class marked `<<struct>>`, with a dotted
/// composition line (`*..`) from each entity or struct that holds it.
enum MermaidDiagram {
    /// The diagram text, ending with a newline. Deterministic: the same schema gives the same bytes.
    public static func render(_ schema: CheckedSchema) -> String {
        render(DiagramModel(schema))
    }

    /// The diagram text of an already computed diagram model.
    public static func render(_ model: DiagramModel) -> String {
        var lines = ["classDiagram"]
        for node in model.nodes {
            if node.attributes.isEmpty, !node.isStruct {
                lines.append("    class \(identifier(node.name))")
                continue
            }
            lines.append("    class \(identifier(node.name)) {")
            if node.isStruct { lines.append("        <<struct>>") }
            lines.append(contentsOf: node.attributes.map { "        \($0)" })
            lines.append("    }")
        }
        for inheritance in model.inheritances {
            lines.append("    \(identifier(inheritance.base)) <|-- \(identifier(inheritance.subclass))")
        }
        for edge in model.relationships {
            let destinationEnd = "\"\(edge.destinationMultiplicity)\" \(identifier(edge.destination))"
            let sourceMark = edge.sourceCascades ? "*" : ""
            if let sourceMultiplicity = edge.sourceMultiplicity {
                let destinationMark = edge.destinationCascades ? "*" : ""
                lines.append("    \(identifier(edge.source)) \"\(sourceMultiplicity)\" \(sourceMark)--\(destinationMark) \(destinationEnd) : \(edge.label)")
            } else {
                lines.append("    \(identifier(edge.source)) \(sourceMark)--> \(destinationEnd) : \(edge.label)")
            }
        }
        for composition in model.compositions {
            lines.append("    \(identifier(composition.owner)) *.. \"\(composition.multiplicity)\" \(identifier(composition.structName)) : \(composition.property)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Words of Mermaid's class diagram syntax: a class with such a name must be in backticks.
    static let keywords: Set<String> = [
        "class", "classDiagram", "classDef", "cssClass", "note", "click", "callback", "call", "link",
        "href", "style", "direction", "namespace", "end",
    ]

    /// A class name as Mermaid reads it: plain when it is ASCII letters, digits and `_` and not one of
    /// Mermaid's words, else in backticks.
    static func identifier(_ name: String) -> String {
        let isPlain = !name.isEmpty && !keywords.contains(name) && name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
        }
        return isPlain ? name : "`\(name)`"
    }
}
