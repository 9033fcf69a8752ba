import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

// MARK: The worked example's plan

/// Minutes read from 1.0.0's text durations ("90 min", "2 h", "1 h 30 min"), kept by `willMigrate`
/// for `didMigrate` (a stage's two closures see different model classes: data crosses in memory).
final class DurationStash: @unchecked Sendable {
    private let lock = NSLock()
    private var minutes: [PersistentIdentifier: Int] = [:]
    private var calls = 0

    func keep(_ value: Int, for id: PersistentIdentifier) { lock.withLock { minutes[id] = value } }
    func take(_ id: PersistentIdentifier) -> Int? { lock.withLock { minutes.removeValue(forKey: id) } }
    func clear() { lock.withLock { minutes = [:] } }

    /// How many times `willMigrate` ran.
    var willMigrateCalls: Int { lock.withLock { calls } }
    func countCall() { lock.withLock { calls += 1 } }

    /// "90 min" → 90, "2 h" → 120, "1 h 30 min" → 90; nil for text that is no duration.
    static func minutes(in text: String) -> Int? {
        let words = text.split(separator: " ")
        guard !words.isEmpty, words.count % 2 == 0 else { return nil }
        var total = 0
        for index in stride(from: 0, to: words.count, by: 2) {
            guard let number = Int(words[index]) else { return nil }
            switch words[index + 1] {
            case "h": total += number * 60
            case "min": total += number
            default: return nil
            }
        }
        return total
    }
}

/// The code of the worked example's custom stage, 1.0.0 → 2.0.0: the text duration becomes minutes.
/// `TripLogMigrationPlan` (1.0.0 → 2.0.0 custom, 2.0.0 → 3.0.0 lightweight: a rename) and its
/// `SchemaV…` enums are generated from Samples/MigrationDemo's versions (Generated/MigrationDemo); it
/// conforms to the generated `TripLogMigrationPlanCustomStages`, whose functions these are.
extension TripLogMigrationPlan {
    static let stash = DurationStash()

    static func willMigrateV1_0_0ToV2_0_0(_ context: ModelContext) throws {
        stash.countCall()
        stash.clear()
        for trip in try context.fetch(FetchDescriptor<SchemaV1_0_0.Trip>()) {
            stash.keep(DurationStash.minutes(in: trip.duration) ?? 0, for: trip.persistentModelID)
        }
    }

    static func didMigrateV1_0_0ToV2_0_0(_ context: ModelContext) throws {
        for trip in try context.fetch(FetchDescriptor<SchemaV2_0_0.Trip>()) {
            trip.duration = stash.take(trip.persistentModelID) ?? 0
        }
        try context.save()
    }

    /// The generated plan's first stage, for the plans below that reuse it.
    static var migrateV1toV2: MigrationStage { stages[0] }
}

/// The worked example without its last version: a current schema newer than the plan.
enum TripMigrationPlanTo2: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV1_0_0.self, SchemaV2_0_0.self] }
    static var stages: [MigrationStage] { [TripLogMigrationPlan.migrateV1toV2] }
}

/// A custom stage that writes, then fails.
enum FailingPlan: SchemaMigrationPlan {
    struct Failure: Error, Equatable {}
    static var schemas: [any VersionedSchema.Type] { [SchemaV1_0_0.self, SchemaV2_0_0.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: SchemaV1_0_0.self, toVersion: SchemaV2_0_0.self,
                 willMigrate: { context in
                     for trip in try context.fetch(FetchDescriptor<SchemaV1_0_0.Trip>()) { context.delete(trip) }
                     try context.save()
                 },
                 didMigrate: { context in
                     context.insert(SchemaV2_0_0.Trip(name: "half done", duration: 1))
                     try context.save()
                     throw Failure()
                 })]
    }
}

/// A step that needs code, declared lightweight.
enum LightweightPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV1_0_0.self, SchemaV2_0_0.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1_0_0.self, toVersion: SchemaV2_0_0.self)] }
}

