import Foundation
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Values that sort differently by bytes, by Swift's `<` and by a human: case, digits inside
/// text, canonical equivalents (precomposed and decomposed é, Å, KELVIN SIGN), ß, full-width
/// digits and letters, scripts, emoji, the empty string. Each appears several times in a data set,
/// so sorts meet ties.
enum SortValues {
    static let names = [
        "Backyard 9", "backyard 10", "Backyard 10", "backyard 9", "item2", "Item10", "item10", "Item2", "item 2",
        "", " ", "a", "A", "á", "a\u{301}", "Á", "e", "é", "e\u{301}", "E", "É", "f", "ß", "ss", "SS", "Straße", "strasse",
        "Å", "A\u{30A}", "Ångström", "Zürich", "Zurich", "zürich", "中文", "日本旅行", "北京", "😀", "👍🏽", "👍", "🇫🇷 Paris",
        "１２", "12", "2", "02", "１", "Ｂackyard", "\u{212A}elvin", "Kelvin", "K", "naïve", "naive", "Z", "z", "Ω", "ω",
    ]
    static let optionalNames: [String?] = [nil, nil] + names.map { $0 }
    static let dates = [Day.at(0), Day.at(1), Day.at(-3), Day.at(10), Day.at(10).addingTimeInterval(0.5)]

    /// A UUID from the seeded generator (sorts are checked on bytes, so they must vary in each).
    static func uuid(_ random: inout SeededGenerator) -> UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { buffer in
            for index in buffer.indices { buffer[index] = UInt8.random(in: 0...255, using: &random) }
        }
        return UUID(uuid: bytes)
    }
}

/// The Trips sample for the sort oracle: 600 trips of the three types, 500 accommodations (a
/// fifth without a trip), 200 itineraries (half without one).
enum SortTripsDataSet {
    static func populate(_ context: ModelContext, seed: UInt64 = 99) throws {
        var random = SeededGenerator(seed: seed)
        var trips: [Trip] = []
        for index in 0..<600 {
            let name = SortValues.names.randomElement(using: &random)!
            let start = SortValues.dates.randomElement(using: &random)!
            let end = start.addingTimeInterval(Double(Int.random(in: 0...3, using: &random)) * 86_400)
            let trip: Trip
            switch index % 3 {
            case 0:
                trip = Trip(name: name, startDate: start, endDate: end)
            case 1:
                let business = BusinessTrip(name: name, startDate: start, endDate: end,
                                            company: SortValues.names.randomElement(using: &random)!)
                business.expenseReport = SortValues.optionalNames.randomElement(using: &random)!
                business.meetingAgenda = Bool.random(using: &random) ? nil : SortValues.names.randomElement(using: &random)!
                trip = business
            default:
                let personal = PersonalTrip(name: name, startDate: start, endDate: end,
                                            reason: PersonalTrip.Reason.allCases.randomElement(using: &random)!)
                personal.companions = (0..<Int.random(in: 0...3, using: &random)).map { _ in SortValues.names.randomElement(using: &random)! }
                trip = personal
            }
            // A few trips share an identifier, so UUID sorts meet ties too.
            trip.identifier = index % 50 == 7 ? trips[0].identifier : SortValues.uuid(&random)
            context.insert(trip)
            trips.append(trip)
        }
        TripsDataSet.addStaysAndPlans(to: trips, names: SortValues.names, days: SortValues.names, context, &random)
        try context.save()
    }
}

/// Every attribute type the model language has, for the sort oracle: 300 `SpecEverything` rows
/// whose values come from small pools (so sorts meet ties), a third of the optionals nil.
enum SortAllTypesDataSet {
    static func populate(_ context: ModelContext, seed: UInt64 = 5) throws {
        var random = SeededGenerator(seed: seed)
        let posix = Locale(identifier: "en_US_POSIX")
        let decimals = ["0", "10", "10.00", "9.99", "-1.5", "100.001", "1e3", "0.001", "-20"].map { Decimal(string: $0, locale: posix)! }
        let doubles = [0.0, -0.0, 0.5, -2.25, 1e300, -1e-300, .infinity, -.infinity, 0.30000000000000004, 0.1]
        let floats: [Float] = [0, 0.1, -1.5, 3.25, .greatestFiniteMagnitude, 1e-20]
        let uuids = (0..<40).map { _ in SortValues.uuid(&random) }
        func maybe<V>(_ value: V) -> V? { Int.random(in: 0..<3, using: &random) == 0 ? nil : value }
        for index in 0..<300 {
            let model = SpecEverything(data: Data([UInt8(index % 7)]), url: URL(string: "https://example.com/\(index % 5)")!)
            model.code = "code-\(index)"
            model.int = Int.random(in: -3...3, using: &random) * 1_000_000_000_000
            model.int8 = Int8.random(in: -128...127, using: &random) / 16
            model.int16 = Int16.random(in: -5...5, using: &random)
            model.int32 = Int32.random(in: -5...5, using: &random) * 100_000
            model.int64 = [Int64.min, Int64.max, 0, -1, 1][Int.random(in: 0..<5, using: &random)]
            model.uint8 = UInt8.random(in: 250...255, using: &random)
            model.uint16 = [0, 1, 65_535][Int.random(in: 0..<3, using: &random)]
            model.uint32 = [0, 7, 4_294_967_295, 2_147_483_648][Int.random(in: 0..<4, using: &random)]
            model.double = doubles.randomElement(using: &random)!
            model.float = floats.randomElement(using: &random)!
            model.string = SortValues.names.randomElement(using: &random)!
            model.date = SortValues.dates.randomElement(using: &random)!
            model.uuid = uuids.randomElement(using: &random)!
            model.decimal = decimals.randomElement(using: &random)!
            model.optionalInt = maybe(Int.random(in: -2...2, using: &random))
            model.optionalInt8 = maybe(Int8.random(in: -2...2, using: &random))
            model.optionalInt16 = maybe(Int16.random(in: -2...2, using: &random))
            model.optionalInt32 = maybe(Int32.random(in: -2...2, using: &random))
            model.optionalInt64 = maybe(Int64.random(in: -2...2, using: &random))
            model.optionalUInt8 = maybe(UInt8.random(in: 0...3, using: &random))
            model.optionalUInt16 = maybe(UInt16.random(in: 0...3, using: &random))
            model.optionalUInt32 = maybe(UInt32.random(in: 0...3, using: &random))
            model.optionalDouble = maybe(doubles.randomElement(using: &random)!)
            model.optionalFloat = maybe(floats.randomElement(using: &random)!)
            model.optionalString = maybe(SortValues.names.randomElement(using: &random)!)
            model.optionalDate = maybe(SortValues.dates.randomElement(using: &random)!)
            model.optionalUUID = maybe(uuids.randomElement(using: &random)!)
            model.optionalDecimal = maybe(decimals.randomElement(using: &random)!)
            model.ints = (0..<Int.random(in: 0...3, using: &random)).map { _ in Int.random(in: -9...9, using: &random) }
            model.strings = (0..<Int.random(in: 0...3, using: &random)).map { _ in SortValues.names.randomElement(using: &random)! }
            model.dates = (0..<Int.random(in: 0...2, using: &random)).map { _ in SortValues.dates.randomElement(using: &random)! }
            model.doubles = (0..<Int.random(in: 0...2, using: &random)).map { _ in doubles.filter(\.isFinite).randomElement(using: &random)! }
            context.insert(model)
        }
        try context.save()
    }
}
