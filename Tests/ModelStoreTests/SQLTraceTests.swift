import Foundation
import StoreTestSupport
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The events a container's `sqlTrace` closure received, from any thread.
final class TraceLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [SQLTraceEvent] = []

    func append(_ event: SQLTraceEvent) { lock.withLock { stored.append(event) } }

    /// The events received while `body` ran.
    func during(_ body: () throws -> Void) rethrows -> [SQLTraceEvent] {
        lock.withLock { stored = [] }
        try body()
        return lock.withLock { stored }
    }

    /// Every event received so far.
    var events: [SQLTraceEvent] { lock.withLock { stored } }
}

extension [SQLTraceEvent] {
    /// The events whose SQL starts with `prefix`.
    func starting(with prefix: String) -> [SQLTraceEvent] { filter { $0.sql.hasPrefix(prefix) } }
}

/// SQL tracing (`ModelConfiguration.sqlTrace`, `MODELSTORE_SQL_DEBUG`) and `ModelContext.explain`
/// on every store (docs/Runtime.md, "Seeing the SQL").
@Suite struct SQLTraceTests {
    /// A container on `store` for the shop whose statements go to `log`.
    static func container(_ store: TestStore, _ log: TraceLog, values: Bool = false) throws -> ModelContainer {
        var configuration = store.configuration
        configuration.sqlTrace = { log.append($0) }
        configuration.sqlTraceIncludesValues = values
        return try ModelContainer(for: Shop.schema, configurations: configuration)
    }

