import Testing
@testable import ModelStore

@Test func linksSQLite() {
    #expect(sqliteLibraryVersion.hasPrefix("3."))
}
