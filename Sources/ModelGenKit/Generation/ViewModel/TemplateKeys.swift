// The view model: what templates read. Each view-model type declares its keys in ONE list,
// `templateKeys`: name, a line of documentation (docs/Generation.md's tables are checked
// against it), and how the value is read from the typed model. Templates reach the model only
// through those lists (`TemplateObject`), so a key exists exactly when it is listed.

/// One key templates may use on a view model of type `Model`.
struct TemplateKey<Model>: Sendable {
    /// As templates spell it (`swiftName`).
    let name: String
    /// What it holds, as docs/Generation.md says it.
    let summary: String
    /// Its value for one model.
    let read: @Sendable (Model) -> TemplateValue

    static func string(_ name: String, _ summary: String, _ read: @escaping @Sendable (Model) -> String) -> TemplateKey {
        TemplateKey(name: name, summary: summary) { .string(read($0)) }
    }

    static func bool(_ name: String, _ summary: String, _ read: @escaping @Sendable (Model) -> Bool) -> TemplateKey {
        TemplateKey(name: name, summary: summary) { .bool(read($0)) }
    }

    static func int(_ name: String, _ summary: String, _ read: @escaping @Sendable (Model) -> Int) -> TemplateKey {
        TemplateKey(name: name, summary: summary) { .int(read($0)) }
    }

    static func list<Element: TemplateElement>(
        _ name: String, _ summary: String, _ read: @escaping @Sendable (Model) -> [Element]
    ) -> TemplateKey {
        TemplateKey(name: name, summary: summary) { .list(read($0)) }
    }
}

/// The keys of one view-model type, with a table from interned name to key for lookups.
struct TemplateKeys<Model>: Sendable {
    /// The keys, in the order docs/Generation.md lists them.
    let keys: [TemplateKey<Model>]
    /// Whether the model is a list element: then it also answers `index`, `isFirst` and `isLast`
    /// from where it stands in the list a section entered it from.
    let isListElement: Bool
    private let table: [Entry?]

    private enum Entry: Sendable {
        case key(Int)
        case index, isFirst, isLast
    }

    /// The position keys every list element has, with their documentation.
    static var positionKeys: [(name: String, summary: String)] {
        [
            ("index", "the element's position in its list, from 0"),
            ("isFirst", "whether it is the list's first element"),
            ("isLast", "whether it is the list's last element (for separators: `{{^isLast}}, {{/isLast}}`)"),
        ]
    }

    init(listElement: Bool, _ keys: [TemplateKey<Model>]) {
        self.keys = keys
        self.isListElement = listElement
        var entries: [(TemplateName, Entry)] = keys.enumerated().map { (TemplateName($1.name), .key($0)) }
        if listElement {
            entries += [(TemplateName("index"), .index), (TemplateName("isFirst"), .isFirst), (TemplateName("isLast"), .isLast)]
        }
        var table = [Entry?](repeating: nil, count: (entries.map(\.0.id).max() ?? -1) + 1)
        for (name, entry) in entries {
            precondition(table[name.id] == nil, "template key '\(name)' listed twice for \(Model.self)")
            table[name.id] = entry
        }
        self.table = table
    }

    /// Every name templates may use on this type: the keys, then the position keys of a list element.
    var names: [String] {
        keys.map(\.name) + (isListElement ? Self.positionKeys.map(\.name) : [])
    }

    /// The value of `name` for `model` standing at `position`; `nil` when the type has no such key
    /// (or, for a position key, when the model was not entered from a list).
    func value(of name: TemplateName, in model: Model, at position: ListPosition?) -> TemplateValue? {
        guard name.id < table.count, let entry = table[name.id] else { return nil }
        switch entry {
        case .key(let index): return keys[index].read(model)
        case .index: return position.map { .int($0.index) }
        case .isFirst: return position.map { .bool($0.index == 0) }
        case .isLast: return position.map { .bool($0.index == $0.count - 1) }
        }
    }
}

/// A view-model type: its values answer template names from its key list.
protocol ViewModel: AnyObject, TemplateObject, TemplateElement {
    static var templateKeys: TemplateKeys<Self> { get }
}

extension ViewModel {
    func member(_ name: TemplateName, at position: ListPosition?) -> TemplateValue? {
        Self.templateKeys.value(of: name, in: self, at: position)
    }

    var templateValue: TemplateValue { .object(self) }
}
