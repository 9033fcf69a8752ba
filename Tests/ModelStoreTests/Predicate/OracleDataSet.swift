import Foundation
@_spi(ModelStoreGenerated) @testable import ModelStore

/// A deterministic random number generator (SplitMix64), so the oracle's data set is the same
/// on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Values chosen to hit the edges of SQL-versus-Swift semantics.
enum OracleValues {
    /// Names with case, diacritics, canonical equivalents (precomposed and decomposed "é",
    /// KELVIN SIGN and "K"), ß, non-Latin scripts, emoji flags, the empty string.
    static let names = [
        "", "Beach", "beach", "BEACH", "Café", "Cafe\u{301}", "CAFE", "Straße", "STRASSE", "strasse",
        "\u{212A}elvin", "Kelvin", "naïve", "Zürich", "Zurich", "日本旅行", "🇫🇷 Paris", "Ski", "ski trip",
        "M", "m", "Ångström", "A\u{30A}ngstro\u{308}m", "Offsite", "e", "é", "Hotel", "Hostel", "Tent",
    ]
    static let companies = ["Acme", "acme", "Globex", "Initech", "Ünïcode GmbH", ""]
    static let reports: [String?] = [nil, nil, "", "ER", "ER-1", "er", "Spesen für Zürich"]
    static let companions = ["Ann", "Bo", "Chloé", "Chloe\u{301}", "", "Dmitri"]
    static let days = ["swim", "sleep", "ski", "Swim", "hike", ""]
    /// The date the predicates cut at; some rows lie exactly on it or one step either side.
    static let cutoff = Day.at(10)
    static let dates = [cutoff, cutoff.nextUp, cutoff.nextDown, Day.at(0), Day.at(-400), Day.at(20), Day.at(9), Day.at(11)]
}

private extension Date {
    var nextUp: Date { Date(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate.nextUp) }
    var nextDown: Date { Date(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate.nextDown) }
}

/// Builds and saves the Trips data set: 600 trips of the three types, 500 accommodations,
/// 200 itineraries.
enum TripsDataSet {
    static func populate(_ context: ModelContext, seed: UInt64 = 42) throws {
        var random = SeededGenerator(seed: seed)
        var trips: [Trip] = []
        for index in 0..<600 {
            let name = OracleValues.names.randomElement(using: &random)!
            let start = Bool.random(using: &random) ? OracleValues.dates.randomElement(using: &random)!
                : Day.at(Int.random(in: -30...30, using: &random))
            let end = start.addingTimeInterval(Double(Int.random(in: -1...6, using: &random)) * 86_400)
            let trip: Trip
            switch index % 3 {
            case 0:
                trip = Trip(name: name, startDate: start, endDate: end)
            case 1:
                let business = BusinessTrip(name: name, startDate: start, endDate: end,
                                            company: OracleValues.companies.randomElement(using: &random)!)
                business.expenseReport = OracleValues.reports.randomElement(using: &random)!
                business.meetingAgenda = OracleValues.reports.randomElement(using: &random)!
                trip = business
            default:
                let personal = PersonalTrip(name: name, startDate: start, endDate: end,
                                            reason: PersonalTrip.Reason.allCases.randomElement(using: &random)!)
                personal.companions = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                    OracleValues.companions.randomElement(using: &random)!
                }
                trip = personal
            }
            context.insert(trip)
            trips.append(trip)
        }
        addStaysAndPlans(to: trips, names: OracleValues.names, days: OracleValues.days, context, &random)
        try context.save()
    }

    /// 500 accommodations (a fifth without a trip) and 200 itineraries (half without one, each
    /// with up to three days), named from `names`.
    static func addStaysAndPlans(to trips: [Trip], names: [String], days: [String], _ context: ModelContext,
                                 _ random: inout SeededGenerator) {
        for _ in 0..<500 {
            let stay = Accommodation(name: names.randomElement(using: &random)!)
            if Int.random(in: 0..<5, using: &random) > 0 { stay.trip = trips.randomElement(using: &random)! }
            context.insert(stay)
        }
        for _ in 0..<200 {
            let plan = Itinerary(title: names.randomElement(using: &random)!)
            plan.days = (0..<Int.random(in: 0...3, using: &random)).map { _ in days.randomElement(using: &random)! }
            if Bool.random(using: &random) { plan.trip = trips.randomElement(using: &random)! }
            context.insert(plan)
        }
    }
}

