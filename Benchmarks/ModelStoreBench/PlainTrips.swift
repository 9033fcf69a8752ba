import Foundation
import Observation

/// What hand-written code loads rows into: plain Swift classes mirroring the Trips hierarchy,
/// with no persistence machinery (no observation, no change tracking, no identity map).
class PlainTrip {
    var rowID: Int64
    var name: String
    var startDate: Date
    var endDate: Date
    var identifier: UUID

    init(rowID: Int64, name: String, startDate: Date, endDate: Date, identifier: UUID) {
        self.rowID = rowID
        self.name = name
        self.startDate = startDate
        self.endDate = endDate
        self.identifier = identifier
    }
}

/// A hand-written `BusinessTrip`.
final class PlainBusinessTrip: PlainTrip {
    var company: String
    var expenseReport: String?
    var meetingAgenda: String?

    init(rowID: Int64, name: String, startDate: Date, endDate: Date, identifier: UUID,
         company: String, expenseReport: String?, meetingAgenda: String?) {
        self.company = company
        self.expenseReport = expenseReport
        self.meetingAgenda = meetingAgenda
        super.init(rowID: rowID, name: name, startDate: startDate, endDate: endDate, identifier: identifier)
    }
}

/// A hand-written `PersonalTrip`.
final class PlainPersonalTrip: PlainTrip {
    /// The stored raw values of `PersonalTrip.Reason`.
    enum Reason: String, CaseIterable {
        case vacation, family, adventure
    }

    var reason: Reason
    var companions: [String]

    init(rowID: Int64, name: String, startDate: Date, endDate: Date, identifier: UUID,
         reason: Reason, companions: [String]) {
        self.reason = reason
        self.companions = companions
        super.init(rowID: rowID, name: name, startDate: startDate, endDate: endDate, identifier: identifier)
    }
}

/// A hand-written `Accommodation`.
final class PlainStay {
    var rowID: Int64
    var name: String

    init(rowID: Int64, name: String) {
        self.rowID = rowID
        self.name = name
    }
}

/// What an observable model pays to be read, for the observable enumeration baseline: the plain
/// trip is the subject, and each read makes a registrar (as a model read through its generated
/// getter does) and reports the access through it; the registrar goes with the row.
enum ObservedRead {
    @inline(never)
    static func name(of trip: PlainTrip) -> String {
        let registrar = ObservationRegistrar()
        registrar.access(trip, keyPath: \.name)
        return trip.name
    }
}

extension PlainTrip: Observable {}

/// The registrars observable objects keep, for the observable prefetch baseline: each trip and
/// stay read makes one (as a model's getter does at its first observed read) and reports the access
/// through it, and the registrar is kept as long as the objects are (as the model keeps its own).
struct ObservedReads {
    private var kept: [ObservationRegistrar] = []

    /// How many stays of `trips` have a name, each trip and stay read as an observable object.
    mutating func countStays(of trips: [PlainTrip], _ stays: [Int64: [PlainStay]]) -> Int {
        kept.reserveCapacity(kept.count + 3 * trips.count)
        var count = 0
        for trip in trips {
            let registrar = ObservationRegistrar()
            registrar.access(trip, keyPath: \.rowID)
            kept.append(registrar)
            for stay in stays[trip.rowID] ?? [] {
                let registrar = ObservationRegistrar()
                registrar.access(stay, keyPath: \.name)
                kept.append(registrar)
                if !stay.name.isEmpty { count += 1 }
            }
        }
        return count
    }

    /// The same count over plain objects: no registrar.
    static func countStays(of trips: [PlainTrip], _ stays: [Int64: [PlainStay]]) -> Int {
        var count = 0
        for trip in trips {
            for stay in stays[trip.rowID] ?? [] where !stay.name.isEmpty { count += 1 }
        }
        return count
    }
}

extension PlainStay: Observable {}
