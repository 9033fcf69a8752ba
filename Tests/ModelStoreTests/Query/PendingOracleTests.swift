import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The pending-changes oracle on the Trips and Shop samples: saved rows with NULLs, mixed case,
/// digits inside strings, non-ASCII text and ties; then, in each round, a fresh context makes
/// random unsaved inserts, changes (also of related models and links) and deletions, and
/// hundreds of generated predicate + sort + limit/offset fetches must equal Foundation's answer
/// over the context's view, element for element.
@Suite struct TripsPendingOracleTests {
    let store: QueryStore

    init() throws {
        store = try QueryStore(TripStore.schema)
        try SortTripsDataSet.populate(store.context())
    }

    /// A context with every saved trip, stay and plan read, then random unsaved changes.
    func round(_ seed: UInt64) throws -> ContextView {
        let view = ContextView(store.context())
        try view.load(Trip.self)
        try view.load(Accommodation.self)
        try view.load(Itinerary.self)
        var random = SeededGenerator(seed: seed)
        let names = SortValues.names
        let trips = view.view(Trip.self)
        let stays = view.view(Accommodation.self)
        func some<T>(_ models: [T], _ count: Int) -> [T] { (0..<count).map { _ in models.randomElement(using: &random)! } }
        for trip in some(trips, 40) { trip.name = names.randomElement(using: &random)! }
        for trip in some(trips, 15) { trip.startDate = SortValues.dates.randomElement(using: &random)! }
        for trip in some(trips, 30) {
            if let business = trip as? BusinessTrip {
                business.company = names.randomElement(using: &random)!
                business.expenseReport = SortValues.optionalNames.randomElement(using: &random)!
            }
        }
        for stay in some(stays, 30) { stay.name = names.randomElement(using: &random)! }
        for stay in some(stays, 30) { stay.trip = Bool.random(using: &random) ? trips.randomElement(using: &random)! : nil }
        var newTrips: [Trip] = []
        for index in 0..<25 {
            let name = names.randomElement(using: &random)!
            let start = SortValues.dates.randomElement(using: &random)!
            let trip: Trip
            switch index % 3 {
            case 0: trip = Trip(name: name, startDate: start, endDate: start)
            case 1:
                let business = BusinessTrip(name: name, startDate: start, endDate: start, company: names.randomElement(using: &random)!)
                business.expenseReport = SortValues.optionalNames.randomElement(using: &random)!
                trip = business
            default: trip = PersonalTrip(name: name, startDate: start, endDate: start, reason: .adventure)
            }
            // Some share a stored trip's identifier: UUID sorts meet ties across stored and new.
            trip.identifier = index % 5 == 0 ? trips.randomElement(using: &random)!.identifier : SortValues.uuid(&random)
            view.insert(trip)
            newTrips.append(trip)
        }
        for _ in 0..<25 {
            let stay = Accommodation(name: names.randomElement(using: &random)!)
            view.insert(stay)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: stay.trip = trips.randomElement(using: &random)!
            case 1: stay.trip = newTrips.randomElement(using: &random)!
            default: break
            }
        }
        for trip in some(trips, 12) { view.context.delete(trip) }
        for stay in some(stays, 12) { view.context.delete(stay) }
        for trip in some(newTrips, 3) { view.context.delete(trip) }
        return view
    }

    static func tripKeys() -> [SortKey<Trip>] {
        [.string("name", \.name), .value("startDate", \.startDate), .value("endDate", \.endDate), .value("identifier", \.identifier)]
    }

    static func tripPredicates() -> [(String, Predicate<Trip>)] {
        let day = Day.at(0)
        return [
            ("is BusinessTrip", #Predicate<Trip> { $0 is BusinessTrip }),
            ("name.contains(a)", #Predicate<Trip> { $0.name.contains("a") }),
            ("name < M", #Predicate<Trip> { $0.name < "M" }),
            ("startDate > day 0", #Predicate<Trip> { $0.startDate > day }),
            ("a stay named Kelvin", #Predicate<Trip> { trip in trip.accommodations.contains { $0.name == "Kelvin" } }),
            ("has stays", #Predicate<Trip> { !$0.accommodations.isEmpty }),
            ("business with no report", #Predicate<Trip> { trip in
                if let business = trip as? BusinessTrip { business.expenseReport == nil } else { false }
            }),
        ]
    }

    @Test(arguments: [1, 2] as [UInt64])
    func trips(round seed: UInt64) throws {
        let view = try round(seed)
        let cases = SortOracle.generate(Self.tripKeys(), count: 60, rows: 620, predicates: Self.tripPredicates(), seed: 100 + seed)
        let touched = try PendingOracle.check(cases, view, seed: seed, describe: { "\($0.persistentModelID) \($0.name.debugDescription)" })
        #expect(touched > 20, "the changes must reach the fetches")
        let plain = Self.tripPredicates().map {
            SortCase<Trip>(name: "where \($0.0), no sort", descriptors: [], predicate: $0.1)
        }
        try PendingOracle.check(plain, view, seed: seed, describe: { "\($0.persistentModelID) \($0.name.debugDescription)" })
        try PendingOracle.checkDelete("name < M", #Predicate<Trip> { $0.name < "M" }, view, describe: { "\($0.persistentModelID) \($0.name)" })
    }

    @Test(arguments: [4, 5] as [UInt64])
    func subclassesAndStays(round seed: UInt64) throws {
        let view = try round(seed)
        let business: [SortKey<BusinessTrip>] = [
            .string("name", \.name), .string("company", \.company), .optionalString("expenseReport", \.expenseReport),
            .value("startDate", \.startDate),
        ]
        let businessPredicates: [(String, Predicate<BusinessTrip>)] = [
            ("company < M", #Predicate<BusinessTrip> { $0.company < "M" }),
            ("expenseReport != nil", #Predicate<BusinessTrip> { $0.expenseReport != nil }),
        ]
        let cases = SortOracle.generate(business, count: 50, rows: 220, predicates: businessPredicates, seed: 200 + seed)
        try PendingOracle.check(cases, view, seed: seed, describe: { "\($0.persistentModelID) \($0.company.debugDescription)" })

        let stayKeys: [SortKey<Accommodation>] = [
            .string("name", \.name), .optionalString("trip?.name", \.trip?.name), .optional("trip?.startDate", \.trip?.startDate),
            .optional("trip?.identifier", \.trip?.identifier),
        ]
        let stayPredicates: [(String, Predicate<Accommodation>)] = [
            ("trip != nil", #Predicate<Accommodation> { $0.trip != nil }),
            ("trip is PersonalTrip", #Predicate<Accommodation> { $0.trip is PersonalTrip }),
            ("trip?.name < M", #Predicate<Accommodation> { ($0.trip?.name ?? "") < "M" }),
            ("trip?.name == Kelvin", #Predicate<Accommodation> { $0.trip?.name == "Kelvin" }),
            ("name.contains(e)", #Predicate<Accommodation> { $0.name.contains("e") }),
        ]
        let stayCases = SortOracle.generate(stayKeys, count: 80, rows: 530, predicates: stayPredicates, seed: 300 + seed)
        let touched = try PendingOracle.check(stayCases, view, seed: seed,
                                              describe: { "\($0.persistentModelID) \($0.name.debugDescription) trip \($0.trip?.name.debugDescription ?? "nil")" })
        #expect(touched > 20, "the changes must reach the fetches")
        try PendingOracle.checkDelete("trip?.name < M", #Predicate<Accommodation> { ($0.trip?.name ?? "") < "M" }, view,
                                      describe: { "\($0.persistentModelID) \($0.name)" })
    }
}

@Suite struct ShopPendingOracleTests {
    let store: QueryStore

    init() throws {
        store = try QueryStore(Shop.schema)
        try ShopDataSet.populate(store.context())
    }

    /// A context with every saved product, tag and category read, then random unsaved changes:
    /// values, categories (two levels of parents), tag links (a join table), tag labels, new
    /// products and categories, deletions.
    func round(_ seed: UInt64) throws -> ContextView {
        let view = ContextView(store.context())
        try view.load(Product.self)
        try view.load(Tag.self)
        try view.load(Category.self)
        var random = SeededGenerator(seed: seed)
        let products = view.view(Product.self)
        let tags = view.view(Tag.self)
        let categories = view.view(Category.self)
        let posix = Locale(identifier: "en_US_POSIX")
        func some<T>(_ models: [T], _ count: Int) -> [T] { (0..<count).map { _ in models.randomElement(using: &random)! } }
        func price() -> Decimal { Decimal(string: ShopDataSet.prices.randomElement(using: &random)!, locale: posix)! }
        for product in some(products, 30) { product.name = SortValues.names.randomElement(using: &random)! }
        for product in some(products, 20) { product.price = price() }
        for product in some(products, 20) { product.category = Bool.random(using: &random) ? categories.randomElement(using: &random)! : nil }
        for product in some(products, 20) {
            let tag = tags.randomElement(using: &random)!
            if product.tags.contains(where: { $0 === tag }) { product.tags.removeAll { $0 === tag } } else { product.tags.append(tag) }
        }
        for category in some(categories, 4) { category.name = ["Books", "Music", "Zoo", "books"].randomElement(using: &random)! }
        for category in some(categories, 3) where category.name != "Root" { category.parent = categories.randomElement(using: &random)! }
        for tag in some(tags, 2) { tag.label = ["sale", "new", "Sale", "x"].randomElement(using: &random)! + "\(seed)" }
        var newCategories: [Category] = []
        for index in 0..<3 {
            let category = Category(name: ["Books", "New", "Café"][index])
            view.insert(category)
            category.parent = categories.randomElement(using: &random)!
            newCategories.append(category)
        }
        for index in 0..<30 {
            let product = index % 3 == 0
                ? DigitalProduct(sku: "N\(seed)-\(index)", name: SortValues.names.randomElement(using: &random)!, price: price(),
                                 downloadURL: URL(string: "https://example.com/new")!, fileSize: UInt32.random(in: 0...4_000, using: &random))
                : Product(sku: "N\(seed)-\(index)", name: SortValues.names.randomElement(using: &random)!, price: price())
            product.rating = [nil, 2.5, 0.1][Int.random(in: 0..<3, using: &random)]
            view.insert(product)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: product.category = categories.randomElement(using: &random)!
            case 1: product.category = newCategories.randomElement(using: &random)!
            default: break
            }
            product.tags = tags.filter { _ in Int.random(in: 0..<5, using: &random) == 0 }
        }
        for product in some(products, 15) { view.context.delete(product) }
        return view
    }

    @Test(arguments: [1, 2] as [UInt64])
    func products(round seed: UInt64) throws {
        let view = try round(seed)
        let keys: [SortKey<Product>] = [
            .string("name", \.name), .string("sku", \.sku), .value("price", \.price), .optional("rating", \.rating),
            .value("stock", \.stock), .optionalString("category?.name", \.category?.name),
            .optionalString("category?.parent?.name", \.category?.parent?.name),
        ]
        let sale = "sale"
        let predicates: [(String, Predicate<Product>)] = [
            ("tagged sale", #Predicate<Product> { product in product.tags.contains { $0.label == sale } }),
            ("category?.name == Books", #Predicate<Product> { $0.category?.name == "Books" }),
            ("category?.parent?.name == Root", #Predicate<Product> { $0.category?.parent?.name == "Root" }),
            ("price < 10", #Predicate<Product> { $0.price < 10 }),
            ("is DigitalProduct", #Predicate<Product> { $0 is DigitalProduct }),
            ("untagged", #Predicate<Product> { $0.tags.isEmpty }),
        ]
        let cases = SortOracle.generate(keys, count: 90, rows: 420, predicates: predicates, seed: 400 + seed)
        let touched = try PendingOracle.check(cases, view, seed: seed, describe: { "\($0.persistentModelID) \($0.name.debugDescription) \($0.price)" })
        #expect(touched > 20, "the changes must reach the fetches")
        let categories = SortOracle.generate([.string("name", \Category.name), .optionalString("parent?.name", \Category.parent?.name)],
                                             count: 20, rows: 20, predicates: [("parent?.name == Root", #Predicate<Category> { $0.parent?.name == "Root" })],
                                             seed: 500 + seed)
        try PendingOracle.check(categories, view, seed: seed, describe: { "\($0.persistentModelID) \($0.name.debugDescription)" })
        try PendingOracle.checkDelete("tagged sale", #Predicate<Product> { product in product.tags.contains { $0.label == sale } }, view,
                                      describe: { "\($0.persistentModelID) \($0.name)" })
    }
}
