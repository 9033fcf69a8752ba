import CLibPQ
import Foundation
import StoreTestSupport

/// The workloads written by hand on libpq (`--store postgresql`): the same tables (the layout
/// ModelStore creates for `Trips.model` on PostgreSQL), the same rows, named prepared statements
/// with binary parameters and results, one transaction per write, rows read by column index into
/// plain classes. Each store's connection is opened before the timed part, as the generated side's
/// container has its pooled connection open by then.
final class HandPostgresSide: TripStoreSide {
    private let rows: [TripRow]
    private let cutoff: Date?
    private var stores: BenchStores?
    /// The connection of the main store, and of the workload's own store (if it has one).
    private var main: HandPQ?
    private var own: HandPQ?
    private var trips: [PlainTrip] = []
    /// Whether the store holds the rows' new names (`TripRow.name(storedRenamed:)`): set by each update.
    private var storedRenamed = false
    /// The lookup workloads' keys and names.
    private var lookupKeys: [Int64] = []
    private var lookupNames: [String] = []
    /// The prefetch workload's stays, by trip key.
    private var stays: [Int64: [PlainStay]] = [:]
    /// The observable prefetch's registrars, kept with the objects.
    private var registrars = ObservedReads()
    /// The tracked update's bookkeeping, kept from one of its saves to the next with its lists' capacity.
    private var tracking = ChangeTracking()
    private let parameters = HandParameters()

    init(rows: [TripRow], cutoff: Date?) {
        self.rows = rows
        self.cutoff = cutoff
    }

    func begin(stores: BenchStores) throws {
        self.stores = stores
        storedRenamed = false
        main = try open("hand-written")
    }

    func prepare(_ workload: Workload) throws {
        own = nil
        switch workload {
        case .insertWithHistory:
            own = try open("hand-written-history")
        case .updateNames, .updateNamesWithHistory, .updateNamesTracked:
            trips = try readTrips(try connection(), Self.selectAll, date: nil)
            if workload == .updateNamesTracked { tracking.track(count: trips.count) }
        case .prefetch, .prefetchObservable:
            let store = try open("hand-written-" + workload.rawValue)
            own = store
            try insertTripsWithStays(count: Workload.prefetchTripCount(rows: rows.count), store)
        case .lookupByKey:
            let all = try readTrips(try connection(), Self.selectAll, date: nil)
            lookupKeys = Workload.lookupIndices(rows: all.count).map { all[$0].rowID }
        case .lookupByName:
            try connection().execute(Workload.nameIndexSQL)
            lookupNames = Workload.lookupIndices(rows: rows.count).map { rows[$0].storedName(storedRenamed: storedRenamed) }
        case .count:
            for _ in 0..<Workload.untimedCounts { _ = try countTrips(try connection()) }
        case .cascadeDelete:
            let store = try open("hand-written-cascade")
            own = store
            try insertTripsWithStays(count: Workload.cascadeTripCount(rows: rows.count), store)
            trips = try readTrips(store, Self.selectAll, date: nil)
        default:
            break
        }
    }

    func run(_ workload: Workload) throws -> Int {
        let connection = try connection()
        switch workload {
        case .insert:
            try insert(rows.map(HandWrittenSide.makeTrip), connection, history: false)
            return rows.count
        case .insertWithHistory:
            try insert(rows.map(HandWrittenSide.makeTrip), connection, history: true)
            return rows.count
        case .fetchAll:
            trips = try readTrips(connection, Self.selectAll, date: nil)
            return trips.count
        case .enumerateAll:
            var count = 0
            try stepTrips(connection, Self.selectAll, date: nil) { trip in
                if !trip.name.isEmpty { count += 1 }
            }
            return count
        case .enumerateAllObservable:
            var count = 0
            try stepTrips(connection, Self.selectAll, date: nil) { trip in
                if !ObservedRead.name(of: trip).isEmpty { count += 1 }
            }
            return count
        case .prefetch:
            return try readTripsWithStays(connection, observed: false)
        case .prefetchObservable:
            return try readTripsWithStays(connection, observed: true)
        case .fetchSubclass:
            trips = try readTrips(connection, cutoff == nil ? Self.selectBusiness : Self.selectBusinessAfter, date: cutoff)
            return trips.count
        case .updateNames:
            var untracked = NoChangeTracking()
            return try updateNames(connection, history: false, tracking: &untracked)
        case .updateNamesWithHistory:
            var untracked = NoChangeTracking()
            return try updateNames(connection, history: true, tracking: &untracked)
        case .updateNamesTracked:
            // One access to the property for the whole loop, not one checked at run time per change.
            let renamed = try updateNames(connection, history: false, tracking: &tracking)
            try tracking.didSave(renamed: renamed)
            return renamed
        case .count:
            return try countTrips(connection)
        case .lookupByKey:
            for key in lookupKeys {
                parameters.removeAll()
                parameters.int64(key)
                let result = try connection.run(Self.selectByKey, parameters)
                defer { PQclear(result) }
                try readTrips(result) { trips.append($0) }
            }
            return trips.count
        case .lookupByName:
            for name in lookupNames {
                parameters.removeAll()
                parameters.text(name)
                let result = try connection.run(Self.selectByName, parameters)
                defer { PQclear(result) }
                try readTrips(result) { trips.append($0) }
            }
            return trips.count
        case .cascadeDelete:
            return try cascadeDelete(connection)
        }
    }

