import Foundation
@_spi(ModelStoreGenerated) @testable import ModelStore

/// A small seeded random generator (SplitMix64), so a failing run can be replayed from its seed.
struct ReliabilityRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// The seed of a test run: `MODELSTORE_TEST_SEED` when set, else a fresh one (reported on failure).
    static func runSeed() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["MODELSTORE_TEST_SEED"], let seed = UInt64(text) { return seed }
        return UInt64.random(in: 1...UInt64.max)
    }
}

/// Everything stored in a file, table by table, as raw values: compares stores before and after.
enum StoreDump {
    /// Every table's rows (in a fixed order: some tables have no rowid), by table name;
    /// `sqlite_*` tables are left out.
    static func dump(_ connection: SQLiteConnection) throws -> [String: [[SQLValue]]] {
        let tables = try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        var result: [String: [[SQLValue]]] = [:]
        for case .text(let name) in tables.compactMap(\.first) {
            result[name] = try connection.rows("SELECT * FROM \(SQLQuote.identifier(name))")
                .sorted { "\($0)" < "\($1)" }
        }
        return result
    }

    /// `PRAGMA integrity_check`'s answer (`["ok"]` when the file is sound).
    static func integrity(_ connection: SQLiteConnection) throws -> [String] {
        try connection.rows("PRAGMA integrity_check").compactMap {
            if case .text(let text) = $0.first { return text }
            return nil
        }
    }
}

/// Where the test bundle's sibling executables (built products) are.
enum BuiltProducts {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable `name` in the build products folder that holds this test bundle.
    static func executable(_ name: String) -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/\(name)")
    }
}
