import Foundation
import Testing
@testable import ModelGenKit

/// The diagrams of the reference sample, checked against reviewed goldens
/// (`MODELGEN_UPDATE_GOLDENS=1` rewrites them).
@Suite struct TripsDiagramGoldenTests {
    private func tripsSchema() throws -> CheckedSchema {
        let url = FormatDiagramSupport.url("Samples/Trips.model")
        let parsed = Parser.parse(SourceFile(path: "Samples/Trips.model", bytes: Array(try Data(contentsOf: url))))
        #expect(parsed.diagnostics.isEmpty)
        let checked = SchemaChecker.check([parsed.file])
        let schema = try #require(checked.schema)
        #expect(schema.entities.map(\.name) == ["Trip", "BusinessTrip", "PersonalTrip", "Accommodation", "Itinerary"])
        return schema
    }

    @Test func mermaid() throws {
        try FormatDiagramSupport.expectMatchesGolden(MermaidDiagram.render(try tripsSchema()), "Tests/ModelGenKitTests/Diagram/Goldens/Trips.mmd")
    }

    @Test func dot() throws {
        try FormatDiagramSupport.expectMatchesGolden(DotDiagram.render(try tripsSchema()), "Tests/ModelGenKitTests/Diagram/Goldens/Trips.dot")
    }
}
