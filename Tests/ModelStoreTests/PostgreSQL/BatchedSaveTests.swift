import Foundation
import Testing
@testable import ModelStore

/// A save's rows go to PostgreSQL in batches (pipeline mode; docs/PostgreSQL.md, "Batched
/// writes"). Each test runs a save on two stores of one kind, one as the store does it and one
/// with batching off (one statement at a time, as before batching: the oracle), and checks that
/// both end the same: the same error, the same stored rows and history, the same keys. On SQLite
/// both are one statement at a time; the checks of what a failed save leaves hold on every store.
/// The saves hold more rows than a batch (`SaveBatch.limit`), so failures land in a later batch.
@Suite struct BatchedSaveTests {
    /// A store, a context on it, and whether its saves are batched.
    final class Side {
        let store: TestStore
        let container: ModelContainer
        let context: ModelContext

        init(_ kind: StoreKind, batched: Bool) throws {
            store = try TestStore(kind)
            container = try store.container(for: WarehouseStore.schema)
            context = ModelContext(container)
            if !batched, let connection = try context.connection() as? PostgresStoreConnection { connection.batchesWrites = false }
        }

        /// Every stored row of every table and the history's changes, in key order.
        func dump() throws -> [String: [[SQLValue]]] {
            let raw = try store.rawConnection(through: container)
            var tables: [String: [[SQLValue]]] = [:]
            for table in container.schema.storage.tables.map(\.name) {
                tables[table] = try raw.rows("SELECT * FROM \(SQLQuote.identifier(table)) ORDER BY 1, 2")
            }
            let columns = HistoryTables.changeColumns.map(SQLQuote.identifier).joined(separator: ", ")
            tables[HistoryTables.changes] = try raw.rows("SELECT \(columns) FROM \(SQLQuote.identifier(HistoryTables.changes)) ORDER BY 1, 2")
            return tables
        }

        /// As `dump()`, without the values a failed save may change: the keys of entity tables
        /// and the history's `row` (a failed save of rows inserted several per statement took all
        /// its keys at once, one row at a time only those up to the failing row: keys are never
        /// reused, so the next save's keys differ). Rows sorted by their remaining values.
        func dumpWithoutKeys() throws -> [String: [String]] {
            let entityTables = Set(container.schema.entities.map(\.tableName))
            let row = HistoryTables.changeColumns.firstIndex(of: "row")
            var tables: [String: [String]] = [:]
            for (table, rows) in try dump() {
                tables[table] = rows.map { values -> String in
                    var values = values
                    if entityTables.contains(table), !values.isEmpty { values.removeFirst() }
                    if table == HistoryTables.changes, let row, row < values.count { values.remove(at: row) }
                    return "\(values)"
                }.sorted()
            }
            return tables
        }

        func count(_ table: String) throws -> Int64 {
            let rows = try store.rawConnection(through: container).rows("SELECT count(*) FROM \(SQLQuote.identifier(table))")
            guard case .integer(let count)? = rows.first?.first else { return -1 }
            return count
        }

        /// The save's error, described (nil when it saved).
        func saveError() -> String? {
            do {
                try context.save()
                return nil
            } catch {
                return "\(type(of: error)): \(error)"
            }
        }
    }

    /// Runs `body` on a batched and an unbatched store of `kind`; returns both sides. On
    /// PostgreSQL the batched side's saves went out in batches, the other's one by one.
    func bothSides(_ kind: StoreKind, _ body: (Side) throws -> Void) throws -> (batched: Side, oneByOne: Side) {
        let batched = try Side(kind, batched: true)
        let oneByOne = try Side(kind, batched: false)
        try body(batched)
        try body(oneByOne)
        if kind == .postgresql {
            let batches = try #require(batched.context.connection() as? PostgresStoreConnection).batchCount
            #expect(batches > 0)
            #expect(try #require(oneByOne.context.connection() as? PostgresStoreConnection).batchCount == 0)
        }
        return (batched, oneByOne)
    }