    func newestHistoryChangeCount() throws -> Int {
        parameters.removeAll()
        let result = try connection().run(Self.newestHistoryChanges, parameters)
        defer { PQclear(result) }
        return Int(HandColumn.int64(result, 0, 0))
    }

    func finish() {
        trips = []
        stays = [:]
        registrars = ObservedReads()
        own = nil
    }

    func end() {
        finish()
        main = nil
        stores = nil
    }

    // MARK: Statements

    private static let tripColumns = "\"$pk\", \"$type\", \"name\", \"startDate\", \"endDate\", \"identifier\", \"BusinessTrip.company\", \"BusinessTrip.expenseReport\", \"BusinessTrip.meetingAgenda\", \"PersonalTrip.reason\", \"PersonalTrip.companions\""
    private static let selectAll = "select_all"
    private static let selectBusiness = "select_business"
    private static let selectBusinessAfter = "select_business_after"
    private static let countAll = "count_all"
    private static let newestHistoryChanges = "newest_history_changes"
    private static let selectByKey = "select_by_key"
    private static let selectByName = "select_by_name"
    private static let countBefore = "count_before"
    private static let insertPlain = "insert_trip"
    private static let insertBusiness = "insert_business"
    private static let insertPersonal = "insert_personal"
    private static let insertStay = "insert_stay"
    private static let reserveTripKeys = "reserve_trip_keys"
    private static let insertPlainRows = "insert_plain_rows"
    private static let insertBusinessRows = "insert_business_rows"
    private static let insertPersonalRows = "insert_personal_rows"
    private static let updateNameRows = "update_name_rows"
    private static let deleteStays = "delete_stays"
    private static let deleteTrips = "delete_trips"
    private static let selectStays = "select_stays"

