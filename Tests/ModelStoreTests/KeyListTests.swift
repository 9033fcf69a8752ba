import Foundation
import Testing
@testable import ModelStore

/// Row-key sets in chunks (`KeyList`): every store finds exactly the rows of a key set of each size
/// around a chunk's, as the general spelling (a placeholder per key) does, in the store's own
/// spelling (PostgreSQL: one `bigint[]` parameter).
@Suite struct KeyListTests {
    @Test(arguments: StoreKind.allCases, [0, 1, KeyList.chunk - 1, KeyList.chunk, KeyList.chunk + 1])
    func membershipFindsExactlyTheKeysAsThePlaceholderListDoes(_ kind: StoreKind, count: Int) throws {
        let fixture = try StoreFixture(kind, TripStore.schema, recordsHistory: false)
        let connection = try fixture.store.rawConnection(through: fixture.container)
        try connection.execute(#"CREATE TABLE "numbers" ("n" bigint PRIMARY KEY)"#)
        // 1…2·count+3 stored; the set is every other one, from the top: rows between the keys,
        // and past them, must not match.
        try connection.run(#"WITH RECURSIVE "s"("x") AS (SELECT 1 UNION ALL SELECT "x" + 1 FROM "s" WHERE "x" < ?) INSERT INTO "numbers" SELECT "x" FROM "s""#,
                           [.integer(Int64(2 * count + 3))])
        let keys = (0..<count).map { Int64(2 * count - 2 * $0) }
        let chunks = KeyList.chunks(keys)
        #expect(chunks.count == (count + KeyList.chunk - 1) / KeyList.chunk)
        #expect(chunks.allSatisfy { !$0.isEmpty && $0.count <= KeyList.chunk })
        #expect(Array(chunks.joined()) == keys)
        func found(_ filter: (ArraySlice<Int64>) -> SQLFragment) throws -> [Int64] {
            var found: [Int64] = []
            for chunk in chunks {
                let condition = filter(chunk)
                for row in try connection.rows(#"SELECT "n" FROM "numbers" WHERE "# + condition.sql, condition.bindings) {
                    if case .integer(let key)? = row.first { found.append(key) }
                }
            }
            return found.sorted()
        }
        let spelled = try found { KeyList.membership(#""n""#, $0, connection.dialect) }
        #expect(spelled == keys.sorted())
        #expect(spelled == (try found { KeyList.placeholderList(#""n""#, $0) }))
        // PostgreSQL sends a chunk as one parameter; SQLite as a power of two of them.
        for chunk in chunks {
            let bindings = KeyList.membership(#""n""#, chunk, connection.dialect).bindings
            if kind == .postgresql {
                #expect(bindings.count == 1)
            } else {
                #expect(bindings.count.nonzeroBitCount == 1 && bindings.count >= chunk.count && bindings.count < 2 * chunk.count)
            }
        }
    }
}
