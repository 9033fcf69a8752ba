// Test fixture in the shape of generated code (produced the way modelgen generates), for what the
// samples do not have: a one-to-one relationship, and a subclass with relationships of its own.
//
// entity Person { name: String; @Relationship(inverse: \Passport.holder) passport: Passport?
//                 @Relationship(deleteRule: .cascade, inverse: \Animal.keeper) pets: [Animal] = [] }
// entity Passport { number: String; holder: Person? }
// entity Animal { name: String; keeper: Person? }
// entity Dog: Animal { breed: String; @Relationship(deleteRule: .cascade, inverse: \Toy.dog) toys: [Toy] = []
//                      favoriteToy: Toy? }   // no inverse
// entity Toy { label: String; dog: Dog? }

import Foundation
import ModelStore

fileprivate struct _ZooGeneratedWithModelGenVersion: ModelStore.ModelStoreAPIVersionCheck {
    struct _1: ModelStore.ModelStoreAPIVersion_1 {}
    typealias Version = _1
}

// MARK: - Person

/// Someone with at most one passport, and pets.
internal class Person: ModelStore.ModelObject {
    private var _name: String

    internal var name: String {
        get {
            _$observationRegistrar.access(self, keyPath: \.name)
            return _name
        }
        set {
            _$willChange()
            _$observationRegistrar.withMutation(of: self, keyPath: \.name) { _name = newValue }
        }
    }

    internal var passport: Passport? {
        get {
            _$observationRegistrar.access(self, keyPath: \.passport)
            return _$toOne(0)
        }
        set { _$setToOne(newValue, 0) }
    }

    internal var pets: [Animal] {
        get {
            _$observationRegistrar.access(self, keyPath: \.pets)
            return _$toMany(1)
        }
        set { _$setToMany(newValue, 1) }
    }

    internal init(name: String) {
        self._name = name
        super.init()
    }

    internal required init(from row: ModelStore.RowDecoder) throws {
        self._name = try row.read()
        try super.init(from: row)
    }

    internal override func _decode(from row: ModelStore.RowDecoder) throws {
        _name = try row.read()
        try super._decode(from: row)
    }

    internal override func _encode(to row: ModelStore.RowEncoder) {
        row.write(_name)
        super._encode(to: row)
    }

    private static let _$metadata = ModelStore.EntityMetadata(
        name: "Person",
        base: nil,
        subclasses: [],
        properties: [
            .attribute("name", \Person.name),
            .toOne("passport", \Person.passport, deleteRule: .nullify, inverse: "holder"),
            .toMany("pets", \Person.pets, deleteRule: .cascade, inverse: "keeper"),
        ],
        uniqueConstraints: [],
        indexes: [],
        inheritedKeyPaths: []
    )

    internal override class var schemaMetadata: ModelStore.EntityMetadata { _$metadata }
}

// MARK: - Passport

/// One-to-one with its holder.
internal class Passport: ModelStore.ModelObject {
    private var _number: String

    internal var number: String {
        get {
            _$observationRegistrar.access(self, keyPath: \.number)
            return _number
        }
        set {
            _$willChange()
            _$observationRegistrar.withMutation(of: self, keyPath: \.number) { _number = newValue }
        }
    }

    internal var holder: Person? {
        get {
            _$observationRegistrar.access(self, keyPath: \.holder)
            return _$toOne(0)
        }
        set { _$setToOne(newValue, 0) }
    }

    internal init(number: String) {
        self._number = number
        super.init()
    }

    internal required init(from row: ModelStore.RowDecoder) throws {
        self._number = try row.read()
        try super.init(from: row)
    }

    internal override func _decode(from row: ModelStore.RowDecoder) throws {
        _number = try row.read()
        try super._decode(from: row)
    }

    internal override func _encode(to row: ModelStore.RowEncoder) {
        row.write(_number)
        super._encode(to: row)
    }

    private static let _$metadata = ModelStore.EntityMetadata(
        name: "Passport",
        base: nil,
        subclasses: [],
        properties: [
            .attribute("number", \Passport.number),
            .toOne("holder", \Passport.holder, deleteRule: .nullify, inverse: "passport"),
        ],
        uniqueConstraints: [],
        indexes: [],
        inheritedKeyPaths: []
    )

    internal override class var schemaMetadata: ModelStore.EntityMetadata { _$metadata }
}

// MARK: - Animal

/// A base with a relationship.
internal class Animal: ModelStore.ModelObject {
    private var _name: String

    internal var name: String {
        get {
            _$observationRegistrar.access(self, keyPath: \.name)
            return _name
        }
        set {
            _$willChange()
            _$observationRegistrar.withMutation(of: self, keyPath: \.name) { _name = newValue }
        }
    }

