import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The sort oracle over generated descriptor lists: the fetched order against Foundation's
/// `sorted(using:)` on the same models, element for element, with limits and offsets.
@Suite struct TripsSortOracleTests {
    let oracle: OracleStore
    var context: ModelContext { oracle.context }

    init() throws {
        oracle = try OracleStore(TripStore.schema) { try SortTripsDataSet.populate($0) }
    }

    @Test func tripSorts() throws {
        let keys: [SortKey<Trip>] = [
            .string("name", \.name), .value("startDate", \.startDate), .value("endDate", \.endDate),
            .value("identifier", \.identifier),
        ]
        let predicates: [(String, Predicate<Trip>)] = [
            ("is BusinessTrip", #Predicate<Trip> { $0 is BusinessTrip }),
            ("name.contains(a)", #Predicate<Trip> { $0.name.contains("a") }),
        ]
        let cases = SortOracle.generate(keys, count: 160, rows: 600, predicates: predicates, seed: 1)
        let tied = try SortOracle.check(cases, in: context, describe: { "\($0.persistentModelID) \($0.name.debugDescription)" })
        #expect(tied > 100, "the data set must give the sorts ties to break")
    }

    @Test func subclassSorts() throws {
        let keys: [SortKey<BusinessTrip>] = [
            .string("name", \.name), .string("company", \.company), .optionalString("expenseReport", \.expenseReport),
            .optionalString("meetingAgenda", \.meetingAgenda), .value("startDate", \.startDate),
        ]
        let cases = SortOracle.generate(keys, count: 80, rows: 200, seed: 2)
        try SortOracle.check(cases, in: context, describe: { "\($0.persistentModelID) \($0.company.debugDescription) \($0.expenseReport.debugDescription)" })
        let personal = SortOracle.generate([.string("name", \PersonalTrip.name), .value("endDate", \PersonalTrip.endDate)], count: 30, rows: 200, seed: 3)
        try SortOracle.check(personal, in: context, describe: { "\($0.persistentModelID) \($0.name.debugDescription)" })
    }

    @Test func toOneSorts() throws {
        let keys: [SortKey<Accommodation>] = [
            .string("name", \.name), .optionalString("trip?.name", \.trip?.name), .optional("trip?.startDate", \.trip?.startDate),
            .optional("trip?.identifier", \.trip?.identifier), .optional("trip?.endDate", \.trip?.endDate),
        ]
        let predicates: [(String, Predicate<Accommodation>)] = [
            ("trip != nil", #Predicate<Accommodation> { $0.trip != nil }),
            ("trip is PersonalTrip", #Predicate<Accommodation> { $0.trip is PersonalTrip }),
        ]
        let cases = SortOracle.generate(keys, count: 160, rows: 500, predicates: predicates, seed: 4)
        try SortOracle.check(cases, in: context, describe: { "\($0.persistentModelID) \($0.name.debugDescription) trip \($0.trip?.name.debugDescription ?? "nil")" })
        let plans = SortOracle.generate([.string("title", \Itinerary.title), .optionalString("trip?.name", \Itinerary.trip?.name)],
                                        count: 40, rows: 200, seed: 5)
        try SortOracle.check(plans, in: context, describe: { "\($0.persistentModelID) \($0.title.debugDescription)" })
    }
}

@Suite struct ShopSortOracleTests {
    let oracle: OracleStore
    var context: ModelContext { oracle.context }

    init() throws {
        oracle = try OracleStore(Shop.schema) { try ShopDataSet.populate($0) }
    }

    @Test func productSorts() throws {
        let keys: [SortKey<Product>] = [
            .string("name", \.name), .string("sku", \.sku), .value("price", \.price), .value("weight", \.weight),
            .optional("rating", \.rating), .value("stock", \.stock), .value("shelf", \.shelf), .optional("barcode", \.barcode),
            .value("code", \.code), .value("addedAt", \.addedAt), .optionalString("category?.name", \.category?.name),
            .optionalString("category?.parent?.name", \.category?.parent?.name),
        ]
        let cases = SortOracle.generate(keys, count: 140, rows: 400, seed: 6)
        try SortOracle.check(cases, in: context, describe: { "\($0.persistentModelID) \($0.name.debugDescription) \($0.price)" })
        let digital = SortOracle.generate([.value("fileSize", \DigitalProduct.fileSize), .value("price", \DigitalProduct.price),
                                           .string("name", \DigitalProduct.name),
                                           .optionalString("category?.name", \DigitalProduct.category?.name)], count: 30, rows: 140, seed: 7)
        try SortOracle.check(digital, in: context, describe: { "\($0.persistentModelID) \($0.fileSize)" })
    }

    @Test func orderAndCategorySorts() throws {
        let keys: [SortKey<Order>] = [
            .value("number", \.number), .string("group", \.group), .value("placedAt", \.placedAt), .value("quantity", \.quantity),
            .value("discount", \.discount), .value("points", \.points), .optionalString("note", \.note),
            .optionalString("customer?.name", \.customer?.name), .optionalString("customer?.email", \.customer?.email),
        ]
        let cases = SortOracle.generate(keys, count: 120, rows: 500, seed: 8)
        try SortOracle.check(cases, in: context, describe: { "\($0.persistentModelID) \($0.number)" })
        let categories = SortOracle.generate([.string("name", \Category.name), .optionalString("parent?.name", \Category.parent?.name),
                                              .optionalString("parent?.parent?.name", \Category.parent?.parent?.name)],
                                             count: 30, rows: 15, seed: 9)
        try SortOracle.check(categories, in: context, describe: { "\($0.persistentModelID) \($0.name.debugDescription)" })
    }
}

@Suite struct AllTypesSortOracleTests {
    let oracle: OracleStore
    var context: ModelContext { oracle.context }

    init() throws {
        oracle = try OracleStore(SpecAllTypesStore.schema) { try SortAllTypesDataSet.populate($0) }
    }

    @Test func everyComparableTypeSorts() throws {
        let keys: [SortKey<SpecEverything>] = [
            .value("int", \.int), .value("int8", \.int8), .value("int16", \.int16), .value("int32", \.int32), .value("int64", \.int64),
            .value("uint8", \.uint8), .value("uint16", \.uint16), .value("uint32", \.uint32), .value("double", \.double),
            .value("float", \.float), .string("string", \.string), .value("date", \.date), .value("uuid", \.uuid),
            .value("decimal", \.decimal), .optional("optionalInt", \.optionalInt), .optional("optionalInt8", \.optionalInt8),
            .optional("optionalInt16", \.optionalInt16), .optional("optionalInt32", \.optionalInt32),
            .optional("optionalInt64", \.optionalInt64), .optional("optionalUInt8", \.optionalUInt8),
            .optional("optionalUInt16", \.optionalUInt16), .optional("optionalUInt32", \.optionalUInt32),
            .optional("optionalDouble", \.optionalDouble), .optional("optionalFloat", \.optionalFloat),
            .optionalString("optionalString", \.optionalString), .optional("optionalDate", \.optionalDate),
            .optional("optionalUUID", \.optionalUUID), .optional("optionalDecimal", \.optionalDecimal),
        ]
        let cases = SortOracle.generate(keys, count: 200, rows: 300, seed: 10)
        try SortOracle.check(cases, in: context, describe: { "\($0.persistentModelID) \($0.code)" })
    }
}
