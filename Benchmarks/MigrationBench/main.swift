import BenchSupport
import CSQLite
import Foundation
import ModelStore

// migration-bench [--n ROWS] [--repeat R] [--markdown 1]: ModelStore migrating a store of N trips
// when a container opens it, against the same migration written by hand in SQL on the SQLite C
// API, each on its own copy of the same file, median of R repetitions (alternating which goes first).

let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()), defaults: ["n": 1_000_000, "repeat": 3, "markdown": 0])
} catch {
    FileHandle.standardError.write(Data("migration-bench: \(error)\nusage: migration-bench [--n ROWS] [--repeat R] [--markdown 1]\n".utf8))
    exit(2)
}

func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// A bare SQLite connection, configured as the runtime configures its own (WAL, `synchronous=FULL`,
/// foreign keys on).
final class RawStore {
    let handle: OpaquePointer

    init(path: String) throws {
        var pointer: OpaquePointer?
        guard sqlite3_open_v2(path, &pointer, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let pointer else {
            if let pointer { sqlite3_close_v2(pointer) }
            throw BenchError(message: "cannot open \(path)")
        }
        handle = pointer
        for pragma in ["PRAGMA foreign_keys = ON", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL"] { try execute(pragma) }
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchError(message: String(cString: sqlite3_errmsg(handle)) + " in " + sql)
        }
    }

    /// The first row of a query, as text.
    func firstRow(_ sql: String) throws -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError(message: String(cString: sqlite3_errmsg(handle)) + " in " + sql)
        }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return [] }
        return (0..<sqlite3_column_count(statement)).map { column in
            sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "NULL"
        }
    }

    /// Inserts `count` version-1 trips in one transaction.
    func insertTrips(_ count: Int) throws {
        try execute("BEGIN IMMEDIATE")
        var statement: OpaquePointer?
        let sql = "INSERT INTO \"Trip\" (\"$type\", \"name\", \"startDate\", \"days\", \"note\") VALUES ('Trip', ?, ?, ?, ?)"
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError(message: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for index in 0..<count {
            sqlite3_bind_text(statement, 1, "trip \(index)", -1, transient)
            sqlite3_bind_double(statement, 2, 800_000_000 + Double(index) * 60)
            sqlite3_bind_int64(statement, 3, Int64(index % 30))
            if index % 3 == 0 { sqlite3_bind_null(statement, 4) } else { sqlite3_bind_text(statement, 4, "note \(index)", -1, transient) }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchError(message: String(cString: sqlite3_errmsg(handle))) }
            sqlite3_reset(statement)
        }
        try execute("COMMIT")
    }
}

struct BenchError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// One migration, both ways.
struct Scenario {
    let title: String
    /// The schema the container opens the store with.
    let schema: Schema
    /// The same migration by hand: statements run in order on one connection.
    let handWritten: [String]
}

let scenarios = [
    Scenario(title: "rename + added defaulted property + Int32 → Int", schema: Schema(versionedSchema: SchemaV2_0_0.self), handWritten: [
        "BEGIN IMMEDIATE",
        "ALTER TABLE \"Trip\" RENAME COLUMN \"name\" TO \"title\"",
        "ALTER TABLE \"Trip\" ADD COLUMN \"rating\" INTEGER NOT NULL DEFAULT 3",
        "PRAGMA user_version = 2",
        "COMMIT",
    ]),
    Scenario(title: "the same + optional → required with a default (table rebuild)", schema: Schema(versionedSchema: SchemaV3_0_0.self), handWritten: [
        // SQLite's procedure (lang_altertable.html, "Making Other Kinds Of Table Schema Changes").
        "PRAGMA foreign_keys = OFF",
        "BEGIN IMMEDIATE",
        "CREATE TABLE \"Trip_new\" (\"$pk\" INTEGER PRIMARY KEY, \"$type\" TEXT NOT NULL, \"title\" TEXT NOT NULL, \"startDate\" REAL NOT NULL, "
            + "\"days\" INTEGER NOT NULL, \"note\" TEXT NOT NULL DEFAULT '', \"rating\" INTEGER NOT NULL DEFAULT 3)",
        "INSERT INTO \"Trip_new\" SELECT \"$pk\", \"$type\", \"name\", \"startDate\", \"days\", coalesce(\"note\", ''), 3 FROM \"Trip\"",
        "DROP TABLE \"Trip\"",
        "ALTER TABLE \"Trip_new\" RENAME TO \"Trip\"",
        "CREATE INDEX \"Trip.index(startDate)\" ON \"Trip\" (\"startDate\")",
        "PRAGMA foreign_key_check",
        "PRAGMA user_version = 3",
        "COMMIT",
        "PRAGMA foreign_keys = ON",
    ]),
]

