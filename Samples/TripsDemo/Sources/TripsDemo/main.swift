// TripsDemo: the SwiftData inheritance walkthrough (docs/Runtime.md) on classes generated from Trips.model.
//
//     swift run TripsDemo [STORE-FILE | postgresql://…]
//
// Without an argument the store is a fresh file in the temporary directory. With a file, the
// walkthrough starts from a new store there and keeps it. With a PostgreSQL URL
// (`postgresql://user@host/db`, `postgresql:///db?host=/socket/folder`) it runs on that database,
// unchanged: only the configuration's URL differs; it first deletes the trips a previous run left.
// Every step prints what it does, so the output reads as a tour of the API.
import Foundation
import ModelStore

/// Fixed dates keep the output the same on every run.
func day(_ isoDate: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    formatter.timeZone = TimeZone(identifier: "UTC")
    guard let date = formatter.date(from: isoDate) else { fatalError("bad date \(isoDate)") }
    return date
}

/// `2026-07-01` for a date made by `day(_:)`.
func show(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
}

/// One line per trip: its name, dynamic type and dates.
func describe(_ trips: [Trip]) -> String {
    trips.map { trip in
        "    \(trip.name) [\(type(of: trip))] \(show(trip.startDate)) → \(show(trip.endDate))"
    }.joined(separator: "\n")
}

/// Runs a step that uses `#Predicate`. Predicates are translated to SQL by ModelStore; a ModelStore
/// that cannot translate one throws an error naming it, which is printed instead of ending the tour.
func predicateStep(_ body: () throws -> Void) {
    do {
        try body()
    } catch {
        print("    (skipped: \(error))")
    }
}

/// Ends the walkthrough on an error: an unreachable server, a failed authentication… (the
/// message never holds a password).
func fail(_ error: Error) -> Never {
    FileHandle.standardError.write(Data("TripsDemo: \(error)\n".utf8))
    exit(1)
}

/// Removes the store file and SQLite's side files.
func removeStore(at url: URL) {
    for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(at: URL(filePath: url.path(percentEncoded: false) + suffix))
    }
}

let keepStore = CommandLine.arguments.count > 1
let argument = keepStore ? CommandLine.arguments[1] : ""
let isServer = argument.hasPrefix("postgresql:") || argument.hasPrefix("postgres:")
let storeURL: URL
if isServer {
    guard let url = URL(string: argument) else {
        FileHandle.standardError.write(Data("TripsDemo: not a URL: \(argument)\n".utf8))
        exit(2)
    }
    storeURL = url
} else {
    storeURL = keepStore
        ? URL(filePath: argument)
        : FileManager.default.temporaryDirectory.appending(path: "TripsDemo-\(UUID().uuidString).sqlite")
    removeStore(at: storeURL)
}

