/// A value a Mustache template can print or test: what the view model is made of.
///
/// Only `false`, `.null` and an empty array are falsy (as in the Mustache spec); an empty string
/// is truthy.
public indirect enum MustacheValue: Hashable, Sendable {
    case string(String)
    case bool(Bool)
    case int(Int)
    case double(Double)
    case array([MustacheValue])
    case dictionary([String: MustacheValue])
    case null

    /// Whether a section `{{#name}}` renders (and `{{^name}}` does not).
    public var isTruthy: Bool {
        switch self {
        case .bool(let value): value
        case .null: false
        case .array(let items): !items.isEmpty
        case .string, .int, .double, .dictionary: true
        }
    }

    /// The text an interpolation `{{name}}` prints (before escaping).
    public var interpolated: String {
        switch self {
        case .string(let text): text
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .null, .array, .dictionary: ""
        }
    }

    /// The member `key` of a dictionary, or `nil` when `self` is not a dictionary or lacks it.
    public subscript(key: String) -> MustacheValue? {
        if case .dictionary(let members) = self { return members[key] }
        return nil
    }
}

extension MustacheValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(arrayLiteral elements: MustacheValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension MustacheValue: Decodable {
    /// Decodes JSON data (the Mustache spec's test data) into a value.
    public init(from decoder: any Decoder) throws {
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
        } else if let value = try? container.decode([MustacheValue].self) {
            self = .array(value)
        } else {
            self = .dictionary(try container.decode([String: MustacheValue].self))
        }
    }
}