/// A step that needs code, with no stage at all.
enum NoStagePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV1_0_0.self, SchemaV2_0_0.self] }
    static var stages: [MigrationStage] { [] }
}

enum OutOfOrderPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV2_0_0.self, SchemaV1_0_0.self] }
    static var stages: [MigrationStage] { [] }
}

enum SkippingPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV1_0_0.self, SchemaV2_0_0.self, SchemaV3_0_0.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1_0_0.self, toVersion: SchemaV3_0_0.self)] }
}

/// A custom stage whose `willMigrate` deletes a trip (its accommodations go by cascade).
enum DeletingPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV1_0_0.self, SchemaV2_0_0.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: SchemaV1_0_0.self, toVersion: SchemaV2_0_0.self,
                 willMigrate: { context in
                     try context.delete(model: SchemaV1_0_0.Trip.self, where: #Predicate { $0.name == "Oslo" })
                 },
                 didMigrate: nil)]
    }
}

/// The same step, with a custom stage that leaves the nils.
enum NotFillingPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [MemoV1.self, MemoV2.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: MemoV1.self, toVersion: MemoV2.self, willMigrate: nil, didMigrate: nil)]
    }
}

// MARK: Tests

/// Migration plans: the worked example of docs/Migrations.md (1.0.0 → 2.0.0 → 3.0.0) and every
/// way a plan refuses a store, leaving the file untouched. Serialized: the worked example's stash
/// is shared.
@Suite(.serialized) struct PlanMigrationTests {
    let store: TemporaryStore

    init() throws {
        store = try TemporaryStore()
    }

    /// Writes three trips with text durations and one accommodation under 1.0.0.
    private func writeVersion1(plan: (any SchemaMigrationPlan.Type)? = nil) throws {
        try store.write(Schema(versionedSchema: SchemaV1_0_0.self), plan: plan) { context in
            for (name, duration) in [("Rome", "90 min"), ("Oslo", "2 h"), ("Nice", "1 h 30 min")] {
                let trip = SchemaV1_0_0.Trip(name: name, duration: duration)
                context.insert(trip)
                if name == "Oslo" {
                    let hotel = SchemaV1_0_0.Accommodation(name: "Fjord Hotel")
                    hotel.trip = trip
                    context.insert(hotel)
                }
            }
        }
    }

    private func openVersion3() throws -> ModelContainer {
        try ModelContainer(for: Schema(versionedSchema: SchemaV3_0_0.self), migrationPlan: TripLogMigrationPlan.self,
                           configurations: store.configuration)
    }

