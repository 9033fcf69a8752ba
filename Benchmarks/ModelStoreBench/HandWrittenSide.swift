import CSQLite
import Foundation

/// The workloads written by hand on the SQLite C API: the same tables (the layout ModelStore
/// creates for `Trips.model`), the same rows and file settings, prepared statements, one
/// transaction per write, rows read by column index into plain classes.
final class HandWrittenSide: TripStoreSide {
    private let rows: [TripRow]
    private let cutoff: Date?
    private var stores: BenchStores?
    private var storeURL: URL?
    /// The main store, when a workload uses a store of its own.
    private var mainStoreURL: URL?
    /// The workload's connection and objects, kept until `finish()` so their release is not timed.
    private var connection: HandConnection?
    /// The connection of the workload or setup before, open and idle, which the next workload on
    /// its store takes over (`newConnection()`), as ModelStore hands an ended context's SQLite
    /// connection to the next context (docs/Benchmarks.md, "Method").
    private var idleConnection: HandConnection?
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

    init(rows: [TripRow], cutoff: Date?) {
        self.rows = rows
        self.cutoff = cutoff
    }

    func begin(stores: BenchStores) throws {
        self.stores = stores
        storedRenamed = false
        // A repetition starts on its own stores: a workload's own store of the last one is gone.
        mainStoreURL = nil
        storeURL = try stores.url("hand-written")
        try createTables()
    }

    func prepare(_ workload: Workload) throws {
        if let mainStoreURL {
            storeURL = mainStoreURL
            self.mainStoreURL = nil
        }
        switch workload {
        case .insertWithHistory:
            mainStoreURL = storeURL
            storeURL = try stores?.url("hand-written-history")
            try createTables()
        case .updateNames, .updateNamesWithHistory, .updateNamesTracked:
            trips = try readTrips(try newConnection(), sql: Self.selectAll + " ORDER BY \"$pk\"", date: nil)
            if workload == .updateNamesTracked { tracking.track(count: trips.count) }
        case .prefetch, .prefetchObservable:
            mainStoreURL = storeURL
            storeURL = try stores?.url("hand-written-" + workload.rawValue)
            try createTables()
            try insertTripsWithStays(count: Workload.prefetchTripCount(rows: rows.count))
        case .lookupByKey:
            // Left idle for the workload, which takes it over (as the generated side's context does).
            let all = try readTrips(try newConnection(), sql: Self.selectAll + " ORDER BY \"$pk\"", date: nil)
            lookupKeys = Workload.lookupIndices(rows: all.count).map { all[$0].rowID }
            leaveConnectionIdle()
        case .lookupByName:
            try stores?.execute(Workload.nameIndexSQL, on: "hand-written")
            lookupNames = Workload.lookupIndices(rows: rows.count).map { rows[$0].storedName(storedRenamed: storedRenamed) }
        case .count:
            for _ in 0..<Workload.untimedCounts { _ = try count() }
            leaveConnectionIdle()  // for the timed count's `newConnection()`
        case .cascadeDelete:
            storeURL = try stores?.url("hand-written-cascade")
            try createTables()
            try insertTripsWithStays(count: Workload.cascadeTripCount(rows: rows.count))
            trips = try readTrips(try newConnection(), sql: Self.selectAll + " ORDER BY \"$pk\"", date: nil)
        default:
            break
        }
    }

