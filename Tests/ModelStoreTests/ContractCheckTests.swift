import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

// Two classes that break the contract on purpose (generated code cannot): their numbers disagree with
// the metadata's order. Only their metadata matters; `Schema` refuses them before any row is read.

/// `name` is attribute 1 of the class, but the class numbers it 0.
final class MisnumberedNote: ModelObject, PersistentModel {
    private static let _$title = AttributeIndex(0, "title")
    private static let _$name = AttributeIndex(0, "name")
    var id: PersistentIdentifier { persistentModelID }
    private var _title = ""
    private var _name = ""
    var title: String { _title }
    var name: String { _name }
    override init() { super.init() }
    required init(from row: RowDecoder) throws { try super.init(from: row) }
    private static let _$schemaMetadata = EntityMetadata(name: "MisnumberedNote", base: nil, subclasses: [], properties: [
        .attribute(_$title, \MisnumberedNote.title),
        .attribute(_$name, \MisnumberedNote.name),
    ])
    override class var schemaMetadata: EntityMetadata { _$schemaMetadata }
}

/// A relationship numbered 3 where it is the class's first.
final class MisnumberedFolder: ModelObject, PersistentModel {
    private static let _$notes = RelationshipIndex(3, "notes")
    var id: PersistentIdentifier { persistentModelID }
    var notes: [MisnumberedFolder] {
        get { _$toMany(MisnumberedFolder._$notes, \.notes) }
        set { _$setToMany(newValue, MisnumberedFolder._$notes) }
    }
    override init() { super.init() }
    required init(from row: RowDecoder) throws { try super.init(from: row) }
    private static let _$schemaMetadata = EntityMetadata(name: "MisnumberedFolder", base: nil, subclasses: [], properties: [
        .toMany(_$notes, \MisnumberedFolder.notes),
    ])
    override class var schemaMetadata: EntityMetadata { _$schemaMetadata }
}

@Suite struct ContractCheckTests {
    @Test("An AttributeIndex that disagrees with the metadata is an invalid schema naming class and property")
    func misnumberedAttribute() {
        #expect {
            _ = try ModelContainer(for: MisnumberedNote.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        } throws: { error in
            guard case .invalidSchema(let message)? = error as? ModelStoreError else { return false }
            return message.contains("MisnumberedNote.name") && message.contains("AttributeIndex is 0")
                && message.contains("number 1") && message.contains("regenerate")
        }
    }

    @Test("A RelationshipIndex that disagrees with the metadata is an invalid schema naming class and property")
    func misnumberedRelationship() {
        #expect {
            _ = try ModelContainer(for: MisnumberedFolder.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        } throws: { error in
            guard case .invalidSchema(let message)? = error as? ModelStoreError else { return false }
            return message.contains("MisnumberedFolder.notes") && message.contains("RelationshipIndex is 3") && message.contains("number 0")
        }
    }

    @Test("Generated schemas pass the check, subclasses numbered after their base")
    func generatedSchemasAreConsistent() throws {
        for schema in [TripStore.schema, Shop.schema, Zoo.schema, SpecAllTypesStore.schema] {
            #expect(schema.problems.isEmpty, "\(schema.problems)")
        }
        let business = try #require(TripStore.schema.entity(named: "BusinessTrip"))
        #expect(business.storedAttributes.map(\.name) == ["name", "startDate", "endDate", "identifier", "company", "expenseReport", "meetingAgenda"])
        #expect(business.attributes.map(\.column) == ["name", "startDate", "endDate", "identifier",
                                                       "BusinessTrip.company", "BusinessTrip.expenseReport", "BusinessTrip.meetingAgenda"])
        let dog = try #require(Zoo.schema.entity(named: "Dog"))
        #expect(dog.relationships.map(\.name) == ["keeper", "toys", "favoriteToy"])
    }
}
