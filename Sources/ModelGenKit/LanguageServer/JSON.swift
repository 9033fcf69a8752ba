import Foundation

/// A JSON value, as the language server reads and writes its messages (docs/Editors.md).
///
/// Decoded with `JSONDecoder` (which never takes a number for a Boolean, as `JSONSerialization`'s
/// `NSNumber`s can), written with `JSONEncoder`.
package enum JSON: Codable, Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int) { self = .int(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSON...) { self = .array(elements) }
    package init(nilLiteral: ()) { self = .null }
    package init(dictionaryLiteral elements: (String, JSON)...) {
        var object: [String: JSON] = [:]
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value.isFinite ? value : 0)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Parses a message body; nil when it is not JSON.
    package static func parse(_ data: Data) -> JSON? {
        try? JSONDecoder().decode(JSON.self, from: data)
    }

    /// The value as compact JSON text (keys sorted, so a message's bytes are deterministic).
    package var data: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }

    package subscript(key: String) -> JSON? {
        if case .object(let object) = self { object[key] } else { nil }
    }

    package subscript(index: Int) -> JSON? {
        if case .array(let array) = self, array.indices.contains(index) { array[index] } else { nil }
    }

    package var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    package var int: Int? {
        switch self {
        case .int(let value): value
        case .double(let value) where value.isFinite && abs(value) < 1e15: Int(value)
        default: nil
        }
    }

    package var bool: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    package var array: [JSON]? {
        if case .array(let value) = self { value } else { nil }
    }

    package var object: [String: JSON]? {
        if case .object(let value) = self { value } else { nil }
    }
}