    /// Prepares every statement of the workloads on a new connection.
    private static func prepareStatements(_ connection: HandPQ) throws {
        typealias T = HandPQ.OID
        let all: [(String, String, [Oid])] = [
            (selectAll, "SELECT \(tripColumns) FROM \"Trip\" ORDER BY \"$pk\"", []),
            (selectBusiness, "SELECT \(tripColumns) FROM \"Trip\" WHERE \"$type\" = 'BusinessTrip' ORDER BY \"startDate\", \"$pk\"", []),
            (selectBusinessAfter, "SELECT \(tripColumns) FROM \"Trip\" WHERE \"$type\" = 'BusinessTrip' AND \"endDate\" > $1 ORDER BY \"startDate\", \"$pk\"", [T.float8]),
            (countAll, "SELECT count(*) FROM \"Trip\"", []),
            (newestHistoryChanges, Workload.newestHistoryChangeCountSQL, []),
            (selectByKey, "SELECT \(tripColumns) FROM \"Trip\" WHERE \"$pk\" = $1 ORDER BY \"$pk\"", [T.int8]),
            (selectByName, "SELECT \(tripColumns) FROM \"Trip\" WHERE \"name\" = $1 ORDER BY \"$pk\"", [T.text]),
            (countBefore, "SELECT count(*) FROM \"Trip\" WHERE \"startDate\" < $1", [T.float8]),
            (insertPlain, "INSERT INTO \"Trip\" (\"$type\", \"name\", \"startDate\", \"endDate\", \"identifier\") VALUES ('Trip', $1, $2, $3, $4) RETURNING \"$pk\"",
             [T.text, T.float8, T.float8, T.uuid]),
            (insertBusiness, "INSERT INTO \"Trip\" (\"$type\", \"name\", \"startDate\", \"endDate\", \"identifier\", \"BusinessTrip.company\", \"BusinessTrip.expenseReport\", \"BusinessTrip.meetingAgenda\") VALUES ('BusinessTrip', $1, $2, $3, $4, $5, $6, $7) RETURNING \"$pk\"",
             [T.text, T.float8, T.float8, T.uuid, T.text, T.text, T.text]),
            (insertPersonal, "INSERT INTO \"Trip\" (\"$type\", \"name\", \"startDate\", \"endDate\", \"identifier\", \"PersonalTrip.reason\", \"PersonalTrip.companions\") VALUES ('PersonalTrip', $1, $2, $3, $4, $5, $6) RETURNING \"$pk\"",
             [T.text, T.float8, T.float8, T.uuid, T.text, T.jsonb]),
            (reserveTripKeys, "SELECT nextval('\"Trip_$pk_seq\"'::regclass) FROM generate_series(1, $1)", [T.int8]),
            (insertPlainRows, "INSERT INTO \"Trip\" (\"$pk\", \"$type\", \"name\", \"startDate\", \"endDate\", \"identifier\") "
                + "SELECT k, 'Trip', n, s, e, i FROM unnest($1, $2, $3, $4, $5) AS v(k, n, s, e, i)",
             [T.int8Array, T.textArray, T.float8Array, T.float8Array, T.uuidArray]),
            (insertBusinessRows, "INSERT INTO \"Trip\" (\"$pk\", \"$type\", \"name\", \"startDate\", \"endDate\", \"identifier\", \"BusinessTrip.company\", \"BusinessTrip.expenseReport\", \"BusinessTrip.meetingAgenda\") "
                + "SELECT k, 'BusinessTrip', n, s, e, i, c, x, m FROM unnest($1, $2, $3, $4, $5, $6, $7, $8) AS v(k, n, s, e, i, c, x, m)",
             [T.int8Array, T.textArray, T.float8Array, T.float8Array, T.uuidArray, T.textArray, T.textArray, T.textArray]),
            (insertPersonalRows, "INSERT INTO \"Trip\" (\"$pk\", \"$type\", \"name\", \"startDate\", \"endDate\", \"identifier\", \"PersonalTrip.reason\", \"PersonalTrip.companions\") "
                + "SELECT k, 'PersonalTrip', n, s, e, i, r, c FROM unnest($1, $2, $3, $4, $5, $6, $7) AS v(k, n, s, e, i, r, c)",
             [T.int8Array, T.textArray, T.float8Array, T.float8Array, T.uuidArray, T.textArray, T.jsonbArray]),
            (insertStay, "INSERT INTO \"Accommodation\" (\"$type\", \"name\", \"trip\") VALUES ('Accommodation', $1, $2)", [T.text, T.int8]),
            (updateNameRows, "UPDATE \"Trip\" AS t SET \"name\" = v.n FROM unnest($1, $2) AS v(k, n) WHERE t.\"$pk\" = v.k",
             [T.int8Array, T.textArray]),
            (deleteStays, "DELETE FROM \"Accommodation\" WHERE \"trip\" = ANY($1) RETURNING \"$pk\", \"trip\"", [T.int8Array]),
            (deleteTrips, "DELETE FROM \"Trip\" WHERE \"$pk\" = ANY($1)", [T.int8Array]),
            (selectStays, "SELECT \"$pk\", \"name\", \"trip\" FROM \"Accommodation\" WHERE \"trip\" IN (SELECT \"$pk\" FROM \"Trip\") ORDER BY \"$pk\"", []),
        ] + HandPostgresHistory.statements
        for (name, sql, types) in all { try connection.prepare(name, sql, types: types) }
    }

    // MARK: Workloads

    /// The rows of one insert statement, a column per array, sent `HandPQ.batch` rows at a time.
    private struct TripRows {
        let statement: String
        var columns: [HandArray]

        init(_ statement: String, _ types: [Oid]) {
            self.statement = statement
            columns = types.map { HandArray(HandPQ.OID.element(of: $0)) }
        }

        var count: Int32 { columns[0].count }

        mutating func send(_ connection: HandPQ, _ parameters: HandParameters) throws {
            guard count > 0 else { return }
            parameters.removeAll()
            for index in columns.indices { parameters.array(columns[index]) }
            try connection.sendInBatches(statement, parameters)
            for index in columns.indices { columns[index].removeAll() }
        }
    }

