import CSQLite
import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The store the query tests run on. Every query test opens its container here, so another kind
/// of store (PostgreSQL) can be plugged in in one place.
final class QueryStore {
    let store: TemporaryStore
    let container: ModelContainer

    init(_ schema: Schema) throws {
        store = try TemporaryStore()
        container = try ModelContainer(for: schema, configurations: store.configuration)
    }

    /// A new context on the store.
    func context() -> ModelContext { ModelContext(container) }
}

/// Counts the queries (`SELECT` statements; or the statements starting with another `prefix`) a
/// context's SQLite connection starts, through SQLite's trace hook. Nil on a store that is not SQLite.
final class QueryCounter {
    private(set) var queries: [String] = []
    private let handle: OpaquePointer
    private let prefix: String

    init?(_ context: ModelContext, prefix: String = "SELECT") throws {
        guard let connection = try context.connection() as? SQLiteConnection else { return nil }
        handle = connection.handle
        self.prefix = prefix
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, _ in
            guard let context, let statement, let text = sqlite3_sql(OpaquePointer(statement)) else { return 0 }
            let sql = String(cString: text)
            let counter = Unmanaged<QueryCounter>.fromOpaque(context).takeUnretainedValue()
            if sql.hasPrefix(counter.prefix) { counter.queries.append(sql) }
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { sqlite3_trace_v2(handle, 0, nil, nil) }

    /// The number of queries started so far.
    var count: Int { queries.count }

    /// Forgets the queries counted so far.
    func reset() { queries = [] }
}

extension ModelContext {
    /// How many models the identity map holds (all hierarchies).
    var registeredCount: Int { registered.reduce(0) { $0 + $1.count } }
}

/// A few saved trips (`names`, one a day from day 0) with their accommodations (`stays` each).
@discardableResult
func seedTrips(_ context: ModelContext, names: [String], stays: Int = 0) throws -> [Trip] {
    var trips: [Trip] = []
    for (index, name) in names.enumerated() {
        let trip = Trip(name: name, startDate: Day.at(index), endDate: Day.at(index + 1))
        context.insert(trip)
        for number in 0..<stays {
            let stay = Accommodation(name: "\(name) stay \(number)")
            context.insert(stay)
            stay.trip = trip
        }
        trips.append(trip)
    }
    try context.save()
    return trips
}
