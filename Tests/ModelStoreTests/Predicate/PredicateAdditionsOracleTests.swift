import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The oracle for docs/Runtime.md `#Predicate` additions: `persistentModelID`, `caseInsensitiveCompare`,
/// `count` over to-many relationships and arrays, `max()` / `min()` over arrays, and a captured
/// predicate's `evaluate`.
@Suite struct TripsPredicateAdditionsOracleTests {
    /// The test's store, filled with the data set.
    static func oracle(_ kind: StoreKind) throws -> OracleStore {
        try OracleStore(kind, TripStore.schema) { try TripsDataSet.populate($0) }
    }

    @Test(arguments: StoreKind.allCases) func identifierPredicates(_ kind: StoreKind) throws {
        let oracle = try Self.oracle(kind)
        let context = oracle.context
        let trips = try context.fetch(FetchDescriptor<Trip>())
        let business = try #require(trips.first { $0 is BusinessTrip })
        let plain = try #require(trips.first { type(of: $0) == Trip.self })
        let businessID = business.persistentModelID
        let plainID = plain.persistentModelID
        let stayID = try #require(try context.fetch(FetchDescriptor<Accommodation>()).first).persistentModelID
        // A model never saved has a temporary identifier; an identifier naming the wrong entity
        // for its row (the row is a BusinessTrip) is not that model's.
        let unsaved = Trip(name: "Beach", startDate: Day.at(0), endDate: Day.at(1))
        context.insert(unsaved)
        let temporaryID = unsaved.persistentModelID
        #expect(temporaryID.isTemporary)
        let wrongEntityID = PersistentIdentifier(entityName: "Trip", rowID: try #require(businessID.rowID), store: businessID.storeIdentifier)
        let someIDs = trips.prefix(40).map(\.persistentModelID) + [stayID, temporaryID]
        let optionalIDs: [PersistentIdentifier?] = [plainID, nil]
        var cases: [OracleCase<Trip>] = []
        cases.append(.init(name: "persistentModelID == business", predicate: #Predicate<Trip> { $0.persistentModelID == businessID }))
        cases.append(.init(name: "persistentModelID == plain", predicate: #Predicate<Trip> { $0.persistentModelID == plainID }))
        cases.append(.init(name: "persistentModelID != plain", predicate: #Predicate<Trip> { $0.persistentModelID != plainID }))
        cases.append(.init(name: "id == business", predicate: #Predicate<Trip> { $0.id == businessID }))
        cases.append(.init(name: "persistentModelID == temporary", predicate: #Predicate<Trip> { $0.persistentModelID == temporaryID }, mayBeTrivial: true))
        cases.append(.init(name: "persistentModelID != temporary", predicate: #Predicate<Trip> { $0.persistentModelID != temporaryID }, mayBeTrivial: true))
        cases.append(.init(name: "persistentModelID == an accommodation's", predicate: #Predicate<Trip> { $0.persistentModelID == stayID }, mayBeTrivial: true))
        cases.append(.init(name: "persistentModelID == wrong entity", predicate: #Predicate<Trip> { $0.persistentModelID == wrongEntityID }, mayBeTrivial: true))
        cases.append(.init(name: "ids.contains(persistentModelID)", predicate: #Predicate<Trip> { someIDs.contains($0.persistentModelID) }))
        cases.append(.init(name: "!ids.contains(persistentModelID)", predicate: #Predicate<Trip> { !someIDs.contains($0.persistentModelID) }))
        cases.append(.init(name: "(as? BusinessTrip)?.persistentModelID == business", predicate: #Predicate<Trip> { ($0 as? BusinessTrip)?.persistentModelID == businessID }))
        cases.append(.init(name: "(as? PersonalTrip)?.persistentModelID == business", predicate: #Predicate<Trip> { ($0 as? PersonalTrip)?.persistentModelID == businessID }, mayBeTrivial: true))
        cases.append(.init(name: "persistentModelID == business || name == Beach", predicate: #Predicate<Trip> { $0.persistentModelID == businessID || $0.name == "Beach" }))
        try Oracle.check(cases, in: context, describe: { "\($0.persistentModelID) \($0.name.debugDescription)" })

        let tripID = try #require(try context.fetch(FetchDescriptor<Accommodation>()).compactMap(\.trip).first).persistentModelID
        var stays: [OracleCase<Accommodation>] = []
        stays.append(.init(name: "trip?.persistentModelID == tripID", predicate: #Predicate<Accommodation> { $0.trip?.persistentModelID == tripID }))
        stays.append(.init(name: "trip?.persistentModelID != tripID", predicate: #Predicate<Accommodation> { $0.trip?.persistentModelID != tripID }))
        stays.append(.init(name: "trip?.persistentModelID == nil", predicate: #Predicate<Accommodation> { $0.trip?.persistentModelID == nil }))
        stays.append(.init(name: "trip?.persistentModelID != nil", predicate: #Predicate<Accommodation> { $0.trip?.persistentModelID != nil }))
        stays.append(.init(name: "trip?.persistentModelID == temporary", predicate: #Predicate<Accommodation> { $0.trip?.persistentModelID == temporaryID }, mayBeTrivial: true))
        stays.append(.init(name: "trip?.persistentModelID != temporary", predicate: #Predicate<Accommodation> { $0.trip?.persistentModelID != temporaryID }, mayBeTrivial: true))
        stays.append(.init(name: "(trip as? BusinessTrip)?.persistentModelID == business", predicate: #Predicate<Accommodation> { stay in
            (stay.trip as? BusinessTrip)?.persistentModelID == businessID
        }, mayBeTrivial: true))
        stays.append(.init(name: "optional ids.contains(trip?.persistentModelID)", predicate: #Predicate<Accommodation> { stay in
            optionalIDs.contains(stay.trip.flatMap { $0.persistentModelID })
        }))
        stays.append(.init(name: "trip?.persistentModelID == trip?.persistentModelID", predicate: #Predicate<Accommodation> { $0.trip?.persistentModelID == $0.trip?.persistentModelID }, mayBeTrivial: true))
        stays.append(.init(name: "trip?.accommodations.count ?? 0 > 2", predicate: #Predicate<Accommodation> { ($0.trip?.accommodations.count ?? 0) > 2 }))
        try Oracle.check(stays, in: context, describe: { "\($0.persistentModelID) \($0.name.debugDescription)" })
    }

    @Test(arguments: StoreKind.allCases) func caseInsensitiveCompareAndAggregates(_ kind: StoreKind) throws {
        let oracle = try Self.oracle(kind)
        let context = oracle.context
        let same = ComparisonResult.orderedSame
        let ascending = ComparisonResult.orderedAscending
        let descending = ComparisonResult.orderedDescending
        var cases: [OracleCase<Trip>] = []
        cases.append(.init(name: "caseInsensitiveCompare(beach) == same", predicate: #Predicate<Trip> { $0.name.caseInsensitiveCompare("beach") == same }))
        cases.append(.init(name: "caseInsensitiveCompare(CAFÉ) == same", predicate: #Predicate<Trip> { $0.name.caseInsensitiveCompare("CAFÉ") == same }))
        cases.append(.init(name: "caseInsensitiveCompare(strasse) == same", predicate: #Predicate<Trip> { $0.name.caseInsensitiveCompare("strasse") == same }, mayBeTrivial: true))
        cases.append(.init(name: "caseInsensitiveCompare(m) == ascending", predicate: #Predicate<Trip> { $0.name.caseInsensitiveCompare("m") == ascending }))
        cases.append(.init(name: "caseInsensitiveCompare(m) != descending", predicate: #Predicate<Trip> { $0.name.caseInsensitiveCompare("m") != descending }))
        cases.append(.init(name: "company caseInsensitiveCompare(ACME) == same", predicate: #Predicate<Trip> { trip in
            if let business = trip as? BusinessTrip { business.company.caseInsensitiveCompare("ACME") == same } else { false }
        }))
        cases.append(.init(name: "expenseReport?.caseInsensitiveCompare(er) == same", predicate: #Predicate<Trip> { trip in
            (trip as? BusinessTrip)?.expenseReport?.caseInsensitiveCompare("er") == same
        }))
        cases.append(.init(name: "accommodations.count > 2", predicate: #Predicate<Trip> { $0.accommodations.count > 2 }))
        cases.append(.init(name: "accommodations.count == 0", predicate: #Predicate<Trip> { $0.accommodations.count == 0 }))
        cases.append(.init(name: "companions.count >= 2", predicate: #Predicate<Trip> { trip in
            if let personal = trip as? PersonalTrip { personal.companions.count >= 2 } else { false }
        }))
        cases.append(.init(name: "companions.max() == Dmitri", predicate: #Predicate<Trip> { trip in
            if let personal = trip as? PersonalTrip { personal.companions.max() == "Dmitri" } else { false }
        }))
        cases.append(.init(name: "companions.max() ?? empty > Bo", predicate: #Predicate<Trip> { trip in
            if let personal = trip as? PersonalTrip { (personal.companions.max() ?? "") > "Bo" } else { false }
        }))
        cases.append(.init(name: "companions.min() == Chloé (also decomposed)", predicate: #Predicate<Trip> { trip in
            if let personal = trip as? PersonalTrip { personal.companions.min() == "Chloé" } else { false }
        }))
        cases.append(.init(name: "companions.min() == nil", predicate: #Predicate<Trip> { trip in
            if let personal = trip as? PersonalTrip { personal.companions.min() == nil } else { false }
        }))
        cases.append(.init(name: "companions.min()?.count == 0", predicate: #Predicate<Trip> { trip in
            if let personal = trip as? PersonalTrip { personal.companions.min()?.count == 0 } else { false }
        }))
        try Oracle.check(cases, in: context, describe: { "\($0.persistentModelID) \($0.name.debugDescription)" })

        var plans: [OracleCase<Itinerary>] = []
        plans.append(.init(name: "days.max() == swim", predicate: #Predicate<Itinerary> { $0.days.max() == "swim" }))
        plans.append(.init(name: "days.min() ?? ~ < s", predicate: #Predicate<Itinerary> { ($0.days.min() ?? "~") < "s" }))
        plans.append(.init(name: "days.max() == days.min()", predicate: #Predicate<Itinerary> { $0.days.max() == $0.days.min() }))
        plans.append(.init(name: "days.count > 1", predicate: #Predicate<Itinerary> { $0.days.count > 1 }))
        plans.append(.init(name: "title.caseInsensitiveCompare(hotel) == same", predicate: #Predicate<Itinerary> { $0.title.caseInsensitiveCompare("hotel") == same }))
        try Oracle.check(plans, in: context, describe: { "\($0.persistentModelID) \($0.title.debugDescription) \($0.days)" })
    }

    @Test(arguments: StoreKind.allCases) func capturedPredicateEvaluate(_ kind: StoreKind) throws {
        let oracle = try Self.oracle(kind)
        let context = oracle.context
        // `#Predicate` on Linux cannot write `other.evaluate($0)` (see PredicateEvaluate.swift), so
        // the expression Apple's macro would build is built by hand and translated directly.
        let schema = TripStore.schema
        let entity = try #require(schema.entity(for: Trip.self))
        let inners: [(String, Predicate<Trip>)] = [
            ("name starts with B", #Predicate<Trip> { $0.name.starts(with: "B") }),
            ("business with accommodations", #Predicate<Trip> { $0 is BusinessTrip && !$0.accommodations.isEmpty }),
            ("accommodation named Hotel", #Predicate<Trip> { $0.accommodations.contains { $0.name == "Hotel" } }),
        ]
        let all = try context.fetch(FetchDescriptor<Trip>())
        for (name, inner) in inners {
            let variable = PredicateExpressions.Variable<Trip>()
            let expressions: [(String, any PredicateExpression<Bool>)] = [
                ("evaluate", PredicateExpressions.PredicateEvaluate(predicate: PredicateExpressions.Value(inner), input: variable)),
                ("!evaluate", PredicateExpressions.Negation(PredicateExpressions.PredicateEvaluate(predicate: PredicateExpressions.Value(inner), input: variable))),
                ("evaluate && startDate < cutoff", PredicateExpressions.Conjunction(
                    lhs: PredicateExpressions.PredicateEvaluate(predicate: PredicateExpressions.Value(inner), input: variable),
                    rhs: PredicateExpressions.Comparison(lhs: PredicateExpressions.KeyPath(root: variable, keyPath: \Trip.startDate),
                                                         rhs: PredicateExpressions.Value(OracleValues.cutoff), op: .lessThan))),
            ]
            for (form, expression) in expressions {
                var translation = TranslationContext(schema: schema, dialect: context.container.driver.dialect,
                                                     store: context.container.storeIdentifier)
                translation.variables[variable.key] = .model(.row(of: entity, alias: entity.tableName))
                let condition = try translation.condition(expression)
                let rows = try context.connection().rows(#"SELECT "$pk" FROM "Trip" WHERE "# + condition.sql, condition.bindings)
                let got = Set(rows.compactMap { row -> Int64? in if case .integer(let key)? = row.first { return key } else { return nil } })
                let want = Set(try all.filter { try expression.evaluate(PredicateBindings((variable, $0))) }.map { $0.persistentModelID.rowID! })
                #expect(got == want, "\(form) of \(name): SQL \(got.count) rows, evaluate \(want.count)")
                #expect(!want.isEmpty && want.count < all.count, "\(form) of \(name) does not test anything")
            }
        }
    }
}

@Suite struct ShopPredicateAdditionsOracleTests {
    /// The test's store, filled with the data set.
    static func oracle(_ kind: StoreKind) throws -> OracleStore {
        try OracleStore(kind, Shop.schema) { try ShopDataSet.populate($0) }
    }

    @Test(arguments: StoreKind.allCases) func shopAdditions(_ kind: StoreKind) throws {
        let oracle = try Self.oracle(kind)
        let context = oracle.context
        let same = ComparisonResult.orderedSame
        let products = try context.fetch(FetchDescriptor<Product>())
        let digitalID = try #require(products.first { $0 is DigitalProduct }).persistentModelID
        let categoryID = try #require(products.compactMap(\.category).first).persistentModelID
        let productIDs = products.filter { $0.stock > 30 }.map(\.persistentModelID)
        var cases: [OracleCase<Product>] = []
        cases.append(.init(name: "persistentModelID == digital", predicate: #Predicate<Product> { $0.persistentModelID == digitalID }))
        cases.append(.init(name: "ids.contains(persistentModelID)", predicate: #Predicate<Product> { productIDs.contains($0.persistentModelID) }))
        cases.append(.init(name: "category?.persistentModelID == categoryID", predicate: #Predicate<Product> { $0.category?.persistentModelID == categoryID }))
        cases.append(.init(name: "category?.parent?.persistentModelID == nil", predicate: #Predicate<Product> { $0.category?.parent?.persistentModelID == nil }))
        cases.append(.init(name: "sizes.max() ?? 0 > 40", predicate: #Predicate<Product> { ($0.sizes.max() ?? 0) > 40 }))
        cases.append(.init(name: "sizes.min() == 38", predicate: #Predicate<Product> { $0.sizes.min() == 38 }))
        cases.append(.init(name: "sizes.min() == sizes.max()", predicate: #Predicate<Product> { $0.sizes.min() == $0.sizes.max() }))
        cases.append(.init(name: "tags.count >= 2", predicate: #Predicate<Product> { $0.tags.count >= 2 }))
        cases.append(.init(name: "category?.products.count ?? 0 > 20", predicate: #Predicate<Product> { ($0.category?.products.count ?? 0) > 20 }))
        cases.append(.init(name: "name.caseInsensitiveCompare(CAFE) == same", predicate: #Predicate<Product> { $0.name.caseInsensitiveCompare("CAFE") == same }))
        try Oracle.check(cases, in: context, describe: { "\($0.persistentModelID) \($0.name.debugDescription) \($0.sizes)" })

        let rootID = try #require(try context.fetch(FetchDescriptor<Category>()).first { $0.name == "Root" }).persistentModelID
        var categories: [OracleCase<Category>] = []
        categories.append(.init(name: "parent?.persistentModelID == root", predicate: #Predicate<Category> { $0.parent?.persistentModelID == rootID }))
        categories.append(.init(name: "children.count > 1", predicate: #Predicate<Category> { $0.children.count > 1 }))
        categories.append(.init(name: "products.count < 25", predicate: #Predicate<Category> { $0.products.count < 25 }))
        try Oracle.check(categories, in: context, describe: { "\($0.persistentModelID) \($0.name)" })

        let customerID = try #require(try context.fetch(FetchDescriptor<Order>()).compactMap(\.customer).first).persistentModelID
        var orders: [OracleCase<Order>] = []
        orders.append(.init(name: "products.count >= 1 (join table without inverse)", predicate: #Predicate<Order> { $0.products.count >= 1 }))
        orders.append(.init(name: "customer?.persistentModelID == customerID", predicate: #Predicate<Order> { $0.customer?.persistentModelID == customerID }))
        orders.append(.init(name: "note?.caseInsensitiveCompare(FRAGILE) == same", predicate: #Predicate<Order> { $0.note?.caseInsensitiveCompare("FRAGILE") == same }))
        orders.append(.init(name: "customer?.orders.count ?? 0 >= 10", predicate: #Predicate<Order> { ($0.customer?.orders.count ?? 0) >= 10 }))
        try Oracle.check(orders, in: context, describe: { "\($0.persistentModelID) \($0.number)" })

        var tags: [OracleCase<Tag>] = []
        tags.append(.init(name: "products.count > 60", predicate: #Predicate<Tag> { $0.products.count > 60 }))
        try Oracle.check(tags, in: context, describe: { "\($0.persistentModelID) \($0.label)" })
    }
}

@Suite struct AllTypesPredicateAdditionsOracleTests {
    /// The test's store, filled with the data set.
    static func oracle(_ kind: StoreKind) throws -> OracleStore {
        try OracleStore(kind, SpecAllTypesStore.schema) { try SortAllTypesDataSet.populate($0) }
    }

    @Test(arguments: StoreKind.allCases) func arrayAggregatesOfEveryOrderedElementType(_ kind: StoreKind) throws {
        let oracle = try Self.oracle(kind)
        let context = oracle.context
        let day = Day.at(1)
        let minusNine = -9
        var cases: [OracleCase<SpecEverything>] = []
        cases.append(.init(name: "ints.max() ?? 0 > 5", predicate: #Predicate<SpecEverything> { ($0.ints.max() ?? 0) > 5 }))
        cases.append(.init(name: "ints.min() == -9", predicate: #Predicate<SpecEverything> { $0.ints.min() == minusNine }))
        cases.append(.init(name: "strings.max() == Z", predicate: #Predicate<SpecEverything> { $0.strings.max() == "Z" }, mayBeTrivial: true))
        cases.append(.init(name: "strings.min() ?? ~ < a", predicate: #Predicate<SpecEverything> { ($0.strings.min() ?? "~") < "a" }))
        cases.append(.init(name: "dates.max() == day 1", predicate: #Predicate<SpecEverything> { $0.dates.max() == day }))
        cases.append(.init(name: "dates.min() ?? day > day", predicate: #Predicate<SpecEverything> { ($0.dates.min() ?? day) > day }))
        cases.append(.init(name: "doubles.max() ?? 0 < 0", predicate: #Predicate<SpecEverything> { ($0.doubles.max() ?? 0) < 0 }))
        cases.append(.init(name: "doubles.min() == 0.30000000000000004", predicate: #Predicate<SpecEverything> { $0.doubles.min() == 0.30000000000000004 }))
        try Oracle.check(cases, in: context, describe: { "\($0.persistentModelID) \($0.ints) \($0.strings) \($0.doubles)" })
    }

    @Test(arguments: StoreKind.allCases) func arrayElementsWithoutSQLEquivalentAreNamed(_ kind: StoreKind) throws {
        let oracle = try Self.oracle(kind)
        let context = oracle.context
        let someUUID = UUID()
        let cases: [(Predicate<SpecEverything>, String)] = [
            (#Predicate<SpecEverything> { $0.floats.max() == 0.5 }, "max() over [Float]"),
            (#Predicate<SpecEverything> { $0.uuids.min() == nil }, "min() over [UUID]"),
            (#Predicate<SpecEverything> { $0.decimals.max() == nil }, "max() over [Decimal]"),
            // The same elements are refused by contains and contains(where:): their JSON text is not
            // the bytes or text a captured value binds, so SQL would find nothing.
            (#Predicate<SpecEverything> { $0.uuids.contains(someUUID) }, "contains(_:) over [UUID]"),
            (#Predicate<SpecEverything> { $0.datas.contains { $0.isEmpty } }, "contains(where:) or allSatisfy over [Data]"),
            (#Predicate<SpecEverything> { $0.floats.allSatisfy { $0 > 0.5 } }, "contains(where:) or allSatisfy over [Float]"),
        ]
        for (predicate, name) in cases {
            expectUnsupported(name) { _ = try context.fetch(FetchDescriptor<SpecEverything>(predicate: predicate)) }
        }
    }
}
