import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The context's identity map (`IdentityMap`, an open-addressing table) against `Dictionary` as
/// the oracle: random inserts, replacements, removals and lookups over the key patterns rows
/// produce (consecutive, strided as a pattern of deletions leaves them, negative, extreme, random).
@Suite("Identity map")
struct IdentityMapTests {
    enum Keys: String, CaseIterable {
        case consecutive, strided, negative, extreme, random

        func key(_ index: Int, _ random: inout ReliabilityRandom) -> Int64 {
            switch self {
            case .consecutive: return Int64(index + 1)
            case .strided: return Int64(index) * 1_048_576
            case .negative: return -Int64(index) * 3
            case .extreme: return index % 2 == 0 ? Int64.max - Int64(index) : Int64.min + Int64(index)
            case .random: return Int64(bitPattern: random.next())
            }
        }
    }

    @Test("Random operations give Dictionary's answers", arguments: Keys.allCases)
    func matchesDictionary(_ keys: Keys) {
        var random = ReliabilityRandom(seed: 17)
        var map = IdentityMap()
        var oracle: [Int64: ModelObject] = [:]
        let universe = (0..<3_000).map { keys.key($0, &random) }
        for step in 0..<40_000 {
            let key = universe[Int(random.next() % UInt64(universe.count))]
            switch random.next() % 4 {
            case 0, 1:
                let object = ModelObject()
                map[key] = object
                oracle[key] = object
            case 2:
                map[key] = nil
                oracle[key] = nil
            default:
                #expect(map[key] === oracle[key], "step \(step), key \(key)")
            }
            if step % 5_000 == 0 { #expect(map.count == oracle.count) }
        }
        #expect(map.count == oracle.count)
        for key in universe { #expect(map[key] === oracle[key]) }
        #expect(Set(map.values.map(ObjectIdentifier.init)) == Set(oracle.values.map(ObjectIdentifier.init)))
    }

    @Test("Filling, then emptying in another order, leaves every remaining key reachable")
    func removalKeepsProbeChains() {
        var map = IdentityMap()
        map.reserveCapacity(10_000)
        let objects = (0..<10_000).map { _ in ModelObject() }
        for (index, object) in objects.enumerated() { map[Int64(index)] = object }
        #expect(map.count == 10_000)
        for index in stride(from: 0, to: 10_000, by: 3) { map[Int64(index)] = nil }
        for index in 0..<10_000 {
            #expect(map[Int64(index)] === (index % 3 == 0 ? nil : objects[index]))
        }
        for index in 0..<10_000 { map[Int64(index)] = nil }
        #expect(map.isEmpty && map.values.isEmpty)
    }

    @Test("A saved, unchanged model is released only when the map holds the last reference")
    func releaseIfUnreferenced() {
        var map = IdentityMap()
        var held: ModelObject? = ModelObject()
        held?.status = .persisted
        map[1] = held
        map[2] = {
            let object = ModelObject()
            object.status = .persisted
            return object
        }()
        map[3] = ModelObject()  // detached: never released
        #expect(map.releaseIfUnreferenced(1) == .held)
        #expect(map.releaseIfUnreferenced(2) == .released)
        #expect(map.releaseIfUnreferenced(3) == .kept)
        #expect(map.releaseIfUnreferenced(4) == .kept)
        held = nil
        #expect(map.releaseIfUnreferenced(1) == .released)
        #expect(map.count == 1 && map[2] == nil && map[1] == nil && map[3] != nil)
    }

    @Test("Releasing many keys at once leaves what Dictionary says, and lets the released models go", arguments: Keys.allCases)
    func releasingManyKeysMatchesDictionary(_ keys: Keys) {
        var random = ReliabilityRandom(seed: 29)
        for round in 0..<20 {
            var map = IdentityMap()
            var oracle: [Int64: ModelObject] = [:]
            var outside: [ModelObject] = []          // held by something else than the map
            let universe = (0..<1_500).map { keys.key($0 + round * 1_500, &random) }
            for key in universe where random.next() % 4 != 0 {
                let object = ModelObject()
                switch random.next() % 8 {
                case 0: break                                        // not saved: kept
                case 1: object.status = .persisted; object.relationshipsChanged = true   // changed: kept
                case 2: object.status = .persisted; outside.append(object)             // held
                default: object.status = .persisted                                    // released
                }
                map[key] = object
                oracle[key] = object
            }
            let asked = universe.filter { _ in random.next() % 3 != 0 } + [keys.key(9_999_999, &random)]
            var expectedHeld: [Int64] = []
            var gone: [Int64] = []
            for key in asked {
                guard let object = oracle[key], object.status == .persisted, !object.relationshipsChanged else { continue }
                if outside.contains(where: { $0 === object }) { expectedHeld.append(key) } else { gone.append(key) }
            }
            var weak: [Weak] = gone.map { Weak(object: oracle[$0]) }
            for key in gone { oracle[key] = nil }
            var held: [Int64] = []
            let released = map.releaseUnreferenced(asked, held: &held)
            #expect(released == !gone.isEmpty, "round \(round)")
            #expect(held == expectedHeld, "round \(round)")
            #expect(map.count == oracle.count, "round \(round)")
            for key in universe { #expect(map[key] === oracle[key], "round \(round), key \(key)") }
            #expect(weak.allSatisfy { $0.object == nil }, "the released models went")
            weak = []
        }
    }

    struct Weak {
        weak var object: ModelObject?
    }
}