/// Builds and saves the Shop data set: 400 products (a third digital), 12 tags, 15 categories
/// in a tree, 60 customers, 500 orders.
enum ShopDataSet {
    static let prices = ["0", "9.99", "10", "10.00", "-1.5", "100.001", "99.5", "1000", "0.001", "-20"]

    static func populate(_ context: ModelContext, seed: UInt64 = 7) throws {
        var random = SeededGenerator(seed: seed)
        let posix = Locale(identifier: "en_US_POSIX")
        let tags = ["sale", "new", "Sale", "éco", "eco\u{301}", "gift", "bulk", "rare", "", "kids", "home", "tech"].map { Tag(label: $0) }
        tags.forEach(context.insert)
        var categories: [Category] = []
        for index in 0..<15 {
            let category = Category(name: index == 0 ? "Root" : ["Books", "books", "Music", "Garden", "Tools", "Café"][index % 6])
            if index > 0 { category.parent = categories[Int.random(in: 0..<index, using: &random)] }
            if index > 0 && index % 5 == 0 { category.parent = nil }
            context.insert(category)
            categories.append(category)
        }
        var products: [Product] = []
        for index in 0..<400 {
            let price = Decimal(string: prices.randomElement(using: &random)!, locale: posix)!
            let name = OracleValues.names.randomElement(using: &random)!
            let product: Product
            if index % 3 == 0 {
                product = DigitalProduct(sku: "D-\(index)", name: name, price: price,
                                         downloadURL: URL(string: "https://example.com/file/\(index % 7)")!,
                                         fileSize: UInt32.random(in: 0...4_000, using: &random))
            } else {
                product = Product(sku: "P-\(index)", name: name, price: price)
            }
            product.weight = [0.5, 0.1, 0.2, 0.30000000000000004, 1.5, -0.0, 0.75][Int.random(in: 0..<7, using: &random)]
            product.rating = [nil, 2.5, 0.1, 3.0, 4.75][Int.random(in: 0..<5, using: &random)]
            product.stock = Int.random(in: -50...50, using: &random)
            product.shelf = UInt16.random(in: 0...6, using: &random)
            product.barcode = Bool.random(using: &random) ? Int64.random(in: -5...5, using: &random) : nil
            product.isActive = Int.random(in: 0..<4, using: &random) > 0
            product.website = [nil, URL(string: "https://shop.example/a"), URL(string: "https://shop.example/b")][Int.random(in: 0..<3, using: &random)]
            product.sizes = (0..<Int.random(in: 0...3, using: &random)).map { _ in [38, 40, 42, 44][Int.random(in: 0..<4, using: &random)] }
            product.addedAt = OracleValues.dates.randomElement(using: &random)!
            product.tags = tags.filter { _ in Int.random(in: 0..<6, using: &random) == 0 }
            if Int.random(in: 0..<4, using: &random) > 0 { product.category = categories.randomElement(using: &random)! }
            context.insert(product)
            products.append(product)
        }
        var customers: [Customer] = []
        for index in 0..<60 {
            let customer = Customer(name: OracleValues.names.randomElement(using: &random)!, email: "c\(index)@example.com")
            customer.default = index % 4 == 0
            context.insert(customer)
            customers.append(customer)
        }
        for index in 0..<500 {
            let order = Order(number: Int32(index - 250), group: ["group", "Group", "order", "Ørder", ""][index % 5],
                              placedAt: OracleValues.dates.randomElement(using: &random)!)
            order.channel = Order.Channel.allCases.randomElement(using: &random)!
            order.priority = Priority.allCases.randomElement(using: &random)!
            order.quantity = Int8.random(in: 1...6, using: &random)
            order.discount = Int16.random(in: -20...20, using: &random)
            order.points = UInt8.random(in: 0...255, using: &random)
            order.note = [nil, "", "fragile", "Fragile", "gift wrap"][Int.random(in: 0..<5, using: &random)]
            if Int.random(in: 0..<5, using: &random) > 0 { order.customer = customers.randomElement(using: &random)! }
            order.products = products.filter { _ in Int.random(in: 0..<150, using: &random) == 0 }
            context.insert(order)
        }
        try context.save()
    }
}
