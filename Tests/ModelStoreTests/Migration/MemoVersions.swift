import Foundation
@_spi(ModelStoreGenerated) import ModelStore

// An optional property that becomes required without a default: a custom stage's willMigrate must
// give every row a value.

/// 1.0.0: the text may be nil.
enum MemoV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Memo.self] }

    final class Memo: ModelObject, PersistentModel {
        private static let _$text = AttributeIndex(0, "text")
        var id: PersistentIdentifier { persistentModelID }
        private var _text: String?
        var text: String? { get { _text } set { _$willSet(Memo._$text, \.text); let oldValue = _text; _text = newValue; _$didSet(Memo._$text, \.text, oldValue) } }
        init(text: String? = nil) {
            _text = text
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _text = try row.read(Memo._$text)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Memo._$text, into: &_text)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_text, Memo._$text)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Memo", base: nil, subclasses: [],
            properties: [
                .attribute(Memo._$text, \Memo.text),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}

/// 2.0.0: the text is required, with no default.
enum MemoV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Memo.self] }

    final class Memo: ModelObject, PersistentModel {
        private static let _$text = AttributeIndex(0, "text")
        var id: PersistentIdentifier { persistentModelID }
        private var _text: String
        var text: String { get { _text } set { _$willSet(Memo._$text, \.text); let oldValue = _text; _text = newValue; _$didSet(Memo._$text, \.text, oldValue) } }
        init(text: String) {
            _text = text
            super.init()
        }
        required init(from row: RowDecoder) throws {
            _text = try row.read(Memo._$text)
            try super.init(from: row)
        }
        override func _decode(from row: RowDecoder) throws {
            try row.read(Memo._$text, into: &_text)
            try super._decode(from: row)
        }
        override func _encode(to row: RowEncoder) {
            row.write(_text, Memo._$text)
            super._encode(to: row)
        }
        private static let _$metadata = EntityMetadata(
            name: "Memo", base: nil, subclasses: [],
            properties: [
                .attribute(Memo._$text, \Memo.text),
            ],
            uniqueConstraints: [], indexes: []
        )
        override class var schemaMetadata: EntityMetadata { _$metadata }
    }
}
