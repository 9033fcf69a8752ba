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