    @Test(arguments: StoreKind.allCases)
    func aFailedInsertInTheMiddleOfALargeSaveStoresNothingAndKeepsTheChanges(_ kind: StoreKind) throws {
        let rows = 2 * SaveBatch.limit + 500
        var errors: [String?] = []
        let sides = try bothSides(kind) { side in
            let warehouse = Warehouse(serial: 0, code: "W", score: 1)
            side.context.insert(warehouse)
            try side.context.save()
            for serial in 1...rows {
                let crate = Crate(serial: serial, title: "crate \(serial)", weight: serial)
                side.context.insert(crate)
                crate.warehouse = warehouse
                side.context.insert(Worker(serial: serial, handle: "h\(serial)", rank: serial))
            }
            let raw = try side.store.rawConnection(through: side.container)
            try side.store.failInserts(into: "Crate", whereColumn: "title", is: "crate \(SaveBatch.limit + 500)", on: raw)
            errors.append(side.saveError())

            // Nothing of the save is stored; the context still holds it all, keys not assigned.
            #expect(try side.count("Crate") == 0)
            #expect(try side.count("Worker") == 0)
            #expect(side.context.hasChanges)
            #expect(side.context.insertedModelsArray.count == 2 * rows)
            let crates = side.context.insertedModelsArray.compactMap { $0 as? Crate }
            #expect(crates.allSatisfy { $0.persistentModelID.rowID == nil })

            // The next save, once the store takes the row, writes everything.
            try side.store.allowInserts(into: "Crate", on: raw)
            let postgres = try side.context.connection() as? PostgresStoreConnection
            let batchesBefore = postgres?.batchCount ?? 0
            try side.context.save()
            // Batched: the crates several per statement (keys reserved first) and the workers
            // (upserts, by their unique handle) one statement each, in batches of `limit`
            // statements, then their history rows, several per statement, in one batch: a round
            // trip per batch, not per row.
            if let postgres, postgres.batchesWrites {
                let statements = rows + (rows + PostgresInsertRows.limit - 1) / PostgresInsertRows.limit
                #expect(postgres.batchCount - batchesBefore == (statements + SaveBatch.limit - 1) / SaveBatch.limit + 1)
            }
            #expect(try side.count("Crate") == Int64(rows))
            #expect(try side.count("Worker") == Int64(rows))
            #expect(!side.context.hasChanges)
        }
        let error = try #require(errors[0])
        #expect(error.contains("boom"), "\(error)")
        #expect(errors[0] == errors[1])
        #expect(try sides.batched.dumpWithoutKeys() == sides.oneByOne.dumpWithoutKeys())
    }

