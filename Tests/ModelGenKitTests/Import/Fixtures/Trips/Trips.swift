/*
 A trip planner's data layer, written the way Apple's SwiftData samples write theirs.
 */

import Foundation
import SwiftData

/// A journey with dates.
@Model
final class Trip {
    /// What the traveller calls it.
    var name: String
    var destination: String
    var startDate: Date
    var endDate: Date

    @Attribute(.preserveValueOnDeletion)
    var identifier: UUID = UUID()

    /// Where the traveller sleeps.
    @Relationship(deleteRule: .cascade, inverse: \Accommodation.trip)
    var accommodations: [Accommodation] = []

    @Relationship(deleteRule: .cascade, inverse: \LivingAccommodation.trip)
    var livingAccommodation: LivingAccommodation?

    @Transient
    var isExpanded = false

    /// The number of nights, computed.
    var nights: Int {
        Calendar.current.dateComponents([.day], from: startDate, to: endDate).day ?? 0
    }

    init(name: String, destination: String, startDate: Date, endDate: Date) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
        self.endDate = endDate
    }

    func rename(to newName: String) {
        name = newName
    }
}

extension Trip {
    /// A trip for previews.
    static var preview: Trip {
        Trip(name: "Preview", destination: "Nowhere")
    }
}

/// A trip taken for work.
@Model
final class BusinessTrip: Trip {
    var company: String
    var expenseReport: String?

    init(name: String, destination: String, startDate: Date, endDate: Date, company: String) {
        self.company = company
        super.init(name: name, destination: destination, startDate: startDate, endDate: endDate)
    }
}

/// A trip taken for oneself.
@Model
final class PersonalTrip: Trip {
    /// Why the trip is taken.
    enum Reason: String, Codable {
        case family
        case reunion
        case wellness = "spa"
    }

    var reason: Reason
    var companions: [String] = []

    init(name: String, destination: String, startDate: Date, endDate: Date, reason: Reason) {
        self.reason = reason
        super.init(name: name, destination: destination, startDate: startDate, endDate: endDate)
    }
}

/// A place to stay.
@Model
final class Accommodation {
    #Unique<Accommodation>([\.name, \.address])
    #Index<Accommodation>([\.name])

    var name: String
    var address: String
    var rating: Rating = Rating.average
    @Attribute(.externalStorage)
    var photo: Data?
    @Attribute(originalName: "checkIn")
    var arrival: Date?
    var trip: Trip?

    init(name: String, address: String) {
        self.name = name
        self.address = address
    }
}

/// Where someone lives while abroad.
@Model
final class LivingAccommodation {
    var address: String
    var placeName: String
    var location: Location?
    var trip: Trip?

    init(address: String, placeName: String) {
        self.address = address
        self.placeName = placeName
    }
}

/// How good a stay was.
enum Rating: Int, Codable {
    case poor = 1
    case average = 3
    case excellent = 5
}

/// A point on the map.
struct Location: Codable {
    var latitude: Double
    var longitude: Double
    var label: String? = nil
}

#if os(iOS)
/// A colour for the trip's card (iOS only).
struct CardStyle {
    var hue: Double
}
#else
struct CardStyle {
    var grey: Double
}
#endif

/// Not part of the model.
enum Screen {
    case list, detail
}
