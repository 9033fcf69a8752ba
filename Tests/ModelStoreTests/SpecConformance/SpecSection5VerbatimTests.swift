import Foundation
import Testing
import ModelStore

/// docs/Runtime.md usage code, copied verbatim (only the surrounding values `fileURL`, `s`, `e`, `trip` and
/// `cutoff` are defined around it), against `Samples/Trips.model`'s generated code: it must compile and
/// run, on a file store and in memory, and (docs/PostgreSQL.md) on PostgreSQL with nothing changed but the URL.
/// Plain `import ModelStore`, as an app writes it.
@Suite struct SpecSection5VerbatimTests {
    /// docs/Runtime.md: "let container = try ModelContainer(for: Trip.self, Accommodation.self,
    /// configurations: ModelConfiguration(url: fileURL))" and the lines after it.
    @Test func usageCodeRunsVerbatimOnAFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spec5-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try runVerbatim(fileURL: folder.appendingPathComponent("trips.store"))
    }

    /// docs/PostgreSQL.md: the same code on a PostgreSQL database, its URL (`postgresql:///db?host=…`, a
    /// Unix socket) in place of the file's.
    @Test func usageCodeRunsVerbatimOnPostgreSQL() throws {
        let store = try TestStore(.postgresql)
        try runVerbatim(fileURL: store.configuration.url)
    }

    private func runVerbatim(fileURL: URL) throws {
        let s = Date(timeIntervalSince1970: 1_000_000)
        let e = Date(timeIntervalSince1970: 2_000_000)
        let cutoff = Date(timeIntervalSince1970: 3_000_000)

        // ---- docs/Runtime.md, verbatim ----
        let container = try ModelContainer(for: Trip.self, Accommodation.self,
                                           configurations: ModelConfiguration(url: fileURL))
        // or ModelConfiguration(isStoredInMemoryOnly: true); or ModelContainer(for: TripStore.schema, …)
        let context = ModelContext(container)
        context.insert(BusinessTrip(name: "Offsite", startDate: s, endDate: e, company: "Acme"))
        try context.save()

        let all = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        // `all` holds Trip, BusinessTrip and PersonalTrip instances, each of its own dynamic type.
        let business = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0 is BusinessTrip }))
        let wanted = PersonalTrip.Reason.vacation   // #Predicate rejects `.vacation` without a base
        let vacation = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { trip in
            if let personal = trip as? PersonalTrip { personal.reason == wanted } else { false }
        }))
        let onlyBusiness = try context.fetch(FetchDescriptor<BusinessTrip>())  // subclass rows only
        let count = try context.fetchCount(FetchDescriptor<Trip>())
        // ---- end of the first part ----

        if fileURL.isFileURL { #expect(FileManager.default.fileExists(atPath: fileURL.path)) }
        #expect(all.count == 1 && all[0] is BusinessTrip)
        #expect(business.count == 1)
        #expect(vacation.isEmpty)
        #expect(onlyBusiness.map(\.company) == ["Acme"])
        #expect(count == 1)

        let trip = all[0]
        // ---- docs/Runtime.md, verbatim ----
        context.delete(trip); try context.save()          // delete rules apply
        try context.delete(model: Trip.self, where: #Predicate { $0.endDate < cutoff })  // includeSubclasses: true
        // ---- end ----
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
    }

    /// docs/Runtime.md: "or ModelConfiguration(isStoredInMemoryOnly: true); or ModelContainer(for: TripStore.schema, …)".
    @Test func usageCodeRunsInMemoryWithTheContainerSchema() throws {
        let s = Date(timeIntervalSince1970: 1_000_000)
        let e = Date(timeIntervalSince1970: 2_000_000)
        let cutoff = Date(timeIntervalSince1970: 1_500_000)

        let container = try ModelContainer(for: TripStore.schema,
                                           configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(BusinessTrip(name: "Offsite", startDate: s, endDate: e, company: "Acme"))
        context.insert(PersonalTrip(name: "Beach", startDate: e, endDate: e, reason: .vacation))
        context.insert(Trip(name: "Errand", startDate: s, endDate: s))
        try context.save()

        let all = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        let business = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0 is BusinessTrip }))
        let wanted = PersonalTrip.Reason.vacation
        let vacation = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { trip in
            if let personal = trip as? PersonalTrip { personal.reason == wanted } else { false }
        }))
        let onlyBusiness = try context.fetch(FetchDescriptor<BusinessTrip>())
        let count = try context.fetchCount(FetchDescriptor<Trip>())

        #expect(Set(all.map { "\(type(of: $0))" }) == ["Trip", "BusinessTrip", "PersonalTrip"])
        #expect(business.map(\.name) == ["Offsite"])
        #expect(vacation.map(\.name) == ["Beach"])
        #expect(onlyBusiness.count == 1)
        #expect(count == 3)

        let trip = try #require(vacation.first)
        context.delete(trip); try context.save()
        try context.delete(model: Trip.self, where: #Predicate { $0.endDate < cutoff })
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Offsite"])
    }
}
