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

/// A growing value: encoders and their containers share it by reference.
private final class Box {
    var value: MustacheValue

    init(_ value: MustacheValue) {
        self.value = value
    }
}

private struct ValueEncoder: Encoder {
    let box: Box
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(box: Box = Box(.null)) {
        self.box = box
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .dictionary = box.value {} else { box.value = .dictionary([:]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = box.value {} else { box.value = .array([]) }
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
        guard case .dictionary(var members) = box.value else { return }
        box.value = .null  // keep the dictionary uniquely referenced while it changes
        members[key.stringValue] = value
        box.value = .dictionary(members)
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }

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
    var count: Int {
        if case .array(let items) = box.value { return items.count }
        return 0
    }

    private func append(_ value: MustacheValue) {
        guard case .array(var items) = box.value else { return }
        box.value = .null
        items.append(value)
        box.value = .array(items)
    }

    mutating func encodeNil() throws { append(.null) }

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

    mutating func encodeNil() throws { box.value = .null }

    mutating func encode(_ value: some Encodable) throws {
        box.value = try ValueEncoder.value(of: value, at: codingPath)
    }
}
