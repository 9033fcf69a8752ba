import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// What the predicate translator relies on: key paths written in `#Predicate` and
/// `SortDescriptor` find their columns.
@Suite struct KeyPathLookupTests {
    let schema = TripStore.schema

    @Test func keyPathsFindColumns() throws {
        let trip = try #require(schema.entity(for: Trip.self))
        let business = try #require(schema.entity(for: BusinessTrip.self))
        let accommodation = try #require(schema.entity(for: Accommodation.self))
        #expect(trip.column(forKeyPath: \Trip.name) == "name")
        #expect(business.column(forKeyPath: \BusinessTrip.company) == "BusinessTrip.company")
        #expect(business.column(forKeyPath: \BusinessTrip.name) == "name")
        #expect(accommodation.column(forKeyPath: \Accommodation.trip) == "trip")
        #expect(trip.column(forKeyPath: \Trip.accommodations) == nil)
        #expect(trip.property(forKeyPath: \Trip.accommodations) == "accommodations")
        #expect(trip.relationship(named: "accommodations")?.storage == .inverseKeyColumn(table: "Accommodation", column: "trip"))
    }

    @Test func aKeyPathFromAPredicateIsTheSameKeyPath() throws {
        let predicate = #Predicate<Trip> { $0.name == "x" }
        let expression = try #require(predicate.expression as? PredicateExpressions.Equal<
            PredicateExpressions.KeyPath<PredicateExpressions.Variable<Trip>, String>, PredicateExpressions.Value<String>>)
        #expect(schema.entity(for: Trip.self)?.column(forKeyPath: expression.lhs.keyPath) == "name")
    }
}
