// Resolves a default value against its property's type (the checks behind `default-type-mismatch`).
//
// Accepted: for a built-in type the literal form its row of SchemaEvolution's `ScalarType` table
// names (`DefaultLiteralForm`): for integer types an integer literal in the type's range; for
// `Double`, `Float`, `TimeInterval`, `CGFloat` and `Decimal` an integer or floating-point literal;
// `String` a string; `Bool` `true`/`false`; `Date` `Date()`, `.now`, `Date.now`, `.distantPast`,
// `.distantFuture` (also `Date.`-qualified) and `Date(timeIntervalSinceReferenceDate: n)`; `UUID`
// `UUID()`; `Data` an array of integers 0...255 (`[]` included); `URL` none. An enum `.case` (or
// `Enum.case`) of that enum, for an enum with associated values a case that carries none; a struct
// `S()` when every field of `S` has a default or is optional, or a static member of `S` (`.zero`,
// `S.zero`: left to the Swift compiler, which checks that it exists); `[T]` an array of elements
// that fit `T`; `nil` only for optionals; a to-one relationship only `nil`, a to-many only `[]`. No
// string default holds U+0000 (the stores cannot keep it).

import Foundation
internal import SchemaEvolution

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
        if let scalar = type.scalar { return resolve(expression, for: scalar) }
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
        case (.enumeration(let name, _), .memberAccess(let member)), (.enumWithAssociatedValues(let name), .memberAccess(let member)):
            return enumCase(member.name, of: name, model: model)
        case (.enumeration(let name, _), .typeMember(let type, let member)), (.enumWithAssociatedValues(let name), .typeMember(let type, let member)):
            let written = type.map(\.name).joined(separator: ".")
            guard written == name || name.hasSuffix("." + written) else {
                return .failure(DefaultMismatch("'\(written).\(member.name)' names a case of '\(written)', not of '\(name)': write '.\(member.name)'"))
            }
            return enumCase(member.name, of: name, model: model)
        case (.composite(let name), .call(let callee, let arguments)) where name == callee.name || name.hasSuffix("." + callee.name):
            return structDefault(name, arguments: arguments, model: model)
        case (.composite, .memberAccess(let member)):
            return .success(.staticMember(member.name))
        case (.composite(let name), .typeMember(let type, let member)):
            let written = type.map(\.name).joined(separator: ".")
            guard written == name || name.hasSuffix("." + written) else {
                return .failure(DefaultMismatch("'\(written).\(member.name)' is a member of '\(written)', not of '\(name)': write '.\(member.name)'"))
            }
            return .success(.staticMember(member.name))
        case (.composite(let name), _):
            return .failure(DefaultMismatch("\(describe(expression)) is not a '\(name)': a struct defaults to '\(name.split(separator: ".").last ?? "")()' when all its fields have defaults, to a static member of it ('.zero'), or to nil when optional"))
        default:
            return .failure(DefaultMismatch("\(describe(expression)) is not of type '\(type)'"))
        }
    }

    /// A default of a built-in type: the literal form its row of `ScalarType`'s table names.
    private static func resolve(_ expression: Expression, for type: ScalarType) -> Result<DefaultValue, DefaultMismatch> {
        let wanted = type.swiftName
        let facts = type.facts
        guard let form = facts.defaultLiteral else {
            return .failure(DefaultMismatch("a \(wanted) has no literal default: make it '\(wanted)?' or leave the default out"))
        }
        let mismatch = Result<DefaultValue, DefaultMismatch>.failure(DefaultMismatch("\(describe(expression)) is not of type '\(wanted)'"))
        switch (form, expression.kind) {
        case (.boolean, .bool(let value)):
            return .success(.bool(value))
        case (.integer, .integer(let text)):
            guard case .integer(let range)? = facts.numeric, let value = Int64(text), range.contains(value) else {
                return .failure(DefaultMismatch("\(text) is out of range for '\(wanted)'"))
            }
            return .success(.integer(text))
        case (.number, .integer(let text)):
            return number(text, .integer(text), facts.numeric, wanted)
        case (.number, .float(let text)):
            return number(text, .float(text), facts.numeric, wanted)
        case (.string, .string(let text)):
            if text.unicodeScalars.contains("\0") { return .failure(DefaultMismatch(nulReason)) }
            return .success(.string(text))
        case (.date, .call(let callee, let arguments)) where callee.name == "Date":
            return dateCall(arguments)
        case (.date, .memberAccess(let member)):
            return dateMember(member.name, written: ".\(member.name)")
        case (.date, .typeMember(let type, let member)) where type.map(\.name) == ["Date"]:
            return dateMember(member.name, written: "Date.\(member.name)")
        case (.newUUID, .call(let callee, let arguments)) where callee.name == "UUID":
            return arguments.isEmpty ? .success(.newUUID) : .failure(DefaultMismatch("write 'UUID()': a new UUID takes no arguments"))
        case (.bytes, .array(let elements)):
            for item in elements {
                guard case .integer(let text) = item.kind, UInt8(text) != nil else {
                    return .failure(DefaultMismatch("a Data default is an array of bytes (0...255)"))
                }
            }
            return .success(.array(elements.compactMap { if case .integer(let t) = $0.kind { .integer(t) } else { nil } }))
        case (.boolean, _), (.integer, _), (.number, _), (.string, _), (.date, _), (.newUUID, _), (.bytes, _):
            return mismatch
        }
    }

    /// A number literal (`text`, resolved as `resolved`) as a finite value of `domain`.
    private static func number(_ text: String, _ resolved: DefaultValue, _ domain: NumericDomain?, _ wanted: String) -> Result<DefaultValue, DefaultMismatch> {
        switch domain {
        case .binaryFloatingPoint(let bits)?:
            return bits == 32 ? finite(Float(text), text, wanted, resolved) : finite(Double(text), text, wanted, resolved)
        case .decimal?:
            return Decimal(string: text) != nil ? .success(resolved) : .failure(DefaultMismatch("\(text) is out of range for '\(wanted)'"))
        case .integer?, nil:
            // A `.number` form on a type that is no floating-point or decimal number: a wrong row of the table.
            return .failure(DefaultMismatch("the number \(text) is not of type '\(wanted)'"))
        }
    }

    /// Why a string holding U+0000 is no default (nor raw value): the stores cannot keep it
    /// (docs/Rules.md, `default-type-mismatch`).
    static let nulReason = "a String default cannot hold U+0000 (NUL): SQLite would cut the value there and PostgreSQL cannot store it in text; remove the '\\u{0}'"

    /// A floating-point default must not overflow to infinity (swiftc would only warn, and store `inf`).
    private static func finite<T: BinaryFloatingPoint>(_ value: T?, _ text: String, _ wanted: String, _ resolved: DefaultValue) -> Result<DefaultValue, DefaultMismatch> {
        if let value, value.isFinite { return .success(resolved) }
        return .failure(DefaultMismatch("\(text) is out of range for '\(wanted)'"))
    }

    /// `Date(…)`: no arguments (now) or `timeIntervalSinceReferenceDate:` a number literal.
    private static func dateCall(_ arguments: [CallArgument]) -> Result<DefaultValue, DefaultMismatch> {
        guard let argument = arguments.first else { return .success(.now) }
        guard arguments.count == 1, argument.label?.name == "timeIntervalSinceReferenceDate" else {
            return .failure(DefaultMismatch("a Date default is 'Date()', '.now', '.distantPast', '.distantFuture' or 'Date(timeIntervalSinceReferenceDate: n)' with n a number"))
        }
        switch argument.value.kind {
        case .integer(let text), .float(let text):
            guard let value = Double(text), value.isFinite else { return .failure(DefaultMismatch("\(text) is out of range for 'TimeInterval'")) }
            return .success(.dateSinceReferenceDate(text))
        default:
            return .failure(DefaultMismatch("'timeIntervalSinceReferenceDate:' takes a number literal, e.g. 'Date(timeIntervalSinceReferenceDate: 0)'"))
        }
    }

    /// `.now`, `.distantPast`, `.distantFuture` (with or without `Date`).
    private static func dateMember(_ member: String, written: String) -> Result<DefaultValue, DefaultMismatch> {
        switch member {
        case "now": return .success(.now)
        case "distantPast": return .success(.distantPast)
        case "distantFuture": return .success(.distantFuture)
        default: return .failure(DefaultMismatch("'\(written)' is no Date default: use .now, .distantPast, .distantFuture, Date() or Date(timeIntervalSinceReferenceDate: n)"))
        }
    }

    /// `.member` of the enum `qualifiedName`: one of its cases, and one that carries no values.
    private static func enumCase(_ member: String, of qualifiedName: String, model: SemanticModel) -> Result<DefaultValue, DefaultMismatch> {
        let cases = model.enumInfo(qualifiedName)?.keptCases ?? []
        guard let declared = cases.first(where: { $0.name.name == member }) else {
            return .failure(DefaultMismatch("'\(qualifiedName)' has no case '\(member)' (its cases: \(cases.map(\.name.name).joined(separator: ", ")))"))
        }
        if declared.associatedValues != nil {
            let plain = cases.filter { $0.associatedValues == nil }.map { "." + $0.name.name }
            let hint = plain.isEmpty ? "leave the default out" : "use \(plain.joined(separator: ", "))"
            return .failure(DefaultMismatch("case '\(member)' of '\(qualifiedName)' carries values, and a default names a case without any: \(hint)"))
        }
        return .success(.enumCase(member))
    }

    /// `S()`: allowed when every field of `S` has a default or is optional (its memberwise init needs no argument).
    private static func structDefault(_ qualifiedName: String, arguments: [CallArgument], model: SemanticModel) -> Result<DefaultValue, DefaultMismatch> {
        let simple = qualifiedName.split(separator: ".").last.map(String.init) ?? qualifiedName
        guard arguments.isEmpty else {
            return .failure(DefaultMismatch("a struct default is '\(simple)()' without arguments, with every field at its default"))
        }
        let fields = model.structs[qualifiedName]?.fields ?? []
        let required = fields.filter { field in
            guard let type = field.type else { return false }
            return !field.hasWrittenDefault && !type.isOptional
        }
        guard required.isEmpty else {
            let names = required.map { "'\($0.name)'" }.joined(separator: ", ")
            return .failure(DefaultMismatch("'\(simple)()' needs every field to have a default, and \(names) \(required.count == 1 ? "has" : "have") none"))
        }
        return .success(.defaultStruct)
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
        case .typeMember(let type, let member): "'\(type.map(\.name).joined(separator: ".")).\(member.name)'"
        case .array: "an array"
        case .call(let callee, let arguments): arguments.isEmpty ? "'\(callee.name)()'" : "'\(callee.name)(…)'"
        case .keyPath: "a key path"
        }
    }

}

/// Why a default does not fit.
struct DefaultMismatch: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
