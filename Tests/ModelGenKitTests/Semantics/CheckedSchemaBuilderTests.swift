import Foundation
import Testing
@testable import ModelGenKit

/// The checked schema of the reference model, `Samples/Trips.model`.
@Suite struct CheckedSchemaBuilderTests {
    let schema: CheckedSchema?
    let diagnostics: [Diagnostic]

    init() throws {
        let url = InvalidSampleGoldenTests.packageRoot.appendingPathComponent("Samples/Trips.model")
        let source = SourceFile(path: "Samples/Trips.model", bytes: Array(try Data(contentsOf: url)))
        let result = Run.lint([source])
        (schema, diagnostics) = (result.schema, result.diagnostics)
    }

    @Test func tripsHasNoDiagnostics() {
        #expect(diagnostics.map(\.message) == [])
        #expect(schema != nil)
    }

    @Test func hierarchy() throws {
        let schema = try #require(schema)
        #expect(schema.entities.map(\.name) == ["Trip", "BusinessTrip", "PersonalTrip", "Accommodation", "Itinerary"])
        #expect(schema.entity(named: "Trip")?.subclassNames == ["BusinessTrip", "PersonalTrip"])
        #expect(schema.entity(named: "BusinessTrip")?.baseName == "Trip")
        #expect(schema.entity(named: "Accommodation")?.baseName == nil)
        #expect(schema.entity(named: "PersonalTrip")?.enums.map(\.qualifiedName) == ["PersonalTrip.Reason"])
        #expect(schema.entity(named: "PersonalTrip")?.enums.first?.cases.map(\.rawValue) == ["vacation", "family", "adventure"])
        #expect(schema.entity(named: "PersonalTrip")?.enums.first?.doc == ["Why the trip is taken."])
        #expect(schema.entity(named: "Trip")?.doc == ["A journey with dates."])
    }

    @Test func inversesResolveBothWays() throws {
        let schema = try #require(schema)
        let accommodations = try #require(relationship("Trip", "accommodations", in: schema))
        #expect(accommodations.destination == "Accommodation")
        #expect(accommodations.isToMany)
        #expect(accommodations.deleteRule == .cascade)
        #expect(accommodations.inverseName == "trip")
        #expect(accommodations.inverseDeclaredHere)
        let trip = try #require(relationship("Accommodation", "trip", in: schema))
        #expect(!trip.isToMany)
        #expect(trip.deleteRule == .nullify)
        #expect(trip.inverseName == "accommodations")
        let itineraryTrip = try #require(relationship("Itinerary", "trip", in: schema))
        #expect(itineraryTrip.inverseName == nil)
    }

    @Test func attributes() throws {
        let schema = try #require(schema)
        let trip = try #require(schema.entity(named: "Trip"))
        guard case .attribute(let identifier) = trip.properties.first(where: { $0.name == "identifier" })?.kind else {
            Issue.record("identifier is not an attribute")
            return
        }
        #expect(identifier.type == .uuid)
        #expect(identifier.defaultValue == .newUUID)
        #expect(identifier.preserveValueOnDeletion)
        guard case .attribute(let reason) = schema.entity(named: "PersonalTrip")?.properties.first?.kind else {
            Issue.record("reason is not an attribute")
            return
        }
        #expect(reason.type == .enumeration(qualifiedName: "PersonalTrip.Reason", rawType: .string))
    }

    @Test func initializers() throws {
        let schema = try #require(schema)
        let business = try #require(schema.entity(named: "BusinessTrip")?.initializers.first)
        #expect(business.parameters.map(\.name) == ["name", "startDate", "endDate", "company"])
        #expect(business.parameters.map(\.owner) == ["Trip", "Trip", "Trip", "BusinessTrip"])
        #expect(business.superArguments == ["name", "startDate", "endDate"])
        #expect(!business.isSynthesized)
        let trip = try #require(schema.entity(named: "Trip")?.initializers.first)
        #expect(trip.superArguments == nil)
        #expect(trip.parameters.map(\.name) == ["name", "startDate", "endDate"])
        let itinerary = try #require(schema.entity(named: "Itinerary")?.initializers)
        #expect(itinerary.map { $0.parameters.map(\.name) } == [["title"]])
        let personal = try #require(schema.entity(named: "PersonalTrip")?.initializers.first)
        #expect(personal.parameters.map(\.owner) == ["Trip", "Trip", "Trip", "PersonalTrip"])
    }

    @Test func synthesizedInitWhenNoneIsDeclared() throws {
        let ast = TestAST()
        let file = ast.file([
            ast.entity("Note", [ast.property("text", "String"), ast.property("tags", "[String]", default: .array([])), ast.property("pinned", "Bool?")]),
            ast.entity("Task", base: "Note", [ast.property("due", "Date")]),
        ])
        let (schema, diagnostics) = SchemaChecker.check([file])
        #expect(diagnostics.isEmpty)
        let note = try #require(schema?.entity(named: "Note")?.initializers.first)
        #expect(note.isSynthesized)
        #expect(note.parameters.map(\.name) == ["text", "tags", "pinned"])
        #expect(note.parameters.map(\.hasDefaultArgument) == [false, true, true])
        let task = try #require(schema?.entity(named: "Task")?.initializers.first)
        #expect(task.parameters.map(\.name) == ["text", "tags", "pinned", "due"])
        #expect(task.parameters.map(\.owner) == ["Note", "Note", "Note", "Task"])
        #expect(task.superArguments == ["text", "tags", "pinned"])
    }

    @Test func propertiesInDeclarationOrder() throws {
        let schema = try #require(schema)
        #expect(schema.entity(named: "Trip")?.properties.map(\.name) == ["name", "startDate", "endDate", "identifier", "accommodations"])
        #expect(schema.entity(named: "BusinessTrip")?.properties.map(\.name) == ["company", "expenseReport", "meetingAgenda"])
        guard case .attribute(let companions) = schema.entity(named: "PersonalTrip")?.properties.last?.kind else {
            Issue.record("companions is not an attribute")
            return
        }
        #expect(companions.type == .array(.string))
        #expect(companions.defaultValue == .array([]))
        guard case .attribute(let expenseReport) = schema.entity(named: "BusinessTrip")?.properties[1].kind else {
            Issue.record("expenseReport is not an attribute")
            return
        }
        #expect(expenseReport.isOptional)
        #expect(expenseReport.defaultValue == nil)
    }

    @Test func containerIncludesSubclasses() throws {
        let schema = try #require(schema)
        let store = try #require(schema.containers.first)
        #expect(store.name == "TripStore")
        #expect(store.listedEntities == ["Trip", "Accommodation", "Itinerary"])
        #expect(store.allEntities == ["Trip", "BusinessTrip", "PersonalTrip", "Accommodation", "Itinerary"])
    }

    private func relationship(_ entity: String, _ property: String, in schema: CheckedSchema) -> CheckedRelationship? {
        guard case .relationship(let r) = schema.entity(named: entity)?.properties.first(where: { $0.name == property })?.kind else { return nil }
        return r
    }
}
