import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The SQL schema a SQLite store gets, kept as reviewed golden files. SQLite only: the goldens
/// are SQLite's own `CREATE` text (PostgreSQL's layout: PostgreSQLStoreTests).
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

    /// The benchmark's hand-written SQLite side is the limit of the semantics the store promises
    /// only if it writes the same tables: every `CREATE` statement it runs is one of the store's own
    /// (an `AUTOINCREMENT` key the store has and the benchmark lacked made the two sides' inserts
    /// differ by 40 % of the store's instructions).
    @Test func theBenchmarksHandWrittenTablesAreTheStoresOwn() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let layout = Set(try layout(of: TripStore.schema).split(separator: "\n").map(String.init))
        var statements: [String] = []
        for file in ["HandWrittenSide.swift", "HandHistory.swift"] {
            let source = try String(contentsOf: root.appending(path: "Benchmarks/ModelStoreBench/\(file)"), encoding: .utf8)
            statements += source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("CREATE ") }
        }
        #expect(statements.count == 8, "\(statements)")
        for statement in statements {
            #expect(layout.contains(statement), "the benchmark creates a table or index the store does not:\n\(statement)")
        }
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
