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
            // Batched: the 2 × rows inserts, then their history rows, a batch per `limit` rows
            // each, not a round trip per row.
            if let postgres, postgres.batchesWrites {
                #expect(postgres.batchCount - batchesBefore == 2 * ((2 * rows + SaveBatch.limit - 1) / SaveBatch.limit))
            }
            #expect(try side.count("Crate") == Int64(rows))
            #expect(try side.count("Worker") == Int64(rows))
            #expect(!side.context.hasChanges)
        }
        let error = try #require(errors[0])
        #expect(error.contains("boom"), "\(error)")
        #expect(errors[0] == errors[1])
        #expect(try sides.batched.dump() == sides.oneByOne.dump())
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
