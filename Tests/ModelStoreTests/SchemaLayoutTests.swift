import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The SQL schema a store gets, kept as reviewed golden files.
@Suite struct SchemaLayoutTests {
    func layout(of schema: Schema) throws -> String {
        let store = try TemporaryStore()
        _ = try ModelContainer(for: schema, configurations: store.configuration)
        let rows = try store.rawConnection().rows("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
        return rows.compactMap { row -> String? in
            if case .text(let sql) = row[0] { return sql + ";" }
            return nil
        }.joined(separator: "\n") + "\n"
    }

    @Test func tripsLayout() throws {
        try expectGolden(layout(of: TripStore.schema), named: "Trips.schema.sql")
    }

    @Test func shopLayout() throws {
        try expectGolden(layout(of: Shop.schema), named: "Shop.schema.sql")
    }

    /// Structs flattened into columns (`location.latitude`, a subclass's `GuidedSighting.meetingPoint.latitude`),
    /// a presence column for an optional struct (`location`), an enum with associated values and
    /// arrays of structs as JSON text.
    @Test func birdingLayout() throws {
        try expectGolden(layout(of: Birding.schema), named: "Birding.schema.sql")
    }

    @Test func theFingerprintIsDeterministic() throws {
        let first = Schema([Trip.self, Accommodation.self, Itinerary.self]).storage
        let second = Schema([Itinerary.self, BusinessTrip.self, Accommodation.self]).storage
        #expect(first.tables.map(\.name).sorted() == second.tables.map(\.name).sorted())
        #expect(Set(first.tables) == Set(second.tables))
    }
}