    func run(_ workload: Workload) throws -> Int {
        switch workload {
        case .insert:
            try insert(rows.map(Self.makeTrip), connection: try newConnection(), history: false)
            return rows.count
        case .insertWithHistory:
            try insert(rows.map(Self.makeTrip), connection: try newConnection(), history: true)
            return rows.count
        case .fetchAll:
            trips = try readTrips(try newConnection(), sql: Self.selectAll + " ORDER BY \"$pk\"", date: nil)
            return trips.count
        case .enumerateAll:
            var count = 0
            try stepTrips(try newConnection(), sql: Self.selectAll + " ORDER BY \"$pk\"", date: nil) { trip in
                if !trip.name.isEmpty { count += 1 }
            }
            return count
        case .enumerateAllObservable:
            var count = 0
            try stepTrips(try newConnection(), sql: Self.selectAll + " ORDER BY \"$pk\"", date: nil) { trip in
                if !ObservedRead.name(of: trip).isEmpty { count += 1 }
            }
            return count
        case .prefetch:
            return try readTripsWithStays(observed: false)
        case .prefetchObservable:
            return try readTripsWithStays(observed: true)
        case .fetchSubclass:
            let filter = cutoff == nil ? "" : " AND \"endDate\" > ?"
            trips = try readTrips(try newConnection(), sql: Self.selectAll + " WHERE \"$type\" = 'BusinessTrip'" + filter
                                  + " ORDER BY \"startDate\", \"$pk\"", date: cutoff)
            return trips.count
        case .updateNames:
            var untracked = NoChangeTracking()
            return try updateNames(history: false, tracking: &untracked)
        case .updateNamesWithHistory:
            var untracked = NoChangeTracking()
            return try updateNames(history: true, tracking: &untracked)
        case .updateNamesTracked:
            // One access to the property for the whole loop, not one checked at run time per change.
            let renamed = try updateNames(history: false, tracking: &tracking)
            try tracking.didSave(renamed: renamed)
            return renamed
        case .count:
            return try count()
        case .lookupByKey:
            return try lookUp(sql: Self.selectAll + " WHERE \"$pk\" = ? ORDER BY \"$pk\"", count: lookupKeys.count) { query, index in
                sqlite3_bind_int64(query, 1, lookupKeys[index])
            }
        case .lookupByName:
            return try lookUp(sql: Self.selectAll + " WHERE \"name\" = ? ORDER BY \"$pk\"", count: lookupNames.count) { query, index in
                bindText(query, 1, lookupNames[index])
            }
        case .cascadeDelete:
            return try cascadeDelete()
        }
    }

    func newestHistoryChangeCount() throws -> Int {
        let connection = try newConnection()
        let query = try connection.prepare(Workload.newestHistoryChangeCountSQL)
        defer { sqlite3_finalize(query) }
        guard sqlite3_step(query) == SQLITE_ROW else { throw connection.error(Workload.newestHistoryChangeCountSQL) }
        return Int(sqlite3_column_int64(query, 0))
    }

    func finish() {
        trips = []
        stays = [:]
        registrars = ObservedReads()
        leaveConnectionIdle()
    }

    func end() {
        finish()
        idleConnection = nil
        stores = nil
    }

    // MARK: Workloads

    private func insert(_ trips: [PlainTrip], connection: HandConnection, history: Bool) throws {
        let plain = try connection.prepare("INSERT INTO \"Trip\" (\"$type\", \"name\", \"startDate\", \"endDate\", \"identifier\") VALUES ('Trip', ?, ?, ?, ?)")
        let business = try connection.prepare("INSERT INTO \"Trip\" (\"$type\", \"name\", \"startDate\", \"endDate\", \"identifier\", \"BusinessTrip.company\", \"BusinessTrip.expenseReport\", \"BusinessTrip.meetingAgenda\") VALUES ('BusinessTrip', ?, ?, ?, ?, ?, ?, ?)")
        let personal = try connection.prepare("INSERT INTO \"Trip\" (\"$type\", \"name\", \"startDate\", \"endDate\", \"identifier\", \"PersonalTrip.reason\", \"PersonalTrip.companions\") VALUES ('PersonalTrip', ?, ?, ?, ?, ?, ?)")
        defer { [plain, business, personal].forEach { sqlite3_finalize($0) } }
        try connection.execute("BEGIN IMMEDIATE")
        for trip in trips {
            let statement: OpaquePointer
            switch trip {
            case let trip as PlainBusinessTrip:
                statement = business
                bindText(statement, 5, trip.company)
                bindText(statement, 6, trip.expenseReport)
                bindText(statement, 7, trip.meetingAgenda)
            case let trip as PlainPersonalTrip:
                statement = personal
                bindText(statement, 5, trip.reason.rawValue)
                bindText(statement, 6, StringArrayJSON.encode(trip.companions))
            default:
                statement = plain
            }
            bindText(statement, 1, trip.name)
            sqlite3_bind_double(statement, 2, trip.startDate.timeIntervalSinceReferenceDate)
            sqlite3_bind_double(statement, 3, trip.endDate.timeIntervalSinceReferenceDate)
            bindUUID(statement, 4, trip.identifier)
            try connection.runAndReset(statement)
            trip.rowID = sqlite3_last_insert_rowid(connection.handle)
        }
        if history {
            let record = try HandHistory(connection: connection)
            for trip in trips { try record.record(kind: 0, entity: HandHistory.entity(of: trip), row: trip.rowID) }
            try record.finish()
        }
        try connection.execute("COMMIT")
    }

