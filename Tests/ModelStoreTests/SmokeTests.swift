import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

@Test func linksSQLite() throws {
    let connection = try SQLiteConnection(path: ":memory:", isFile: false)
    let rows = try connection.rows("SELECT sqlite_version()")
    guard case .text(let version)? = rows.first?.first else { Issue.record("no version"); return }
    #expect(version.hasPrefix("3."))
}
