import Testing
@testable import ModelGenKit

/// Hand-built checked schemas: the diagram's rules without the parser and checker in the way.
private enum Build {
    static let here = SourceRange(file: "t.model", start: SourceLocation(line: 1, column: 1, offset: 0), end: SourceLocation(line: 1, column: 1, offset: 0))

    static func entity(_ name: String, base: String? = nil, subclasses: [String] = [], _ properties: [CheckedProperty]) -> CheckedEntity {
        CheckedEntity(name: name, doc: [], range: here, baseName: base, subclassNames: subclasses, properties: properties,
                      enums: [], initializers: [], uniqueConstraints: [], indexes: [])
    }

    static func attribute(_ name: String, _ type: ValueType, optional: Bool = false) -> CheckedProperty {
        CheckedProperty(name: name, doc: [], range: here, kind: .attribute(CheckedAttribute(
            type: type, isOptional: optional, defaultValue: nil, isUnique: false,
            preserveValueOnDeletion: false, externalStorage: false, originalName: nil)), isTransient: false)
    }

    static func relationship(_ name: String, to destination: String, toMany: Bool, rule: DeleteRule = .nullify,
                             inverse: String? = nil, minimum: Int? = nil, maximum: Int? = nil) -> CheckedProperty {
        CheckedProperty(name: name, doc: [], range: here, kind: .relationship(CheckedRelationship(
            destination: destination, isToMany: toMany, deleteRule: rule, inverseName: inverse, inverseDeclaredHere: inverse != nil,
            minimumModelCount: minimum, maximumModelCount: maximum, originalName: nil, hasDefault: false)), isTransient: false)
    }

    /// Trips as the checker would resolve them (the sample's shape).
    static let trips = CheckedSchema(entities: [
        entity("Trip", subclasses: ["BusinessTrip", "PersonalTrip"], [
            attribute("name", .string),
            attribute("startDate", .date),
            relationship("accommodations", to: "Accommodation", toMany: true, rule: .cascade, inverse: "trip"),
        ]),
        entity("BusinessTrip", base: "Trip", [attribute("expenseReport", .string, optional: true)]),
        entity("PersonalTrip", base: "Trip", [
            attribute("reason", .enumeration(qualifiedName: "PersonalTrip.Reason", rawType: .string)),
            attribute("companions", .array(.string)),
        ]),
        entity("Accommodation", [
            attribute("name", .string),
            relationship("trip", to: "Trip", toMany: false, inverse: "accommodations"),
        ]),
        entity("Itinerary", [relationship("trip", to: "Trip", toMany: false)]),
    ], enums: [], containers: [])
}

@Suite struct DiagramModelTests {
    @Test func attributesAreNameColonTypeAndRelationshipsAreNotListed() {
        let model = DiagramModel(Build.trips)
        #expect(model.nodes.map(\.name) == ["Trip", "BusinessTrip", "PersonalTrip", "Accommodation", "Itinerary"])
        #expect(model.nodes[0].attributes == ["name: String", "startDate: Date"])
        #expect(model.nodes[1].attributes == ["expenseReport: String?"])
        #expect(model.nodes[2].attributes == ["reason: PersonalTrip.Reason", "companions: [String]"])
        #expect(model.nodes[4].attributes.isEmpty)
    }

