import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

// Structs and an enum whose cases carry values, through a history (Tests/ModelGenKitTests/History/
// Fixtures/Composite, generated into Generated/Histories/Composite): 91.0.0 → 92.0.0 is inferred
// (fields added optional, removed, widened; a struct and a nested struct made optional; a property
// added), 92.0.0 → 93.0.0 custom (a required field added, a field's type changed).

typealias CompositeV1 = SchemaV91_0_0
typealias CompositeV2 = SchemaV92_0_0
typealias CompositeV3 = SchemaV93_0_0

/// Opening hours read under 92.0.0 by `willMigrate`, for `didMigrate` (whose `opens` is refilled).
final class OpeningStash: @unchecked Sendable {
    private let lock = NSLock()
    private var opens: [PersistentIdentifier: Int] = [:]

    func keep(_ value: Int, for id: PersistentIdentifier) { lock.withLock { opens[id] = value } }
    func take(_ id: PersistentIdentifier) -> Int? { lock.withLock { opens.removeValue(forKey: id) } }
}

/// The generated plan's custom stage: hours become fractional, every address gets a country.
extension CompositeStoreMigrationPlan {
    static let stash = OpeningStash()

    static func willMigrateV92_0_0ToV93_0_0(_ context: ModelContext) throws {
        for place in try context.fetch(FetchDescriptor<CompositeV2.Place>()) {
            if let hours = place.hours { stash.keep(hours.opens, for: place.persistentModelID) }
        }
    }

    static func didMigrateV92_0_0ToV93_0_0(_ context: ModelContext) throws {
        for place in try context.fetch(FetchDescriptor<CompositeV3.Place>()) {
            place.address.country = "France"
            if let opens = stash.take(place.persistentModelID) { place.hours?.opens = Double(opens) + 0.5 }
        }
        try context.save()
    }
}

/// 91.0.0 → 92.0.0 only.
enum CompositePlanTo2: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [CompositeV1.self, CompositeV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: CompositeV1.self, toVersion: CompositeV2.self)] }
}

/// A store written under 91.0.0 with structs in every form, migrated: the values of the struct
/// fields survive the table's rebuild, new fields are nil, structs made optional are present.
/// One test at a time: the plan's stages share `CompositeStoreMigrationPlan.stash`, keyed by
/// identifiers (`Place/1`) that every store has.
@Suite(.serialized) struct CompositeMigrationTests {
    let store: TestStore

    /// A fresh store of `kind`; each test runs on a SQLite file and on PostgreSQL.
    init(_ kind: StoreKind) throws {
        store = try TestStore(kind)
    }

    /// Two places under 91.0.0: one with an entrance, corners and rain; one with none of them.
    func writeVersion1() throws {
        try store.write(Schema(versionedSchema: CompositeV1.self)) { context in
            context.insert(CompositeV1.Place(
                name: "Library",
                address: .init(street: "1 Rue Haute", city: "Lyon", floor: 3, position: .init(x: 4.8, y: 45.7)),
                entrance: .init(x: 1, y: 2), corners: [.init(x: 0, y: 0), .init(x: 10, y: 5)],
                hours: .init(opens: 9, closes: 18), weather: .rain(millimetres: 2.5)))
            context.insert(CompositeV1.Place(
                name: "Kiosk",
                address: .init(street: "Quai Sud", city: "Nantes", floor: -1, position: .init(x: -1.5, y: 47.2)),
                hours: .init(opens: 7, closes: 12)))
        }
    }

    @Test(arguments: StoreKind.persistent) static func anInferredStepKeepsTheStructs(_ kind: StoreKind) throws {
        try Self(kind).anInferredStepKeepsTheStructs()
    }

