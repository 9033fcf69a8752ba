import Testing
@testable import ModelGenKit

/// Each kind of change between two versions, classified as ModelStore classifies it on open
/// (docs/Migrations.md "What is inferred"; `SchemaDiffAgreementTests` in ModelStoreTests runs the
/// runtime on the same kinds of change).
@Suite struct SchemaDiffTests {
    private func expectChanges(_ old: String, _ new: String, _ expected: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(History.changes(old, new) == expected, sourceLocation: sourceLocation)
    }

    @Test func entitiesAddedRemovedRenamed() {
        expectChanges("entity A { x: Int }\nentity B { y: Int }\n", "entity A { x: Int }\nentity C { z: Int; w: String }\n", [
            "C: entity added (inferred)",
            "B: entity removed (its stored rows are deleted) (inferred)",
        ])
        expectChanges("entity Voyage { x: Int }\n", "@Entity(originalName: \"Voyage\") entity Trip { x: Int }\n", [
            "Trip: entity renamed from Voyage (inferred)",
        ])
        // A new entity has no rows: its required properties need no default.
        expectChanges("entity A { x: Int }\n", "entity A { x: Int }\nentity B { y: Int; z: Date = Date() }\n", ["B: entity added (inferred)"])
    }

    /// The additions of docs/Language.md keep their storage: a plain enum is a String enum of its
    /// case names, `CGFloat` a `Double`, `[E]?` a to-many (each change below is no change at all).
    @Test func languageAdditionsStoreAsTheirEquivalents() {
        expectChanges("enum P: String { case a, b }\nentity A { p: P }\n", "enum P: Codable { case a, b }\nentity A { p: P }\n", [])
        expectChanges("entity A { w: Double = 1 }\n", "entity A { w: CGFloat = 1 }\n", [])
        expectChanges("entity A { bs: [B] = [] }\nentity B { a: A? }\n", "entity A { bs: [B]? = [] }\nentity B { a: A? }\n", [])
        // A plain enum's new case is an enum change like a String enum's.
        #expect(History.changes("enum P: Codable { case a }\nentity A { p: P }\n", "enum P: Codable { case a, b }\nentity A { p: P }\n")
            == History.changes("enum P: String { case a }\nentity A { p: P }\n", "enum P: String { case a, b }\nentity A { p: P }\n"))
    }

    @Test func subclassesAddedAndRemoved() {
        expectChanges(
            "entity Trip { name: String }\nentity Work: Trip { company: String }\n",
            "entity Trip { name: String }\nentity Team: Trip { size: Int }\n", [
                "Team: subclass added (inferred)",
                "Work: subclass removed (its stored rows are deleted) (inferred)",
            ])
    }

    @Test func anEntityMovedToAnotherHierarchyIsImpossible() {
        expectChanges("entity Vehicle { n: Int }\nentity Car { w: Int }\n", "entity Vehicle { n: Int }\nentity Car: Vehicle { w: Int }\n", [
            "Car: base changed (none → Vehicle); no migration moves stored rows to another hierarchy: add the new entity in one version, copy the rows in a custom stage, remove the old entity in the next (impossible)",
        ])
    }

    @Test func propertiesAddedRemovedRenamed() {
        expectChanges(
            "entity A { x: Int; old: String }\n",
            "entity A { x: Int; a: String?; b: Int = 3; c: [String] = []; d: String; e: UUID = UUID(); f: Date = .now; g: Date = .distantPast }\n", [
                "A.a: property added (inferred)",
                "A.b: property added (inferred)",
                "A.c: property added (inferred)",
                "A.d: new required property without a default value (needsCode)",
                "A.e: new required property without a default value (a default computed when a model is made, such as UUID() or Date(), does not fill stored rows) (needsCode)",
                "A.f: new required property without a default value (a default computed when a model is made, such as UUID() or Date(), does not fill stored rows) (needsCode)",
                "A.g: property added (inferred)",
                "A.old: property removed (its stored values are dropped) (inferred)",
            ])
        expectChanges("entity A { name: String }\n", "entity A { @Attribute(originalName: \"name\") title: String }\n", [
            "A.title: renamed from name (inferred)",
        ])
        // An original name the old version does not have: a new property, and the old one removed.
        expectChanges("entity A { name: String? }\n", "entity A { @Attribute(originalName: \"nom\") title: String? }\n", [
            "A.title: property added (inferred)",
            "A.name: property removed (its stored values are dropped) (inferred)",
        ])
        // Transient properties are not stored.
        expectChanges("entity A { x: Int }\n", "entity A { x: Int; @Transient cache: Int = 0 }\n", [])
    }

    @Test func typesWidenOrNeedCode() {
        let changes = History.changes(
            "enum K: String { case a }\nentity A { a: Int32; b: Int; c: String; d: Float; e: [Int32]; f: UInt8; g: Int64; h: String; i: TimeInterval; j: Int }\n",
            "enum K: String { case a }\nentity A { a: Int; b: Int8; c: Int; d: Double; e: [Int]; f: Int16; g: Int; h: K; i: Double; j: Bool }\n")
        #expect(changes == [
            "A.a: type Int32 → Int (widened) (inferred)",
            "A.b: type Int → Int8 (needsCode)",
            "A.c: type String → Int (needsCode)",
            "A.d: type Float → Double (widened) (inferred)",
            "A.e: type [Int32] → [Int] (widened) (inferred)",
            "A.f: type UInt8 → Int16 (widened) (inferred)",
            "A.g: type Int64 → Int (widened) (inferred)",
            "A.h: type String → enum(String) (needsCode)",
            "A.j: type Int → Bool (needsCode)",
        ])
    }

    @Test func optionality() {
        expectChanges("entity A { a: String?; b: Int?; c: String }\n", "entity A { a: String = \"x\"; b: Int; c: String? }\n", [
            "A.a: optional → required, stored nils take the default (inferred)",
            "A.b: optional → required without a default value (needsCode)",
            "A.c: required → optional (inferred)",
        ])
    }

    @Test func relationships() {
        let old = """
            entity Author { name: String; books: [Book] = [] }
            entity Book { title: String; author: Author?; shelf: Shelf?; tags: [Tag] = [] }
            entity Shelf { n: Int }
            entity Box { n: Int }
            entity Tag { n: Int; books: [Book] = [] }
            """
        let new = """
            entity Author { name: String; @Relationship(deleteRule: .cascade) books: [Book] = [] }
            entity Book { title: String; authors: [Author] = []; shelf: Box?; tags: Tag? }
            entity Shelf { n: Int }
            entity Box { n: Int }
            entity Tag { n: Int; books: [Book] = [] }
            """
        #expect(History.changes(old, new) == [
            "Author.books: delete rule .nullify → .cascade (inferred)",
            "Book.authors: property added (inferred)",
            "Book.shelf: destination Shelf → Box (needsCode)",
            "Book.tags: to-many → to-one (needsCode)",
            "Tag.books: its links move from a join table to the key of Book.tags (the inverse became to-one) (needsCode)",
            "Book.author: property removed (its stored values are dropped) (inferred)",
        ])
        expectChanges("entity A { b: B? }\nentity B { n: Int }\n", "entity A { b: [B] = [] }\nentity B { n: Int }\n", [
            "A.b: to-one → to-many (inferred)",
        ])
        expectChanges("entity A { b: Int? }\nentity B { n: Int }\n", "entity A { b: B? }\nentity B { n: Int }\n", [
            "A.b: attribute → to-one relationship (needsCode)",
        ])
    }

    @Test func constraintsAndRecordedDetails() {
        expectChanges(
            "enum K: String { case a }\nentity A { a: String; b: Int = 1; c: K; d: Data?; #Index([\\.a]) }\n",
            "enum K: String { case a, z }\nentity A { @Attribute(.unique) a: String; b: Int = 2; c: K; @Attribute(.externalStorage) d: Data?; #Unique([\\.b, \\.c]); #Index([\\.b]) }\n", [
                "A.a: made unique (stored duplicates fail the migration) (inferred)",
                "A.b: default changed (recorded) (inferred)",
                "A.c: enum cases changed (inferred)",
                "A.d: attribute options changed (recorded) (inferred)",
                "A: unique constraints changed (stored duplicates of a new one fail the migration) (inferred)",
                "A: #Index groups changed (inferred)",
            ])
        expectChanges("entity A { a: Int; b: Int }\n", "entity A { b: Int; a: Int }\n", ["A: properties reordered (the table is rebuilt) (inferred)"])
        // A unique group of one property written as #Unique, and an original name added: recorded.
        expectChanges("entity A { a: Int }\n", "@Entity(originalName: \"Z\") entity A { a: Int; #Unique([\\.a]) }\n", [
            "A: originalName changed (recorded) (inferred)",
            "A: unique constraints changed (stored duplicates of a new one fail the migration) (inferred)",
        ])
    }

    /// What the store does not record is no change: docs, inits, comments, transient properties.
    @Test func sameStorage() throws {
        let old = try #require(History.schema("/// A.\nentity A { x: Int; y: String?; init(x) }\n"))
        let new = try #require(History.schema("entity A {\n    /// The x.\n    x: Int\n    y: String?\n    @Transient z: Int = 0\n    init(x, y)\n}\n"))
        #expect(SchemaDiff.changes(from: old, to: new).isEmpty)
        #expect(SchemaDiff.storageSignature(of: old) == SchemaDiff.storageSignature(of: new))
        let other = try #require(History.schema("entity A { x: Int = 1; y: String? }\n"))
        #expect(SchemaDiff.storageSignature(of: old) != SchemaDiff.storageSignature(of: other))
    }
}
