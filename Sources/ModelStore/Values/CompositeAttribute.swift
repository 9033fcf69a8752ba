import Foundation

/// A struct an attribute holds (SwiftData's composite attribute), stored flattened: one column per
/// field, a nested struct's fields in turn, so predicates and sorts on a field run in SQL. An
/// optional struct has one more column before its fields, its presence (1, or NULL for nil), so
/// nil and a struct whose fields are all nil stay apart. `[Struct]` is one JSON column, as any array.
///
/// Generated structs declare the conformance with three hooks (SPI `ModelStoreGenerated`, not
/// API): their fields' names, key paths and types (`_$fields`), and reading and writing the
/// fields in declaration order.
public protocol CompositeAttribute: CodableAttribute, Hashable, Sendable {
    /// The struct's fields in declaration order (generated).
    @_spi(ModelStoreGenerated) static var _$fields: [CompositeField] { get }
    /// Reads the fields in declaration order, each with `row.readField()` (generated).
    @_spi(ModelStoreGenerated) init(_$from row: RowDecoder) throws
    /// Writes the fields in declaration order, each with `row.writeField(_:)` (generated).
    @_spi(ModelStoreGenerated) func _$encode(to row: RowEncoder)
}

extension CompositeAttribute {
    @_spi(ModelStoreGenerated) public static var _columnCount: Int {
        _$fields.reduce(0) { $0 + $1.type._columnCount }
    }

    @_spi(ModelStoreGenerated) public static var _compositeType: (any CompositeAttribute.Type)? { Self.self }

    @_spi(ModelStoreGenerated) @inlinable public static func _read(from row: RowDecoder) throws -> Self {
        try Self(_$from: row)
    }

    @_spi(ModelStoreGenerated) @inlinable public func _write(to row: RowEncoder) {
        _$encode(to: row)
    }

    /// Every field's placeholder; nil when a field has none.
    @_spi(ModelStoreGenerated) public static var _placeholder: Self? {
        try? RowReader(placeholdersFor: "struct \(Self.self)").withDecoder { try Self(_$from: $0) }
    }
}

/// One field of a generated struct: its name, its key path, its type.
@_spi(ModelStoreGenerated) public struct CompositeField: @unchecked Sendable {
    /// The field's name.
    public let name: String
    /// The key path to the field from the struct.
    public let keyPath: AnyKeyPath & Sendable
    /// The field's type (a struct type for a nested struct).
    public let type: any SQLStorable.Type

    /// A field of `Root` (called by generated code only).
    public static func field<Root: CompositeAttribute, Value: SQLStorable>(_ name: String, _ keyPath: KeyPath<Root, Value> & Sendable) -> CompositeField {
        CompositeField(name: name, keyPath: keyPath, type: Value.self)
    }
}
