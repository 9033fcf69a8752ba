/// The context stack of a render: the values of the enclosing sections, innermost last.
struct MustacheContext {
    private var stack: [MustacheValue]

    init(root: MustacheValue) {
        stack = [root]
    }

    /// A new context with `value` pushed on top.
    func pushing(_ value: MustacheValue) -> MustacheContext {
        var copy = self
        copy.stack.append(value)
        return copy
    }

    /// Resolves `.` (the top value) or a dotted name: the first part is searched from the top of
    /// the stack down; the remaining parts are looked up in what it found only.
    func lookUp(_ name: String) -> MustacheValue {
        if name == "." { return stack.last ?? .null }
        if !Self.isDotted(name) {
            // A plain name (most lookups): no splitting, no allocation.
            for value in stack.reversed() {
                if let member = value[name] { return member }
            }
            return .null
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first else { return .null }
        guard var value = stack.reversed().lazy.compactMap({ $0[first] }).first else { return .null }
        for part in parts.dropFirst() {
            guard let member = value[part] else { return .null }
            value = member
        }
        return value
    }

    /// Whether `name` holds a `.` (scanned as contiguous bytes when it can be: every tag asks).
    private static func isDotted(_ name: String) -> Bool {
        let dot = UInt8(ascii: ".")
        return name.utf8.withContiguousStorageIfAvailable { $0.contains(dot) } ?? name.utf8.contains(dot)
    }
}