    private func expectVersion3Data(_ container: ModelContainer) throws {
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<SchemaV3_0_0.Trip>(sortBy: [SortDescriptor(\.title)]))
        #expect(trips.map(\.title) == ["Nice", "Oslo", "Rome"])
        #expect(trips.map(\.duration) == [90, 120, 90], "the custom stage converted the text durations")
        #expect(trips.map { $0.accommodations.map(\.name) } == [[], ["Fjord Hotel"], []])
        let health = try store.health()
        #expect(health.foreignKeys.isEmpty)
        #expect(health.integrity == ["ok"])
    }

    @Test func theWorkedExampleConvertsTheDurationThenRenames() throws {
        try writeVersion1()
        #expect(try store.storedSchema()?.schemaVersion == nil, "opened without a plan: no version recorded")
        let calls = TripLogMigrationPlan.stash.willMigrateCalls
        let container = try openVersion3()
        #expect(TripLogMigrationPlan.stash.willMigrateCalls == calls + 1)
        try expectVersion3Data(container)
        #expect(try store.storedSchema()?.schemaVersion == Schema.Version(3, 0, 0))
        #expect(container.migrationPlan.map(ObjectIdentifier.init) == ObjectIdentifier(TripLogMigrationPlan.self))
        #expect(try store.tableSQL("Trip").contains("\"duration\" INTEGER NOT NULL"))

        // Reopening: nothing to do.
        let before = try store.fileBytes()
        _ = try openVersion3()
        #expect(try store.fileBytes() == before)
    }

    @Test func aStoreWrittenThroughThePlanRecordsItsVersion() throws {
        try writeVersion1(plan: TripLogMigrationPlan.self)
        #expect(try store.storedSchema()?.schemaVersion == Schema.Version(1, 0, 0))
        try expectVersion3Data(try openVersion3())
    }

    @Test func aStoreAtTheSecondVersionOnlyRunsTheLastStage() throws {
        try store.write(Schema(versionedSchema: SchemaV2_0_0.self), plan: TripLogMigrationPlan.self) { context in
            context.insert(SchemaV2_0_0.Trip(name: "Lima", duration: 30))
        }
        #expect(try store.storedSchema()?.schemaVersion == Schema.Version(2, 0, 0))
        let calls = TripLogMigrationPlan.stash.willMigrateCalls
        let context = ModelContext(try openVersion3())
        #expect(TripLogMigrationPlan.stash.willMigrateCalls == calls, "the custom stage did not run")
        #expect(try context.fetch(FetchDescriptor<SchemaV3_0_0.Trip>()).map { "\($0.title) \($0.duration)" } == ["Lima 30"])
    }

    @Test func aCurrentSchemaNewerThanThePlanIsReachedByInference() throws {
        try writeVersion1(plan: TripMigrationPlanTo2.self)
        let container = try ModelContainer(for: Schema(versionedSchema: SchemaV3_0_0.self), migrationPlan: TripMigrationPlanTo2.self,
                                           configurations: store.configuration)
        try expectVersion3Data(container)
        #expect(try store.storedSchema()?.schemaVersion == nil, "the current schema is no version of the plan")
        let before = try store.fileBytes()
        _ = try ModelContainer(for: Schema(versionedSchema: SchemaV3_0_0.self), migrationPlan: TripMigrationPlanTo2.self,
                               configurations: store.configuration)
        #expect(try store.fileBytes() == before, "an unversioned store equal to the current schema is up to date")
    }

    @Test func aCustomStageDeletingRowsKeepsReferencesSound() throws {
        try writeVersion1()
        let container = try ModelContainer(for: Schema(versionedSchema: SchemaV2_0_0.self), migrationPlan: DeletingPlan.self,
                                           configurations: store.configuration)
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<SchemaV2_0_0.Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Nice", "Rome"])
        #expect(try context.fetchCount(FetchDescriptor<SchemaV2_0_0.Accommodation>()) == 0, "deleted by cascade in willMigrate")
        #expect(try context.fetch(FetchDescriptor<SchemaV2_0_0.Trip>()).map(\.duration) == [0, 0],
                "no didMigrate: the reset column keeps its zero value")
        let health = try store.health()
        #expect(health.foreignKeys.isEmpty)
        #expect(health.integrity == ["ok"])
    }

    // MARK: Refusals: the file untouched

    /// Runs `open`, expecting a `MigrationError`, and checks the file did not change.
    private func expectRefusal(_ open: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) throws -> MigrationError? {
        let before = try store.fileBytes()
        #expect(!store.hasWriteAheadLog, sourceLocation: sourceLocation)
        var caught: MigrationError?
        do {
            try open()
            Issue.record("the store opened", sourceLocation: sourceLocation)
        } catch let error as MigrationError {
            caught = error
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
        #expect(try store.fileBytes() == before, "the file is untouched", sourceLocation: sourceLocation)
        return caught
    }

    @Test func aFailingCustomStageLeavesTheStoreAsItWas() throws {
        try writeVersion1(plan: TripLogMigrationPlan.self)
        let error = try expectRefusal {
            _ = try ModelContainer(for: Schema(versionedSchema: SchemaV2_0_0.self), migrationPlan: FailingPlan.self,
                                   configurations: store.configuration)
        }
        guard case .stageFailed(let from, let to, let underlying)? = error else {
            Issue.record("expected stageFailed, got \(String(describing: error))")
            return
        }
        #expect(from == Schema.Version(1, 0, 0) && to == Schema.Version(2, 0, 0))
        #expect(underlying as? FailingPlan.Failure == FailingPlan.Failure())
        #expect(error?.description.contains("1.0.0 → 2.0.0") == true)
        // Still version 1 with its data: the worked example's plan migrates it.
        try expectVersion3Data(try openVersion3())
    }

    @Test func aStoreNewerThanTheAppFailsNamingBothVersions() throws {
        try store.write(Schema(versionedSchema: SchemaV3_0_0.self), plan: TripLogMigrationPlan.self) { _ in }
        let error = try expectRefusal {
            _ = try ModelContainer(for: Schema(versionedSchema: SchemaV2_0_0.self), migrationPlan: TripMigrationPlanTo2.self,
                                   configurations: store.configuration)
        }
        guard case .storeIsNewer(let stored, let newest)? = error else {
            Issue.record("expected storeIsNewer, got \(String(describing: error))")
            return
        }
        #expect(stored == Schema.Version(3, 0, 0) && newest == Schema.Version(2, 0, 0))
        #expect(error?.description == "the store holds schema version 3.0.0, newer than the newest version this app knows (2.0.0)")
        // The plan knows 3.0.0, but the app's schema is 2.0.0.
        guard case .storeIsNewer(let stored2, let newest2)? = try expectRefusal({
            _ = try ModelContainer(for: Schema(versionedSchema: SchemaV2_0_0.self), migrationPlan: TripLogMigrationPlan.self,
                                   configurations: store.configuration)
        }) else {
            Issue.record("expected storeIsNewer")
            return
        }
        #expect(stored2 == Schema.Version(3, 0, 0) && newest2 == Schema.Version(2, 0, 0))
    }

    @Test func anUnknownHistoryFails() throws {
        try writeVersion1(plan: TripLogMigrationPlan.self)
        // A version the plan does not list, between two it does.
        var stored = try #require(try store.storedSchema())
        stored.schemaVersion = Schema.Version(1, 5, 0)
        try store.replaceStoredSchema(json: String(decoding: try JSONEncoder().encode(stored), as: UTF8.self))
        guard case .unknownHistory(let version, let known)? = try expectRefusal({ _ = try openVersion3() }) else {
            Issue.record("expected unknownHistory")
            return
        }
        #expect(version == Schema.Version(1, 5, 0))
        #expect(known == [Schema.Version(1, 0, 0), Schema.Version(2, 0, 0), Schema.Version(3, 0, 0)])

        // No version, and a schema that is no version of the plan.
        let other = try TemporaryStore()
        try other.write(Schema([NoteV1.self])) { $0.insert(NoteV1(title: "x")) }
        let before = try other.fileBytes()
        #expect(throws: MigrationError.self) {
            _ = try ModelContainer(for: Schema(versionedSchema: SchemaV3_0_0.self), migrationPlan: TripLogMigrationPlan.self,
                                   configurations: other.configuration)
        }
        #expect(try other.fileBytes() == before)
    }

    @Test func aStoreThatIsNotTheVersionItRecordsFails() throws {
        try writeVersion1(plan: TripLogMigrationPlan.self)
        var stored = try #require(try store.storedSchema())
        stored.schemaVersion = Schema.Version(2, 0, 0)
        try store.replaceStoredSchema(json: String(decoding: try JSONEncoder().encode(stored), as: UTF8.self))
        guard case .storeDoesNotMatchVersion(let version, let differences)? = try expectRefusal({ _ = try openVersion3() }) else {
            Issue.record("expected storeDoesNotMatchVersion")
            return
        }
        #expect(version == Schema.Version(2, 0, 0))
        #expect(differences == ["Trip.duration: differs"])
    }

    @Test func aStepThatNeedsCodeWithoutACustomStageFails() throws {
        for plan in [LightweightPlan.self, NoStagePlan.self] as [any SchemaMigrationPlan.Type] {
            try writeVersion1(plan: plan)
            let error = try expectRefusal {
                _ = try ModelContainer(for: Schema(versionedSchema: SchemaV2_0_0.self), migrationPlan: plan,
                                       configurations: store.configuration)
            }
            guard case .notInferable(let from, let to, let changes)? = error else {
                Issue.record("expected notInferable, got \(String(describing: error))")
                return
            }
            #expect(from == Schema.Version(1, 0, 0) && to == Schema.Version(2, 0, 0))
            #expect(changes == ["Trip.duration: type String → Int"])
            #expect(error?.description == "the migration 1.0.0 → 2.0.0 cannot be inferred (declare a custom stage): Trip.duration: type String → Int")
        }
    }

    @Test func anInvalidPlanIsRefused() throws {
        try writeVersion1()
        for plan in [OutOfOrderPlan.self, SkippingPlan.self] as [any SchemaMigrationPlan.Type] {
            guard case .invalidPlan(let message)? = try expectRefusal({
                _ = try ModelContainer(for: Schema(versionedSchema: SchemaV3_0_0.self), migrationPlan: plan,
                                       configurations: store.configuration)
            }) else {
                Issue.record("expected invalidPlan for \(plan)")
                continue
            }
            #expect(message.contains("1.0.0"))
        }
    }

    @Test func aPropertyThatBecomesRequiredNeedsAValueInEveryRowBeforeTheChange() throws {
        try store.write(Schema(versionedSchema: MemoV1.self)) { context in
            context.insert(MemoV1.Memo(text: "kept"))
            context.insert(MemoV1.Memo(text: nil))
        }
        let error = try expectRefusal {
            _ = try ModelContainer(for: Schema(versionedSchema: MemoV2.self), migrationPlan: NotFillingPlan.self,
                                   configurations: store.configuration)
        }
        guard case .stageFailed(_, _, let underlying)? = error else {
            Issue.record("expected stageFailed, got \(String(describing: error))")
            return
        }
        #expect(underlying as? ModelStoreError == .incompatibleSchema(
            ["Memo.text: 1 stored row has no value, and the property becomes required without a default value"]))

        let container = try ModelContainer(for: Schema(versionedSchema: MemoV2.self), migrationPlan: MemoStoreMigrationPlan.self,
                                           configurations: store.configuration)
        #expect(try ModelContext(container).fetch(FetchDescriptor<MemoV2.Memo>(sortBy: [SortDescriptor(\.text)])).map(\.text)
                == ["(empty)", "kept"])
        #expect(try store.tableSQL("Memo").contains("\"text\" TEXT NOT NULL"))
    }

    @Test func versionsParseCompareAndEncode() throws {
        #expect(Schema.Version("1") == Schema.Version(1, 0, 0))
        #expect(Schema.Version("2.10") == Schema.Version(2, 10, 0))
        #expect(Schema.Version("1.2.3")?.description == "1.2.3")
        for bad in ["", "1.", "a.b", "1.2.3.4", "-1", "1..2", " 1"] { #expect(Schema.Version(bad) == nil, "\(bad)") }
        #expect(Schema.Version(1, 10, 0) > Schema.Version(1, 9, 9))
        #expect(Schema.Version(2, 0, 0) > Schema.Version(1, 99, 99))
        let json = try JSONEncoder().encode([Schema.Version(1, 2, 3)])
        #expect(String(decoding: json, as: UTF8.self) == #"["1.2.3"]"#)
        #expect(try JSONDecoder().decode([Schema.Version].self, from: json) == [Schema.Version(1, 2, 3)])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Schema.Version].self, from: Data(#"["x"]"#.utf8)) }
    }

    @Test func theStoredSchemaOfVersion1() throws {
        try writeVersion1(plan: TripLogMigrationPlan.self)
        guard case .text(let json)? = try store.rawConnection().rows("SELECT value FROM \"$metadata\" WHERE key = 'schema'").first?.first else {
            Issue.record("no description")
            return
        }
        // The store holds it on one line, keys sorted; the golden file pretty-prints it for review.
        let stored = try JSONDecoder().decode(StoredSchema.self, from: Data(json.utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(stored), as: UTF8.self) == json)
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try expectGolden(String(decoding: try encoder.encode(stored), as: UTF8.self) + "\n", named: "TripV1.stored-schema.json")
    }
}
