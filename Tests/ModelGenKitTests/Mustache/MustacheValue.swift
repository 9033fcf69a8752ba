@testable import ModelGenKit

/// A JSON-like value for templates: the Mustache spec's test data, and hand-written contexts in
/// tests. (Generated code renders the typed view models instead.)
indirect enum MustacheValue: Hashable, Sendable {
    case string(String)
    case bool(Bool)
    case int(Int)
    case double(Double)
    case array([MustacheValue])
    case dictionary([String: MustacheValue])
    case null
}

extension MustacheValue: TemplateElement, TemplateObject {
    var templateValue: TemplateValue {
        switch self {
        case .string(let value): .string(value)
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .array(let items): .list(items)
        case .dictionary: .object(self)
        case .null: .null
        }
    }

    /// A dictionary's member, by its spelling.
    func member(_ name: TemplateName, at position: ListPosition?) -> TemplateValue? {
        guard case .dictionary(let members) = self else { return nil }
        return members[name.text]?.templateValue
    }
}

extension MustacheValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(arrayLiteral elements: MustacheValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    init(nilLiteral: ()) { self = .null }
}

extension MustacheValue: Decodable {
    /// Decodes JSON data (the Mustache spec's test data) into a value.
    init(from decoder: any Decoder) throws {
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

extension MustacheRenderer {
    /// Renders `template` with a hand-written or decoded value as the root.
    func render(_ template: MustacheTemplate, with value: MustacheValue) throws -> String {
        try render(template, with: value.templateValue)
    }

    /// Renders the partial `name` with a hand-written value as the root.
    func render(templateNamed name: String, with value: MustacheValue) throws -> String {
        try render(templateNamed: name, with: value.templateValue)
    }
}
