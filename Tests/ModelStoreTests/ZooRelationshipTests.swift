import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// One-to-one relationships, and a subclass with relationships of its own.
@Suite struct ZooRelationshipTests {
    let store: TemporaryStore
    let container: ModelContainer

    init() throws {
        store = try TemporaryStore()
        container = try ModelContainer(for: Zoo.schema, configurations: store.configuration)
    }

    @Test func oneToOneKeepsBothSidesInStep() throws {
        let context = ModelContext(container)
        let ann = Person(name: "Ann")
        let bo = Person(name: "Bo")
        let passport = Passport(number: "P1")
        context.insert(ann)
        context.insert(bo)
        ann.passport = passport
        #expect(passport.holder === ann)
        bo.passport = passport
        #expect(ann.passport == nil)
        #expect(passport.holder === bo)
        try context.save()
        let reader = ModelContext(container)
        let people = try reader.fetch(FetchDescriptor<Person>(sortBy: [SortDescriptor(\.name)]))
        #expect(people[0].passport == nil)
        #expect(people[1].passport?.number == "P1")
        #expect(people[1].passport?.holder === people[1])
        // Nullify from the other side, in memory and in the store.
        let stored = try #require(people[1].passport)
        reader.delete(stored)
        try reader.save()
        #expect(people[1].passport == nil)
        let again = ModelContext(container)
        #expect(try again.fetch(FetchDescriptor<Person>(sortBy: [SortDescriptor(\.name)])).last?.passport == nil)
    }

    @Test func aSubclassHasItsOwnRelationshipsAfterTheBases() throws {
        do {
            let context = ModelContext(container)
            let ann = Person(name: "Ann")
            let rex = Dog(name: "Rex", breed: "Collie")
            let ball = Toy(label: "ball")
            let bone = Toy(label: "bone")
            rex.keeper = ann
            rex.toys = [ball, bone]
            rex.favoriteToy = bone
            #expect(ball.dog === rex && bone.dog === rex)
            #expect(ann.pets.map(\.name) == ["Rex"])
            context.insert(ann)
            context.insert(Animal(name: "Cat"))
            try context.save()
        }
        let context = ModelContext(container)
        let animals = try context.fetch(FetchDescriptor<Animal>(sortBy: [SortDescriptor(\.name)]))
        #expect(animals.map(\.name) == ["Cat", "Rex"])
        let rex = try #require(animals[1] as? Dog)
        #expect(rex.keeper?.name == "Ann")
        #expect(rex.toys.map(\.label).sorted() == ["ball", "bone"])
        #expect(rex.favoriteToy?.label == "bone")
        #expect(rex.keeper?.pets.first === rex)
        // The subclass's cascade.
        context.delete(rex)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Toy>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<Animal>()) == 1)
    }

    @Test func sortingOnASubclassKeyPathOfTheBase() throws {
        let context = ModelContext(container)
        context.insert(Dog(name: "Rex", breed: "Collie"))
        context.insert(Dog(name: "Ace", breed: "Pug"))
        try context.save()
        let dogs = try context.fetch(FetchDescriptor<Dog>(sortBy: [SortDescriptor(\.name)]))
        #expect(dogs.map(\.breed) == ["Pug", "Collie"])
    }
}
