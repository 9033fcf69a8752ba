import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// Makes the n-th SQLite step, bind or commit of one `save()` fail, for n = 1, 2, … until the
/// save succeeds. After each failure the store must be unchanged, the context must still hold
/// its pending changes, and a retry must succeed and store what a save without faults stores.
/// SQLite only: the faults are injected into SQLite's statements (PostgreSQL's failed saves:
/// PostgreSQLStoreTests, a backend terminated in the middle of a save).
@Suite struct FaultInjectionTests {
    /// A saved shop and a context holding a save that touches every write path: inserts
    /// (with keys to models inserted in the same save), updates, many-to-many links, an upsert
    /// on a unique value, a delete with a tombstone, and a cascade-free delete rule.
    struct Scenario {
        let container: ModelContainer
        let context: ModelContext
        /// The store file (kept alive with the scenario), or nil in memory.
        let file: TemporaryStore?

        init(onFile: Bool) throws {
            file = onFile ? try TemporaryStore() : nil
            container = try ModelContainer(for: Shop.schema, configurations: file?.configuration ?? ModelConfiguration(isStoredInMemoryOnly: true))
            context = ModelContext(container)
            let customer = Customer(name: "Ann", email: "ann@example.com")
            let first = Order(number: 1, group: "a", placedAt: Day.at(1))
            let second = Order(number: 2, group: "b", placedAt: Day.at(2))
            first.customer = customer
            second.customer = customer
            let sale = Tag(label: "sale")
            let shelf = Category(name: "Shelf")
            let lamp = Product(sku: "L-1", name: "Lamp", price: Decimal(string: "19.99")!)
            lamp.tags = [sale]
            lamp.category = shelf
            let desk = Product(sku: "D-1", name: "Desk", price: 120)
            for product in [lamp, desk] { Self.fixClockAndUUID(product) }
            for model in [customer, first, second] as [any PersistentModel] { context.insert(model) }
            for model in [sale, shelf, lamp, desk] as [any PersistentModel] { context.insert(model) }
            try context.save()

            // The pending save.
            let saved = try context.fetch(FetchDescriptor<Product>(sortBy: [SortDescriptor(\.sku)]))
            let (savedDesk, savedLamp) = (saved[0], saved[1])
            savedLamp.price = Decimal(string: "17.50")!
            savedLamp.name = "Lamp 'Deluxe'"
            let newShelf = Category(name: "Top shelf")
            newShelf.parent = savedLamp.category
            let chair = Product(sku: "C-1", name: "Chair", price: 45)
            chair.tags = [Tag(label: "new")]
            chair.category = newShelf
            chair.photo = Data(repeating: 7, count: 300)
            Self.fixClockAndUUID(chair)
            context.insert(chair)
            let orders = try context.fetch(FetchDescriptor<Order>(sortBy: [SortDescriptor(\.number)]))
            context.delete(orders[0])
            let third = Order(number: 3, group: "c", placedAt: Day.at(3))
            third.customer = orders[1].customer
            third.products = [savedDesk, chair]
            context.insert(third)
            context.insert(Tag(label: "sale"))  // upsert onto the stored tag
            savedDesk.stock = 9
        }

        /// Gives a product fixed values where its defaults read the clock or make a random UUID.
        static func fixClockAndUUID(_ product: Product) {
            product.addedAt = Day.at(0)
            product.code = UUID(uuidString: "00000000-0000-0000-0000-" + String(product.sku.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF_FFFF_FFFF }, radix: 16).leftPadded(12))!
        }

        /// The store's content, with the times of history transactions (clock readings) and the
        /// store's random identifier blanked.
        func dump() throws -> [String: [[SQLValue]]] {
            var tables = try StoreDump.dump(try #require(try context.connection() as? SQLiteConnection))
            tables[HistoryTables.transactions] = tables[HistoryTables.transactions]?.map { row in
                row.map { if case .real = $0 { return .null } else { return $0 } }
            }
            tables[HistoryTables.counter] = tables[HistoryTables.counter]?.map { row in
                row.map { if case .text = $0 { return .null } else { return $0 } }
            }
            // Each store's random identifier (docs/Runtime.md, "Identifiers") differs between scenarios.
            tables[StorageNames.metadataTable] = tables[StorageNames.metadataTable]?.map { row in
                row.first == .text(StoreIdentity.key) ? [row[0], .null] : row
            }
            return tables
        }

        /// What the context holds unsaved.
        var pending: [Int] {
            [context.insertedModelsArray.count, context.deletedModelsArray.count, context.changedModelsArray.count]
        }
    }

    /// In memory and in a WAL file.
    @Test(arguments: [false, true])
    func everyFailingCallLeavesStoreAndContextIntact(onFile: Bool) throws {
        let reference = try Scenario(onFile: onFile)
        try reference.context.save()
        let expected = try reference.dump()

        var failures: [FaultInjector.Operation: Int] = [:]
        var call = 1
        while call < 10_000 {
            let scenario = try Scenario(onFile: onFile)
            let before = try scenario.dump()
            let pending = scenario.pending
            let connection = try #require(try scenario.context.connection() as? SQLiteConnection)
            let injector = FaultInjector(failingCall: call)
            connection.faultInjector = injector
            do {
                try scenario.context.save()
                connection.faultInjector = nil
                #expect(injector.failed == nil)
                #expect(try scenario.dump() == expected)
                break
            } catch {
                connection.faultInjector = nil
                let failed = try #require(injector.failed, "save failed without the injected fault: \(error)")
                failures[failed, default: 0] += 1
                #expect((error as? SQLiteError)?.message == "injected fault in \(failed.rawValue)", "call \(call)")
                #expect(!connection.isInTransaction, "call \(call) (\(failed)) left a transaction open")
                #expect(try scenario.dump() == before, "call \(call) (\(failed)) changed the store")
                #expect(scenario.context.hasChanges, "call \(call) (\(failed)): pending changes lost")
                #expect(scenario.pending == pending, "call \(call) (\(failed)): pending changes altered")
            }
            // The retry stores exactly what a save without faults stores.
            try scenario.context.save()
            #expect(!scenario.context.hasChanges)
            #expect(try scenario.dump() == expected, "retry after failing call \(call)")
            call += 1
        }
        #expect(failures[.step, default: 0] > 10)
        #expect(failures[.bind, default: 0] > 10)
        #expect(failures[.commit] == 1)
        print("FaultInjection (\(onFile ? "file" : "memory")): save succeeded at call \(call); failed calls: \(failures.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
    }

    @Test func aFailedBindIsReportedNotIgnored() throws {
        let container = try ModelContainer(for: Shop.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let connection = try ModelContext(container).connection()
        try connection.execute("CREATE TABLE t (a)")
        let statement = try connection.statement("INSERT INTO t VALUES (?)")
        statement.bind(.integer(1), at: 2)  // out of range: SQLITE_RANGE
        #expect(throws: SQLiteError.self) { try statement.step() }
        statement.reset()
        statement.bind(.integer(1), at: 1)
        try statement.run()
        #expect(try connection.rows("SELECT a FROM t") == [[.integer(1)]])
    }
}

extension String {
    /// The string with zeros in front up to `width` characters.
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
