import Foundation
import ModelStore

/// The workloads through the code ModelGenPlugin generates from `Trips.model`, on ModelStore.
final class GeneratedSide: TripStoreSide {
    private let rows: [TripRow]
    /// The predicates' date; nil when the runtime has no predicates yet (the workloads then run unfiltered).
    private let cutoff: Date?
    private var stores: BenchStores?
    /// The store of most workloads, history off.
    private var container: ModelContainer?
    /// The container of a workload with a store or settings of its own (history on).
    private var workloadContainer: ModelContainer?
    /// The workload's context and objects, kept until `finish()` so their release is not timed.
    private var context: ModelContext?
    private var trips: [Trip] = []
    /// `fetchSubclass`'s result, kept as the fetch returns it: assigned to `trips`, `[BusinessTrip]`
    /// was copied into a new `[Trip]` with a cast per element (about 130 instructions a row, the
    /// bench's bookkeeping, where the hand-written side keeps the array its read returns).
    private var businessTrips: [BusinessTrip] = []
    /// Whether the store holds the rows' new names (`TripRow.name(storedRenamed:)`): set by each update.
    private var storedRenamed = false
    /// The lookup workloads' identifiers and names.
    private var lookupIDs: [PersistentIdentifier] = []
    private var lookupNames: [String] = []

    init(rows: [TripRow], cutoff: Date?) {
        self.rows = rows
        self.cutoff = cutoff
    }

    func begin(stores: BenchStores) throws {
        self.stores = stores
        storedRenamed = false
        container = try Self.openContainer(stores.url("generated"), history: false)
    }

    func prepare(_ workload: Workload) throws {
        workloadContainer = nil
        switch workload {
        case .insertWithHistory:
            guard let stores else { return }
            workloadContainer = try Self.openContainer(stores.url("generated-history"), history: true)
        case .updateNames, .updateNamesTracked:
            let context = try newContext()
            trips = try context.fetch(FetchDescriptor<Trip>())
        case .updateNamesWithHistory:
            guard let stores else { return }
            workloadContainer = try Self.openContainer(stores.url("generated"), history: true)
            trips = try newContext().fetch(FetchDescriptor<Trip>())
        case .prefetch, .prefetchObservable:
            guard let stores else { return }
            let container = try Self.openContainer(stores.url("generated-" + workload.rawValue), history: false)
            try Self.insertTripsWithStays(rows.prefix(Workload.prefetchTripCount(rows: rows.count)), into: container)
            workloadContainer = container
        case .lookupByKey:
            // A context of its own, let go of here: not the workload's, whose release is timed.
            guard let container else { return }
            let all = try ModelContext(container).fetch(FetchDescriptor<Trip>())
            lookupIDs = Workload.lookupIndices(rows: all.count).map { all[$0].persistentModelID }
        case .lookupByName:
            try stores?.execute(Workload.nameIndexSQL, on: "generated")
            lookupNames = Workload.lookupIndices(rows: rows.count).map { rows[$0].storedName(storedRenamed: storedRenamed) }
        case .count:
            for _ in 0..<Workload.untimedCounts { _ = try countTrips() }
            context = nil  // let go of here: the timed count's `newContext()` would release it
        case .cascadeDelete:
            guard let stores else { return }
            let container = try Self.openContainer(stores.url("generated-cascade"), history: true)
            self.container = container
            try Self.insertTripsWithStays(rows.prefix(Workload.cascadeTripCount(rows: rows.count)), into: container)
            let context = try newContext()
            trips = try context.fetch(FetchDescriptor<Trip>())
        default:
            break
        }
    }

