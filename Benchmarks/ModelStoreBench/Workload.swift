import BenchSupport
import Foundation

/// The workloads, in the order they run on one store. The raw value is the workload's name in
/// `--only` and in the JSON report.
enum Workload: String, CaseIterable {
    /// Insert every row in one save (history off).
    case insert
    /// The same, history on, into a store of its own.
    case insertWithHistory
    /// Fetch every trip, each as its own class, into objects.
    case fetchAll
    /// Visit every trip, each as its own class, a batch of 1,000 at a time, reading its name
    /// (hand-written: one statement stepped through, a plain object per row, none kept).
    case enumerateAll
    /// The same enumeration (the generated side runs it unchanged) against a hand-written loop
    /// whose row objects are observable: each row read makes an `ObservationRegistrar` and
    /// reports the access through it, as any observable model does (a model keeps SwiftData's
    /// observation, so this is the baseline its target is measured against; `enumerateAll`
    /// stays as the plain-object reference).
    case enumerateAllObservable
    /// Fetch one subclass (`BusinessTrip`), with a predicate on a date, sorted by date.
    case fetchSubclass
    /// Rename every trip, in one save (history off).
    case updateNames
    /// Rename every trip back, in one save, history on.
    case updateNamesWithHistory
    /// The rename of `updateNames` again (the generated side runs it unchanged; after
    /// `updateNamesWithHistory`, so it renames the same way) against a hand-written client that
    /// keeps what SwiftData's change tracking needs of each renamed object (`ChangeTracking`: the
    /// saved value for `rollback()`, the list of changed objects, `didSave`'s identifiers). A
    /// reference beside `updateNames`, which keeps the target: what the semantics' bookkeeping
    /// costs at the least (docs/Benchmarks.md, "Where the remaining gaps go").
    case updateNamesTracked
    /// Count the trips that match a predicate on a date: a count the app has made before. Each side
    /// counts `untimedCounts` times before the clock, so the timed count finds its predicate
    /// translated and learnt (generated), its statement prepared, and the table's pages as a scan
    /// left them (PostgreSQL sets the rows' hint bits at the first scan after their insert).
    case count
    /// Fetch 10,000 trips (fewer if N is smaller) with their accommodations, two each, loaded
    /// together (`relationshipKeyPathsForPrefetching`), reading every stay's name (hand-written:
    /// two queries).
    case prefetch
    /// The same prefetch (the generated side runs it unchanged) against hand-written objects read
    /// as observable ones are: each trip and each stay read makes an `ObservationRegistrar`,
    /// reports the access through it and keeps it as long as the objects (as a model keeps the
    /// registrar its getter made). A reference beside `prefetch`, which keeps the target: what the
    /// registrars of the 30,000 models read cost (docs/Benchmarks.md, "Reads").
    case prefetchObservable
    /// Fetch 1,000 trips (fewer if N is smaller) one at a time, each by its identifier
    /// (`#Predicate { $0.persistentModelID == id }`; hand-written: `WHERE "$pk" = ?`), a new
    /// fetch per trip, the identifiers spread over the table.
    case lookupByKey
    /// The same trips, each fetched by the name its store holds (`TripRow.storedName`: after the
    /// updates of a full run, their new names; `#Predicate { $0.name == name }`; hand-written:
    /// `WHERE "name" = ?`), an index on `name` made before (untimed, the same on both sides;
    /// `Trips.model` declares none, so the other workloads do not maintain it).
    case lookupByName
    /// Delete a third as many trips as rows, each with two accommodations (cascade), in one save,
    /// history on (the trips' preserved identifiers go into it).
    case cascadeDelete

    /// How many trips the cascade workload deletes: a third of the rows (each trip has two
    /// accommodations, so the store holds as many rows as the other workloads').
    static func cascadeTripCount(rows: Int) -> Int { max(1, rows / 3) }

    /// How many times each side counts before the timed count: the generated side's first count
    /// of a predicate translates it, the second learns its entry, the third makes the plain
    /// count's statement (docs/Predicates.md, "Translation cache").
    static let untimedCounts = 3

    /// How many trips the prefetch workload fetches.
    static func prefetchTripCount(rows: Int) -> Int { min(rows, 10_000) }

