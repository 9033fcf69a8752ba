import Testing
@testable import ModelGenKit

/// All inputs of a run form one schema: references, duplicates and notes cross files.
@Suite struct MultiFileTests {
    static let trips = SourceFile(path: "Travel/Trips.model", text: """
        entity Trip {
            name: String
            init(name)
        }
        container TripStore { BusinessTrip }
        """)
    static let business = SourceFile(path: "Travel/Business.model", text: """
        entity BusinessTrip: Trip {
            company: String
            init(name, company) {
                super.init(name)
            }
        }
        """)

    @Test func entitiesReferenceOtherFiles() throws {
        let result = Run.lint([Self.trips, Self.business])
        #expect(result.diagnostics.map(\.rule) == [.unregisteredBase])
        let schema = try #require(result.schema)
        #expect(schema.entities.map(\.name) == ["Trip", "BusinessTrip"])
        #expect(schema.entity(named: "BusinessTrip")?.range.file == "Travel/Business.model")
        #expect(schema.containers.first?.allEntities == ["Trip", "BusinessTrip"])
    }

    @Test func duplicatesAcrossFilesPointAtTheFirst() throws {
        let again = SourceFile(path: "Again.model", text: "entity Trip {\n    title: String\n}\n")
        let result = Run.lint([Self.trips, again])
        let duplicate = try #require(result.diagnostics.first { $0.rule == .duplicateDeclaration })
        #expect(duplicate.range.file == "Again.model")
        #expect(duplicate.range.start.line == 1)
        #expect(duplicate.notes.first?.range?.file == "Travel/Trips.model")
        #expect(result.schema == nil)
    }

    @Test func diagnosticsAreSortedByInputOrderThenPosition() {
        let broken = SourceFile(path: "B.model", text: "entity X {\n    a: Nope\n    b: Nada\n}\n")
        let first = SourceFile(path: "Z.model", text: "entity Y {\n    c: Zilch\n}\n")
        let diagnostics = SchemaChecker.check([first, broken].map { Parser.parse($0).file }).diagnostics
        #expect(diagnostics.map { "\($0.range.file):\($0.range.start.line)" } == ["Z.model:2", "B.model:2", "B.model:3"])
    }
}
