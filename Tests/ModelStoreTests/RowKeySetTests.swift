import Testing
@testable import ModelStore

/// The row-key set of a save's deletions (`RowKeySet`, an open-addressing table) against `Set` as
/// the oracle: random inserts and lookups over the key patterns rows produce, `Int64.min` (the
/// empty bucket's value) among them.
@Suite("Row key set")
struct RowKeySetTests {
    @Test("Random inserts and lookups give Set's answers", arguments: IdentityMapTests.Keys.allCases)
    func matchesSet(_ keys: IdentityMapTests.Keys) {
        var random = ReliabilityRandom(seed: 23)
        var set = RowKeySet()
        var oracle = Set<Int64>()
        var universe = (0..<3_000).map { keys.key($0, &random) }
        universe.append(Int64.min)
        for step in 0..<20_000 {
            let key = universe[Int(random.next() % UInt64(universe.count))]
            if random.next() % 2 == 0 {
                #expect(set.insert(key) == oracle.insert(key).inserted, "step \(step), key \(key)")
            } else {
                #expect(set.contains(key) == oracle.contains(key), "step \(step), key \(key)")
            }
            if step == 10_000 { set.reserveCapacity(set.count + 5_000) }
        }
        #expect(set.count == oracle.count)
        #expect(set.keys == oracle)
        for key in universe { #expect(set.contains(key) == oracle.contains(key)) }
    }

    @Test("An empty set holds nothing, Int64.min included")
    func emptySet() {
        var set = RowKeySet()
        #expect(set.isEmpty && !set.contains(0) && !set.contains(Int64.min) && set.keys.isEmpty)
        #expect(set.insert(Int64.min) && !set.insert(Int64.min))
        #expect(set.count == 1 && set.contains(Int64.min) && !set.contains(0))
    }
}
