import CSQLite
import Foundation

/// The check a store file passes before ModelStore writes anything to it (issue #20): it is
/// missing or empty (ModelStore creates its store there), or it is a store ModelStore wrote (it
/// has ModelStore's metadata table). Another application's database, or a file that is not a
/// SQLite database, is refused untouched: no WAL switch, no table, not one byte changed.
enum SQLiteStoreFile {
    /// `SQLITE_READONLY_ROLLBACK` (`SQLITE_READONLY | 3 << 8`, a macro Swift does not import): the
    /// file has a hot journal that a connection opened read-only cannot roll back.
    private static let readOnlyRollback: Int32 = SQLITE_READONLY | 3 << 8

    /// Checks the file at `path` through a read-only connection, closed before returning.
    ///
    /// A file a process was killed writing in rollback-journal mode (another application's
    /// database, or a new store killed while switching to WAL) has a hot journal, which a read-only
    /// connection cannot roll back (`SQLITE_READONLY_ROLLBACK`). The check then reads it once
    /// through a read-write connection: SQLite rolls the journal back on that first read, as any
    /// SQLite connection does, which gives the file its last committed state; nothing of
    /// ModelStore's is written (docs/Reliability.md, "What is guaranteed").
    ///
    /// - Throws: `ModelStoreError.notAModelStore` naming what the file is; `SQLiteError` when it
    ///   cannot be read (permissions, a lock held past `busyTimeoutMilliseconds`).
    static func checkEmptyOrModelStore(path: String, busyTimeoutMilliseconds: Int32 = 5000) throws {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber,
              size.intValue > 0 else { return }  // missing or empty: ModelStore makes its store there
        let tables: [String]
        do {
            tables = try tableNames(path: path, access: SQLITE_OPEN_READONLY, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } catch let error as SQLiteError where error.extendedCode == readOnlyRollback {
            tables = try tableNames(path: path, access: SQLITE_OPEN_READWRITE, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        }
        if tables.isEmpty || tables.contains(StorageNames.metadataTable) { return }
        let shown = tables.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
        throw ModelStoreError.notAModelStore(
            path: path, reason: "it is a SQLite database with tables of its own (\(shown)) and no ModelStore metadata")
    }

    /// The names of the tables in the file at `path`, read through a connection opened with
    /// `access` (never `SQLITE_OPEN_CREATE`) and closed before returning, without a checkpoint.
    ///
    /// - Throws: `ModelStoreError.notAModelStore` for a file that is not a SQLite database;
    ///   `SQLiteError` (with its extended code) when it cannot be read.
    private static func tableNames(path: String, access: Int32, busyTimeoutMilliseconds: Int32) throws -> [String] {
        var pointer: OpaquePointer?
        let result = sqlite3_open_v2(path, &pointer, access | SQLITE_OPEN_NOMUTEX, nil)
        defer { if let pointer { sqlite3_close_v2(pointer) } }
        guard result == SQLITE_OK, let handle = pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            throw SQLiteError(code: result & 0xFF, extendedCode: result, message: message, sql: nil)
        }
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        _ = modelstore_sqlite3_no_checkpoint_on_close(handle)  // a check: never a write, even on close
        let sql = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        var statement: OpaquePointer?
        var code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        var tables: [String] = []
        while code == SQLITE_OK, let statement {
            let step = sqlite3_step(statement)
            if step == SQLITE_ROW {
                tables.append(String(cString: sqlite3_column_text(statement, 0)))
            } else {
                if step != SQLITE_DONE { code = step }
                break
            }
        }
        if code & 0xFF == SQLITE_NOTADB {
            throw ModelStoreError.notAModelStore(path: path, reason: "it is not a SQLite database")
        }
        guard code == SQLITE_OK else {
            throw SQLiteError(code: code & 0xFF, extendedCode: sqlite3_extended_errcode(handle),
                              message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
        return tables
    }
}