    func anInferredStepKeepsTheStructs() throws {
        try writeVersion1()
        let container = try ModelContainer(for: Schema(versionedSchema: CompositeV2.self), migrationPlan: CompositePlanTo2.self,
                                           configurations: store.configuration)
        let places = try ModelContext(container).fetch(FetchDescriptor<CompositeV2.Place>(sortBy: [SortDescriptor(\.name)]))
        #expect(places.map(\.name) == ["Kiosk", "Library"])
        let kiosk = places[0], library = places[1]

        #expect(library.address == .init(street: "1 Rue Haute", city: "Lyon", floor: 3, position: .init(x: 4.8, y: 45.7, label: nil), postcode: nil))
        #expect(library.entrance == .init(x: 1, y: 2, label: nil))
        #expect(library.corners == [.init(x: 0, y: 0), .init(x: 10, y: 5)])
        #expect(library.hours == .init(opens: 9, note: nil))
        #expect(library.weather == .rain(millimetres: 2.5))
        #expect(library.backEntrance == nil)

        #expect(kiosk.address == .init(street: "Quai Sud", city: "Nantes", floor: -1, position: .init(x: -1.5, y: 47.2), postcode: nil))
        #expect(kiosk.entrance == nil)
        #expect(kiosk.corners == [])
        #expect(kiosk.hours == .init(opens: 7, note: nil))
        #expect(kiosk.weather == .clear)

        // The fields are columns still: a predicate on a nested field runs in SQL.
        let lyon = try ModelContext(container).fetch(FetchDescriptor<CompositeV2.Place>(predicate: #Predicate { $0.address.city == "Lyon" }))
        #expect(lyon.map(\.name) == ["Library"])
    }

    /// The retyped required field `hours.opens` of the optional `hours` is refilled with 0.0 where
    /// `hours` is present, so `didMigrate` can read those rows (PostgreSQL refuses a NULL there).
    @Test(arguments: StoreKind.persistent) static func theGeneratedPlanRunsItsCustomStage(_ kind: StoreKind) throws {
        try Self(kind).theGeneratedPlanRunsItsCustomStage()
    }

    func theGeneratedPlanRunsItsCustomStage() throws {
        try writeVersion1()
        let container = try ModelContainer(for: Schema(versionedSchema: CompositeV3.self), migrationPlan: CompositeStoreMigrationPlan.self,
                                           configurations: store.configuration)
        let places = try ModelContext(container).fetch(FetchDescriptor<CompositeV3.Place>(sortBy: [SortDescriptor(\.name)]))
        #expect(places.map(\.name) == ["Kiosk", "Library"])
        #expect(places.map(\.address) == [
            .init(street: "Quai Sud", city: "Nantes", floor: -1, position: .init(x: -1.5, y: 47.2), postcode: nil, country: "France"),
            .init(street: "1 Rue Haute", city: "Lyon", floor: 3, position: .init(x: 4.8, y: 45.7), postcode: nil, country: "France"),
        ])
        #expect(places.map(\.hours) == [.init(opens: 7.5), .init(opens: 9.5)])
        #expect(places[1].corners == [.init(x: 0, y: 0), .init(x: 10, y: 5)])
        #expect(places[1].entrance == .init(x: 1, y: 2))
        #expect(places[1].weather == .rain(millimetres: 2.5))
    }

    /// A place whose optional `hours` is nil keeps it nil through the step that refills the required
    /// field `hours.opens`: its presence and field columns stay NULL; a present `hours` gets its value.
    @Test(arguments: StoreKind.persistent) static func aNilOptionalStructStaysNilWhenItsFieldIsRefilled(_ kind: StoreKind) throws {
        try Self(kind).aNilOptionalStructStaysNilWhenItsFieldIsRefilled()
    }

    func aNilOptionalStructStaysNilWhenItsFieldIsRefilled() throws {
        try store.write(Schema(versionedSchema: CompositeV2.self)) { context in
            context.insert(CompositeV2.Place(name: "Kiosk", address: .init(street: "Quai Sud", city: "Nantes", floor: -1)))
            context.insert(CompositeV2.Place(name: "Library", address: .init(street: "1 Rue Haute", city: "Lyon", floor: 3),
                                             hours: .init(opens: 9)))
        }
        let container = try ModelContainer(for: Schema(versionedSchema: CompositeV3.self), migrationPlan: CompositeStoreMigrationPlan.self,
                                           configurations: store.configuration)
        let places = try ModelContext(container).fetch(FetchDescriptor<CompositeV3.Place>(sortBy: [SortDescriptor(\.name)]))
        #expect(places.map(\.name) == ["Kiosk", "Library"])
        #expect(places.map(\.hours) == [nil, .init(opens: 9.5)])

        let rows = try store.rawConnection(through: container).rows(
            "SELECT \"name\", \"hours\", \"hours.opens\", \"hours.note\" FROM \"Place\" ORDER BY \"name\"")
        #expect(rows.count == 2)
        guard rows.count == 2 else { return }
        #expect(rows[0].dropFirst().map(\.isNull) == [true, true, true], "Kiosk: \(rows[0])")
        #expect(!rows[1][1].isNull)
        #expect(rows[1][2] == .real(9.5))
        #expect(rows[1][3].isNull)
    }

    /// Without a plan, the custom step is refused, naming the struct fields that need code.
    @Test(arguments: StoreKind.persistent) static func theCustomStepIsRefusedWithoutItsCode(_ kind: StoreKind) throws {
        try Self(kind).theCustomStepIsRefusedWithoutItsCode()
    }

    func theCustomStepIsRefusedWithoutItsCode() throws {
        try store.write(Schema(versionedSchema: CompositeV2.self)) { context in
            context.insert(CompositeV2.Place(name: "Kiosk", address: .init(street: "Quai Sud", city: "Nantes", floor: 0)))
        }
        let messages = incompatibilities {
            _ = try ModelContainer(for: Schema(versionedSchema: CompositeV3.self), configurations: store.configuration)
        }
        #expect(messages.sorted() == ["Place.address: new required field country", "Place.hours: field opens type Int → Double"])
    }
}