    /// Renames every trip (`TripRow.name(storedRenamed:)`), recording each change when `history`,
    /// telling `tracking` of each.
    private func updateNames<Tracker: ChangeTracker>(history: Bool, tracking: inout Tracker) throws -> Int {
        guard let connection else { return 0 }
        let update = try connection.prepare("UPDATE \"Trip\" SET \"name\" = ? WHERE \"$pk\" = ?")
        defer { sqlite3_finalize(update) }
        try connection.execute("BEGIN IMMEDIATE")
        var position = 0
        for (trip, row) in zip(trips, rows) {
            tracking.willRename(trip, at: position)
            position += 1
            trip.name = row.name(storedRenamed: storedRenamed)
            bindText(update, 1, trip.name)
            sqlite3_bind_int64(update, 2, trip.rowID)
            try connection.runAndReset(update)
        }
        if history { try recordRenames(connection) }
        try connection.execute("COMMIT")
        storedRenamed.toggle()
        return trips.count
    }

    /// The history rows of `updateNames`: a function of its own, not generic, so the compiler
    /// inlines as it did before the update loop was generic (inside the generic loop's
    /// specialization, the binds were left as calls: 3.0 M more for 20,000 trips).
    private func recordRenames(_ connection: HandConnection) throws {
        let record = try HandHistory(connection: connection)
        for trip in trips { try record.record(kind: 1, entity: HandHistory.entity(of: trip), row: trip.rowID, attributes: "name") }
        try record.finish()
    }

    private func count() throws -> Int {
        let connection = try newConnection()
        // Kept by the connection from the untimed counts on, as the generated side's statement.
        let query = try connection.kept("SELECT count(*) FROM \"Trip\"" + (cutoff == nil ? "" : " WHERE \"startDate\" < ?"))
        defer { sqlite3_reset(query) }
        if let cutoff { sqlite3_bind_double(query, 1, cutoff.timeIntervalSinceReferenceDate) }
        guard sqlite3_step(query) == SQLITE_ROW else { throw connection.error("count") }
        return Int(sqlite3_column_int64(query, 0))
    }

    /// Deletes the loaded trips and their accommodations, recording each deletion in the history
    /// (with each trip's preserved `identifier`), as ModelStore does.
    private func cascadeDelete() throws -> Int {
        guard let connection else { return 0 }
        let stays = try connection.prepare("DELETE FROM \"Accommodation\" WHERE \"trip\" = ? RETURNING \"$pk\"")
        let trip = try connection.prepare("DELETE FROM \"Trip\" WHERE \"$pk\" = ?")
        defer { [stays, trip].forEach { sqlite3_finalize($0) } }
        try connection.execute("BEGIN IMMEDIATE")
        let history = try HandHistory(connection: connection)
        for model in trips {
            try history.record(kind: 2, entity: HandHistory.entity(of: model), row: model.rowID,
                               tombstone: HandHistory.tombstone(identifier: model.identifier))
            sqlite3_bind_int64(stays, 1, model.rowID)
            var deleted: [Int64] = []
            var step = sqlite3_step(stays)
            while step == SQLITE_ROW {
                deleted.append(sqlite3_column_int64(stays, 0))
                step = sqlite3_step(stays)
            }
            guard step == SQLITE_DONE else { throw connection.error("DELETE FROM Accommodation") }
            sqlite3_reset(stays)
            for stay in deleted { try history.record(kind: 2, entity: "Accommodation", row: stay) }
            sqlite3_bind_int64(trip, 1, model.rowID)
            try connection.runAndReset(trip)
        }
        try history.finish()
        try connection.execute("COMMIT")
        return trips.count
    }

    // MARK: Reading

    private static let selectAll = "SELECT \"$pk\", \"$type\", \"name\", \"startDate\", \"endDate\", \"identifier\", \"BusinessTrip.company\", \"BusinessTrip.expenseReport\", \"BusinessTrip.meetingAgenda\", \"PersonalTrip.reason\", \"PersonalTrip.companions\" FROM \"Trip\""