    private func insert(_ trips: [PlainTrip], _ connection: HandPQ, history: Bool) throws {
        try connection.execute("BEGIN")
        // Every key in one statement, given to the trips in order; then the rows of each class, a
        // multi-row statement per `HandPQ.batch` rows (as ModelStore does; docs/PostgreSQL.md).
        parameters.removeAll()
        parameters.int64(Int64(trips.count))
        let reserved = try connection.run(Self.reserveTripKeys, parameters)
        var keys = (0..<PQntuples(reserved)).map { HandColumn.int64(reserved, $0, 0) }
        PQclear(reserved)
        guard keys.count == trips.count else { throw HandSQLiteError(message: "reserved \(keys.count) of \(trips.count) keys") }
        keys.sort()
        typealias T = HandPQ.OID
        let shared = [T.int8Array, T.textArray, T.float8Array, T.float8Array, T.uuidArray]
        var plain = TripRows(Self.insertPlainRows, shared)
        var business = TripRows(Self.insertBusinessRows, shared + [T.textArray, T.textArray, T.textArray])
        var personal = TripRows(Self.insertPersonalRows, shared + [T.textArray, T.jsonbArray])
        func common(_ rows: inout TripRows, _ trip: PlainTrip) {
            rows.columns[0].int64(trip.rowID)
            rows.columns[1].text(trip.name)
            rows.columns[2].date(trip.startDate)
            rows.columns[3].date(trip.endDate)
            rows.columns[4].uuid(trip.identifier)
        }
        for (trip, key) in zip(trips, keys) {
            trip.rowID = key
            switch trip {
            case let trip as PlainBusinessTrip:
                common(&business, trip)
                business.columns[5].text(trip.company)
                business.columns[6].text(trip.expenseReport)
                business.columns[7].text(trip.meetingAgenda)
                if business.count >= HandPQ.batch { try business.send(connection, parameters) }
            case let trip as PlainPersonalTrip:
                common(&personal, trip)
                personal.columns[5].text(trip.reason.rawValue)
                personal.columns[6].jsonb(StringArrayJSON.encode(trip.companions))
                if personal.count >= HandPQ.batch { try personal.send(connection, parameters) }
            default:
                common(&plain, trip)
                if plain.count >= HandPQ.batch { try plain.send(connection, parameters) }
            }
        }
        try plain.send(connection, parameters)
        try business.send(connection, parameters)
        try personal.send(connection, parameters)
        try connection.receive()
        if history {
            let record = try HandPostgresHistory(connection)
            for trip in trips { try record.record(kind: 0, entity: HandHistory.entity(of: trip), row: trip.rowID) }
            try record.finish()
        }
        try connection.execute("COMMIT")
    }

    /// The count workload's count, through its statement prepared at connection.
    private func countTrips(_ connection: HandPQ) throws -> Int {
        parameters.removeAll()
        if let cutoff { parameters.date(cutoff) }
        let result = try connection.run(cutoff == nil ? Self.countAll : Self.countBefore, parameters)
        defer { PQclear(result) }
        return Int(HandColumn.int64(result, 0, 0))
    }

    /// Renames every trip (`TripRow.name(storedRenamed:)`, each change recorded when `history`,
    /// `tracking` told of each): a multi-row statement per
    /// `HandPQ.batch` rows, as ModelStore does (docs/PostgreSQL.md, "Batched writes"); a trip
    /// whose row is gone is an error (the rows changed, from each statement's count).
    private func updateNames<Tracker: ChangeTracker>(_ connection: HandPQ, history: Bool, tracking: inout Tracker) throws -> Int {
        try connection.execute("BEGIN")
        var names = TripRows(Self.updateNameRows, [HandPQ.OID.int8Array, HandPQ.OID.textArray])
        var changed: Int32 = 0
        var position = 0
        for (trip, row) in zip(trips, rows) {
            tracking.willRename(trip, at: position)
            position += 1
            trip.name = row.name(storedRenamed: storedRenamed)
            names.columns[0].int64(trip.rowID)
            names.columns[1].text(trip.name)
            if names.count >= HandPQ.batch { try names.send(connection, parameters) }
        }
        try names.send(connection, parameters)
        try connection.receive { changed += Int32(String(cString: PQcmdTuples($0))) ?? 0 }
        guard changed == Int32(trips.count) else { throw HandSQLiteError(message: "renamed \(changed) of \(trips.count) trips") }
        if history {
            let record = try HandPostgresHistory(connection)
            for trip in trips { try record.record(kind: 1, entity: HandHistory.entity(of: trip), row: trip.rowID, attributes: "name") }
            try record.finish()
        }
        try connection.execute("COMMIT")
        storedRenamed.toggle()
        return trips.count
    }

