import Foundation
import GoldenFiles
import Testing

/// The storage seam (docs/Architecture.md, "The storage seam"): the context, fetch, save, history,
/// predicate and row-coding code reaches a store only through `StoreConnection` and
/// `StoreStatement`; SQLite's and libpq's names (and their C modules) appear only under
/// `Sources/ModelStore/Storage/` (comments aside). This test reads the source tree, so a leak fails here.
@Suite struct StorageSeamTests {
    static let sources = GoldenFile.packageRoot(from: #filePath).appendingPathComponent("Sources").appendingPathComponent("ModelStore")
    /// A store's own names: SQLite's C API and types, libpq's functions, the C modules.
    static let storeName = try! NSRegularExpression(
        pattern: #"sqlite3_|SQLITE_[A-Z]|SQLiteStatement|SQLiteConnection|\bPQ[a-z]|import CSQLite|import CLibPQ"#)

    /// Every line of the module's Swift files that names a store's internals, by file path relative
    /// to `Sources/ModelStore`.
    static func storeNames() throws -> [(file: String, line: String)] {
        let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var found: [(String, String)] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let relative = String(url.standardizedFileURL.path.dropFirst(sources.standardizedFileURL.path.count + 1))
            let text = try String(contentsOf: url, encoding: .utf8)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let line = String(line)
                // Code, not comments: documentation may name what a store does.
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
                if storeName.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil { found.append((relative, line)) }
            }
        }
        return found
    }

    @Test func noStoreNameAboveTheStorageLayer() throws {
        let found = try Self.storeNames()
        let leaks = found.filter { !$0.file.hasPrefix("Storage/") }.map { "\($0.file): \($0.line.trimmingCharacters(in: .whitespaces))" }
        #expect(leaks.isEmpty, "SQLite or libpq names outside Sources/ModelStore/Storage/:\n\(leaks.joined(separator: "\n"))")
        // The scan itself works: it finds the drivers' own uses of those names.
        let files = Set(found.map(\.file))
        #expect(files.contains("Storage/SQLite/SQLiteStatement.swift") && files.contains("Storage/PostgreSQL/PostgresStatement.swift"))
    }

    /// Each dialect's predicate functions and spellings live beside its driver.
    @Test func eachDialectsPredicateSpellingIsBesideItsDriver() throws {
        let storage = Self.sources.appendingPathComponent("Storage")
        for path in ["SQLite/SQLitePredicates.swift", "PostgreSQL/PostgresPredicates.swift"] {
            #expect(FileManager.default.fileExists(atPath: storage.appendingPathComponent(path).path), "\(path) missing")
        }
        let neutral = try String(contentsOf: storage.appendingPathComponent("PredicateSpelling.swift"), encoding: .utf8)
        #expect(!neutral.contains("extension SQLiteDialect") && !neutral.contains("extension PostgresDialect"))
    }
}
