internal import SchemaEvolution

// `ValueType`'s built-in cases are SchemaEvolution's `ScalarType`, the one table of what the
// generator and the runtime know of a built-in type (docs/Architecture.md, "A type the language
// accepts"): its name, stored name, storage kind, default forms and widening are read from there.
// Both mappings are exhaustive switches, so a new case of either enum does not compile without its
// counterpart.

extension ValueType {
    /// The value type of a built-in type.
    init(_ scalar: ScalarType) {
        switch scalar {
        case .bool: self = .bool
        case .int: self = .int
        case .int8: self = .int8
        case .int16: self = .int16
        case .int32: self = .int32
        case .int64: self = .int64
        case .uint8: self = .uint8
        case .uint16: self = .uint16
        case .uint32: self = .uint32
        case .double: self = .double
        case .float: self = .float
        case .string: self = .string
        case .date: self = .date
        case .uuid: self = .uuid
        case .data: self = .data
        case .url: self = .url
        case .decimal: self = .decimal
        case .timeInterval: self = .timeInterval
        case .cgFloat: self = .cgFloat
        }
    }

    /// The built-in type this is, or nil for an enum, a struct or an array.
    var scalar: ScalarType? {
        switch self {
        case .bool: .bool
        case .int: .int
        case .int8: .int8
        case .int16: .int16
        case .int32: .int32
        case .int64: .int64
        case .uint8: .uint8
        case .uint16: .uint16
        case .uint32: .uint32
        case .double: .double
        case .float: .float
        case .string: .string
        case .date: .date
        case .uuid: .uuid
        case .data: .data
        case .url: .url
        case .decimal: .decimal
        case .timeInterval: .timeInterval
        case .cgFloat: .cgFloat
        case .enumeration, .enumWithAssociatedValues, .composite, .array: nil
        }
    }
}