print("1. Open a store with the generated schema (TripStore lists Trip, Accommodation, Itinerary;")
print("   BusinessTrip and PersonalTrip come with their base).")
do {
    let container = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(url: storeURL))
    let context = ModelContext(container)
    if isServer {
        // A database keeps what a previous run saved: start from no trips.
        try context.delete(model: Accommodation.self)
        try context.delete(model: Itinerary.self)
        try context.delete(model: Trip.self)
        try context.save()
    }

    print("2. Insert a trip of each kind, with accommodations.")
    let offsite = BusinessTrip(name: "Offsite", startDate: day("2026-03-02"), endDate: day("2026-03-04"), company: "Acme")
    offsite.meetingAgenda = "Roadmap"
    let alps = PersonalTrip(name: "Alps", startDate: day("2026-07-01"), endDate: day("2026-07-14"), reason: .adventure)
    alps.companions = ["Ana", "Ben"]
    let beach = PersonalTrip(name: "Beach", startDate: day("2026-08-10"), endDate: day("2026-08-20"), reason: .vacation)
    let visit = Trip(name: "Visit", startDate: day("2026-05-01"), endDate: day("2026-05-03"))
    for trip in [offsite, alps, beach, visit] as [Trip] { context.insert(trip) }

    let hut = Accommodation(name: "Mountain hut")
    hut.trip = alps                                   // sets the inverse: alps.accommodations
    let hotel = Accommodation(name: "Hotel Alpina")
    hotel.trip = alps
    let conferenceHotel = Accommodation(name: "Conference hotel")
    conferenceHotel.trip = offsite
    for accommodation in [hut, hotel, conferenceHotel] { context.insert(accommodation) }
    print("   Alps has \(alps.accommodations.count) accommodations before saving (inverse set in memory).")

    try context.save()
    print("   Saved.")

    print("3. Fetch every trip sorted by start date: each comes back as its own dynamic type.")
    let all = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
    print(describe(all))

    print("4. Fetch a subclass: FetchDescriptor<PersonalTrip> returns PersonalTrip rows only.")
    let personal = try context.fetch(FetchDescriptor<PersonalTrip>(sortBy: [SortDescriptor(\.name, order: .reverse)]))
    for trip in personal {
        print("    \(trip.name): \(trip.reason.rawValue), with \(trip.companions.joined(separator: " and ").isEmpty ? "nobody" : trip.companions.joined(separator: " and "))")
    }
    let business = try context.fetch(FetchDescriptor<BusinessTrip>())
    print("    business trips: \(business.map { "\($0.name) for \($0.company)" }.joined(separator: ", "))")

    print("5. Filter in SQL with #Predicate: `is`, `as?` with `if let … else`, captured values.")
    predicateStep {
        let businessOnly = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0 is BusinessTrip }))
        print("    is BusinessTrip: \(businessOnly.map(\.name).joined(separator: ", "))")
        let wanted = PersonalTrip.Reason.vacation   // #Predicate rejects `.vacation` without a base
        let vacations = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { trip in
            if let personal = trip as? PersonalTrip { personal.reason == wanted } else { false }
        }))
        print("    vacations: \(vacations.map(\.name).joined(separator: ", "))")
        let summerStart = day("2026-06-01")
        let summer = try context.fetch(FetchDescriptor<Trip>(
            predicate: #Predicate { $0.startDate >= summerStart && $0.name != "Beach" },
            sortBy: [SortDescriptor(\.startDate)]
        ))
        print("    from June on, except Beach: \(summer.map(\.name).joined(separator: ", "))")
        let again = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Alps" }))
        print("    fetched twice, same instance: \(again.first === alps)")
    }

    print("6. Count without loading: fetchCount.")
    print("    trips: \(try context.fetchCount(FetchDescriptor<Trip>())), "
        + "personal: \(try context.fetchCount(FetchDescriptor<PersonalTrip>())), "
        + "accommodations: \(try context.fetchCount(FetchDescriptor<Accommodation>()))")

    print("7. Delete Alps: its accommodations go with it (deleteRule: .cascade).")
    context.delete(alps)
    try context.save()
    print("    trips: \(try context.fetchCount(FetchDescriptor<Trip>())), "
        + "accommodations: \(try context.fetchCount(FetchDescriptor<Accommodation>()))")

    print("8. Delete by predicate: every trip (of any kind) that ended before April.")
    predicateStep {
        let cutoff = day("2026-04-01")
        try context.delete(model: Trip.self, where: #Predicate { $0.endDate < cutoff })
        try context.save()
    }
    print("    trips: \(try context.fetchCount(FetchDescriptor<Trip>())), "
        + "accommodations: \(try context.fetchCount(FetchDescriptor<Accommodation>()))")
} catch {
    fail(error)
}

print("9. Reopen the store in a new container: the data was saved.")
do {
    let container = try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(url: storeURL))
    let context = ModelContext(container)
    let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
    print(describe(trips))
    let accommodations = try context.fetch(FetchDescriptor<Accommodation>(sortBy: [SortDescriptor(\.name)]))
    for accommodation in accommodations {
        print("    \(accommodation.name) → \(accommodation.trip?.name ?? "no trip")")
    }
} catch {
    fail(error)
}
if !keepStore { removeStore(at: storeURL) }
print("Done.")