    /// Runs a `selectAll` query (with `date` bound first, if any) into plain objects of each row's class.
    private func readTrips(_ connection: HandConnection, sql: String, date: Date?) throws -> [PlainTrip] {
        var result: [PlainTrip] = []
        try stepTrips(connection, sql: sql, date: date) { result.append($0) }
        return result
    }

    /// The trips and, in a second query, their stays (the prefetch workloads); returns the stays
    /// read, each trip and stay read through a registrar kept beside it when `observed`.
    private func readTripsWithStays(observed: Bool) throws -> Int {
        let connection = try newConnection()
        trips = try readTrips(connection, sql: Self.selectAll + " ORDER BY \"$pk\"", date: nil)
        // Each trip's stays, by the trip's key (kept beside the trips, as their `accommodations`).
        stays = Dictionary(uniqueKeysWithValues: trips.map { ($0.rowID, []) })
        let query = try connection.prepare("SELECT \"$pk\", \"name\", \"trip\" FROM \"Accommodation\" WHERE \"trip\" IN (SELECT \"$pk\" FROM \"Trip\") ORDER BY \"$pk\"")
        defer { sqlite3_finalize(query) }
        while true {
            let step = sqlite3_step(query)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw connection.error("SELECT FROM Accommodation") }
            let stay = PlainStay(rowID: sqlite3_column_int64(query, 0), name: columnText(query, 1) ?? "")
            stays[sqlite3_column_int64(query, 2)]?.append(stay)
        }
        return observed ? registrars.countStays(of: trips, stays) : ObservedReads.countStays(of: trips, stays)
    }

    /// Runs a `selectAll` query `count` times, one statement prepared once, `bind` setting its
    /// parameter for each run; keeps the objects.
    private func lookUp(sql: String, count: Int, bind: (OpaquePointer, Int) -> Void) throws -> Int {
        let connection = try newConnection()
        let query = try connection.prepare(sql)
        defer { sqlite3_finalize(query) }
        for index in 0..<count {
            bind(query, index)
            try stepTrips(query, connection: connection, sql: sql) { trips.append($0) }
            sqlite3_reset(query)
        }
        return trips.count
    }

    /// Steps through a `selectAll` query (with `date` bound first, if any), making a plain object
    /// of each row's class and handing it to `body`.
    private func stepTrips(_ connection: HandConnection, sql: String, date: Date?, _ body: (PlainTrip) -> Void) throws {
        let query = try connection.prepare(sql)
        defer { sqlite3_finalize(query) }
        if let date { sqlite3_bind_double(query, 1, date.timeIntervalSinceReferenceDate) }
        try stepTrips(query, connection: connection, sql: sql, body)
    }

    /// Steps through the rows of a prepared `selectAll` query.
    private func stepTrips(_ query: OpaquePointer, connection: HandConnection, sql: String, _ body: (PlainTrip) -> Void) throws {
        while true {
            let step = sqlite3_step(query)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw connection.error(sql) }
            let rowID = sqlite3_column_int64(query, 0)
            let type = columnBytes(query, 1)
            let name = columnText(query, 2) ?? ""
            let start = columnDate(query, 3)
            let end = columnDate(query, 4)
            let identifier = try columnUUID(query, 5)
            // The type column tells the class: compare its first letter, then its length.
            if type.count == 12, type[0] == UInt8(ascii: "B") {
                body(PlainBusinessTrip(rowID: rowID, name: name, startDate: start, endDate: end, identifier: identifier,
                                       company: columnText(query, 6) ?? "", expenseReport: columnText(query, 7),
                                       meetingAgenda: columnText(query, 8)))
            } else if type.count == 12, type[0] == UInt8(ascii: "P") {
                guard let reason = PlainPersonalTrip.Reason(rawValue: columnText(query, 9) ?? ""),
                      let companions = StringArrayJSON.decode(columnBytes(query, 10)) else {
                    throw HandSQLiteError(message: "bad PersonalTrip row \(rowID)")
                }
                body(PlainPersonalTrip(rowID: rowID, name: name, startDate: start, endDate: end, identifier: identifier,
                                       reason: reason, companions: companions))
            } else {
                body(PlainTrip(rowID: rowID, name: name, startDate: start, endDate: end, identifier: identifier))
            }
        }
    }

    // MARK: Setup

    /// A connection to the workload's store: the idle one if it is to that store, else a new one.
    private func newConnection() throws -> HandConnection {
        guard let storeURL else { throw HandSQLiteError(message: "no store") }
        let connection: HandConnection
        if let idle = idleConnection, idle.url == storeURL {
            idleConnection = nil
            connection = idle
        } else {
            connection = try HandConnection(url: storeURL)
        }
        if let previous = self.connection, previous !== connection { idleConnection = previous }
        self.connection = connection
        return connection
    }

    /// Leaves the workload's connection open and idle for the next workload (the idle one before
    /// it, if any, is closed).
    private func leaveConnectionIdle() {
        if let connection { idleConnection = connection }
        connection = nil
    }

    /// The tables ModelStore creates for `Trips.model`, statement for statement (row keys `AUTOINCREMENT`,
    /// never reused, as the store promises): `SchemaLayoutTests` checks them against
    /// Tests/ModelStoreTests/Goldens/Trips.schema.sql.
    private func createTables() throws {
        let connection = try newConnection()
        try connection.execute(HandHistory.tables + """
            CREATE TABLE "Trip" ("$pk" INTEGER PRIMARY KEY AUTOINCREMENT, "$type" TEXT NOT NULL, "name" TEXT NOT NULL, "startDate" REAL NOT NULL, "endDate" REAL NOT NULL, "identifier" BLOB NOT NULL, "BusinessTrip.company" TEXT CHECK ("$type" <> 'BusinessTrip' OR "BusinessTrip.company" IS NOT NULL), "BusinessTrip.expenseReport" TEXT, "BusinessTrip.meetingAgenda" TEXT, "PersonalTrip.reason" TEXT CHECK ("$type" <> 'PersonalTrip' OR "PersonalTrip.reason" IS NOT NULL), "PersonalTrip.companions" TEXT DEFAULT '[]' CHECK ("$type" <> 'PersonalTrip' OR "PersonalTrip.companions" IS NOT NULL));
            CREATE TABLE "Accommodation" ("$pk" INTEGER PRIMARY KEY AUTOINCREMENT, "$type" TEXT NOT NULL, "name" TEXT NOT NULL, "trip" INTEGER REFERENCES "Trip"("$pk") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED);
            CREATE INDEX "Accommodation.index(trip)" ON "Accommodation" ("trip");
            CREATE TABLE "Itinerary" ("$pk" INTEGER PRIMARY KEY AUTOINCREMENT, "$type" TEXT NOT NULL, "title" TEXT NOT NULL, "days" TEXT NOT NULL DEFAULT '[]', "trip" INTEGER REFERENCES "Trip"("$pk") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED);
            CREATE INDEX "Itinerary.index(trip)" ON "Itinerary" ("trip");
            """)
    }

    /// The first `tripCount` rows' trips, each with two accommodations (not timed).
    private func insertTripsWithStays(count tripCount: Int) throws {
        let connection = try newConnection()
        let trips = rows.prefix(tripCount).map(Self.makeTrip)
        try insert(trips, connection: connection, history: false)
        let stay = try connection.prepare("INSERT INTO \"Accommodation\" (\"$type\", \"name\", \"trip\") VALUES ('Accommodation', ?, ?)")
        defer { sqlite3_finalize(stay) }
        try connection.execute("BEGIN IMMEDIATE")
        for (row, trip) in zip(rows.prefix(tripCount), trips) {
            for number in 1...2 {
                bindText(stay, 1, "Stay \(number) of \(row.name)")
                sqlite3_bind_int64(stay, 2, trip.rowID)
                try connection.runAndReset(stay)
            }
        }
        try connection.execute("COMMIT")
    }

    /// The plain object of a row.
    static func makeTrip(_ row: TripRow) -> PlainTrip {
        switch row.kind {
        case .trip:
            return PlainTrip(rowID: 0, name: row.name, startDate: row.startDate, endDate: row.endDate, identifier: UUID())
        case .business:
            return PlainBusinessTrip(rowID: 0, name: row.name, startDate: row.startDate, endDate: row.endDate, identifier: UUID(),
                                     company: row.company, expenseReport: row.expenseReport, meetingAgenda: nil)
        case .personal:
            return PlainPersonalTrip(rowID: 0, name: row.name, startDate: row.startDate, endDate: row.endDate, identifier: UUID(),
                                     reason: PlainPersonalTrip.Reason.allCases[row.reasonIndex], companions: row.companions)
        }
    }
}
