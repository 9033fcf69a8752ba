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

        init(_ kind: StoreKind, batched: Bool, history: Bool = true) throws {
            store = try TestStore(kind)
            container = try store.container(for: WarehouseStore.schema, recordsHistory: history)
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
    func bothSides(_ kind: StoreKind, history: Bool = true, _ body: (Side) throws -> Void) throws -> (batched: Side, oneByOne: Side) {
        let batched = try Side(kind, batched: true, history: history)
        let oneByOne = try Side(kind, batched: false, history: history)
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
                let statements = rows + (rows + PostgresRowBatch.limit - 1) / PostgresRowBatch.limit
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
    /// `PostgresRowBatch.limit`), with labels pointing at a crate inserted before or after them
    /// in the save, and warehouses (upserts, one statement each) the crates point at, with
    /// history: the same rows, keys and history as one statement at a time.
    @Test(arguments: StoreKind.allCases)
    func rowsOfAClassAndItsSubclassAroundTheBatchSizesStoreWhatOneStatementAtATimeStores(_ kind: StoreKind) throws {
        let sizes = [SaveBatch.fewestRowsTogether - 1, SaveBatch.fewestRowsTogether, PostgresRowBatch.limit - 1,
                     PostgresRowBatch.limit, PostgresRowBatch.limit + 1, 2 * PostgresRowBatch.limit + 500]
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
        // Batched, each entity's rows went `PostgresRowBatch.limit` to a statement where the
        // save inserted at least `SaveBatch.fewestRowsTogether` of them.
        if kind == .postgresql {
            func statementsFor(_ rows: Int) -> Int {
                rows >= SaveBatch.fewestRowsTogether ? (rows + PostgresRowBatch.limit - 1) / PostgresRowBatch.limit : 0
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
    @Test(arguments: StoreKind.allCases, [0, PostgresRowBatch.limit / 2, PostgresRowBatch.limit - 1])
    func aRefusedRowAtAnyPositionOfARowBatchReportsTheErrorOfOneStatementAtATime(_ kind: StoreKind, position: Int) throws {
        let rows = 2 * PostgresRowBatch.limit + 300
        let failing = PostgresRowBatch.limit + position + 1
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

    // MARK: Updates several rows per statement

    /// Counts the multi-row updates a batched PostgreSQL side sends (`PostgresRowBatch`).
    final class UpdateStatements {
        var count = 0
        var multiRow: Int { count }

        func watch(_ side: Side) throws {
            guard let postgres = try side.context.connection() as? PostgresStoreConnection, postgres.batchesWrites else { return }
            postgres.trace = { [self] sql in
                if sql.hasPrefix("UPDATE"), sql.contains("FROM unnest(") { count += 1 }
            }
        }
    }

    /// Stores `count` crates (every third a `BigCrate`) and `count / 2` workers in a context of
    /// its own; returns them fetched in `side.context`, by serial.
    func storedCratesAndWorkers(_ side: Side, count: Int, from first: Int = 1) throws -> (crates: [Crate], workers: [Worker]) {
        let setup = ModelContext(side.container)
        for serial in first..<(first + count) {
            setup.insert(serial % 3 == 1
                ? BigCrate(serial: serial, title: "big \(serial)", weight: serial, capacity: serial)
                : Crate(serial: serial, title: "crate \(serial)", weight: serial))
            if serial % 2 == 0 { setup.insert(Worker(serial: serial, handle: "h\(serial)", rank: serial)) }
        }
        try setup.save()
        let last = first + count
        let crates = try side.context.fetch(FetchDescriptor<Crate>(predicate: #Predicate { $0.serial >= first && $0.serial < last },
                                                                   sortBy: [SortDescriptor(\.serial)]))
        let workers = try side.context.fetch(FetchDescriptor<Worker>(predicate: #Predicate { $0.serial >= first && $0.serial < last },
                                                                     sortBy: [SortDescriptor(\.serial)]))
        return (crates, workers)
    }

    /// Saves changing rows of a class and its subclass and of a second entity, interleaved, in
    /// several column sets, sizes around the thresholds (`SaveBatch.fewestRowsTogether`,
    /// `PostgresColumnArrays.limit`), history on and off: after each save the store holds what one
    /// statement at a time stores, and the batched side sent one multi-row update per 1,000 rows
    /// of each entity's column set where the entity had at least 16 changed models.
    @Test(arguments: StoreKind.allCases, [true, false])
    func updatedRowsAroundTheBatchSizesStoreWhatOneStatementAtATimeStores(_ kind: StoreKind, history: Bool) throws {
        let sizes = [1, SaveBatch.fewestRowsTogether - 1, SaveBatch.fewestRowsTogether, PostgresColumnArrays.limit - 1,
                     PostgresColumnArrays.limit, PostgresColumnArrays.limit + 1, 2 * PostgresColumnArrays.limit + 500]
        var dumps: [[[String: [[SQLValue]]]]] = [[], []]
        var side = 0
        let statements = UpdateStatements()
        // Per save: rows per entity name and column set (as the test changes them).
        var expected = 0
        let sides = try bothSides(kind, history: history) { side_ in
            try statements.watch(side_)
            var first = 1
            for size in sizes {
                let (crates, workers) = try storedCratesAndWorkers(side_, count: size, from: first)
                first += size
                var rows: [String: [String: Int]] = [:]
                func note(_ entity: String, _ columns: String) { rows[entity, default: [:]][columns, default: 0] += 1 }
                for (index, crate) in crates.enumerated() {
                    let entity = crate is BigCrate ? "BigCrate" : "Crate"
                    switch index % 4 {
                    case 0: crate.weight += 1; note(entity, "weight")
                    case 1: crate.title += "!"; crate.weight -= 1; note(entity, "title weight")
                    case 2: crate.fragile = true; note(entity, "fragile")
                    default:
                        if let big = crate as? BigCrate { big.capacity *= 2; note(entity, "capacity") } else { crate.weight += 7; note(entity, "weight") }
                    }
                    if index % 2 == 0, index / 2 < workers.count {
                        workers[index / 2].rank += 1
                        note("Worker", "rank")
                    }
                }
                try side_.context.save()
                #expect(!side_.context.hasChanges)
                dumps[side].append(try side_.dump())
                if side == 0 {
                    for (_, sets) in rows where sets.values.reduce(0, +) >= SaveBatch.fewestRowsTogether {
                        expected += sets.values.map { ($0 + PostgresColumnArrays.limit - 1) / PostgresColumnArrays.limit }.reduce(0, +)
                    }
                }
            }
            side += 1
        }
        #expect(dumps[0] == dumps[1])
        #expect(try sides.batched.dump() == sides.oneByOne.dump())
        #expect(statements.count == (kind == .postgresql ? expected : 0))
        #expect(expected > 0)
    }

    /// A row another connection deleted before the save, at the first, a middle or the last
    /// position of the rows of a multi-row update (its second statement), and another one later:
    /// the save reports `rowMissing` for that model, as one statement at a time, and stores nothing.
    @Test(arguments: StoreKind.allCases, [0, PostgresColumnArrays.limit / 2, PostgresColumnArrays.limit - 1])
    func aMissingRowAtAnyPositionOfAMultiRowUpdateIsReportedForThatModel(_ kind: StoreKind, position: Int) throws {
        let rows = 2 * PostgresColumnArrays.limit + 300
        var errors: [String?] = []
        var missingIDs: [String] = []
        let statements = UpdateStatements()
        let sides = try bothSides(kind) { side in
            try statements.watch(side)
            let setup = ModelContext(side.container)
            for serial in 1...rows { setup.insert(Crate(serial: serial, title: "crate \(serial)", weight: serial)) }
            try setup.save()
            let crates = try side.context.fetch(FetchDescriptor<Crate>(sortBy: [SortDescriptor(\.serial)]))
            let missing = [crates[PostgresColumnArrays.limit + position], crates[2 * PostgresColumnArrays.limit + 100]]
            let other = ModelContext(side.container)
            let gone = missing.map(\.serial)
            try other.delete(model: Crate.self, where: #Predicate { gone.contains($0.serial) })
            try other.save()
            for crate in crates { crate.weight += 1 }
            errors.append(side.saveError())
            missingIDs.append("\(missing[0].persistentModelID)")
            #expect(side.context.hasChanges)
            let raw = try side.store.rawConnection(through: side.container)
            #expect(try raw.rows(#"SELECT count(*) FROM "Crate" WHERE "weight" <> "serial""#).first?.first == .integer(0))
            for crate in missing { side.context.delete(crate) }
            try side.context.save()
            #expect(try raw.rows(#"SELECT count(*) FROM "Crate" WHERE "weight" <> "serial" + 1"#).first?.first == .integer(0))
        }
        let error = try #require(errors[0])
        #expect(error.contains("no longer in the store") && error.contains(missingIDs[0]), "\(error)")
        #expect(errors[0] == errors[1])
        #expect(try sides.batched.dump() == sides.oneByOne.dump())
        if kind == .postgresql { #expect(statements.count == 3 + 3) }
    }

    /// A save reads its changed models without retaining them per row (`forEachBorrowed`, and
    /// `SaveBatch.UpdatedModel` unretained in the rows of a multi-row update): the models the
    /// context's pending list holds are all it needs. Changed models no one else holds, of two
    /// entities interleaved (a `BigCrate` every third, rows of one table), with a row another
    /// connection deleted in a later batch: the save reports `rowMissing` for that model, as one
    /// statement at a time, and keeps its changes; once the model is deleted the save stores every
    /// change, and `didSave` lists every updated model.
    @Test(arguments: StoreKind.allCases)
    func changedModelsHeldOnlyByTheContextAreWrittenAndReported(_ kind: StoreKind) throws {
        let rows = PostgresColumnArrays.limit + 200
        var errors: [String?] = []
        var missingIDs: [String] = []
        let sides = try bothSides(kind) { side in
            var updatedIDs: [PersistentIdentifier] = []
            var gone = 0
            do {
                let (crates, _) = try storedCratesAndWorkers(side, count: rows)
                for crate in crates { crate.weight += 1 }
                let missing = crates[PostgresColumnArrays.limit + 50]
                gone = missing.serial
                missingIDs.append("\(missing.persistentModelID)")
                updatedIDs = crates.filter { $0.serial != gone }.map(\.persistentModelID)
                let other = ModelContext(side.container)
                let serial = gone
                try other.delete(model: Crate.self, where: #Predicate { $0.serial == serial })
                try other.save()
            }
            // Only the context holds the changed models now.
            errors.append(side.saveError())
            #expect(side.context.hasChanges)
            let serial = gone
            for crate in try side.context.fetch(FetchDescriptor<Crate>(predicate: #Predicate { $0.serial == serial })) { side.context.delete(crate) }
            let events = try SaveNotificationTests.observing(side.context) { try side.context.save() }
            guard case .didSave(_, let updated, _)? = events.last else {
                Issue.record("no didSave: \(events)")
                return
            }
            #expect(updated == updatedIDs)
            let raw = try side.store.rawConnection(through: side.container)
            #expect(try raw.rows(#"SELECT count(*) FROM "Crate" WHERE "weight" = "serial" + 1"#).first?.first == .integer(Int64(rows - 1)))
        }
        let error = try #require(errors[0])
        #expect(error.contains("no longer in the store") && error.contains(missingIDs[0]), "\(error)")
        #expect(errors[0] == errors[1])
        #expect(try sides.batched.dump() == sides.oneByOne.dump())
    }

    /// Rows another connection deleted in two multi-row updates of one save, the update sent
    /// first (a `BigCrate`'s, whose rows are in `Crate`'s table) holding the one later in the
    /// save's order: the save reports `rowMissing` for the model the save's order reaches first,
    /// as one statement at a time, stores nothing (history included) and keeps its changes; once
    /// the missing models are deleted it saves what one statement at a time saves. A multi-row
    /// update's result counts the rows it changed; which are missing is read only when it is
    /// short (docs/PostgreSQL.md, "Batched writes").
    @Test(arguments: StoreKind.allCases)
    func missingRowsInSeveralMultiRowUpdatesReportTheFirstInTheSavesOrder(_ kind: StoreKind) throws {
        var errors: [String?] = []
        var missingIDs: [String] = []
        let statements = UpdateStatements()
        let sides = try bothSides(kind) { side in
            try statements.watch(side)
            let (crates, _) = try storedCratesAndWorkers(side, count: 300)
            // Every third crate is a `BigCrate` (serial 1, 4, …). The save changes weights of
            // crates[0] (a `BigCrate`: its update is registered, so sent, first), then titles of
            // crates[1..<150], then weights of crates[150...]: four multi-row updates, sent as
            // BigCrate weights, Crate titles, BigCrate titles, Crate weights.
            let missing = [crates[201], crates[100]]
            #expect(crates[0] is BigCrate && missing[0] is BigCrate && !(missing[1] is BigCrate))
            let other = ModelContext(side.container)
            let gone = missing.map(\.serial)
            try other.delete(model: Crate.self, where: #Predicate { gone.contains($0.serial) })
            try other.save()
            let stored = try side.dump()
            crates[0].weight += 1
            for crate in crates[1..<150] { crate.title += "!" }
            for crate in crates[150...] { crate.weight += 1 }
            errors.append(side.saveError())
            missingIDs.append("\(missing[1].persistentModelID)")
            #expect(side.context.hasChanges && missing.allSatisfy(\.hasChanges))
            #expect(try side.dump() == stored, "the failed save wrote something")
            for crate in missing { side.context.delete(crate) }
            try side.context.save()
            #expect(!side.context.hasChanges)
            let raw = try side.store.rawConnection(through: side.container)
            #expect(try raw.rows(#"SELECT count(*) FROM "Crate" WHERE "weight" = "serial" + 1"#).first?.first == .integer(150))
        }
        let error = try #require(errors[0])
        #expect(error.contains("no longer in the store") && error.contains(missingIDs[0]), "\(error)")
        #expect(errors[0] == errors[1])
        #expect(try sides.batched.dump() == sides.oneByOne.dump())
        if kind == .postgresql { #expect(statements.count == 4 + 4) }
    }

    /// Adds a check that `Crate.weight` stays under `limit` (a `CHECK` on PostgreSQL, a trigger on SQLite).
    func limitWeights(_ side: Side, under limit: Int) throws {
        let raw = try side.store.rawConnection(through: side.container)
        switch side.store.kind {
        case .postgresql:
            try raw.execute(#"ALTER TABLE "Crate" ADD CONSTRAINT "light" CHECK ("weight" < \#(limit))"#)
        case .sqliteFile, .sqliteMemory:
            try raw.execute(#"CREATE TRIGGER "light" BEFORE UPDATE ON "Crate" WHEN NEW."weight" >= \#(limit) BEGIN SELECT RAISE(ABORT, 'light'); END"#)
        }
    }

    /// Rows failing a check at the first, a middle or the last position of a multi-row update's
    /// rows (its second statement), after one failing in another column set that goes out later
    /// but comes first in the save, then a value PostgreSQL cannot take (U+0000) there: each
    /// save reports the error one statement at a time reports (the failing row the save's order
    /// reaches first), stores nothing, and the mended save stores what one statement at a time stores.
    @Test(arguments: StoreKind.allCases, [0, PostgresColumnArrays.limit / 2, PostgresColumnArrays.limit - 1])
    func aFailingRowAtAnyPositionOfAMultiRowUpdateReportsTheErrorOfOneStatementAtATime(_ kind: StoreKind, position: Int) throws {
        let rows = 2 * PostgresColumnArrays.limit + 300
        let limit = 1_000_000
        var errors: [String?] = []
        var refusals: [String?] = []
        let sides = try bothSides(kind) { side in
            let setup = ModelContext(side.container)
            for serial in 1...rows { setup.insert(Crate(serial: serial, title: "crate \(serial)", weight: serial)) }
            try setup.save()
            try limitWeights(side, under: limit)
            let crates = try side.context.fetch(FetchDescriptor<Crate>(sortBy: [SortDescriptor(\.serial)]))
            let failing = crates[PostgresColumnArrays.limit + position]
            let early = crates[rows - 10]
            // Changed first: the last 20 crates' weights (their statement is sent after the
            // others'), one of them failing the check; then every other crate's title and weight.
            for crate in crates[(rows - 20)...] { crate.weight += 1 }
            early.weight = limit + early.serial
            for crate in crates[..<(rows - 20)] { crate.title += "."; crate.weight += 1 }
            failing.weight = limit + failing.serial
            crates[2 * PostgresColumnArrays.limit + 200].weight = limit
            errors.append(side.saveError())
            let raw = try side.store.rawConnection(through: side.container)
            let unchanged = #"SELECT count(*) FROM "Crate" WHERE "weight" <> "serial" OR "title" <> 'crate ' || "serial""#
            #expect(try raw.rows(unchanged).first?.first == .integer(0))

            // Without the first column set's failure: the multi-row statement's failing row.
            early.weight = early.serial + 1
            errors.append(side.saveError())
            #expect(try raw.rows(unchanged).first?.first == .integer(0))

            failing.weight = failing.serial + 1
            crates[2 * PostgresColumnArrays.limit + 200].weight = 5
            if kind == .postgresql {
                failing.title = "bad\u{0}title"
                refusals.append(side.saveError())
                #expect(try raw.rows(unchanged).first?.first == .integer(0))
                failing.title = "mended"
            }
            try side.context.save()
            #expect(!side.context.hasChanges)
        }
        #expect(errors.count == 4)
        #expect(errors[0] != nil && errors[1] != nil)
        #expect(errors[0] == errors[2])
        #expect(errors[1] == errors[3])
        if kind == .postgresql {
            #expect(errors[0]?.contains("\(limit + rows - 9)") == true, "\(String(describing: errors[0]))")
            #expect(errors[1]?.contains("\(limit + PostgresColumnArrays.limit + position + 1)") == true, "\(String(describing: errors[1]))")
            #expect(refusals.count == 2)
            #expect(refusals.first??.contains("U+0000") == true, "\(String(describing: refusals.first))")
            #expect(refusals.first == refusals.last)
        }
        #expect(try sides.batched.dump() == sides.oneByOne.dump())
    }

    /// Changed unique values and to-one keys go one row per statement (a multi-row statement
    /// checks unique values in an order of its own): handles passed along a chain of workers, each
    /// taking the handle the one changed before it gave up, save as one statement at a time saves
    /// them; a handle still held fails with the same error; crates moved to another warehouse store the same.
    @Test(arguments: StoreKind.allCases)
    func changedUniqueValuesAndToOneKeysGoOneRowPerStatement(_ kind: StoreKind) throws {
        var errors: [String?] = []
        let statements = UpdateStatements()
        let sides = try bothSides(kind) { side in
            try statements.watch(side)
            let before = statements.count
            let (crates, workers) = try storedCratesAndWorkers(side, count: 600)
            let warehouse = Warehouse(serial: 1, code: "W", score: 0)
            side.context.insert(warehouse)
            try side.context.save()
            // Each worker takes the handle of the next one, changed before it: row by row in the
            // save's order each handle is free when taken.
            for worker in workers.reversed() { worker.handle = "h\(worker.serial + 2)"; worker.rank = 0 }
            for crate in crates { crate.warehouse = warehouse }
            try side.context.save()
            #expect(statements.count == before)
            // A handle another worker keeps.
            let setup = ModelContext(side.container)
            setup.insert(Worker(serial: 10_000, handle: "kept", rank: 0))
            try setup.save()
            for worker in workers { worker.rank = 5 }
            workers[150].handle = "kept"
            errors.append(side.saveError())
            workers[150].handle = "free"
            try side.context.save()
        }
        #expect(errors[0] != nil)
        #expect(errors[0] == errors[1])
        #expect(try sides.batched.dump() == sides.oneByOne.dump())
        // The ranks alone went several per statement, in the failed save (which then ran again
        // one row per statement) and the last.
        #expect(statements.count == (kind == .postgresql ? 2 : 0))
    }

    static func integer(_ value: SQLValue) -> Int64? {
        if case .integer(let number) = value { return number }
        return nil
    }
}
