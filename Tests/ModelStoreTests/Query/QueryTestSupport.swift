import CSQLite
import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The store a query test runs on, of any `StoreKind` (SQLite file, SQLite in memory,
/// PostgreSQL): every query test opens its container here.
final class QueryStore {
    let store: TestStore
    let container: ModelContainer

    init(_ kind: StoreKind, _ schema: Schema) throws {
        store = try TestStore(kind)
        container = try store.container(for: schema)
    }

    /// A new context on the store.
    func context() -> ModelContext { ModelContext(container) }
}

/// Counts the queries (`SELECT` statements; or the statements starting with another `prefix`) a
/// context's connection starts: through SQLite's trace hook, or the PostgreSQL connection's `trace`.
final class QueryCounter {
    private(set) var queries: [String] = []
    private let stop: () -> Void
    private let prefix: String

    init(_ context: ModelContext, prefix: String = "SELECT") throws {
        self.prefix = prefix
        let connection = try context.connection()
        if let sqlite = connection as? SQLiteConnection {
            let handle = sqlite.handle
            stop = { sqlite3_trace_v2(handle, 0, nil, nil) }
            sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, _ in
                guard let context, let statement, let text = sqlite3_sql(OpaquePointer(statement)) else { return 0 }
                Unmanaged<QueryCounter>.fromOpaque(context).takeUnretainedValue().record(String(cString: text))
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        } else if let postgres = connection as? PostgresStoreConnection {
            stop = { [weak postgres] in postgres?.trace = nil }
            postgres.trace = { [unowned self] sql in record(sql) }
        } else {
            throw CocoaError(.featureUnsupported, userInfo: [NSDebugDescriptionErrorKey: "no query counter for \(type(of: connection))"])
        }
    }

    deinit { stop() }

    private func record(_ sql: String) {
        if sql.hasPrefix(prefix) { queries.append(sql) }
    }

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