    /// Checks what every event must be: a duration that a statement on a test store can take, and
    /// SQL with no value in it when values are hidden.
    static func expectPlausible(_ events: [SQLTraceEvent], hiding secret: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        for event in events {
            #expect(event.duration > .zero && event.duration < .seconds(60), "\(event)", sourceLocation: sourceLocation)
            #expect(event.rowCount >= 0, "\(event)", sourceLocation: sourceLocation)
            if let secret {
                #expect(event.values == nil, "\(event)", sourceLocation: sourceLocation)
                #expect(!event.description.contains(secret), "\(event)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func theClosureReceivesTheStatementsOfSavesFetchesAndCounts(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let log = TraceLog()
        let container = try Self.container(store, log)
        // Opening a new store created its tables through the same path.
        #expect(!log.events.starting(with: "CREATE TABLE").isEmpty)
        let context = ModelContext(container)

        let save = try log.during {
            for (name, email) in [("Ann", "ann@example.com"), ("Bob", "bob@example.com"), ("Cy", "cy@example.com")] {
                context.insert(Customer(name: name, email: email))
            }
            try context.save()
        }
        let inserts = save.starting(with: "INSERT INTO \"Customer\"")
        #expect(inserts.count == 3 && inserts.allSatisfy { $0.rowCount == 1 }, "\(save)")
        #expect(!save.starting(with: "BEGIN").isEmpty && save.starting(with: "COMMIT").count == 1, "\(save)")
        Self.expectPlausible(save, hiding: "example.com")

        let descriptor = FetchDescriptor<Customer>(sortBy: [SortDescriptor(\.name)])
        let reader = ModelContext(container)
        // (The context's first statement opens its connection: SQLite's set-up pragmas are traced too.)
        var names: [String] = []
        let fetch = try log.during { names = try reader.fetch(descriptor).map(\.name) }.filter { !$0.sql.hasPrefix("PRAGMA") }
        #expect(names == ["Ann", "Bob", "Cy"])
        #expect(fetch.count == 1 && fetch[0].sql.hasPrefix("SELECT") && fetch[0].rowCount == 3, "\(fetch)")
        #expect(fetch.first?.sql == (try reader.explain(descriptor).sql))

        let bob = "bob@example.com"
        var counted = 0
        let count = try log.during { counted = try reader.fetchCount(FetchDescriptor<Customer>(predicate: #Predicate { $0.email != bob })) }
        #expect(counted == 2)
        #expect(count.count == 1 && count[0].sql.hasPrefix("SELECT count(*)") && count[0].rowCount == 1, "\(count)")
        #expect(count[0].sql.contains(kind == .postgresql ? "$1" : "?"))
        Self.expectPlausible(fetch + count, hiding: "example.com")

        // An update and a delete report the rows they changed.
        let ann = try #require(try context.fetch(FetchDescriptor<Customer>(predicate: #Predicate { $0.name == "Ann" })).first)
        let update = try log.during {
            ann.name = "Ann Lee"
            try context.save()
        }
        #expect(update.starting(with: "UPDATE \"Customer\"").map(\.rowCount) == [1], "\(update)")
        let delete = try log.during {
            try context.delete(model: Customer.self, where: #Predicate { $0.name != "Ann Lee" })
            try context.save()
        }
        #expect(delete.starting(with: "DELETE FROM \"Customer\"").reduce(0) { $0 + $1.rowCount } == 2, "\(delete)")
        Self.expectPlausible(update + delete, hiding: "example.com")
    }

    /// A container on `store` tracing to `log`, holding `count` customers ("c0"…).
    static func container(_ store: TestStore, _ log: TraceLog, customers count: Int) throws -> ModelContainer {
        let container = try Self.container(store, log)
        let context = ModelContext(container)
        for number in 0..<count { context.insert(Customer(name: "c\(number)", email: "c\(number)@example.com")) }
        try context.save()
        return container
    }

    @Test(arguments: StoreKind.allCases) func enumerationPagesAndHistoryAreTraced(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let log = TraceLog()
        let container = try Self.container(store, log, customers: 5)

        let reader = ModelContext(container)
        var seen = 0
        let pages = try log.during {
            try reader.enumerate(FetchDescriptor<Customer>(), batchSize: 2) { _ in seen += 1 }
        }
        #expect(seen == 5)
        let selects = pages.starting(with: "SELECT")
        #expect(selects.count >= 3 && selects.reduce(0) { $0 + $1.rowCount } >= 5, "\(pages)")

        let history = try log.during { _ = try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()) }
        #expect(history.contains { $0.sql.contains(HistoryTables.transactions) && $0.rowCount == 1 }, "\(history)")
        Self.expectPlausible(pages + history, hiding: "example.com")
    }

    /// A batch that ends with the start's largest key is the last: no query is sent for the
    /// empty batch after it (docs/Runtime.md, "Batches").
    @Test(arguments: StoreKind.allCases) func anEnumerationEndsWithTheLargestKeyOfItsStart(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let log = TraceLog()
        let container = try Self.container(store, log, customers: 6)

        for (batchSize, batches) in [(2, 3), (3, 2), (6, 1), (4, 2), (7, 1)] {
            let reader = ModelContext(container)
            var seen = 0
            let pages = try log.during {
                try reader.enumerate(FetchDescriptor<Customer>(), batchSize: batchSize) { _ in seen += 1 }
            }
            #expect(seen == 6)
            // The largest key, then one query per batch.
            let selects = pages.starting(with: "SELECT")
            #expect(selects.count == 1 + batches, "batch size \(batchSize): \(selects)")
        }
    }

    @Test(arguments: StoreKind.allCases) func valuesAreShownWhenAskedFor(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let log = TraceLog()
        let container = try Self.container(store, log, values: true)
        let context = ModelContext(container)
        let photo = Data((0..<40).map { UInt8($0) })
        let save = try log.during {
            context.insert(Customer(name: "Zoë 'Z'", email: "zoe@example.com"))
            let product = Product(sku: "S1", name: "Kettle", price: 12.5)
            product.photo = photo
            product.weight = 1.25
            context.insert(product)
            try context.save()
        }
        let customer = try #require(save.starting(with: "INSERT INTO \"Customer\"").first)
        #expect(customer.values?.contains(.text("zoe@example.com")) == true, "\(customer)")
        #expect(customer.values?.contains(.text("Zoë 'Z'")) == true, "\(customer)")
        #expect(customer.description.contains("'Zoë ''Z'''"), "\(customer)")
        let product = try #require(save.starting(with: "INSERT INTO \"Product\"").first)
        #expect(product.values?.contains(.blob(photo)) == true && product.values?.contains(.real(1.25)) == true, "\(product)")
        #expect(product.description.contains("X'" + (0..<32).map { String(format: "%02X", $0) }.joined() + "…' (40 bytes)"), "\(product)")
        // The values in order of the placeholders: as many as the statement has (PostgreSQL's `$n`).
        let placeholders = kind == .postgresql ? product.sql.matches(of: #/\$[0-9]+/#).count : product.sql.filter { $0 == "?" }.count
        #expect(product.values?.count == placeholders, "\(product)")

        let descriptor = FetchDescriptor<Customer>(predicate: #Predicate { $0.email == "zoe@example.com" })
        let reader = ModelContext(container)
        var found = 0
        let fetch = try log.during { found = try reader.fetch(descriptor).count }.starting(with: "SELECT")
        #expect(found == 1)
        let explanation = try reader.explain(descriptor)
        #expect(fetch.count == 1 && fetch.first?.values == explanation.values && explanation.values.contains(.text("zoe@example.com")), "\(fetch)")
        // Statements without parameters have no values.
        #expect(save.starting(with: "COMMIT").allSatisfy { $0.values == [] })
    }

    @Test func eventsPrintTheirDurationRowsAndValues() {
        let event = SQLTraceEvent(sql: "SELECT * FROM \"Trip\" WHERE \"name\" = ? AND \"n\" > ?", values: [.text("O'Hara"), .integer(3), .null, .real(1.5)],
                                  duration: .microseconds(52), rowCount: 3)
        #expect(event.description == "0.052 ms, 3 rows: SELECT * FROM \"Trip\" WHERE \"name\" = ? AND \"n\" > ? -- values: 'O''Hara', 3, NULL, 1.5")
        let hidden = SQLTraceEvent(sql: "COMMIT", values: nil, duration: .milliseconds(1500), rowCount: 1)
        #expect(hidden.description == "1.500 s, 1 row: COMMIT")
        let long = SQLTraceEvent(sql: "INSERT", values: [.text(String(repeating: "a", count: 150))], duration: .zero, rowCount: 0)
        #expect(long.description == "0.000 ms, 0 rows: INSERT -- values: '" + String(repeating: "a", count: 100) + "…' (150 characters)")
    }

    @Test func theEnvironmentVariableIsALevel() {
        for (text, level) in [("1", 1), ("2", 2), ("3", 3), ("0", 0), ("", 0), (" 1 ", 1), ("yes", 1), ("TRUE", 1), ("on", 1), ("off", 0), ("no", 0)] {
            let result = StatementTracer.level(text)
            #expect(result.level == level && result.problem == nil, "\(text)")
        }
        #expect(StatementTracer.level(nil).level == 0)
        for text in ["verbose", "-1", "1.5"] {
            let result = StatementTracer.level(text)
            #expect(result.level == 0 && result.problem?.contains("MODELSTORE_SQL_DEBUG=\(text) is not a level") == true, "\(text)")
        }
        // Nothing asks: no tracer, so the drivers run no tracing code.
        #expect(StatementTracer.make(for: ModelConfiguration(isStoredInMemoryOnly: true), environment: [:]) == nil)
        #expect(StatementTracer.make(for: ModelConfiguration(isStoredInMemoryOnly: true), environment: ["MODELSTORE_SQL_DEBUG": "0"]) == nil)
    }

    @Test func aContainerWithoutTracingHasNoTraceHook() throws {
        let container = try ModelContainer(for: Shop.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let connection = try #require(try ModelContext(container).connection() as? SQLiteConnection)
        #expect(connection.trace == nil && !connection.observesBinds)
    }

    // MARK: MODELSTORE_SQL_DEBUG, from a child process

    /// Runs `HistoryProbe arguments` with `MODELSTORE_SQL_DEBUG=level` and returns its standard
    /// error (written to a file: a pipe could fill while the child runs).
    static func probeErrors(level: String, _ arguments: [String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let errorsFile = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        let process = Process()
        process.executableURL = BuiltProducts.executable("HistoryProbe")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["MODELSTORE_SQL_DEBUG"] = level
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let errors = try FileHandle(forWritingTo: errorsFile)
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        try errors.close()
        let text = try String(contentsOf: errorsFile, encoding: .utf8)
        guard process.terminationStatus == 0 else { throw ProbeFailure(message: "HistoryProbe \(arguments): \(text)") }
        return text
    }

    /// The store argument of HistoryProbe for `store`: the file's path, or the PostgreSQL URL with
    /// a password added (the trusted test role ignores it), which the output must never show.
    static func probeStore(_ store: TestStore) throws -> String {
        if let url = store.url { return url.path }
        let url = try #require(store.postgres?.storeURL)
        var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "password", value: "trace-secret-4711")]
        return try #require(components.string)
    }

    @Test(arguments: StoreKind.persistent) func theEnvironmentVariablePrintsEachStatementToStandardError(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let target = try Self.probeStore(store)
        let output = try Self.probeErrors(level: "1", ["write", target])
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.hasPrefix("ModelStore SQL: ") }, "\(output)")
        #expect(lines.first?.hasPrefix("ModelStore SQL: tracing ") == true && lines.first?.contains("values hidden") == true, "\(output)")
        #expect(!output.contains("trace-secret-4711"))
        #expect(lines.contains { $0.contains("rows: INSERT INTO \"Trip\"") || $0.contains("row: INSERT INTO \"Trip\"") }, "\(output)")
        #expect(lines.contains { $0.contains(" row: UPDATE \"Trip\"") }, "\(output)")
        #expect(lines.contains { $0.hasSuffix(": COMMIT") }, "\(output)")
        // Values hidden: the probe's trip names are nowhere.
        #expect(!output.contains("Paris") && !output.contains("-- values"), "\(output)")
        let statement = try #require(lines.first { $0.contains("UPDATE \"Trip\"") })
        #expect(statement.range(of: #"^ModelStore SQL: \d+\.\d{3} (ms|s), 1 row: UPDATE"#, options: .regularExpression) != nil, "\(statement)")

        let withValues = try Self.probeErrors(level: "2", ["read", target])
        #expect(withValues.contains("with bound values") && withValues.contains("-- values"), "\(withValues)")
        #expect(withValues.contains(HistoryTables.transactions) && !withValues.contains("trace-secret-4711"), "\(withValues)")
        let update = try Self.probeErrors(level: "2", ["write", target])
        #expect(update.contains("'Paris in May'"), "\(update)")
        let count = try Self.probeErrors(level: "0", ["count", target])
        #expect(count.isEmpty, "\(count)")
    }

    // MARK: explain

    /// A store with `count` customers and products (enough rows that PostgreSQL's planner takes an
    /// index where one applies).
    static func seeded(_ kind: StoreKind, count: Int = 2000) throws -> (TestStore, ModelContainer, TraceLog) {
        let store = try TestStore(kind)
        let log = TraceLog()
        let container = try Self.container(store, log, values: true)
        let context = ModelContext(container)
        for number in 0..<count {
            context.insert(Customer(name: "name \(number % 50)", email: "c\(number)@example.com"))
            let product = Product(sku: "sku\(number)", name: "product \(number)", price: 1)
            product.weight = Double(number)
            context.insert(product)
        }
        try context.save()
        return (store, container, log)
    }

    /// Whether `explanation`'s plan finds the rows through an index: `SEARCH` on SQLite, an index
    /// condition on PostgreSQL, and no table read whole.
    static func searches(_ explanation: FetchExplanation, _ kind: StoreKind) -> Bool {
        let plan = explanation.plan.joined(separator: "\n")
        switch kind {
        case .sqliteFile, .sqliteMemory: return plan.contains("SEARCH") && !plan.contains("SCAN")
        case .postgresql: return plan.contains("Index Cond") && !plan.contains("Seq Scan")
        }
    }

    /// Whether `explanation`'s plan reads every row (`SCAN`; `Seq Scan`, or a whole index in key
    /// order, with a `Filter`), no index narrowing them.
    static func scans(_ explanation: FetchExplanation, _ kind: StoreKind) -> Bool {
        let plan = explanation.plan.joined(separator: "\n")
        switch kind {
        case .sqliteFile, .sqliteMemory: return plan.contains("SCAN") && !plan.contains("SEARCH")
        case .postgresql: return (plan.contains("Seq Scan") || plan.contains("Filter")) && !plan.contains("Index Cond")
        }
    }

    @Test(arguments: StoreKind.allCases) func explainShowsAnIndexSearchForAnIndexedPropertyAndAScanOtherwise(_ kind: StoreKind) throws {
        let (store, container, _) = try Self.seeded(kind)
        let context = ModelContext(container)
        let customer = try #require(try context.fetch(FetchDescriptor<Customer>(predicate: #Predicate { $0.email == "c42@example.com" })).first)
        let id = customer.persistentModelID
        // The plan of a query an index serves, through the store's explain: an index search.
        let dialect = container.driver.dialect
        let connection = try context.connection()
        let plan = try dialect.queryPlan(of: "SELECT \"$pk\" FROM \"Customer\" WHERE \"email\" = ?", bindings: [.text("c42@example.com")], on: connection)
        let direct = FetchExplanation(sql: "", values: [], plan: plan, notes: [])
        #expect(Self.searches(direct, kind), "\(direct)")
        // Unindexed properties: every row read.
        let scanned = [
            try context.explain(FetchDescriptor<Customer>(predicate: #Predicate { $0.name == "name 7" })),
            try context.explain(FetchDescriptor<Product>(predicate: #Predicate { $0.weight == 7 })),
        ]
        for explanation in scanned {
            #expect(Self.scans(explanation, kind), "\(explanation)")
            #expect(explanation.description.contains("plan:\n  "), "\(explanation)")
        }
        // `#Unique` (`Customer.email`), `#Index` (`Product.name`), the row key: `==` with a captured
        // value is spelled so the index serves it, Swift's equality kept (docs/Predicates.md,
        // "Equality and indexes").
        let unique = try context.explain(FetchDescriptor<Customer>(predicate: #Predicate { $0.email == "c42@example.com" }))
        let indexed = try context.explain(FetchDescriptor<Product>(predicate: #Predicate { $0.name == "product 7" }))
        let byKey = try context.explain(FetchDescriptor<Customer>(predicate: #Predicate { $0.persistentModelID == id }))
        #expect(Self.searches(unique, kind), "\(unique)")
        #expect(Self.searches(indexed, kind), "\(indexed)")
        #expect(Self.searches(byKey, kind), "\(byKey)")
        // The description: SQL, values, plan, each on its line.
        #expect(unique.description.hasPrefix("SQL: " + unique.sql + "\nvalues: 'c42@example.com'\nplan:\n"), "\(unique)")
        withExtendedLifetime(store) {}
    }

    /// Texts with other equal spellings (KELVIN SIGN, GREEK QUESTION MARK: four), captured lists, several identifiers, a
    /// product of a table of two entities, a condition beside another: an index search on every
    /// store. A non-ASCII text: a byte-prefix range on SQLite; a scan on PostgreSQL, whose index
    /// orders by the database's collation (docs/Predicates.md, "Equality and indexes").
    @Test(arguments: StoreKind.allCases) func explainShowsAnIndexSearchForEqualityInListsAndIdentifiers(_ kind: StoreKind) throws {
        let (store, container, _) = try Self.seeded(kind)
        defer { withExtendedLifetime(store) {} }
        let context = ModelContext(container)
        let products = try context.fetch(FetchDescriptor<Product>(predicate: #Predicate { $0.weight < 3 }, sortBy: [SortDescriptor(\.weight)]))
        let ids = products.map(\.persistentModelID)
        let (first, second) = (ids[0], ids[1])
        let emails = ["c1@example.com", "c2@example.com", "KELVIN@example.com"]
        let weights = [1.0, 2.0]
        let searched: [(String, FetchExplanation)] = [
            ("singletons", try context.explain(FetchDescriptor<Customer>(predicate: #Predicate { $0.email == "KELVIN;@example.com" }))),
            ("list of texts", try context.explain(FetchDescriptor<Customer>(predicate: #Predicate { emails.contains($0.email) }))),
            ("list of keys", try context.explain(FetchDescriptor<Product>(predicate: #Predicate { ids.contains($0.persistentModelID) }))),
            ("two keys", try context.explain(FetchDescriptor<Product>(predicate: #Predicate { $0.persistentModelID == first || $0.persistentModelID == second }))),
            ("and", try context.explain(FetchDescriptor<Product>(predicate: #Predicate { $0.sku == "sku7" && $0.weight > 3 }))),
            ("unique sku", try context.explain(FetchDescriptor<Product>(predicate: #Predicate { $0.sku == "sku7" }))),
            ("subclass", try context.explain(FetchDescriptor<DigitalProduct>(predicate: #Predicate { $0.name == "product 7" }))),
        ]
        for (name, explanation) in searched {
            #expect(Self.searches(explanation, kind), "\(name): \(explanation)")
        }
        let accented = try context.explain(FetchDescriptor<Product>(predicate: #Predicate { $0.name == "product 7 é" }))
        #expect(kind == .postgresql ? Self.scans(accented, kind) : Self.searches(accented, kind), "\(accented)")
        // Unindexed: still a scan.
        let unindexed = try context.explain(FetchDescriptor<Product>(predicate: #Predicate { weights.contains($0.weight) }))
        #expect(Self.scans(unindexed, kind), "\(unindexed)")
    }

    @Test(arguments: StoreKind.allCases) func explainShowsTheSQLTheFetchRuns(_ kind: StoreKind) throws {
        let (store, container, log) = try Self.seeded(kind, count: 20)
        defer { withExtendedLifetime(store) {} }
        let context = ModelContext(container)
        var windowed = FetchDescriptor<Customer>(predicate: #Predicate { $0.name != "name 3" }, sortBy: [SortDescriptor(\.name, order: .reverse)])
        windowed.fetchLimit = 5
        windowed.fetchOffset = 2
        var partial = FetchDescriptor<Product>(sortBy: [SortDescriptor(\.weight)])
        partial.propertiesToFetch = [\.name]
        var storedOnly = FetchDescriptor<Product>(predicate: #Predicate { $0.weight > 3 })
        storedOnly.includePendingChanges = false
        var prefetching = FetchDescriptor<Product>(predicate: #Predicate { $0.weight < 3 })
        prefetching.relationshipKeyPathsForPrefetching = [\.tags]
        let cases: [(name: String, fetch: () throws -> Int, explain: () throws -> FetchExplanation)] = [
            ("window", { try context.fetch(windowed).count }, { try context.explain(windowed) }),
            ("subclass", { try context.fetch(FetchDescriptor<DigitalProduct>()).count }, { try context.explain(FetchDescriptor<DigitalProduct>()) }),
            ("partial", { try context.fetch(partial).count }, { try context.explain(partial) }),
            ("stored only", { try context.fetch(storedOnly).count }, { try context.explain(storedOnly) }),
            ("prefetching", { try context.fetch(prefetching).count }, { try context.explain(prefetching) }),
        ]
        for (name, fetch, explain) in cases {
            var rows = 0
            let events = try log.during { rows = try fetch() }.starting(with: "SELECT")
            let explanation = try explain()
            let select = try #require(events.first, "\(name)")
            #expect(select.sql == explanation.sql && select.values == explanation.values, "\(name): \(events) against \(explanation)")
            #expect(select.rowCount == rows, "\(name)")
            #expect(!explanation.plan.isEmpty, "\(name)")
            #expect(explanation.notes.isEmpty == (name != "prefetching"), "\(name): \(explanation.notes)")
        }
    }

    @Test(arguments: StoreKind.allCases) func explainSaysWhatUnsavedChangesAndUntranslatablePredicatesDo(_ kind: StoreKind) throws {
        let (store, container, _) = try Self.seeded(kind, count: 10)
        defer { withExtendedLifetime(store) {} }
        let context = ModelContext(container)
        let descriptor = FetchDescriptor<Customer>(predicate: #Predicate { $0.name == "name 3" })
        let saved = try context.explain(descriptor)
        context.insert(Customer(name: "name 3", email: "new@example.com"))
        let pending = try context.explain(descriptor)
        #expect(pending.notes.count == 1 && pending.notes[0].contains("unsaved changes"), "\(pending)")
        #expect(pending.description.contains("\nnote: the context has unsaved changes"))
        // The stored rows' query: the same condition as without the insert.
        #expect(pending.values == saved.values && pending.plan == saved.plan)
        // A predicate with no SQL equivalent: the error `fetch` throws, before anything runs.
        let unsupported = FetchDescriptor<Product>(predicate: #Predicate<Product> { $0.barcode! > 3 })
        var fetchError = ""
        do { _ = try context.fetch(unsupported) } catch { fetchError = "\(error)" }
        #expect(fetchError.contains("PredicateExpressions.ForcedUnwrap"))
        #expect {
            _ = try context.explain(unsupported)
        } throws: { error in
            guard case ModelStoreError.unsupportedPredicate = error else { return false }
            return "\(error)" == fetchError
        }
    }
}