    internal var keeper: Person? {
        get {
            _$observationRegistrar.access(self, keyPath: \.keeper)
            return _$toOne(0)
        }
        set { _$setToOne(newValue, 0) }
    }

    internal init(name: String) {
        self._name = name
        super.init()
    }

    internal required init(from row: ModelStore.RowDecoder) throws {
        self._name = try row.read()
        try super.init(from: row)
    }

    internal override func _decode(from row: ModelStore.RowDecoder) throws {
        _name = try row.read()
        try super._decode(from: row)
    }

    internal override func _encode(to row: ModelStore.RowEncoder) {
        row.write(_name)
        super._encode(to: row)
    }

    private static let _$metadata = ModelStore.EntityMetadata(
        name: "Animal",
        base: nil,
        subclasses: [Dog.self],
        properties: [
            .attribute("name", \Animal.name),
            .toOne("keeper", \Animal.keeper, deleteRule: .nullify, inverse: "pets"),
        ],
        uniqueConstraints: [],
        indexes: [],
        inheritedKeyPaths: []
    )

    internal override class var schemaMetadata: ModelStore.EntityMetadata { _$metadata }
}

// MARK: - Dog

/// A subclass with relationships of its own (slots after the base's).
internal final class Dog: Animal {
    private var _breed: String

    internal var breed: String {
        get {
            _$observationRegistrar.access(self, keyPath: \.breed)
            return _breed
        }
        set {
            _$willChange()
            _$observationRegistrar.withMutation(of: self, keyPath: \.breed) { _breed = newValue }
        }
    }

    internal var toys: [Toy] {
        get {
            _$observationRegistrar.access(self, keyPath: \.toys)
            return _$toMany(1)
        }
        set { _$setToMany(newValue, 1) }
    }

    internal var favoriteToy: Toy? {
        get {
            _$observationRegistrar.access(self, keyPath: \.favoriteToy)
            return _$toOne(2)
        }
        set { _$setToOne(newValue, 2) }
    }

    internal init(name: String, breed: String) {
        self._breed = breed
        super.init(name: name)
    }

    internal required init(from row: ModelStore.RowDecoder) throws {
        self._breed = try row.read()
        try super.init(from: row)
    }

    internal override func _decode(from row: ModelStore.RowDecoder) throws {
        _breed = try row.read()
        try super._decode(from: row)
    }

    internal override func _encode(to row: ModelStore.RowEncoder) {
        row.write(_breed)
        super._encode(to: row)
    }

    private static let _$metadata = ModelStore.EntityMetadata(
        name: "Dog",
        base: Animal.self,
        subclasses: [],
        properties: [
            .attribute("breed", \Dog.breed),
            .toMany("toys", \Dog.toys, deleteRule: .cascade, inverse: "dog"),
            .toOne("favoriteToy", \Dog.favoriteToy, deleteRule: .nullify, inverse: nil),
        ],
        uniqueConstraints: [],
        indexes: [],
        inheritedKeyPaths: [
            .init("name", \Dog.name),
            .init("keeper", \Dog.keeper),
        ]
    )

    internal override class var schemaMetadata: ModelStore.EntityMetadata { _$metadata }
}

// MARK: - Toy

/// Belongs to a dog.
internal class Toy: ModelStore.ModelObject {
    private var _label: String

    internal var label: String {
        get {
            _$observationRegistrar.access(self, keyPath: \.label)
            return _label
        }
        set {
            _$willChange()
            _$observationRegistrar.withMutation(of: self, keyPath: \.label) { _label = newValue }
        }
    }

    internal var dog: Dog? {
        get {
            _$observationRegistrar.access(self, keyPath: \.dog)
            return _$toOne(0)
        }
        set { _$setToOne(newValue, 0) }
    }

    internal init(label: String) {
        self._label = label
        super.init()
    }

    internal required init(from row: ModelStore.RowDecoder) throws {
        self._label = try row.read()
        try super.init(from: row)
    }

    internal override func _decode(from row: ModelStore.RowDecoder) throws {
        _label = try row.read()
        try super._decode(from: row)
    }

    internal override func _encode(to row: ModelStore.RowEncoder) {
        row.write(_label)
        super._encode(to: row)
    }

    private static let _$metadata = ModelStore.EntityMetadata(
        name: "Toy",
        base: nil,
        subclasses: [],
        properties: [
            .attribute("label", \Toy.label),
            .toOne("dog", \Toy.dog, deleteRule: .nullify, inverse: "toys"),
        ],
        uniqueConstraints: [],
        indexes: [],
        inheritedKeyPaths: []
    )

    internal override class var schemaMetadata: ModelStore.EntityMetadata { _$metadata }
}

// MARK: - Zoo

internal enum Zoo {
    /// The entities of the `Zoo` container (subclasses included).
    internal static let schema = ModelStore.Schema([Person.self, Passport.self, Animal.self, Toy.self])
}
