import Foundation

/// What a name in a template resolves to: a value to print or test, an object whose members
/// names resolve in, or a list a section repeats over. Templates read view models through it
/// without any intermediate tree: an object answers each name when asked.
enum TemplateValue {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case object(any TemplateObject)
    case list(any TemplateList)

    /// Whether a section `{{#name}}` renders (and `{{^name}}` does not). As in the Mustache spec,
    /// only `false`, null and an empty list are falsy; an empty string is truthy.
    var isTruthy: Bool {
        switch self {
        case .bool(let value): value
        case .null: false
        case .list(let list): list.count > 0
        case .string, .int, .double, .object: true
        }
    }

    /// Appends the text an interpolation `{{name}}` prints (before escaping) to `output`.
    func interpolate(into output: inout String) {
        switch self {
        case .string(let text): output += text
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value): output += String(value)
        case .null, .list, .object: break
        }
    }
}

/// Where an object stands in the list a section entered it from.
struct ListPosition {
    var index: Int
    var count: Int
}

/// A value with members: a view model, or a dictionary.
protocol TemplateObject {
    /// The member `name`, or `nil` when the object has none (the lookup then goes on down the
    /// context stack). `position` is where the object stands in the list it was entered from
    /// (`nil` when it was not entered from a list).
    func member(_ name: TemplateName, at position: ListPosition?) -> TemplateValue?
}

/// A list a section repeats over.
protocol TemplateList {
    var count: Int { get }
    func element(at index: Int) -> TemplateValue
}

/// Something a list can hold.
protocol TemplateElement: SendableMetatype {
    var templateValue: TemplateValue { get }
}

extension Array: TemplateList where Element: TemplateElement {
    func element(at index: Int) -> TemplateValue { self[index].templateValue }
}

extension String: TemplateElement {
    var templateValue: TemplateValue { .string(self) }
}

/// A name as templates write it (`swiftName`), interned: every spelling has one number for the
/// whole process, so a view model finds its member by indexing an array, not by hashing text.
struct TemplateName: Hashable, Sendable, CustomStringConvertible {
    /// The number of this spelling.
    let id: Int
    let text: String

    /// The name spelled `text`.
    init(_ text: String) {
        self.text = text
        self.id = Interner.shared.id(of: text)
    }

    var description: String { text }

    /// The numbers of spellings, handed out in order of first use.
    private final class Interner: @unchecked Sendable {
        static let shared = Interner()
        private let lock = NSLock()
        private var ids: [String: Int] = [:]

        func id(of text: String) -> Int {
            lock.lock()
            defer { lock.unlock() }
            if let id = ids[text] { return id }
            let id = ids.count
            ids[text] = id
            return id
        }
    }
}

/// A name in a tag: `.` (the current value), a plain name, or a dotted path (`a.b.c`: `a` is
/// looked up down the context stack, then `b` in it, then `c`).
struct MustacheName: Sendable {
    /// As written (for error messages and dictionary lookups).
    let text: String
    /// The parts; empty for `.`.
    let parts: [TemplateName]

    init(_ text: String) {
        self.text = text
        self.parts = text == "." ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map { TemplateName(String($0)) }
    }
}
