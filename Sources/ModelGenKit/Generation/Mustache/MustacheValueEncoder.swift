/// Turns an `Encodable` view model into a `MustacheValue` directly (no JSON round trip).
/// As with JSON, a `nil` optional property leaves its key out (a Mustache lookup of it then
/// searches the enclosing contexts), which is why view models use no optionals.
public enum MustacheValueEncoder {
    public static func encode(_ value: some Encodable) throws -> MustacheValue {
        let encoder = ValueEncoder()
        try value.encode(to: encoder)
        return encoder.box.value
    }
}

/// A growing value: encoders and their containers share it by reference. Keyed and unkeyed
/// containers add to plain `members` / `items` storage in place; `value` wraps it at the end.
private final class Box {
    private var single: MustacheValue
    private var members: [String: MustacheValue]?
    private var items: [MustacheValue]?

    init(_ value: MustacheValue) {
        self.single = value
    }

    /// The value built so far.
    var value: MustacheValue {
        if let members { return .dictionary(members) }
        if let items { return .array(items) }
        return single
    }

    /// Sets a single value (drops any members or items).
    func set(_ value: MustacheValue) {
        single = value
        members = nil
        items = nil
    }

    /// Makes the value a dictionary (keeping its members if it is one already).
    func beginDictionary() {
        if members == nil {
            // View models have tens of keys: start big enough to skip most rehashing growth.
            members = Dictionary(minimumCapacity: 32)
            items = nil
        }
    }

    /// Makes the value an array (keeping its items if it is one already).
    func beginArray() {
        if items == nil, members == nil {
            items = []
        } else if items == nil {
            members = nil
            items = []
        }
    }

    func setMember(_ value: MustacheValue, for key: String) {
        members?[key] = value
    }

    func append(_ value: MustacheValue) {
        items?.append(value)
    }

    var itemCount: Int { items?.count ?? 0 }
}

private struct ValueEncoder: Encoder {
    let box: Box
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(box: Box = Box(.null)) {
        self.box = box
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        box.beginDictionary()
        return KeyedEncodingContainer(KeyedContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        box.beginArray()
        return UnkeyedContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(box: box, codingPath: codingPath)
    }

    /// Encodes a nested value: primitives directly, anything else through a child encoder.
    static func value(of value: some Encodable, at codingPath: [any CodingKey]) throws -> MustacheValue {
        switch value {
        case let string as String: return .string(string)
        case let bool as Bool: return .bool(bool)
        case let int as Int: return .int(int)
        case let double as Double: return .double(double)
        default:
            let child = ValueEncoder(box: Box(.null), codingPath: codingPath)
            try value.encode(to: child)
            return child.box.value
        }
    }

    private init(box: Box, codingPath: [any CodingKey]) {
        self.box = box
        self.codingPath = codingPath
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: Box
    var codingPath: [any CodingKey]

    private func set(_ value: MustacheValue, for key: Key) {
        box.setMember(value, for: key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }

    // Primitives straight in (the synthesized `encode(to:)` calls these overloads).
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), for: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(value), for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(.double(value), for: key) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        set(try ValueEncoder.value(of: value, at: codingPath + [key]), for: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("nested containers are not used by view models")
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        preconditionFailure("nested containers are not used by view models")
    }

    mutating func superEncoder() -> any Encoder { preconditionFailure("superEncoder is not used by view models") }

    mutating func superEncoder(forKey key: Key) -> any Encoder { preconditionFailure("superEncoder is not used by view models") }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let box: Box
    var codingPath: [any CodingKey]
    var count: Int { box.itemCount }

    private func append(_ value: MustacheValue) {
        box.append(value)
    }

    mutating func encodeNil() throws { append(.null) }

    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: Int) throws { append(.int(value)) }
    mutating func encode(_ value: Double) throws { append(.double(value)) }

    mutating func encode(_ value: some Encodable) throws {
        append(try ValueEncoder.value(of: value, at: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("nested containers are not used by view models")
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure("nested containers are not used by view models")
    }

    mutating func superEncoder() -> any Encoder { preconditionFailure("superEncoder is not used by view models") }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let box: Box
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws { box.set(.null) }

    mutating func encode(_ value: some Encodable) throws {
        box.set(try ValueEncoder.value(of: value, at: codingPath))
    }
}