    /// Deletes the loaded trips and their accommodations, recording each deletion in the history
    /// (with each trip's preserved `identifier`), as ModelStore does: by key sets of at most 4,096
    /// trips (ModelStore's chunk), the stays first (returning their keys and trips), then the
    /// trips' history rows and the trips, every statement pipelined.
    private func cascadeDelete(_ connection: HandPQ) throws -> Int {
        try connection.execute("BEGIN")
        let history = try HandPostgresHistory(connection)
        let keys = HandArray(HandPQ.OID.int8)
        var start = 0
        while start < trips.count {
            let batch = trips[start..<min(start + 4_096, trips.count)]
            start = batch.endIndex
            keys.removeAll()
            for model in batch { keys.int64(model.rowID) }
            parameters.removeAll()
            parameters.array(keys)
            try connection.send(Self.deleteStays, parameters)
            var stays: [Int64: [Int64]] = [:]
            try connection.receive { deleted in
                for row in 0..<PQntuples(deleted) {
                    stays[HandColumn.int64(deleted, row, 1), default: []].append(HandColumn.int64(deleted, row, 0))
                }
            }
            for model in batch {
                try history.record(kind: 2, entity: HandHistory.entity(of: model), row: model.rowID,
                                   tombstone: HandHistory.tombstone(identifier: model.identifier))
                for stay in stays[model.rowID] ?? [] { try history.record(kind: 2, entity: "Accommodation", row: stay) }
            }
            parameters.removeAll()
            parameters.array(keys)
            try connection.send(Self.deleteTrips, parameters)
        }
        try connection.receive()
        try history.finish()
        try connection.execute("COMMIT")
        return trips.count
    }

    // MARK: Reading

    private func readTrips(_ connection: HandPQ, _ statement: String, date: Date?) throws -> [PlainTrip] {
        var result: [PlainTrip] = []
        try stepTrips(connection, statement, date: date) { result.append($0) }
        return result
    }

    /// Runs a trips query (with `date` as its parameter, if any) and hands a plain object of each
    /// row's class to `body`.
    private func stepTrips(_ connection: HandPQ, _ statement: String, date: Date?, _ body: (PlainTrip) -> Void) throws {
        parameters.removeAll()
        if let date { parameters.date(date) }
        let result = try connection.run(statement, parameters)
        defer { PQclear(result) }
        try readTrips(result, body)
    }

    /// Hands a plain object of each row of a trips query's result to `body`.
    private func readTrips(_ result: OpaquePointer, _ body: (PlainTrip) -> Void) throws {
        for row in 0..<PQntuples(result) {
            let rowID = HandColumn.int64(result, row, 0)
            let type = HandColumn.bytes(result, row, 1)
            let name = HandColumn.text(result, row, 2) ?? ""
            let start = HandColumn.date(result, row, 3)
            let end = HandColumn.date(result, row, 4)
            let identifier = try HandColumn.uuid(result, row, 5)
            // The type column tells the class: compare its first letter, then its length.
            if type.count == 12, type[0] == UInt8(ascii: "B") {
                body(PlainBusinessTrip(rowID: rowID, name: name, startDate: start, endDate: end, identifier: identifier,
                                       company: HandColumn.text(result, row, 6) ?? "", expenseReport: HandColumn.text(result, row, 7),
                                       meetingAgenda: HandColumn.text(result, row, 8)))
            } else if type.count == 12, type[0] == UInt8(ascii: "P") {
                guard let reason = PlainPersonalTrip.Reason(rawValue: HandColumn.text(result, row, 9) ?? ""),
                      let companions = StringArrayJSON.decode(HandColumn.jsonb(result, row, 10)) else {
                    throw HandSQLiteError(message: "bad PersonalTrip row \(rowID)")
                }
                body(PlainPersonalTrip(rowID: rowID, name: name, startDate: start, endDate: end, identifier: identifier,
                                       reason: reason, companions: companions))
            } else {
                body(PlainTrip(rowID: rowID, name: name, startDate: start, endDate: end, identifier: identifier))
            }
        }
    }

