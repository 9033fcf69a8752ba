/// Reads an optional's wrapped type and value without knowing it statically.
protocol OptionalTypeInfo {
    static var wrappedType: Any.Type { get }
    var wrappedAny: Any? { get }
}

extension Optional: OptionalTypeInfo {
    static var wrappedType: Any.Type { Wrapped.self }
    var wrappedAny: Any? { map { $0 } }
}

/// Reads an array's element type without knowing it statically.
protocol ArrayTypeInfo {
    static var elementType: Any.Type { get }
}

extension Array: ArrayTypeInfo {
    static var elementType: Any.Type { Element.self }
}
