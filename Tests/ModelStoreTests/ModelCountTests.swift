import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// `minimumModelCount` and `maximumModelCount` of to-many relationships: `save()` refuses a save
/// that would leave a list outside its limits, as SwiftData's save does, writes nothing and keeps
/// the changes (docs/Runtime.md, "Model counts"). Model: Fixtures/Walkers.model (`Walker.dogs`
/// 1…3 through the dogs' to-one, `parks` at most 2 many-to-many and optional, `trainers` at least 2
/// when not empty, a join table without inverse; `PackLeader` inherits them).
@Suite struct ModelCountTests {
    func dogs(_ names: String...) -> [Hound] { names.map { Hound(name: $0) } }

    @Test("Too many, too few, and an optional list left empty", arguments: StoreKind.allCases)
    func limitsOnInsert(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let context = ModelContext(try store.container(for: Walkers.schema))

        let crowded = Walker(name: "crowded")
        crowded.dogs = dogs("a", "b", "c", "d")
        context.insert(crowded)
        #expect(throws: ModelStoreError.modelCountOutOfRange(entity: "Walker", relationship: "dogs", count: 4, minimumModelCount: 1, maximumModelCount: 3)) {
            try context.save()
        }
        #expect(context.hasChanges, "the changes stay pending")
        #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<Hound>()) == 0, "nothing was written")

        crowded.dogs.removeLast()
        try context.save()
        #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<Hound>()) == 4, "the dog taken off the list stays inserted, with no walker")
        let reader = ModelContext(context.container)
        #expect(try reader.fetch(FetchDescriptor<Walker>()).map(\.dogs.count) == [3])

