import Testing
@testable import ModelGenKit

/// `modelgen diagram` marks cascade edges and draws structs.
@Suite struct AdditionsDiagramTests {
    private func schema(_ source: String) throws -> CheckedSchema {
        try #require(SpecModel.lint(source).schema)
    }

    private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    /// The side whose delete rule is `.cascade` carries the diamond (both sides when both cascade;
    /// with a `-->` arrow when there is no inverse); other edges keep a plain line.
    @Test func cascadeEdges() throws {
        let model = try schema("""
            entity A {
                @Relationship(deleteRule: .cascade, inverse: \\B.a) bs: [B] = []
                @Relationship(deleteRule: .cascade) cs: [C] = []
                plain: D?
            }
            entity B { @Relationship(deleteRule: .cascade) a: A? }
            entity C { name: String }
            entity D {
                @Relationship(deleteRule: .cascade, inverse: \\A.plain) owners: [A] = []
            }
            """)
        let mermaid = lines(MermaidDiagram.render(model))
        #expect(mermaid.contains("    A \"0..1\" *--* \"*\" B : bs (cascade) / a (cascade)"))
        #expect(mermaid.contains("    A *--> \"*\" C : cs (cascade)"))
        #expect(mermaid.contains("    A \"*\" --* \"0..1\" D : plain (nullify) / owners (cascade)"))
        let dot = lines(DotDiagram.render(model))
        #expect(dot.contains("    \"A\" -> \"B\" [label=\"bs (cascade) / a (cascade)\", headlabel=\"*\", taillabel=\"0..1\", arrowhead=diamond, dir=both, arrowtail=diamond, color=red, fontcolor=red];"))
        #expect(dot.contains("    \"A\" -> \"C\" [label=\"cs (cascade)\", headlabel=\"*\", arrowhead=vee, dir=both, arrowtail=diamond, color=red, fontcolor=red];"))
        #expect(dot.contains("    \"A\" -> \"D\" [label=\"plain (nullify) / owners (cascade)\", headlabel=\"0..1\", taillabel=\"*\", arrowhead=diamond, color=red, fontcolor=red];"))
        let edges = DiagramModel(model).relationships
        #expect(edges.map(\.sourceCascades) == [true, true, false])
        #expect(edges.map(\.destinationCascades) == [true, false, true])
    }

    @Test func structsAreBoxesHeldByTheirOwners() throws {
        let model = try schema("""
            struct Palette { primary: String; shade: Shade? }
            struct Shade { level: Int }
            entity Theme {
                struct Border { width: Double }
                palette: Palette
                spare: Palette?
                borders: [Border] = []
            }
            """)
        let diagram = DiagramModel(model)
        #expect(diagram.nodes.map(\.name) == ["Theme", "Palette", "Shade", "Theme.Border"])
        #expect(diagram.nodes.map(\.isStruct) == [false, true, true, true])
        #expect(diagram.nodes[1].attributes == ["primary: String", "shade: Shade?"])
        #expect(diagram.compositions.map { "\($0.owner).\($0.property) \($0.multiplicity) \($0.structName)" } == [
            "Theme.palette 1 Palette", "Theme.spare 0..1 Palette", "Theme.borders * Theme.Border", "Palette.shade 0..1 Shade",
        ])
        let mermaid = MermaidDiagram.render(model)
        #expect(mermaid.contains("    class Palette {\n        <<struct>>\n        primary: String\n        shade: Shade?\n    }\n"))
        #expect(mermaid.contains("    Theme *.. \"*\" `Theme.Border` : borders\n"))
        #expect(mermaid.contains("    Palette *.. \"0..1\" Shade : shade\n"))
        let dot = DotDiagram.render(model)
        #expect(dot.contains("    \"Palette\" [label=\"{«struct» Palette|primary: String\\lshade: Shade?\\l}\", style=dashed];\n"))
        #expect(dot.contains("    \"Theme\" -> \"Palette\" [label=\"palette\", headlabel=\"1\", arrowhead=none, dir=both, arrowtail=diamond, style=dashed];\n"))
    }

    /// A struct with no field still gets its box (and its marker), in both formats.
    @Test func anEmptyStructIsDrawn() throws {
        let model = try schema("struct Marker { }\nentity A { m: Marker }\n")
        #expect(MermaidDiagram.render(model).contains("    class Marker {\n        <<struct>>\n    }\n"))
        #expect(DotDiagram.render(model).contains("    \"Marker\" [label=\"{«struct» Marker}\", style=dashed];\n"))
    }
}
