// Resolves a default value against its property's type (the checks behind `default-type-mismatch`).
//
// Accepted: for integer types an integer literal in the type's range; for `Double`, `Float` and
// `Decimal` an integer or floating-point literal; `String` a string; `Bool` `true`/`false`;
// `Date` `Date()`; `UUID` `UUID()`; `Data` an array of integers 0...255 (`[]` included); an enum
// `.case` of that enum; `[T]` an array of elements that fit `T`; `nil` only for optionals; a
// to-one relationship only `nil`, a to-many only `[]`. `URL` has no literal default.

import Foundation

enum DefaultValueResolver {
    /// The resolved default, or the reason it does not fit (`got` names what was written).
    static func resolve(_ expression: Expression, for type: ResolvedType, model: SemanticModel) -> Result<DefaultValue, DefaultMismatch> {
        switch type {
        case .toOne:
            if case .nil = expression.kind { return .success(.nil) }
            return .failure(DefaultMismatch("a to-one relationship can only default to nil"))
        case .toMany:
            if case .array(let elements) = expression.kind, elements.isEmpty { return .success(.array([])) }
            return .failure(DefaultMismatch("a to-many relationship can only default to []"))
        case .value(let value, let isOptional):
            if case .nil = expression.kind {
                return isOptional ? .success(.nil) : .failure(DefaultMismatch("nil needs an optional type: write '\(value)?'"))
            }
            return resolve(expression, for: value, model: model)
        }
    }

    private static func resolve(_ expression: Expression, for type: ValueType, model: SemanticModel) -> Result<DefaultValue, DefaultMismatch> {
        let wanted = type.description
        switch (type, expression.kind) {
        case (.array(let element), .array(let elements)):
            var values: [DefaultValue] = []
            for item in elements {
                switch resolve(item, for: element, model: model) {
                case .success(let value): values.append(value)
                case .failure(let mismatch): return .failure(DefaultMismatch("an element of the array does not fit '\(element)': \(mismatch.reason)"))
                }
            }
            return .success(.array(values))
        case (.data, .array(let elements)):
            for item in elements {
                guard case .integer(let text) = item.kind, UInt8(text) != nil else {
                    return .failure(DefaultMismatch("a Data default is an array of bytes (0...255)"))
                }
            }
            return .success(.array(elements.compactMap { if case .integer(let t) = $0.kind { .integer(t) } else { nil } }))
        case (.string, .string(let text)):
            return .success(.string(text))
        case (.bool, .bool(let value)):
            return .success(.bool(value))
        case (.double, .integer(let text)):
            return finite(Double(text), text, wanted, .integer(text))
        case (.float, .integer(let text)):
            return finite(Float(text), text, wanted, .integer(text))
        case (.decimal, .integer(let text)):
            return Decimal(string: text) != nil ? .success(.integer(text)) : .failure(DefaultMismatch("\(text) is out of range for 'Decimal'"))
        case (.double, .float(let text)):
            return finite(Double(text), text, wanted, .float(text))
        case (.float, .float(let text)):
            return finite(Float(text), text, wanted, .float(text))
        case (.decimal, .float(let text)):
            return Decimal(string: text) != nil ? .success(.float(text)) : .failure(DefaultMismatch("\(text) is out of range for 'Decimal'"))
        case (.int, .integer(let text)), (.int64, .integer(let text)):
            return fits(Int64(text), text, wanted)
        case (.int8, .integer(let text)): return fits(Int8(text), text, wanted)
        case (.int16, .integer(let text)): return fits(Int16(text), text, wanted)
        case (.int32, .integer(let text)): return fits(Int32(text), text, wanted)
        case (.uint8, .integer(let text)): return fits(UInt8(text), text, wanted)
        case (.uint16, .integer(let text)): return fits(UInt16(text), text, wanted)
        case (.uint32, .integer(let text)): return fits(UInt32(text), text, wanted)
        case (.uuid, .call(let callee)) where callee.name == "UUID":
            return .success(.newUUID)
        case (.date, .call(let callee)) where callee.name == "Date":
            return .success(.now)
        case (.enumeration(let name, _), .memberAccess(let member)):
            let cases = enumCases(name, model: model)
            if cases.contains(member.name) { return .success(.enumCase(member.name)) }
            return .failure(DefaultMismatch("'\(name)' has no case '\(member.name)' (its cases: \(cases.joined(separator: ", ")))"))
        case (.url, _):
            return .failure(DefaultMismatch("a URL has no literal default: make it 'URL?' or leave the default out"))
        default:
            return .failure(DefaultMismatch("\(describe(expression)) is not of type '\(wanted)'"))
        }
    }

    private static func fits<T>(_ value: T?, _ text: String, _ wanted: String) -> Result<DefaultValue, DefaultMismatch> {
        value != nil ? .success(.integer(text)) : .failure(DefaultMismatch("\(text) is out of range for '\(wanted)'"))
    }

    /// A floating-point default must not overflow to infinity (swiftc would only warn, and store `inf`).
    private static func finite<T: BinaryFloatingPoint>(_ value: T?, _ text: String, _ wanted: String, _ resolved: DefaultValue) -> Result<DefaultValue, DefaultMismatch> {
        if let value, value.isFinite { return .success(resolved) }
        return .failure(DefaultMismatch("\(text) is out of range for '\(wanted)'"))
    }

    private static func enumCases(_ qualifiedName: String, model: SemanticModel) -> [String] {
        let parts = qualifiedName.split(separator: ".").map(String.init)
        let info = parts.count == 2 ? model.entities[parts[0]]?.nestedEnums[parts[1]] : model.topLevelEnums[qualifiedName]
        return info?.checked?.cases.map(\.name) ?? []
    }

    /// What the default is, in words.
    static func describe(_ expression: Expression) -> String {
        switch expression.kind {
        case .string: "a string"
        case .integer(let text): "the integer \(text)"
        case .float(let text): "the number \(text)"
        case .bool(let value): "'\(value)'"
        case .nil: "nil"
        case .memberAccess(let name): "'.\(name.name)'"
        case .array: "an array"
        case .call(let callee): "'\(callee.name)()'"
        case .keyPath: "a key path"
        }
    }

}

/// Why a default does not fit.
struct DefaultMismatch: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