    /// Rows of a class and its subclass (one table), interleaved, in saves of sizes around the
    /// thresholds of several rows per statement (`SaveBatch.fewestRowsTogether`,
    /// `PostgresInsertRows.limit`), with labels pointing at a crate inserted before or after them
    /// in the save, and warehouses (upserts, one statement each) the crates point at, with
    /// history: the same rows, keys and history as one statement at a time.
    @Test(arguments: StoreKind.allCases)
    func rowsOfAClassAndItsSubclassAroundTheBatchSizesStoreWhatOneStatementAtATimeStores(_ kind: StoreKind) throws {
        let sizes = [SaveBatch.fewestRowsTogether - 1, SaveBatch.fewestRowsTogether, PostgresInsertRows.limit - 1,
                     PostgresInsertRows.limit, PostgresInsertRows.limit + 1, 2 * PostgresInsertRows.limit + 500]
        var models: [[Crate]] = [[], []]
        var side = 0
        final class Count { var value = 0 }
        let multiRow = Count()
        let sides = try bothSides(kind) { side_ in
            if let postgres = try side_.context.connection() as? PostgresStoreConnection, postgres.batchesWrites {
                postgres.trace = { sql in if sql.contains("FROM unnest("), !sql.contains(HistoryTables.changes) { multiRow.value += 1 } }
            }
            var serial = 0
            for size in sizes {
                var crates: [Crate] = []
                var labels: [Label] = []
                for index in 0..<size {
                    serial += 1
                    let crate: Crate = index % 3 == 1
                        ? BigCrate(serial: serial, title: "big \(serial)", weight: index, capacity: index * 2)
                        : Crate(serial: serial, title: "crate \(serial)", weight: index)
                    side_.context.insert(crate)
                    crates.append(crate)
                    if index % 2 == 0 {
                        let label = Label(serial: serial, text: "label \(serial)")
                        side_.context.insert(label)
                        labels.append(label)
                    }
                    if index % 500 == 0 {
                        let warehouse = Warehouse(serial: serial, code: "W\(serial)", score: index)
                        side_.context.insert(warehouse)
                        crate.warehouse = warehouse
                    }
                }
                // Half the labels on a crate inserted before them, half on one inserted after.
                for (index, label) in labels.enumerated() {
                    label.crate = crates[index % 2 == 0 ? index : min(2 * index + 1, crates.count - 1)]
                }
                try side_.context.save()
                models[side] += crates
            }
            side += 1
        }
        #expect(try sides.batched.dump() == sides.oneByOne.dump())
        // Batched, each entity's rows went `PostgresInsertRows.limit` to a statement where the
        // save inserted at least `SaveBatch.fewestRowsTogether` of them.
        if kind == .postgresql {
            func statementsFor(_ rows: Int) -> Int {
                rows >= SaveBatch.fewestRowsTogether ? (rows + PostgresInsertRows.limit - 1) / PostgresInsertRows.limit : 0
            }
            var statements = 0
            for size in sizes {
                let big = (0..<size).filter { $0 % 3 == 1 }.count
                statements += statementsFor(size - big) + statementsFor(big) + statementsFor((size + 1) / 2)
            }
            #expect(multiRow.value == statements)
        }
        // Each model has its row's key, the same on both sides.
        #expect(models[0].map { $0.persistentModelID.rowID } == models[1].map { $0.persistentModelID.rowID })
        let stored = try sides.batched.store.rawConnection(through: sides.batched.container).rows(#"SELECT "$pk" FROM "Crate" ORDER BY "serial""#)
        #expect(models[0].map { $0.persistentModelID.rowID } == stored.map { Self.integer($0[0]) })
        #expect(models[0].allSatisfy { $0.persistentModelID.rowID != nil })
    }

    /// A row the store refuses at the first, a middle or the last position of a multi-row
    /// statement's rows (the second statement of a save): the save reports the error one statement
    /// at a time reports, stores nothing, gives no model a key, and saves all once the row is taken.
    @Test(arguments: StoreKind.allCases, [0, PostgresInsertRows.limit / 2, PostgresInsertRows.limit - 1])
    func aRefusedRowAtAnyPositionOfARowBatchReportsTheErrorOfOneStatementAtATime(_ kind: StoreKind, position: Int) throws {
        let rows = 2 * PostgresInsertRows.limit + 300
        let failing = PostgresInsertRows.limit + position + 1
        var errors: [String?] = []
        var refusals: [String?] = []
        let sides = try bothSides(kind) { side in
            for serial in 1...rows {
                let crate: Crate = serial % 2 == 0
                    ? BigCrate(serial: serial, title: "crate \(serial)", weight: serial, capacity: 1)
                    : Crate(serial: serial, title: "crate \(serial)", weight: serial)
                side.context.insert(crate)
            }
            let raw = try side.store.rawConnection(through: side.container)
            try side.store.failInserts(into: "Crate", whereColumn: "title", is: "crate \(failing)", on: raw)
            errors.append(side.saveError())
            #expect(try side.count("Crate") == 0)
            #expect(side.context.insertedModelsArray.allSatisfy { $0.persistentModelID.rowID == nil })

            // A title PostgreSQL cannot hold (U+0000) in the same position: refused as bound, as
            // one statement at a time.
            try side.store.allowInserts(into: "Crate", on: raw)
            let crates = side.context.insertedModelsArray.compactMap { $0 as? Crate }.sorted { $0.serial < $1.serial }
            if kind == .postgresql {
                crates[failing - 1].title = "bad\u{0}title"
                refusals.append(side.saveError())
                #expect(try side.count("Crate") == 0)
                crates[failing - 1].title = "mended"
            }
            try side.context.save()
            #expect(try side.count("Crate") == Int64(rows))
        }
        let error = try #require(errors[0])
        #expect(error.contains("boom"), "\(error)")
        #expect(errors[0] == errors[1])
        if kind == .postgresql {
            #expect(refusals.count == 2)
            #expect(refusals.first??.contains("U+0000") == true, "\(String(describing: refusals.first))")
            #expect(refusals.first == refusals.last)
        }
        #expect(try sides.batched.dumpWithoutKeys() == sides.oneByOne.dumpWithoutKeys())
    }

    @Test(arguments: StoreKind.allCases)
    func aMissingRowInTheMiddleOfManyUpdatesIsReportedBeforeALaterProblem(_ kind: StoreKind) throws {
        let rows = 2 * SaveBatch.limit + 500
        let missing = SaveBatch.limit + 700
        var errors: [String?] = []
        let sides = try bothSides(kind) { side in
            let setup = ModelContext(side.container)
            for serial in 1...rows { setup.insert(Crate(serial: serial, title: "crate \(serial)", weight: serial)) }
            try setup.save()
            let crates = try side.context.fetch(FetchDescriptor<Crate>(sortBy: [SortDescriptor(\.serial)]))
            // Another context deletes one row; this one changes every row, and after the missing
            // one, in the same batch, a title PostgreSQL cannot store (U+0000), refused as it is
            // bound: the missing row is the first problem.
            let other = ModelContext(side.container)
            try other.delete(model: Crate.self, where: #Predicate { $0.serial == missing })
            try other.save()
            for crate in crates { crate.weight += 1 }
            crates[missing + 50].title = "bad\u{0}title"
            errors.append(side.saveError())

            #expect(side.context.hasChanges)
            #expect(side.context.changedModelsArray.count == rows)
            let raw = try side.store.rawConnection(through: side.container)
            #expect(try raw.rows(#"SELECT CAST(sum("weight") AS bigint) FROM "Crate""#).first?.first.flatMap(Self.integer) == Int64(rows * (rows + 1) / 2 - missing))

            // Deleting the missing model and mending the title: the next save writes the rest.
            crates[missing + 50].title = "good title"
            side.context.delete(crates[missing - 1])
            try side.context.save()
            #expect(try raw.rows(#"SELECT CAST(sum("weight") AS bigint) FROM "Crate""#).first?.first.flatMap(Self.integer) == Int64(rows * (rows + 1) / 2 - missing + rows - 1))
        }
        let error = try #require(errors[0])
        #expect(error.contains("no longer in the store") && error.contains("Crate/\(missing)"), "\(error)")
        #expect(errors[0] == errors[1])
        #expect(try sides.batched.dump() == sides.oneByOne.dump())
    }

    @Test(arguments: StoreKind.allCases)
    func aUniqueViolationInTheMiddleOfChangedUniqueValuesRollsEverythingBack(_ kind: StoreKind) throws {
        let rows = 2 * SaveBatch.limit + 500
        var errors: [String?] = []
        let sides = try bothSides(kind) { side in
            let setup = ModelContext(side.container)
            for serial in 1...rows { setup.insert(Worker(serial: serial, handle: "h\(serial)", rank: 0)) }
            try setup.save()
            let workers = try side.context.fetch(FetchDescriptor<Worker>(sortBy: [SortDescriptor(\.serial)]))
            // With a new worker in the save, stored workers' changed handles are written first;
            // one of them (past the first batch) takes an unchanged worker's handle.
            side.context.insert(Worker(serial: 0, handle: "new", rank: 1))
            for worker in workers[500...] { worker.handle = "x\(worker.serial)"; worker.rank = 1 }
            let clash = workers[SaveBatch.limit + 800]
            clash.handle = "h5"
            errors.append(side.saveError())

            #expect(side.context.hasChanges)
            let raw = try side.store.rawConnection(through: side.container)
            #expect(try raw.rows(#"SELECT count(*) FROM "Worker" WHERE "handle" LIKE 'x%' OR "rank" <> 0"#).first?.first == .integer(0))
            #expect(try side.count("Worker") == Int64(rows))

            clash.handle = "x\(clash.serial)"
            try side.context.save()
            #expect(try raw.rows(#"SELECT count(*) FROM "Worker" WHERE "handle" LIKE 'x%'"#).first?.first == .integer(Int64(rows - 500)))
            #expect(try side.count("Worker") == Int64(rows + 1))
        }
        #expect(errors[0] != nil)
        #expect(errors[0] == errors[1])
        #expect(try sides.batched.dump() == sides.oneByOne.dump())
    }

    @Test(arguments: StoreKind.allCases)
    func insertsUpdatesDeletesAndLinksInOneSaveStoreWhatOneStatementAtATimeStores(_ kind: StoreKind) throws {
        let sides = try bothSides(kind) { side in
            let setup = ModelContext(side.container)
            var warehouses: [Warehouse] = []
            for serial in 1...300 {
                let warehouse = Warehouse(serial: serial, code: "W\(serial)", score: serial)
                setup.insert(warehouse)
                warehouses.append(warehouse)
                for number in 1...3 {
                    let crate = Crate(serial: serial * 10 + number, title: "crate", weight: number)
                    setup.insert(crate)
                    crate.warehouse = warehouse
                }
            }
            for serial in 1...200 { setup.insert(Worker(serial: serial, handle: "h\(serial)", rank: serial)) }
            try setup.save()

            let context = side.context
            let stored = try context.fetch(FetchDescriptor<Warehouse>(sortBy: [SortDescriptor(\.serial)]))
            let storedCrates = try context.fetch(FetchDescriptor<Crate>(sortBy: [SortDescriptor(\.serial)]))
            let workers = try context.fetch(FetchDescriptor<Worker>(sortBy: [SortDescriptor(\.serial)]))
            // New warehouses each with new crates inserted after them (a crate needs its
            // warehouse's key, still waiting in the batch), crates inserted before their warehouse
            // (their key written afterwards), changed and deleted stored rows, links, upserts.
            var late: [Crate] = []
            for serial in 1_000..<1_800 {
                let warehouse = Warehouse(serial: serial, code: "N\(serial)", score: 0)
                context.insert(warehouse)
                let crate = Crate(serial: serial * 10, title: "new", weight: 1)
                context.insert(crate)
                crate.warehouse = warehouse
                if serial % 4 == 0 {
                    let early = Crate(serial: serial * 10 + 1, title: "early", weight: 2)
                    context.insert(early)
                    late.append(early)
                }
            }
            for (offset, crate) in late.enumerated() {
                let warehouse = Warehouse(serial: 5_000 + offset, code: "L\(offset)", score: 0)
                context.insert(warehouse)
                crate.warehouse = warehouse
            }
            for crate in storedCrates where crate.serial % 2 == 0 { crate.weight += 100 }
            for warehouse in stored where warehouse.serial % 3 == 0 { context.delete(warehouse) }
            for (offset, worker) in workers.enumerated() {
                worker.crates.append(storedCrates[offset * 3 % storedCrates.count])
                if offset % 5 == 0 { worker.rank = -offset }
            }
            // An upsert: a new warehouse with a stored one's code takes its row.
            context.insert(Warehouse(serial: 9_999, code: "W1", score: 42))
            try context.save()
            #expect(!context.hasChanges)
            #expect(try side.count("Warehouse") == 300 - 100 + 800 + Int64(late.count))
        }
        #expect(try sides.batched.dump() == sides.oneByOne.dump())
        // The keys the models got are the rows' keys.
        let keys = try sides.batched.context.fetch(FetchDescriptor<Crate>(sortBy: [SortDescriptor(\.serial)])).map { $0.persistentModelID.rowID }
        let stored = try sides.batched.store.rawConnection(through: sides.batched.container).rows(#"SELECT "$pk" FROM "Crate" ORDER BY "serial""#)
        #expect(keys == stored.map { Self.integer($0[0]) })
    }

    static func integer(_ value: SQLValue) -> Int64? {
        if case .integer(let number) = value { return number }
        return nil
    }
}