        // A non-optional list may not be empty under a minimum; an optional one may.
        let idle = PackLeader(name: "idle", packName: "p")
        context.insert(idle)
        #expect(throws: ModelStoreError.modelCountOutOfRange(entity: "Walker", relationship: "dogs", count: 0, minimumModelCount: 1, maximumModelCount: 3)) {
            try context.save()
        }
        idle.dogs = dogs("e")
        try context.save()

        idle.trainers = [Trainer(name: "t1")]
        let error = #expect(throws: ModelStoreError.self) { try context.save() }
        #expect(error?.description == "a Walker would have 1 model in 'trainers', fewer than its minimumModelCount 2: nothing was written, the changes stay pending")
        idle.trainers?.append(Trainer(name: "t2"))
        try context.save()
    }

    @Test("Counts change through the other side, deletes and many-to-many links", arguments: StoreKind.allCases)
    func limitsThroughOtherChanges(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let container = try store.container(for: Walkers.schema)
        let setup = ModelContext(container)
        let ann = Walker(name: "ann")
        ann.dogs = dogs("a1", "a2", "a3")
        let bob = Walker(name: "bob")
        bob.dogs = dogs("b1")
        bob.trainers = [Trainer(name: "t1"), Trainer(name: "t2")]
        let parks = [Park(name: "p1"), Park(name: "p2"), Park(name: "p3")]
        bob.parks = [parks[0], parks[1]]
        setup.insert(ann)
        setup.insert(bob)
        for park in parks { setup.insert(park) }
        try setup.save()

        // A fresh context: nothing loaded. A dog moved from its to-one side fills ann over her maximum.
        let context = ModelContext(container)
        let walkers = try context.fetch(FetchDescriptor<Walker>(sortBy: [SortDescriptor(\.name)]))
        let b1 = try #require(try context.fetch(FetchDescriptor<Hound>(predicate: #Predicate { $0.name == "b1" })).first)
        b1.walker = walkers[0]
        #expect(throws: ModelStoreError.self) { try context.save() }
        context.rollback()

        // Deleting bob's only dog leaves him below his minimum; deleting bob too is fine.
        context.delete(b1)
        #expect(throws: ModelStoreError.modelCountOutOfRange(entity: "Walker", relationship: "dogs", count: 0, minimumModelCount: 1, maximumModelCount: 3)) {
            try context.save()
        }
        context.rollback()

        // A park linked from its side: bob over his maximum of two parks.
        let p3 = try #require(try context.fetch(FetchDescriptor<Park>(predicate: #Predicate { $0.name == "p3" })).first)
        p3.walkers.append(walkers[1])
        #expect(throws: ModelStoreError.modelCountOutOfRange(entity: "Walker", relationship: "parks", count: 3, minimumModelCount: 0, maximumModelCount: 2)) {
            try context.save()
        }
        context.rollback()

        // A trainer deleted: bob keeps one, fewer than two (found through the join table, with
        // nothing of bob's loaded).
        let fresh = ModelContext(container)
        let t1 = try #require(try fresh.fetch(FetchDescriptor<Trainer>(predicate: #Predicate { $0.name == "t1" })).first)
        fresh.delete(t1)
        #expect(throws: ModelStoreError.modelCountOutOfRange(entity: "Walker", relationship: "trainers", count: 1, minimumModelCount: 2, maximumModelCount: 0)) {
            try fresh.save()
        }
        // Both trainers deleted: none is fine for the optional list.
        let t2 = try #require(try fresh.fetch(FetchDescriptor<Trainer>(predicate: #Predicate { $0.name == "t2" })).first)
        fresh.delete(t2)
        try fresh.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trainer>()) == 0)
    }

    /// Random inserts, moves, links and deletes, saved now and then: each save succeeds exactly
    /// when every walker's lists are within their limits in a reference model of plain values
    /// (the store starts valid and only successful saves change it, so that is the rule); a
    /// refused save is rolled back. Then the store's counts are the reference's.
    @Test("Random changes: a save succeeds exactly when every list is within its limits", arguments: StoreKind.allCases)
    func randomChangesAgainstAReference(_ kind: StoreKind) throws {
        let seed = ReliabilityRandom.runSeed()
        var random = ReliabilityRandom(seed: seed)
        let store = try TestStore(kind)
        let container = try store.container(for: Walkers.schema)
        let context = ModelContext(container)

        // The reference: by walker name, dog names, park names, trainer names.
        struct Lists: Equatable { var dogs: Set<String> = [], parks: Set<String> = [], trainers: Set<String> = [] }
        var saved: [String: Lists] = [:]
        var pending: [String: Lists] = [:]
        func valid(_ lists: Lists) -> Bool {
            (1...3).contains(lists.dogs.count) && lists.parks.count <= 2 && (lists.trainers.isEmpty || lists.trainers.count >= 2)
        }
        var serial = 0
        func name(_ prefix: String) -> String { serial += 1; return "\(prefix)\(serial)" }

        func live<T: PersistentModel>(_ type: T.Type) throws -> [T] { try context.fetch(FetchDescriptor<T>()) }
        var saves = (ok: 0, refused: 0)
        for step in 0..<160 {
            let walkers = try live(Walker.self).sorted { $0.name < $1.name }
            switch Int.random(in: 0..<9, using: &random) {
            case 0:  // a new walker with 0…4 new dogs
                let walker = Bool.random(using: &random) ? Walker(name: name("w")) : PackLeader(name: name("w"), packName: "pack")
                walker.dogs = (0..<Int.random(in: 0...4, using: &random)).map { _ in Hound(name: name("d")) }
                context.insert(walker)
                pending[walker.name] = Lists(dogs: Set(walker.dogs.map(\.name)))
            case 1, 2:  // a dog moved (from its to-one), or a new dog
                guard let target = walkers.randomElement(using: &random) else { continue }
                let dog: Hound
                if let existing = try live(Hound.self).randomElement(using: &random), Bool.random(using: &random) {
                    dog = existing
                    for walkerName in pending.keys { pending[walkerName]?.dogs.remove(dog.name) }
                } else {
                    dog = Hound(name: name("d"))
                    context.insert(dog)
                }
                dog.walker = target
                pending[target.name]?.dogs.insert(dog.name)
            case 3:  // a dog deleted
                guard let dog = try live(Hound.self).randomElement(using: &random) else { continue }
                for walkerName in pending.keys { pending[walkerName]?.dogs.remove(dog.name) }
                context.delete(dog)
            case 4:  // a park linked from its side, new or not
                guard let walker = walkers.randomElement(using: &random) else { continue }
                let park = try live(Park.self).randomElement(using: &random).flatMap { Bool.random(using: &random) ? $0 : nil } ?? {
                    let park = Park(name: name("p")); context.insert(park); return park
                }()
                if !park.walkers.contains(where: { $0 === walker }) { park.walkers.append(walker) }
                pending[walker.name]?.parks.insert(park.name)
            case 5:  // a park unlinked or deleted
                guard let park = try live(Park.self).randomElement(using: &random) else { continue }
                for walkerName in pending.keys { pending[walkerName]?.parks.remove(park.name) }
                if Bool.random(using: &random) { context.delete(park) } else { park.walkers = [] }
            case 6:  // trainers added to a walker
                guard let walker = walkers.randomElement(using: &random) else { continue }
                let added = (0..<Int.random(in: 1...2, using: &random)).map { _ in Trainer(name: name("t")) }
                walker.trainers = (walker.trainers ?? []) + added
                pending[walker.name]?.trainers.formUnion(added.map(\.name))
            case 7:  // a trainer deleted (walkers found through the join table)
                guard let trainer = try live(Trainer.self).randomElement(using: &random) else { continue }
                for walkerName in pending.keys { pending[walkerName]?.trainers.remove(trainer.name) }
                context.delete(trainer)
            default:  // a walker deleted (its dogs are nullified)
                guard let walker = walkers.randomElement(using: &random) else { continue }
                pending[walker.name] = nil
                context.delete(walker)
            }
            guard Int.random(in: 0..<3, using: &random) == 0 || step == 159 else { continue }
            let expected = pending.values.allSatisfy(valid)
            do {
                try context.save()
                #expect(expected, "seed \(seed), step \(step): the save succeeded with a list outside its limits: \(pending.filter { !valid($0.value) })")
                saved = pending
                saves.ok += 1
            } catch let error as ModelStoreError {
                guard case .modelCountOutOfRange = error else { throw error }
                #expect(!expected, "seed \(seed), step \(step): refused (\(error)) though every list is within its limits")
                context.rollback()
                pending = saved
                saves.refused += 1
            }
        }
        #expect(saves.ok > 0 && saves.refused > 0, "seed \(seed): both outcomes were met (\(saves))")
        // The store holds the reference's last saved lists.
        let check = ModelContext(container)
        var stored: [String: Lists] = [:]
        for walker in try check.fetch(FetchDescriptor<Walker>()) {
            stored[walker.name] = Lists(dogs: Set(walker.dogs.map(\.name)), parks: Set((walker.parks ?? []).map(\.name)),
                                        trainers: Set((walker.trainers ?? []).map(\.name)))
        }
        #expect(stored == saved, "seed \(seed)")
    }
}
