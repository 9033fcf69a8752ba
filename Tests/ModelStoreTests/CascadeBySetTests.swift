import Foundation
import Testing
@testable import ModelStore

/// Delete rules resolved by set at `save()`: what the context does not hold in memory is read from
/// the store one statement per relationship per wave of deleted keys, deleted by key set, and
/// never made into models; models the context holds follow their in-memory relationships, are
/// marked deleted, and leave the relationships of the models that stay. History and `didSave`
/// list everything deleted either way.
@Suite struct CascadeBySetTests {
    let store: TemporaryStore

    init() throws {
        store = try TemporaryStore()
    }

    /// The identifiers `didSave` lists as deleted for the saves `body` makes on `context`.
    func deletedIdentifiers(of context: ModelContext, _ body: () throws -> Void) throws -> [PersistentIdentifier] {
        let deleted = Locked<[PersistentIdentifier]>([])
        let observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { note in
            let identifiers = note.userInfo?[ModelContext.NotificationKey.deletedIdentifiers.rawValue] as? [PersistentIdentifier] ?? []
            deleted.withLock { $0 += identifiers }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try body()
        return deleted.value
    }

    /// A deletion's entry and a related row are plain bytes, 16 of them: the model, or the row's
    /// entity, unretained (whose spare bits hold the entry's case) and the row's key.
    @Test func entriesAndRowsArePlainBytes() {
        #expect(MemoryLayout<Deletions.Entry>.stride == 16 && _isPOD(Deletions.Entry.self))
        #expect(MemoryLayout<DeletedRow>.stride == 16 && _isPOD(DeletedRow.self))
    }

    /// A wave's related rows, found by owner: against a dictionary of each owner's rows, over
    /// owners given in ascending order and not (as a store that ignored the order would), looked up
    /// in ascending, descending and random order, owners without rows among them.
    @Test(arguments: [false, true]) func relatedRowsAreFoundByOwnerAsADictionaryFindsThem(ordered: Bool) throws {
        let entity = try #require(TripStore.schema.entity(named: "Accommodation"))
        let trip = try #require(TripStore.schema.entity(named: "Trip"))
        var generator = SeededGenerator(seed: ordered ? 7 : 11)
        for round in 0..<40 {
            var related = RelatedRows()
            var expected: [ObjectIdentifier: [Int64: [Int64]]] = [:]
            // Two relationships (any two distinct identities), read one after the other.
            let relationships = [ObjectIdentifier(entity), ObjectIdentifier(trip)]
            for relationship in relationships {
                let count = round == 0 ? 0 : Int.random(in: 1...300, using: &generator)
                var owners = Array(Set((0..<count).map { _ in Int64.random(in: -500...500, using: &generator) }))
                owners.sort()
                if !ordered { owners.shuffle(using: &generator) }
                let place = related.begin(relationship, owners: owners.count)
                var key: Int64 = 0
                for owner in owners {
                    for _ in 0..<Int.random(in: 1...3, using: &generator) {
                        key += 1
                        related.append(DeletedRow(entity: entity, key: key), owner: owner, at: place)
                        expected[relationship, default: [:]][owner, default: []].append(key)
                    }
                }
                related.end(place)
            }
            for relationship in relationships + [ObjectIdentifier(Trip.self)] {
                let asked = Array(-510...510).map(Int64.init)
                for order in [asked, asked.reversed(), asked.shuffled(using: &generator)] {
                    for owner in order {
                        let found = related.rows(relationship, owner: owner).map(\.key)
                        #expect(found == expected[relationship]?[owner] ?? [], "owner \(owner), round \(round)")
                    }
                }
            }
        }
        #expect(RelatedRows.ascendingUnique([3, 1, 2, 3, -4]) == [-4, 1, 2, 3])
        #expect(RelatedRows.ascendingUnique([1, 2, 9]) == [1, 2, 9])
        #expect(RelatedRows.ascendingUnique([]) == [])
    }

    @Test func rowsNotInMemoryAreReadAndDeletedBySetWithHistoryAndNotifications() throws {
        let container = try ModelContainer(for: TripStore.schema, configurations: store.configuration)
        let names = (0..<40).map { "Trip \($0)" }
        try seedTrips(ModelContext(container), names: names, stays: 2)
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let identifiers = Dictionary(uniqueKeysWithValues: trips.map { ($0.persistentModelID, $0.identifier) })
        let stayKeys = try store.rawConnection().rows(#"SELECT "$pk", "trip" FROM "Accommodation" ORDER BY "$pk""#)
        let statements = try QueryCounter(context, prefix: "")
        for trip in trips { context.delete(trip) }
        let deleted = try deletedIdentifiers(of: context) { try context.save() }

        // One query for the stays of all 40 trips, one DELETE per table; no stay became a model.
        let queries = statements.queries.filter { $0.hasPrefix("SELECT") }
        #expect(queries.count == 1 && queries.allSatisfy { $0.contains(#""Accommodation""#) }, "\(queries)")
        // One DELETE per table (SQLite traces it again for each foreign-key action it runs).
        #expect(Set(statements.queries.filter { $0.hasPrefix("DELETE") }).count == 2)
        #expect(context.registeredCount == 0)
        #expect(trips.allSatisfy { $0.isDeleted && $0.modelContext == nil })
        let raw = try store.rawConnection()
        #expect(try raw.rows(#"SELECT count(*) FROM "Trip""#).first?.first == .integer(0))
        #expect(try raw.rows(#"SELECT count(*) FROM "Accommodation""#).first?.first == .integer(0))

        // didSave: the trips in deletion order, then each trip's stays in key order, trip by trip.
        let stayIDs = stayKeys.compactMap { row -> (trip: Int64, id: PersistentIdentifier)? in
            guard case .integer(let key) = row[0], case .integer(let trip) = row[1] else { return nil }
            return (trip, PersistentIdentifier(entityName: "Accommodation", rowID: key, store: container.storeIdentifier))
        }
        let expected = trips.map(\.persistentModelID)
            + trips.flatMap { trip in stayIDs.filter { $0.trip == trip.persistentModelID.rowID }.map(\.id) }
        #expect(deleted.count == 120)
        #expect(deleted.map(\.entityName) == expected.map(\.entityName) && deleted.map(\.rowID) == expected.map(\.rowID))

        // History: the same deletes in the same order, tombstones of the trips as stored.
        let history = try ModelContext(container).allHistory()
        let last = try #require(history.last)
        let recorded = last.changes.map(\.changedPersistentIdentifier)
        #expect(recorded.map(\.entityName) == expected.map(\.entityName) && recorded.map(\.rowID) == expected.map(\.rowID))
        let tripDeletes = last.changes.compactMap { $0.delete(of: Trip.self) }
        #expect(tripDeletes.count == 40)
        for delete in tripDeletes {
            #expect(delete.tombstone[\.identifier] as? UUID == identifiers[delete.changedPersistentIdentifier])
        }
        #expect(last.changes.compactMap { $0.delete(of: Accommodation.self) }.count == 80)
    }

    @Test func tombstonesOfRowsNotInMemoryAreReadFromTheStore() throws {
        let container = try ModelContainer(for: Shop.schema, configurations: store.configuration)
        let setup = ModelContext(container)
        let ann = Customer(name: "Ann", email: "ann@example.com")
        setup.insert(ann)
        for number in [41, 42, 43] as [Int32] {
            let order = Order(number: number, group: "retail", placedAt: Day.at(Int(number)))
            setup.insert(order)
            order.customer = ann
        }
        try setup.save()
        let context = ModelContext(container)
        let customer = try #require(try context.fetch(FetchDescriptor<Customer>()).first)
        context.delete(customer)  // Customer.orders: .cascade; the orders are not in memory
        let deleted = try deletedIdentifiers(of: context) { try context.save() }
        #expect(deleted.map(\.entityName) == ["Customer", "Order", "Order", "Order"])
        #expect(context.registeredCount == 0)
        let changes = try #require(try ModelContext(container).allHistory().last).changes
        #expect(changes.compactMap { $0.delete(of: Order.self)?.tombstone[\.number] as? Int32 } == [41, 42, 43])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Order>()) == 0)
    }

    /// Food > 3 children > 3 each > 3 each (40 categories) and a second tree, Tools.
    func seedTree(_ container: ModelContainer) throws {
        let setup = ModelContext(container)
        let food = Category(name: "Food")
        setup.insert(food)
        var level = [food]
        for depth in 1...3 {
            var next: [Category] = []
            for parent in level {
                for number in 0..<3 {
                    let child = Category(name: "\(parent.name)/\(depth).\(number)")
                    child.parent = parent
                    next.append(child)
                }
            }
            level = next
        }
        let tools = Category(name: "Tools")
        setup.insert(tools)
        let hammer = Category(name: "Hammers")
        hammer.parent = tools
        let apple = Product(sku: "A1", name: "Apple", price: 1)
        apple.category = level[0]
        let pear = Product(sku: "P1", name: "Pear", price: 1)
        pear.category = food.children[1]
        setup.insert(apple)
        setup.insert(pear)
        try setup.save()
    }

    @Test func aDeepTreeCascadesOneQueryPerWave() throws {
        let container = try ModelContainer(for: Shop.schema, configurations: store.configuration)
        try seedTree(container)
        let context = ModelContext(container)
        let categories = try context.fetch(FetchDescriptor<Category>(sortBy: [SortDescriptor(\.name)]))
        let food = try #require(categories.first { $0.name == "Food" })
        let products = try context.fetch(FetchDescriptor<Product>(sortBy: [SortDescriptor(\.sku)]))
        let (apple, pear) = (products[0], products[1])
        // A category held in memory with its products loaded; the apple's category (three levels
        // down) is not in memory.
        let fruit = try #require(categories.first { $0.name == "Food/1.1" })
        #expect(fruit.products.map(\.name) == ["Pear"])
        let counter = try QueryCounter(context)
        counter.reset()
        context.delete(food)
        let deleted = try deletedIdentifiers(of: context) { try context.save() }

        // Waves: Food, its 3 children, 9 grandchildren, 27 great-grandchildren: one query each.
        #expect(counter.queries.filter { $0.contains(#""parent""#) }.count == 4, "\(counter.queries)")
        #expect(deleted.count == 40)
        let check = ModelContext(container)
        #expect(try check.fetch(FetchDescriptor<Category>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Hammers", "Tools"])
        // Every category this context held is deleted, and the products that stay lost their category
        // in memory (the loaded side by the fix-up, the unloaded one by the store) and in the store.
        #expect(categories.filter { $0.name.hasPrefix("Food") }.allSatisfy { $0.isDeleted })
        #expect(!categories.contains { $0.name == "Tools" && $0.isDeleted })
        #expect(pear.category == nil && apple.category == nil)
        let stored = try check.fetch(FetchDescriptor<Product>())
        #expect(stored.count == 2 && stored.allSatisfy { $0.category == nil })
    }

    @Test func modelsHeldInMemoryAreDeletedAndLeaveTheListsOfModelsThatStay() throws {
        let container = try ModelContainer(for: TripStore.schema, configurations: store.configuration)
        let trips = try seedTrips(ModelContext(container), names: ["Paris", "Rome"], stays: 2)
        let parisKey = try #require(trips[0].persistentModelID.rowID)
        let context = ModelContext(container)
        // Stays fetched on their own (the trip's list is not loaded): found by the set query, they
        // are the context's instances.
        let stays = try context.fetch(FetchDescriptor<Accommodation>(sortBy: [SortDescriptor(\.name)]))
        let paris = try #require(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Paris" })).first)
        let rome = try #require(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Rome" })).first)
        #expect(paris.persistentModelID.rowID == parisKey)
        // Unsaved: one of Paris's stays moves to Rome, a new stay joins Paris.
        let moved = try #require(stays.first { $0.name == "Paris stay 0" })
        moved.trip = rome
        let added = Accommodation(name: "Paris stay new")
        added.trip = paris
        #expect(paris.accommodations.map(\.name) == ["Paris stay 1", "Paris stay new"])
        context.delete(paris)
        try context.save()

        let parisStays = stays.filter { $0.name.hasPrefix("Paris") && $0 !== moved }
        #expect(parisStays.count == 1 && parisStays.allSatisfy { $0.isDeleted && $0.modelContext == nil })
        #expect(added.isDeleted && added.persistentModelID.isTemporary, "a new model cascaded before its insert is never written")
        #expect(!moved.isDeleted && moved.trip === rome)
        #expect(rome.accommodations.map(\.name).sorted() == ["Paris stay 0", "Rome stay 0", "Rome stay 1"])
        let check = ModelContext(container)
        #expect(try check.fetch(FetchDescriptor<Accommodation>(sortBy: [SortDescriptor(\.name)])).map(\.name)
                == ["Paris stay 0", "Rome stay 0", "Rome stay 1"])
    }

    @Test func denyReadsAManyToManyJoinTableBySet() throws {
        let container = try ModelContainer(for: Shop.schema, configurations: store.configuration)
        let setup = ModelContext(container)
        let red = Tag(label: "red")
        let green = Tag(label: "green")
        let apple = Product(sku: "A1", name: "Apple", price: 1)
        let pear = Product(sku: "P1", name: "Pear", price: 1)
        apple.tags = [red]
        pear.tags = [red, green]
        setup.insert(apple)
        setup.insert(pear)
        try setup.save()

        // The tag's products are not in memory: the join table says it still has two.
        let context = ModelContext(container)
        let tags = try context.fetch(FetchDescriptor<Tag>(sortBy: [SortDescriptor(\.label)]))
        let tag = try #require(tags.first { $0.label == "red" })
        context.delete(tag)  // Tag.products: .deny
        #expect(throws: ModelStoreError.deleteDenied(entity: "Tag", relationship: "products")) { try context.save() }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Tag>()) == 2)
        #expect(context.hasChanges && tag.isDeleted)
        // With the one product deleted too, the other still has the tag.
        let products = try context.fetch(FetchDescriptor<Product>(sortBy: [SortDescriptor(\.sku)]))
        context.delete(products[0])
        #expect(throws: ModelStoreError.deleteDenied(entity: "Tag", relationship: "products")) { try context.save() }
        // With both deleted the tag goes, and so do their join rows; green stays, and loses pear
        // from its list in memory (Product.tags: .nullify).
        let greenTag = try #require(tags.first { $0.label == "green" })
        #expect(greenTag.products.map(\.name) == ["Pear"])
        context.delete(products[1])
        try context.save()
        #expect(greenTag.products.isEmpty && !greenTag.isDeleted)
        let raw = try store.rawConnection()
        #expect(try raw.rows(#"SELECT count(*) FROM "Tag""#).first?.first == .integer(1))
        #expect(try raw.rows(#"SELECT count(*) FROM "Product.tags""#).first?.first == .integer(0))
    }

    @Test func denyOfARowReachedByCascadeSeesTheWholeSet() throws {
        // Customer.orders cascades; an order's products (no inverse, join table) are .nullify. A
        // cascade through rows never in memory reaches the deny-free end and deletes it all.
        let container = try ModelContainer(for: Shop.schema, configurations: store.configuration)
        let setup = ModelContext(container)
        let ann = Customer(name: "Ann", email: "ann@example.com")
        let apple = Product(sku: "A1", name: "Apple", price: 1)
        setup.insert(ann)
        for number in [1, 2] as [Int32] {
            let order = Order(number: number, group: "retail", placedAt: Day.at(Int(number)))
            order.customer = ann
            order.products = [apple]
            setup.insert(order)
        }
        try setup.save()
        let context = ModelContext(container)
        context.delete(try #require(try context.fetch(FetchDescriptor<Customer>()).first))
        try context.save()
        let check = ModelContext(container)
        #expect(try check.fetchCount(FetchDescriptor<Order>()) == 0)
        #expect(try check.fetchCount(FetchDescriptor<Product>()) == 1)
    }

    @Test func aDeletedModelLeavesLoadedListsThroughAKeyItNeverResolved() throws {
        let container = try ModelContainer(for: Shop.schema, configurations: store.configuration)
        let setup = ModelContext(container)
        let fruit = Category(name: "Fruit")
        fruit.products = [Product(sku: "A1", name: "Apple", price: 1), Product(sku: "P1", name: "Pear", price: 1)]
        setup.insert(fruit)
        try setup.save()
        // A fresh context: the products come from the category's list, each holding its category's key.
        let context = ModelContext(container)
        let category = try #require(try context.fetch(FetchDescriptor<Category>()).first)
        let apple = try #require(category.products.first { $0.name == "Apple" })
        context.delete(apple)  // Product.category: .nullify
        try context.save()
        #expect(category.products.map(\.name) == ["Pear"])
        #expect(apple.isDeleted)
    }
}