    /// The trips and, in a second query, their stays (the prefetch workloads); returns the stays
    /// read, each trip and stay read through a registrar kept beside it when `observed`.
    private func readTripsWithStays(_ connection: HandPQ, observed: Bool) throws -> Int {
        trips = try readTrips(connection, Self.selectAll, date: nil)
        stays = Dictionary(uniqueKeysWithValues: trips.map { ($0.rowID, []) })
        parameters.removeAll()
        let result = try connection.run(Self.selectStays, parameters)
        defer { PQclear(result) }
        for row in 0..<PQntuples(result) {
            let stay = PlainStay(rowID: HandColumn.int64(result, row, 0), name: HandColumn.text(result, row, 1) ?? "")
            stays[HandColumn.int64(result, row, 2)]?.append(stay)
        }
        return observed ? registrars.countStays(of: trips, stays) : ObservedReads.countStays(of: trips, stays)
    }

    // MARK: Setup

    /// The connection of the workload's own store, else the main one.
    private func connection() throws -> HandPQ {
        guard let connection = own ?? main else { throw HandSQLiteError(message: "no store") }
        return connection
    }

    /// Connects to store `name` (a new database), creates its tables and prepares the statements.
    private func open(_ name: String) throws -> HandPQ {
        guard let stores else { throw HandSQLiteError(message: "no stores") }
        let connection = try HandPQ(parameters: try stores.database(name).url.connectionParameters)
        try connection.execute(Self.tables)
        try Self.prepareStatements(connection)
        return connection
    }

    /// The tables ModelStore creates for `Trips.model` on PostgreSQL (see
    /// Tests/ModelStoreTests/Goldens/Trips.postgresql.schema.sql), and the history's.
    private static let tables = """
        CREATE TABLE "$history_counter" ("id" bigint PRIMARY KEY, "store" text NOT NULL, "lastToken" bigint NOT NULL, "deletedThrough" bigint NOT NULL);
        CREATE TABLE "$history" ("token" bigint PRIMARY KEY, "author" text, "timestamp" double precision NOT NULL, "bundle" text NOT NULL, "process" text NOT NULL);
        CREATE TABLE "$history_changes" ("token" bigint NOT NULL, "change" bigint NOT NULL, "kind" bigint NOT NULL, "entity" text NOT NULL, "row" bigint NOT NULL, "attributes" text, "tombstone" bytea, PRIMARY KEY ("token", "change"));
        CREATE TABLE "Trip" ("$pk" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "$type" text NOT NULL, "name" text NOT NULL, "startDate" double precision NOT NULL, "endDate" double precision NOT NULL, "identifier" uuid NOT NULL, "BusinessTrip.company" text CONSTRAINT "BusinessTrip.company.check" CHECK ("$type" <> 'BusinessTrip' OR "BusinessTrip.company" IS NOT NULL), "BusinessTrip.expenseReport" text, "BusinessTrip.meetingAgenda" text, "PersonalTrip.reason" text CONSTRAINT "PersonalTrip.reason.check" CHECK ("$type" <> 'PersonalTrip' OR "PersonalTrip.reason" IS NOT NULL), "PersonalTrip.companions" jsonb DEFAULT '[]' CONSTRAINT "PersonalTrip.companions.check" CHECK ("$type" <> 'PersonalTrip' OR "PersonalTrip.companions" IS NOT NULL));
        CREATE TABLE "Accommodation" ("$pk" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "$type" text NOT NULL, "name" text NOT NULL, "trip" bigint CONSTRAINT "trip.fkey" REFERENCES "Trip"("$pk") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED);
        CREATE INDEX "Accommodation.index(trip)" ON "Accommodation" ("trip");
        CREATE TABLE "Itinerary" ("$pk" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "$type" text NOT NULL, "title" text NOT NULL, "days" jsonb NOT NULL DEFAULT '[]', "trip" bigint CONSTRAINT "trip.fkey" REFERENCES "Trip"("$pk") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED);
        CREATE INDEX "Itinerary.index(trip)" ON "Itinerary" ("trip");
        """

