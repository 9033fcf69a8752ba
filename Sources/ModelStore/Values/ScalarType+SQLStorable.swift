import Foundation
internal import SchemaEvolution

extension ScalarType {
    /// The Swift type that stores values of the built-in type (its `SQLStorable` conformance is in
    /// `SQLStorable.swift`). An exhaustive switch: a new `ScalarType` does not compile without its
    /// line here, nor its line without the conformance (docs/Architecture.md, "A type the language
    /// accepts"). `TimeInterval` is Foundation's alias of `Double`.
    var storableType: any SQLStorable.Type {
        switch self {
        case .bool: Bool.self
        case .int: Int.self
        case .int8: Int8.self
        case .int16: Int16.self
        case .int32: Int32.self
        case .int64: Int64.self
        case .uint8: UInt8.self
        case .uint16: UInt16.self
        case .uint32: UInt32.self
        case .double: Double.self
        case .float: Float.self
        case .string: String.self
        case .date: Date.self
        case .uuid: UUID.self
        case .data: Data.self
        case .url: URL.self
        case .decimal: Decimal.self
        case .timeInterval: TimeInterval.self
        case .cgFloat: CGFloat.self
        }
    }
}

extension StorageType {
    /// The storage class of SchemaEvolution's table, which holds each store's column type for it.
    var storageClass: StorageClass {
        switch self {
        case .integer: .integer
        case .real: .real
        case .text: .text
        case .blob: .blob
        case .uuid: .uuid
        case .decimal: .decimal
        case .json: .json
        }
    }

    /// The storage type of a storage class (the inverse of `storageClass`: both are exhaustive, so
    /// the two enums keep one case for each other's).
    init(_ storageClass: StorageClass) {
        switch storageClass {
        case .integer: self = .integer
        case .real: self = .real
        case .text: self = .text
        case .blob: self = .blob
        case .uuid: self = .uuid
        case .decimal: self = .decimal
        case .json: self = .json
        }
    }
}
