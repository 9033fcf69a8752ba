import Foundation
import Observation
import Testing
import ModelStore

/// docs/Runtime.md "Generated code": the conformances and members generated classes have, checked by the compiler.
@Suite struct SpecGeneratedAPITests {
    /// Compiles only if `T` has every conformance docs/Runtime.md names.
    func conforms<T: PersistentModel & AnyObject & Observable & Hashable & Identifiable>(_: T.Type) -> Bool { true }

    /// "Classes conform to `PersistentModel` (the runtime's protocol: `AnyObject`, `Observable`, `Hashable`,
    /// `Identifiable`)"; enums are "`Codable`, `Sendable`, `CaseIterable`".
    @Test func conformances() {
        #expect(conforms(Trip.self) && conforms(BusinessTrip.self) && conforms(PersonalTrip.self))
        #expect(conforms(Accommodation.self) && conforms(SpecEverything.self) && conforms(SpecSub.self))
        func enumConforms<E: Codable & Sendable & CaseIterable & RawRepresentable>(_: E.Type) -> Bool { true }
        #expect(enumConforms(PersonalTrip.Reason.self) && enumConforms(SpecMood.self) && enumConforms(SpecBase.Kind.self))
        #expect(PersonalTrip.Reason.allCases.map(\.rawValue) == ["vacation", "family", "adventure"])
    }

    /// "so `withObservationTracking` sees property reads"; "Models: `persistentModelID`, `modelContext`,
    /// `isDeleted`, `hasChanges`".
    @Test func observationAndModelMembers() throws {
        let trip = BusinessTrip(name: "Offsite", startDate: Date(timeIntervalSince1970: 0), endDate: Date(timeIntervalSince1970: 1), company: "Acme")
        let changed = ChangeFlag()
        withObservationTracking { _ = trip.company; _ = trip.name } onChange: { changed.isSet = true }
        trip.name = "Retreat"
        #expect(changed.isSet)

        let context = ModelContext(try ModelContainer(for: TripStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        #expect(trip.modelContext == nil)
        context.insert(trip)
        #expect(trip.modelContext === context)
        try context.save()
        #expect(!trip.hasChanges && !trip.isDeleted)
        #expect(context.model(for: trip.persistentModelID) === trip)
        #expect(trip.id == trip.persistentModelID)
        trip.company = "Other"
        #expect(trip.hasChanges)
        context.delete(trip)
        #expect(trip.isDeleted)
    }
}

/// Set by an observation's `onChange` (called synchronously on the mutating thread here).
private final class ChangeFlag: @unchecked Sendable {
    var isSet = false
}
