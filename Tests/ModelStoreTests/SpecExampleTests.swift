import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// docs/Runtime.md usage example (without predicates), on every store.
@Suite struct SpecExampleTests {
    func runExample(_ configuration: ModelConfiguration) throws -> ModelContainer {
        let container = try ModelContainer(for: Trip.self, Accommodation.self, configurations: configuration)
        let context = ModelContext(container)
        context.insert(BusinessTrip(name: "Offsite", startDate: Day.at(3), endDate: Day.at(5), company: "Acme"))
        let holiday = PersonalTrip(name: "Beach", startDate: Day.at(1), endDate: Day.at(9), reason: .vacation)
        holiday.companions = ["Ann", "Bo"]
        context.insert(holiday)
        context.insert(Trip(name: "Errand", startDate: Day.at(2), endDate: Day.at(2)))
        let hotel = Accommodation(name: "Hotel")
        hotel.trip = holiday
        context.insert(hotel)
        try context.save()

        let all = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(all.map(\.name) == ["Beach", "Errand", "Offsite"])
        #expect(all[0] is PersonalTrip)
        #expect(type(of: all[1]) == Trip.self)
        #expect(all[2] is BusinessTrip)
        let onlyBusiness = try context.fetch(FetchDescriptor<BusinessTrip>())
        #expect(onlyBusiness.map(\.company) == ["Acme"])
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 3)
        #expect(try context.fetchCount(FetchDescriptor<PersonalTrip>()) == 1)

        context.delete(all[0])
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 2)
        // The cascade removed the hotel.
        #expect(try context.fetchCount(FetchDescriptor<Accommodation>()) == 0)
        return container
    }

    @Test(arguments: StoreKind.allCases) func example(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        _ = try runExample(store.configuration)
        if let url = store.url { #expect(FileManager.default.fileExists(atPath: url.path)) }
    }

    @Test(arguments: StoreKind.persistent) func reopeningShowsTheSameGraphWithTheSameTypes(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        do {
            let container = try store.container(for: TripStore.schema)
            let context = ModelContext(container)
            let offsite = BusinessTrip(name: "Offsite", startDate: Day.at(3), endDate: Day.at(5), company: "Acme")
            offsite.expenseReport = "ER-1"
            let holiday = PersonalTrip(name: "Beach", startDate: Day.at(1), endDate: Day.at(9), reason: .family)
            holiday.companions = ["Ann"]
            let hotel = Accommodation(name: "Hotel")
            let tent = Accommodation(name: "Tent")
            holiday.accommodations = [hotel, tent]
            let plan = Itinerary(title: "Plan")
            plan.days = ["swim", "sleep"]
            plan.trip = offsite
            context.insert(holiday)
            context.insert(offsite)
            context.insert(plan)
            try context.save()
        }
        let container = try store.container(for: TripStore.schema)
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Beach", "Offsite"])
        let holiday = try #require(trips[0] as? PersonalTrip)
        #expect(holiday.reason == .family)
        #expect(holiday.companions == ["Ann"])
        #expect(holiday.startDate == Day.at(1))
        #expect(Set(holiday.accommodations.map(\.name)) == ["Hotel", "Tent"])
        #expect(holiday.accommodations.allSatisfy { $0.trip === holiday })
        let offsite = try #require(trips[1] as? BusinessTrip)
        #expect(offsite.company == "Acme")
        #expect(offsite.expenseReport == "ER-1")
        #expect(offsite.meetingAgenda == nil)
        let plan = try #require(try context.fetch(FetchDescriptor<Itinerary>()).first)
        #expect(plan.days == ["swim", "sleep"])
        #expect(plan.trip === offsite)
    }
}