/// The table's definition and a digest of its rows, to check both sides did the same.
func fingerprint(_ path: String) throws -> [String] {
    let store = try RawStore(path: path)
    return try store.firstRow("SELECT sql FROM sqlite_master WHERE name = 'Trip'")
        + store.firstRow("SELECT count(*), sum(length(\"title\")), sum(\"days\"), sum(\"rating\"), sum(length(\"note\")), "
                         + "count(\"note\"), total(\"startDate\") FROM \"Trip\"")
        + store.firstRow("SELECT group_concat(name) FROM (SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Trip' ORDER BY name)")
}

do {
    let rowCount = arguments["n"]
    let repetitions = arguments["repeat"]
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migration-bench-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let pristine = folder.appendingPathComponent("v1.store")
    let work = folder.appendingPathComponent("work.store")

    log("writing \(rowCount) version-1 trips…")
    _ = try ModelContainer(for: Schema(versionedSchema: SchemaV1_0_0.self), configurations: ModelConfiguration(url: pristine))
    try RawStore(path: pristine.path).insertTrips(rowCount)

    func fresh() throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: work.path + suffix) }
        try FileManager.default.copyItem(at: pristine, to: work)
    }

    var table = TextTable(header: ["migration on open", "ModelStore s", "hand-written SQL s", "ratio", "CPU ratio"])
    for scenario in scenarios {
        var runtime: [Timing.Sample] = []
        var hand: [Timing.Sample] = []
        var prints: [[String]] = []
        for repetition in 0..<repetitions {
            for side in repetition % 2 == 0 ? [0, 1] : [1, 0] {
                try fresh()
                if side == 0 {
                    runtime.append(try Timing.measure {
                        _ = try ModelContainer(for: scenario.schema, configurations: ModelConfiguration(url: work))
                    }.sample)
                } else {
                    hand.append(try Timing.measure {
                        let store = try RawStore(path: work.path)
                        for sql in scenario.handWritten { try store.execute(sql) }
                    }.sample)
                }
                if repetition == 0 { prints.append(try fingerprint(work.path)) }
            }
        }
        guard prints.count == 2, prints[0] == prints[1] else {
            throw BenchError(message: "\(scenario.title): the two sides left different tables or rows: \(prints)")
        }
        let wall = (Timing.median(runtime.map(\.wall)), Timing.median(hand.map(\.wall)))
        let cpu = (Timing.median(runtime.map(\.cpu)), Timing.median(hand.map(\.cpu)))
        table.append([scenario.title, Cell.fixed(wall.0, 3), Cell.fixed(wall.1, 3),
                      Cell.fixed(wall.1 > 0 ? wall.0 / wall.1 : 0, 2), Cell.fixed(cpu.1 > 0 ? cpu.0 / cpu.1 : 0, 2)])
        log("\(scenario.title): done (both sides left the same table and rows)")
    }
    print("N = \(rowCount), median of \(repetitions) repetitions (wall clock; CPU ratio: thread CPU time), load average \(Cell.fixed(Timing.loadAverage(), 1))")
    print(arguments["markdown"] == 0 ? table.text : table.markdown)
} catch {
    log("migration-bench: \(error)")
    exit(1)
}