    func run(_ workload: Workload) throws -> Int {
        switch workload {
        case .insert, .insertWithHistory:
            let context = try newContext()
            for row in rows { context.insert(Self.makeTrip(row)) }
            try context.save()
            return rows.count
        case .fetchAll:
            trips = try newContext().fetch(FetchDescriptor<Trip>())
            return trips.count
        case .enumerateAll, .enumerateAllObservable:
            var count = 0
            try newContext().enumerate(FetchDescriptor<Trip>(), batchSize: Workload.enumerateBatchSize) { trip in
                if !trip.name.isEmpty { count += 1 }
            }
            return count
        case .prefetch, .prefetchObservable:
            var descriptor = FetchDescriptor<Trip>()
            descriptor.relationshipKeyPathsForPrefetching = [\.accommodations]
            trips = try newContext().fetch(descriptor)
            var stays = 0
            for trip in trips {
                for stay in trip.accommodations where !stay.name.isEmpty { stays += 1 }
            }
            return stays
        case .fetchSubclass:
            var descriptor = FetchDescriptor<BusinessTrip>(sortBy: [SortDescriptor(\.startDate)])
            if let cutoff { descriptor.predicate = #Predicate<BusinessTrip> { $0.endDate > cutoff } }
            businessTrips = try newContext().fetch(descriptor)
            return businessTrips.count
        case .updateNames, .updateNamesWithHistory, .updateNamesTracked:
            return try updateNames()
        case .count:
            return try countTrips()
        case .lookupByKey:
            return try lookUpByKey()
        case .lookupByName:
            return try lookUpByName()
        case .cascadeDelete:
            guard let context else { return 0 }
            for trip in trips { context.delete(trip) }
            try context.save()
            return trips.count
        }
    }

    /// The count workload's count, on a new context.
    private func countTrips() throws -> Int {
        var descriptor = FetchDescriptor<Trip>()
        if let cutoff { descriptor.predicate = #Predicate<Trip> { $0.startDate < cutoff } }
        return try newContext().fetchCount(descriptor)
    }

    /// Renames every trip (`TripRow.name(storedRenamed:)`), as the hand-written side's
    /// `updateNames(history:)` does, in a method of its own as there: inlined in `run(_:)`'s switch,
    /// the loop was left unspecialized and copied each `TripRow` (eight strings retained and
    /// released a row, 2 % of the workload's instructions) around the setter call.
    private func updateNames() throws -> Int {
        guard let context else { return 0 }
        for (trip, row) in zip(trips, rows) { trip.name = row.name(storedRenamed: storedRenamed) }
        try context.save()
        storedRenamed.toggle()
        return trips.count
    }

    /// One fetch per identifier; the trips are kept (as the hand-written side keeps its objects).
    private func lookUpByKey() throws -> Int {
        let context = try newContext()
        for id in lookupIDs {
            trips += try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.persistentModelID == id }))
        }
        return trips.count
    }

    /// One fetch per name.
    private func lookUpByName() throws -> Int {
        let context = try newContext()
        for name in lookupNames {
            trips += try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name }))
        }
        return trips.count
    }

    func newestHistoryChangeCount() throws -> Int {
        guard let container = workloadContainer ?? container else { return 0 }
        let transactions = try ModelContext(container).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        return transactions.last?.changes.count ?? 0
    }

    func finish() {
        trips = []
        businessTrips = []
        context = nil
        workloadContainer = nil
    }

    func end() {
        finish()
        container = nil
        stores = nil
    }

    /// A new context (on the workload's own container, if it has one), kept as the workload's.
    private func newContext() throws -> ModelContext {
        guard let container = workloadContainer ?? container else { throw HandSQLiteError(message: "no container") }
        let context = ModelContext(container)
        self.context = context
        return context
    }

    private static func openContainer(_ url: URL, history: Bool) throws -> ModelContainer {
        var configuration = ModelConfiguration(url: url)
        configuration.recordsHistory = history
        return try ModelContainer(for: TripStore.schema, configurations: configuration)
    }

    /// Inserts a trip per row with two accommodations each, in one save (not timed).
    private static func insertTripsWithStays(_ rows: ArraySlice<TripRow>, into container: ModelContainer) throws {
        let setup = ModelContext(container)
        for row in rows {
            let trip = makeTrip(row)
            setup.insert(trip)
            for stay in 1...2 {
                let accommodation = Accommodation(name: "Stay \(stay) of \(row.name)")
                setup.insert(accommodation)
                accommodation.trip = trip
            }
        }
        try setup.save()
    }

    /// The generated model of a row.
    static func makeTrip(_ row: TripRow) -> Trip {
        switch row.kind {
        case .trip:
            return Trip(name: row.name, startDate: row.startDate, endDate: row.endDate)
        case .business:
            let trip = BusinessTrip(name: row.name, startDate: row.startDate, endDate: row.endDate, company: row.company)
            trip.expenseReport = row.expenseReport
            return trip
        case .personal:
            let trip = PersonalTrip(name: row.name, startDate: row.startDate, endDate: row.endDate,
                                    reason: PersonalTrip.Reason.allCases[row.reasonIndex])
            trip.companions = row.companions
            return trip
        }
    }

    /// Whether the runtime translates predicates (false until the predicate stage lands).
    static func supportsPredicates() throws -> Bool {
        let container = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let cutoff = Date()
        do {
            _ = try ModelContext(container).fetchCount(FetchDescriptor<Trip>(predicate: #Predicate<Trip> { $0.startDate < cutoff }))
            return true
        } catch ModelStoreError.unsupportedPredicate {
            return false
        }
    }
}