    /// The workloads `--only` names (a comma-separated list of raw values; empty: all).
    ///
    /// - Throws: `ArgumentError` naming an unknown workload and the known ones.
    static func selection(_ list: String) throws(ArgumentError) -> [Workload] {
        guard !list.isEmpty else { return allCases }
        var selected: Set<Workload> = []
        for name in list.split(separator: ",") {
            guard let workload = Workload(rawValue: String(name)) else {
                throw ArgumentError(message: "unknown workload '\(name)' (workloads: \(allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            selected.insert(workload)
        }
        return allCases.filter(selected.contains)
    }

    /// Whether the workload's save records persistent history.
    var recordsHistory: Bool {
        self == .insertWithHistory || self == .updateNamesWithHistory || self == .cascadeDelete
    }

    /// The hand-written sides' count of the changes of the history's newest transaction.
    static let newestHistoryChangeCountSQL = "SELECT count(*) FROM \"$history_changes\" WHERE \"token\" = (SELECT max(\"token\") FROM \"$history\")"

    /// How many trips the lookup workloads fetch.
    static func lookupCount(rows: Int) -> Int { min(rows, 1_000) }

    /// The rows the lookup workloads fetch, by index in the rows inserted: spread evenly.
    static func lookupIndices(rows: Int) -> [Int] {
        let count = lookupCount(rows: rows)
        guard count > 0 else { return [] }
        return (0..<count).map { $0 * rows / count }
    }

    /// The index the lookup by name uses (the name ModelStore gives an `#Index` on `name`).
    static let nameIndexSQL = "CREATE INDEX IF NOT EXISTS \"Trip.index(name)\" ON \"Trip\" (\"name\")"

    /// Whether the workload is held to the 1.3 target (docs/Benchmarks.md, "Targets"): all but the
    /// plain-object enumeration, kept as a reference beside `enumerateAllObservable`, the baseline
    /// enumerate is judged against, `prefetchObservable`, a reference beside `prefetch`, and
    /// `updateNamesTracked`, a reference beside `updateNames`. `max ratio:` and `--json`'s
    /// `maxRatio` count only these.
    var hasTarget: Bool { ![.enumerateAll, .prefetchObservable, .updateNamesTracked].contains(self) }

    /// Whether the workload reads the rows `insert` stores (the run inserts them, untimed, when
    /// such a workload is selected without `insert`); the others store rows of their own.
    var readsInsertedRows: Bool {
        switch self {
        case .fetchAll, .enumerateAll, .enumerateAllObservable, .fetchSubclass, .updateNames, .updateNamesWithHistory,
             .updateNamesTracked, .count, .lookupByKey, .lookupByName:
            return true
        case .insert, .insertWithHistory, .prefetch, .prefetchObservable, .cascadeDelete:
            return false
        }
    }

    /// How many rows the workload touches on either side, where that follows from N alone (nil for
    /// the fetches whose count the rows' dates decide): a count the run checks, so that a workload
    /// that finds nothing (a lookup of names the store no longer holds) stops it instead of timing
    /// an empty loop on both sides.
    func expectedCount(rows: Int) -> Int? {
        switch self {
        case .insert, .insertWithHistory, .fetchAll, .enumerateAll, .enumerateAllObservable,
             .updateNames, .updateNamesWithHistory, .updateNamesTracked:
            return rows
        case .prefetch, .prefetchObservable: return 2 * Workload.prefetchTripCount(rows: rows)
        case .lookupByKey, .lookupByName: return Workload.lookupCount(rows: rows)
        case .cascadeDelete: return Workload.cascadeTripCount(rows: rows)
        case .fetchSubclass, .count: return nil
        }
    }

    /// The batch size of the enumeration.
    static let enumerateBatchSize = 1_000

    /// The workload's name in the table.
    func title(rows: Int, predicates: Bool) -> String {
        let suffix = predicates ? "" : " (no predicate)"
        switch self {
        case .insert: return "insert \(rows) mixed, one save"
        case .insertWithHistory: return "insert \(rows) mixed, one save, history on"
        case .fetchAll: return "fetch all (polymorphic)"
        case .enumerateAll: return "enumerate all, batches of \(Workload.enumerateBatchSize)"
        case .enumerateAllObservable: return "enumerate all, batches of \(Workload.enumerateBatchSize), vs observable rows"
        case .fetchSubclass: return "fetch BusinessTrip sorted" + (predicates ? ", endDate >" : "") + suffix
        case .updateNames: return "update every name, one save"
        case .updateNamesWithHistory: return "update every name, one save, history on"
        case .updateNamesTracked: return "update every name, one save, vs tracked objects"
        case .count: return "fetchCount startDate <" + suffix
        case .prefetch:
            let trips = Workload.prefetchTripCount(rows: rows)
            return "fetch \(trips) trips + \(2 * trips) stays, prefetched"
        case .prefetchObservable:
            let trips = Workload.prefetchTripCount(rows: rows)
            return "fetch \(trips) trips + \(2 * trips) stays, prefetched, vs observable objects"
        case .lookupByKey: return "fetch \(Workload.lookupCount(rows: rows)) trips one by one, by identifier"
        case .lookupByName: return "fetch \(Workload.lookupCount(rows: rows)) trips one by one, by indexed name"
        case .cascadeDelete: return "cascade delete \(Workload.cascadeTripCount(rows: rows)) trips + 2 stays each, history on"
        }
    }
}

/// One way of running the workloads on a store: the generated code, or hand-written SQLite or
/// libpq code. `prepare` and `finish` are not timed; `run` is.
protocol TripStoreSide: AnyObject {
    /// Starts a repetition with fresh stores (files or databases) from `stores`.
    func begin(stores: BenchStores) throws
    /// Untimed set-up of `workload` (loading the objects an update or delete works on).
    func prepare(_ workload: Workload) throws
    /// The timed part of `workload`; returns how many rows it touched or read (checked equal on both sides).
    func run(_ workload: Workload) throws -> Int
    /// Untimed, before `finish()`, after a workload whose save records history
    /// (`Workload.recordsHistory`): how many changes the history's newest transaction holds
    /// (checked equal on both sides).
    func newestHistoryChangeCount() throws -> Int
    /// Untimed: lets go of the workload's connection and objects.
    func finish()
    /// Untimed: lets go of everything of the repetition (containers, connections) before its stores are removed.
    func end()
}