    @Test func subclassesPointToTheirBase() {
        let model = DiagramModel(Build.trips)
        #expect(model.inheritances == [
            .init(subclass: "BusinessTrip", base: "Trip"),
            .init(subclass: "PersonalTrip", base: "Trip"),
        ])
    }

    @Test func aRelationshipAndItsInverseAreOneEdge() throws {
        let edges = DiagramModel(Build.trips).relationships
        #expect(edges.count == 2)
        let pair = try #require(edges.first)
        #expect(pair.source == "Trip" && pair.sourceProperty == "accommodations" && pair.destination == "Accommodation")
        #expect(pair.inverseProperty == "trip")
        #expect(pair.destinationMultiplicity == "*")
        #expect(pair.sourceMultiplicity == "0..1")
        #expect(pair.label == "accommodations (cascade) / trip (nullify)")
    }

    @Test func aRelationshipWithoutInverseHasOneMultiplicity() throws {
        let edge = try #require(DiagramModel(Build.trips).relationships.last)
        #expect(edge.source == "Itinerary" && edge.destination == "Trip")
        #expect(edge.sourceMultiplicity == nil && edge.inverseProperty == nil)
        #expect(edge.destinationMultiplicity == "0..1")
        #expect(edge.label == "trip (nullify)")
    }

    @Test func anInverseDeclaredOnTheDestinationsBaseIsFound() throws {
        let schema = CheckedSchema(entities: [
            Build.entity("Trip", subclasses: ["BusinessTrip"], [
                Build.relationship("receipts", to: "Receipt", toMany: true, inverse: "trip"),
            ]),
            Build.entity("BusinessTrip", base: "Trip", [Build.attribute("company", .string)]),
            Build.entity("Receipt", [Build.relationship("trip", to: "BusinessTrip", toMany: false, rule: .deny, inverse: "receipts")]),
        ], enums: [], containers: [])
        let edges = DiagramModel(schema).relationships
        #expect(edges.count == 1)
        #expect(edges.first?.inverseDeleteRule == .deny)
    }

    @Test func manyToManyAndModelCountsShowInMultiplicities() {
        let schema = CheckedSchema(entities: [
            Build.entity("Tag", [Build.relationship("trips", to: "Trip", toMany: true, inverse: "tags", minimum: 1)]),
            Build.entity("Trip", [Build.relationship("tags", to: "Tag", toMany: true, inverse: "trips", minimum: 2, maximum: 5)]),
        ], enums: [], containers: [])
        let edges = DiagramModel(schema).relationships
        #expect(edges.count == 1)
        #expect(edges.first?.destinationMultiplicity == "1..*")
        #expect(edges.first?.sourceMultiplicity == "2..5")
        let maximumOnly = CheckedRelationship(destination: "T", isToMany: true, deleteRule: .nullify, inverseName: nil, inverseDeclaredHere: false,
                                              minimumModelCount: 0, maximumModelCount: 3, originalName: nil, hasDefault: true)
        #expect(DiagramModel.multiplicity(maximumOnly) == "0..3")
    }

    @Test func mermaidDrawsClassesInheritanceAndRelationships() {
        let text = MermaidDiagram.render(Build.trips)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "classDiagram")
        #expect(lines.contains("    class Trip {"))
        #expect(lines.contains("        companions: [String]"))
        #expect(lines.contains("    class Itinerary"))
        #expect(lines.contains("    Trip <|-- BusinessTrip"))
        // The cascading side carries the composition diamond.
        #expect(lines.contains("    Trip \"0..1\" *-- \"*\" Accommodation : accommodations (cascade) / trip (nullify)"))
        #expect(lines.contains("    Itinerary --> \"0..1\" Trip : trip (nullify)"))
        #expect(text.hasSuffix("\n") && !text.hasSuffix("\n\n"))
    }

    @Test func mermaidQuotesNamesItCannotReadPlain() {
        #expect(MermaidDiagram.identifier("Trip_2") == "Trip_2")
        #expect(MermaidDiagram.identifier("Reise") == "Reise")
        #expect(MermaidDiagram.identifier("Übernachtung") == "`Übernachtung`")
        #expect(MermaidDiagram.identifier("note") == "`note`")
        #expect(MermaidDiagram.identifier("Note") == "Note")
    }

    @Test func dotDrawsRecordsInheritanceAndRelationships() {
        let text = DotDiagram.render(Build.trips)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "digraph Model {" && lines.last == "}")
        #expect(lines.contains("    \"Trip\" [label=\"{Trip|name: String\\lstartDate: Date\\l}\"];"))
        #expect(lines.contains("    \"Itinerary\" [label=\"{Itinerary}\"];"))
        #expect(lines.contains("    \"BusinessTrip\" -> \"Trip\" [arrowhead=empty];"))
        #expect(lines.contains("    \"Trip\" -> \"Accommodation\" [label=\"accommodations (cascade) / trip (nullify)\", headlabel=\"*\", taillabel=\"0..1\", arrowhead=none, dir=both, arrowtail=diamond, color=red, fontcolor=red];"))
        #expect(lines.contains("    \"Itinerary\" -> \"Trip\" [label=\"trip (nullify)\", headlabel=\"0..1\", arrowhead=vee];"))
    }

    @Test func dotEscapesRecordAndStringSyntax() {
        #expect(DotDiagram.recordText("a|b{c}<d>") == "a\\|b\\{c\\}\\<d\\>")
        #expect(DotDiagram.quoted("say \"hi\"\\") == "\"say \\\"hi\\\"\\\\\"")
    }
}
