import Testing
@testable import ModelGenKit

/// The whole reference model, parsed into the declarations it spells out.
@Suite struct TripsParserTests {
    typealias S = SyntaxTestSupport

    @Test func parsesWithoutDiagnostics() throws {
        let (_, diagnostics) = Parser.parse(try S.tripsSource())
        #expect(S.summary(diagnostics) == [])
    }

    @Test func declarationsInOrder() throws {
        let (file, _) = Parser.parse(try S.tripsSource())
        #expect(file.declarations.map(\.name.name) == ["Trip", "BusinessTrip", "PersonalTrip", "Accommodation", "Itinerary", "TripStore"])
        let bases = file.declarations.map { declaration -> String? in
            if case .entity(let e) = declaration { e.base?.name } else { nil }
        }
        #expect(bases == [nil, "Trip", "Trip", nil, nil, nil])
        guard case .container(let store) = file.declarations.last else {
            Issue.record("last declaration is not a container")
            return
        }
        #expect(store.entries.map(\.name) == ["Trip", "Accommodation", "Itinerary"])
        #expect(store.range.start.line == 62)
    }

    @Test func tripMembers() throws {
        let (file, _) = Parser.parse(try S.tripsSource())
        let trip = try #require(S.entity("Trip", in: file))
        #expect(trip.doc?.lines == ["A journey with dates."])
        #expect(trip.range.start.line == 4)
        #expect(trip.range.end.line == 16)
        let properties = S.properties(of: trip)
        #expect(properties.map(\.name.name) == ["name", "startDate", "endDate", "identifier", "accommodations"])
        #expect(properties.map(\.type.description) == ["String", "Date", "Date", "UUID", "[Accommodation]"])
        if case .call(let callee, _) = properties[3].defaultValue?.kind {
            #expect(callee.name == "UUID")
        } else {
            Issue.record("expected UUID()")
        }
        #expect(properties[4].defaultValue?.kind == .array([]))

        let preserve = try #require(properties[3].attributes.first)
        #expect(preserve.name.name == "Attribute")
        #expect(preserve.arguments.count == 1)
        #expect(preserve.arguments[0].label == nil)
        if case .memberAccess(let option) = preserve.arguments[0].value.kind {
            #expect(option.name == "preserveValueOnDeletion")
        } else {
            Issue.record("expected .preserveValueOnDeletion")
        }
        #expect(properties[3].range.start.line == 9)

        let relationship = try #require(properties[4].attributes.first)
        #expect(relationship.name.name == "Relationship")
        #expect(relationship.arguments.map { $0.label?.name } == ["deleteRule", "inverse"])
        if case .keyPath(let path) = relationship.arguments[1].value.kind {
            #expect(path.root?.name == "Accommodation")
            #expect(path.components.map(\.name) == ["trip"])
        } else {
            Issue.record("expected a key path")
        }

        let inits = S.inits(of: trip)
        #expect(inits.count == 1)
        #expect(inits[0].parameters.map(\.name) == ["name", "startDate", "endDate"])
        #expect(inits[0].superInit == nil)
        #expect(inits[0].keywordRange.start == SourceLocation(line: 15, column: 5, offset: inits[0].keywordRange.start.offset))
    }

    @Test func subclassesAndNestedEnum() throws {
        let (file, _) = Parser.parse(try S.tripsSource())
        let business = try #require(S.entity("BusinessTrip", in: file))
        #expect(S.properties(of: business).map(\.type.description) == ["String", "String?", "String?"])
        let businessInit = try #require(S.inits(of: business).first)
        #expect(businessInit.parameters.map(\.name) == ["name", "startDate", "endDate", "company"])
        #expect(businessInit.superInit?.arguments.map(\.name) == ["name", "startDate", "endDate"])

        let personal = try #require(S.entity("PersonalTrip", in: file))
        guard case .enumeration(let reason) = personal.members.first else {
            Issue.record("PersonalTrip does not start with its enum")
            return
        }
        #expect(reason.name.name == "Reason")
        #expect(reason.doc?.lines == ["Why the trip is taken."])
        #expect(reason.inheritance.map(\.name) == ["String", "Codable"])
        #expect(reason.cases.map(\.name.name) == ["vacation", "family", "adventure"])
        #expect(reason.cases.allSatisfy { $0.rawValue == nil })
        #expect(S.properties(of: personal).map(\.name.name) == ["reason", "companions"])
        #expect(S.properties(of: personal)[1].type.description == "[String]")

        let accommodation = try #require(S.entity("Accommodation", in: file))
        let trip = try #require(S.properties(of: accommodation).last)
        #expect(trip.type.description == "Trip?")
        #expect(trip.attributes.first?.arguments.first?.label?.name == "inverse")
        #expect(accommodation.doc?.lines == ["A place to stay during a trip."])
    }

    @Test func commentsAreCollected() throws {
        let (file, _) = Parser.parse(try S.tripsSource())
        #expect(file.comments.first?.kind == .line)
        #expect(file.comments.filter { $0.kind == .doc }.count == 6)
    }
}