    /// The first `tripCount` rows' trips, each with two accommodations (not timed).
    private func insertTripsWithStays(count tripCount: Int, _ connection: HandPQ) throws {
        let trips = rows.prefix(tripCount).map(HandWrittenSide.makeTrip)
        try insert(trips, connection, history: false)
        try connection.execute("BEGIN")
        for (row, trip) in zip(rows.prefix(tripCount), trips) {
            for number in 1...2 {
                parameters.removeAll()
                parameters.text("Stay \(number) of \(row.name)")
                parameters.int64(trip.rowID)
                try connection.sendInBatches(Self.insertStay, parameters)
            }
        }
        try connection.receive()
        try connection.execute("COMMIT")
    }
}

/// Persistent history written by hand on libpq, as ModelStore records it on PostgreSQL: inside
/// the caller's transaction, the next token from the counter row (made by the first save), one
/// change row per changed model, then the transaction row.
final class HandPostgresHistory {
    private let connection: HandPQ
    private let token: Int64
    private var index: Int64 = 0
    private let parameters = HandParameters()

    static let statements: [(String, String, [Oid])] = [
        ("history_next", "UPDATE \"$history_counter\" SET \"lastToken\" = \"lastToken\" + 1 WHERE \"id\" = 1 RETURNING \"lastToken\"", []),
        ("history_first", "INSERT INTO \"$history_counter\" (\"id\", \"store\", \"lastToken\", \"deletedThrough\") VALUES (1, $1, 1, 0) "
            + "ON CONFLICT (\"id\") DO UPDATE SET \"lastToken\" = \"$history_counter\".\"lastToken\" + 1 RETURNING \"lastToken\"", [HandPQ.OID.text]),
        ("history_changes", "INSERT INTO \"$history_changes\" (\"token\", \"change\", \"kind\", \"entity\", \"row\", \"attributes\", \"tombstone\") "
            + "SELECT * FROM unnest($1, $2, $3, $4, $5, $6, $7)",
         [HandPQ.OID.int8Array, HandPQ.OID.int8Array, HandPQ.OID.int8Array, HandPQ.OID.textArray, HandPQ.OID.int8Array, HandPQ.OID.textArray, HandPQ.OID.byteaArray]),
        ("history_transaction", "INSERT INTO \"$history\" (\"token\", \"author\", \"timestamp\", \"bundle\", \"process\") VALUES ($1, NULL, $2, $3, $4)",
         [HandPQ.OID.int8, HandPQ.OID.float8, HandPQ.OID.text, HandPQ.OID.text]),
    ]

    /// Starts the history of a save (call inside its transaction).
    init(_ connection: HandPQ) throws {
        self.connection = connection
        let next = try connection.run("history_next", parameters)
        if PQntuples(next) == 1 {
            token = HandColumn.int64(next, 0, 0)
            PQclear(next)
        } else {
            PQclear(next)
            parameters.text(UUID().uuidString)
            let first = try connection.run("history_first", parameters)
            token = HandColumn.int64(first, 0, 0)
            PQclear(first)
        }
    }

    /// The change rows not yet sent, a column per array (sent `HandPQ.batch` rows per statement,
    /// as ModelStore does; docs/PostgreSQL.md, "Batched writes").
    private var changes = [HandPQ.OID.int8, HandPQ.OID.int8, HandPQ.OID.int8, HandPQ.OID.text, HandPQ.OID.int8, HandPQ.OID.text, HandPQ.OID.bytea].map { HandArray($0) }

    /// Records a change: kind 0 insert, 1 update (with the updated property names), 2 delete
    /// (with the tombstone bytes).
    func record(kind: Int64, entity: String, row: Int64, attributes: String? = nil, tombstone: [UInt8]? = nil) throws {
        changes[0].int64(token)
        changes[1].int64(index)
        changes[2].int64(kind)
        changes[3].text(entity)
        changes[4].int64(row)
        changes[5].text(attributes)
        changes[6].blob(tombstone)
        index += 1
        if changes[0].count >= HandPQ.batch { try sendChanges() }
    }

    private func sendChanges() throws {
        guard changes[0].count > 0 else { return }
        parameters.removeAll()
        for column in changes.indices { parameters.array(changes[column]) }
        try connection.sendInBatches("history_changes", parameters)
        for column in changes.indices { changes[column].removeAll() }
    }

    /// Writes the transaction row (after reading the change rows' results).
    func finish() throws {
        try sendChanges()
        try connection.receive()
        parameters.removeAll()
        parameters.int64(token)
        parameters.date(Date())
        parameters.text(ProcessInfo.processInfo.processName)
        parameters.text(String(ProcessInfo.processInfo.processIdentifier))
        try connection.runIgnoringRows("history_transaction", parameters)
    }
}
