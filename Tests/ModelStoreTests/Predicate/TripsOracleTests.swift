import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The oracle over the Trips hierarchy: SQL results against `Predicate.evaluate`.
@Suite struct TripsOracleTests {
    let store: TemporaryStore
    let context: ModelContext

    init() throws {
        store = try TemporaryStore()
        let container = try ModelContainer(for: TripStore.schema, configurations: store.configuration)
        try TripsDataSet.populate(ModelContext(container))
        // A fresh context: every model is read back from the store.
        context = ModelContext(container)
    }

    static func describe(_ trip: Trip) -> String { "\(trip.persistentModelID) \(type(of: trip)) \(trip.name.debugDescription)" }

    @Test func tripPredicates() throws {
        let cutoff = OracleValues.cutoff
        let wanted = PersonalTrip.Reason.vacation
        let family = PersonalTrip.Reason.family
        let names = ["Beach", "Café", "", "nowhere"]
        var cases: [OracleCase<Trip>] = []
        // Strings: equality and order as Swift has them (canonical equivalence), searches.
        cases.append(.init(name: "name == Beach", predicate: #Predicate<Trip> { $0.name == "Beach" }))
        cases.append(.init(name: "name != Beach", predicate: #Predicate<Trip> { $0.name != "Beach" }))
        cases.append(.init(name: "name == Café (also decomposed)", predicate: #Predicate<Trip> { $0.name == "Café" }))
        cases.append(.init(name: "name == Kelvin (also KELVIN SIGN)", predicate: #Predicate<Trip> { $0.name == "Kelvin" }))
        cases.append(.init(name: "name < M", predicate: #Predicate<Trip> { $0.name < "M" }))
        cases.append(.init(name: "name >= beach", predicate: #Predicate<Trip> { $0.name >= "beach" }))
        cases.append(.init(name: "name <= Ångström", predicate: #Predicate<Trip> { $0.name <= "Ångström" }))
        cases.append(.init(name: "name > é", predicate: #Predicate<Trip> { $0.name > "é" }))
        cases.append(.init(name: "name.contains(af)", predicate: #Predicate<Trip> { $0.name.contains("af") }))
        cases.append(.init(name: "name.contains(e)", predicate: #Predicate<Trip> { $0.name.contains("e") }))
        cases.append(.init(name: "name.contains(empty)", predicate: #Predicate<Trip> { $0.name.contains("") }, mayBeTrivial: true))
        cases.append(.init(name: "name.starts(with: Ca)", predicate: #Predicate<Trip> { $0.name.starts(with: "Ca") }))
        // "A" + combining ring is one Character, "Å": no name starts with the Character "A" (a byte prefix test would match).
        cases.append(.init(name: "name.starts(with: A)", predicate: #Predicate<Trip> { $0.name.starts(with: "A") }, mayBeTrivial: true))
        cases.append(.init(name: "localizedStandardContains(cafe)", predicate: #Predicate<Trip> { $0.name.localizedStandardContains("cafe") }))
        cases.append(.init(name: "localizedStandardContains(STRASSE)", predicate: #Predicate<Trip> { $0.name.localizedStandardContains("STRASSE") }))
        cases.append(.init(name: "localizedStandardContains(zur)", predicate: #Predicate<Trip> { $0.name.localizedStandardContains("zur") }))
        cases.append(.init(name: "name.isEmpty", predicate: #Predicate<Trip> { $0.name.isEmpty }))
        cases.append(.init(name: "name.count > 5", predicate: #Predicate<Trip> { $0.name.count > 5 }))
        cases.append(.init(name: "captured names.contains(name)", predicate: #Predicate<Trip> { names.contains($0.name) }))
        // Types.
        cases.append(.init(name: "is BusinessTrip", predicate: #Predicate<Trip> { $0 is BusinessTrip }))
        cases.append(.init(name: "is PersonalTrip || startDate > cutoff", predicate: #Predicate<Trip> { $0 is PersonalTrip || $0.startDate > cutoff }))
        cases.append(.init(name: "as? PersonalTrip reason == vacation", predicate: #Predicate<Trip> { trip in
            if let personal = trip as? PersonalTrip { personal.reason == wanted } else { false }
        }))
        cases.append(.init(name: "as? PersonalTrip reason != family else true", predicate: #Predicate<Trip> { trip in
            if let personal = trip as? PersonalTrip { personal.reason != family } else { true }
        }))
        cases.append(.init(name: "as? BusinessTrip expenseReport == nil", predicate: #Predicate<Trip> { trip in
            if let business = trip as? BusinessTrip { business.expenseReport == nil } else { false }
        }))
        cases.append(.init(name: "as? BusinessTrip !(expenseReport == ER)", predicate: #Predicate<Trip> { trip in
            if let business = trip as? BusinessTrip { !(business.expenseReport == "ER") } else { false }
        }))
        cases.append(.init(name: "(as? BusinessTrip)?.expenseReport == empty", predicate: #Predicate<Trip> { ($0 as? BusinessTrip)?.expenseReport == "" }))
        cases.append(.init(name: "(as? BusinessTrip)?.meetingAgenda != ER", predicate: #Predicate<Trip> { ($0 as? BusinessTrip)?.meetingAgenda != "ER" }))
        cases.append(.init(name: "meetingAgenda ?? none", predicate: #Predicate<Trip> { trip in
            if let business = trip as? BusinessTrip { (business.meetingAgenda ?? "none") == "none" } else { false }
        }))
        cases.append(.init(name: "company < acme", predicate: #Predicate<Trip> { trip in
            if let business = trip as? BusinessTrip { business.company < "acme" } else { false }
        }))
        cases.append(.init(name: "companions.contains(Chloé)", predicate: #Predicate<Trip> { trip in
            if let personal = trip as? PersonalTrip { personal.companions.contains("Chloé") } else { false }
        }))
        cases.append(.init(name: "companions.isEmpty || count >= 2", predicate: #Predicate<Trip> { trip in
            if let personal = trip as? PersonalTrip { personal.companions.isEmpty || personal.companions.count >= 2 } else { false }
        }))
        cases.append(.init(name: "companions.contains(where: starts D)", predicate: #Predicate<Trip> { trip in
            if let personal = trip as? PersonalTrip { personal.companions.contains { $0.starts(with: "D") } } else { false }
        }))
        // Dates and arithmetic.
        cases.append(.init(name: "startDate < cutoff", predicate: #Predicate<Trip> { $0.startDate < cutoff }))
        cases.append(.init(name: "startDate == cutoff", predicate: #Predicate<Trip> { $0.startDate == cutoff }))
        cases.append(.init(name: "startDate >= cutoff", predicate: #Predicate<Trip> { $0.startDate >= cutoff }))
        cases.append(.init(name: "endDate <= startDate", predicate: #Predicate<Trip> { $0.endDate <= $0.startDate }))
        cases.append(.init(name: "duration >= 2 days", predicate: #Predicate<Trip> {
            $0.endDate.timeIntervalSinceReferenceDate - $0.startDate.timeIntervalSinceReferenceDate >= 2 * 86_400
        }))
        cases.append(.init(name: "timeIntervalSince1970 / 86400 > x", predicate: #Predicate<Trip> {
            $0.startDate.timeIntervalSince1970 / 86_400 > 978_307_200 / 86_400 + 9_259.2
        }))
        cases.append(.init(name: "conditional name", predicate: #Predicate<Trip> { ($0.startDate > cutoff ? $0.name : "none") == "none" }))
        cases.append(.init(name: "negations", predicate: #Predicate<Trip> { !($0.name == "Beach") && !($0.startDate >= cutoff) }))
        // To-many.
        cases.append(.init(name: "accommodations.isEmpty", predicate: #Predicate<Trip> { $0.accommodations.isEmpty }))
        cases.append(.init(name: "accommodations.count > 1", predicate: #Predicate<Trip> { $0.accommodations.count > 1 }))
        cases.append(.init(name: "accommodations.contains(where: Hotel)", predicate: #Predicate<Trip> { $0.accommodations.contains { $0.name == "Hotel" } }))
        cases.append(.init(name: "accommodations.allSatisfy(starts H)", predicate: #Predicate<Trip> { $0.accommodations.allSatisfy { $0.name.starts(with: "H") } }))
        cases.append(.init(name: "(1...2).contains(accommodations.count)", predicate: #Predicate<Trip> { (1...2).contains($0.accommodations.count) }))
        let checked = try Oracle.check(cases, in: context, describe: Self.describe)
        #expect(checked >= 45)
    }

    @Test func subclassFetchPredicates() throws {
        var cases: [OracleCase<BusinessTrip>] = []
        cases.append(.init(name: "business name == Beach", predicate: #Predicate<BusinessTrip> { $0.name == "Beach" }))
        cases.append(.init(name: "business expenseReport != nil", predicate: #Predicate<BusinessTrip> { $0.expenseReport != nil }))
        cases.append(.init(name: "business company localized acme", predicate: #Predicate<BusinessTrip> { $0.company.localizedStandardContains("ACME") }))
        cases.append(.init(name: "business has accommodations", predicate: #Predicate<BusinessTrip> { !$0.accommodations.isEmpty }))
        try Oracle.check(cases, in: context, describe: { Self.describe($0) })
    }

    @Test func accommodationPredicates() throws {
        let family = PersonalTrip.Reason.family
        let cutoff = OracleValues.cutoff
        var cases: [OracleCase<Accommodation>] = []
        cases.append(.init(name: "trip == nil", predicate: #Predicate<Accommodation> { $0.trip == nil }))
        cases.append(.init(name: "trip != nil", predicate: #Predicate<Accommodation> { $0.trip != nil }))
        cases.append(.init(name: "trip?.name == Beach", predicate: #Predicate<Accommodation> { $0.trip?.name == "Beach" }))
        cases.append(.init(name: "trip?.name != Beach", predicate: #Predicate<Accommodation> { $0.trip?.name != "Beach" }))
        cases.append(.init(name: "!(trip?.name == Beach)", predicate: #Predicate<Accommodation> { !($0.trip?.name == "Beach") }))
        cases.append(.init(name: "(trip?.name ?? empty) == empty", predicate: #Predicate<Accommodation> { ($0.trip?.name ?? "") == "" }))
        cases.append(.init(name: "if let trip: trip.name == name", predicate: #Predicate<Accommodation> { stay in
            if let trip = stay.trip { trip.name == stay.name } else { false }
        }))
        cases.append(.init(name: "trip is BusinessTrip", predicate: #Predicate<Accommodation> { $0.trip is BusinessTrip }))
        cases.append(.init(name: "trip as? PersonalTrip family", predicate: #Predicate<Accommodation> { stay in
            if let personal = stay.trip as? PersonalTrip { personal.reason == family } else { false }
        }))
        cases.append(.init(name: "trip?.accommodations.count ?? 0 > 1", predicate: #Predicate<Accommodation> { ($0.trip?.accommodations.count ?? 0) > 1 }))
        cases.append(.init(name: "trip siblings named Tent", predicate: #Predicate<Accommodation> { stay in
            stay.trip?.accommodations.contains { $0.name == "Tent" } == true
        }))
        cases.append(.init(name: "conditional model", predicate: #Predicate<Accommodation> { stay in
            (stay.name.isEmpty ? stay.trip : stay.trip?.accommodations.isEmpty == false ? stay.trip : nil)?.name.starts(with: "B") == true
        }))
        cases.append(.init(name: "trip?.startDate < cutoff", predicate: #Predicate<Accommodation> { stay in
            if let trip = stay.trip { trip.startDate < cutoff } else { false }
        }))
        try Oracle.check(cases, in: context, describe: { "\($0.persistentModelID) \($0.name.debugDescription)" })
    }

    @Test func itineraryPredicates() throws {
        var cases: [OracleCase<Itinerary>] = []
        cases.append(.init(name: "days.isEmpty", predicate: #Predicate<Itinerary> { $0.days.isEmpty }))
        cases.append(.init(name: "days.contains(swim)", predicate: #Predicate<Itinerary> { $0.days.contains("swim") }))
        cases.append(.init(name: "days.count == 2", predicate: #Predicate<Itinerary> { $0.days.count == 2 }))
        cases.append(.init(name: "days.contains(where: empty)", predicate: #Predicate<Itinerary> { $0.days.contains { $0.isEmpty } }))
        cases.append(.init(name: "days.allSatisfy(starts s)", predicate: #Predicate<Itinerary> { $0.days.allSatisfy { $0.starts(with: "s") } }))
        cases.append(.init(name: "trip?.name localized beach", predicate: #Predicate<Itinerary> { $0.trip?.name.localizedStandardContains("beach") == true }))
        cases.append(.init(name: "trip?.name.isEmpty ?? true", predicate: #Predicate<Itinerary> { $0.trip?.name.isEmpty ?? true }))
        try Oracle.check(cases, in: context, describe: { "\($0.persistentModelID) \($0.title.debugDescription)" })
    }
}
