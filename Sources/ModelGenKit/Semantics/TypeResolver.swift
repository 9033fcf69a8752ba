// Resolves the type of a property, a struct field or an associated value (rules `unknown-type` and
// `unsupported-type`).
//
// Storable shapes: `T`, `T?`, `[T]`, `[T]?` for a value type `T` (built-in, enum or struct); `E?`,
// `[E]` and `[E]?` (an optional to-many, stored as a to-many) for an entity `E` (a bare `E` resolves
// and is left to `optional-to-one`). Everything else is
// `unsupported-type`: dictionaries, tuples, `[[T]]`, `T??`, `[T?]` (no optional elements in a JSON
// column), `[E?]`, and the Swift types listed in
// `unsupportedSwiftTypes`. Struct fields and associated values hold values only: an entity there is
// `unsupported-type` too.

internal import SchemaEvolution

enum TypeResolver {
    /// Value types by name (docs/Language.md): SchemaEvolution's `ScalarType` table.
    static let builtinTypes: [String: ValueType] = Dictionary(uniqueKeysWithValues: ScalarType.allCases.map { ($0.swiftName, ValueType($0)) })

    /// Swift types that exist but cannot be stored, with what to use instead.
    static let unsupportedSwiftTypes: [String: String] = [
        "UInt": "use Int64", "UInt64": "use Int64", "Int128": "use Int64 or Decimal", "UInt128": "use Decimal",
        "Float16": "use Float", "Float80": "use Double",
        "Character": "use String", "Substring": "use String", "AttributedString": "use String",
        "Any": "use a concrete type", "AnyObject": "use an entity", "AnyHashable": "use a concrete type",
        "Void": "use a concrete type", "Never": "use a concrete type",
        "Array": "write [T]", "Optional": "write T?", "Dictionary": "use a [T] of a Codable enum or an entity",
        "Set": "use [T]", "Range": "store both bounds", "ClosedRange": "store both bounds",
        "NSNumber": "use Int64 or Double", "NSObject": "use an entity", "Error": "store a String",
        "TimeZone": "store its identifier as a String", "Locale": "store its identifier as a String",
        "Calendar": "store its identifier as a String", "DateComponents": "store a Date",
        "Measurement": "store the value as Double", "Color": "store its components",
    ]

    /// What a type name denotes.
    private enum NamedType {
        case value(ValueType)
        case entity(String)
        /// An enum or struct that did not check (already reported).
        case brokenEnum
    }

    /// Resolves `type` as the type of `property` of `entity`; reports and returns `nil` when it is
    /// unknown or cannot be stored.
    static func resolve(_ type: TypeExpr, of property: String, in entity: String, model: inout SemanticModel) -> ResolvedType? {
        resolve(type, owner: "'\(entity).\(property)'", scope: entity, model: &model)
    }

    /// Resolves `type` where only values are stored (a struct field, an associated value): `owner`
    /// names the place in messages, `scope` is the entity whose nested types are visible (if any).
    /// An entity type is reported as `unsupported-type`.
    static func resolveValue(_ type: TypeExpr, owner: String, scope: String?, model: inout SemanticModel) -> ResolvedType? {
        guard let resolved = resolve(type, owner: owner, scope: scope, model: &model) else { return nil }
        guard let destination = resolved.destination else { return resolved }
        model.sink.error(.unsupportedType, "type '\(type)' of \(owner) is the entity '\(destination)': a struct or an enum case holds values only; declare the relationship on an entity", at: type.range)
        return nil
    }

    private static func resolve(_ type: TypeExpr, owner: String, scope entity: String?, model: inout SemanticModel) -> ResolvedType? {
        switch type.kind {
        case .named(let parts):
            switch named(parts, range: type.range, in: entity, owner: owner, model: &model) {
            case .value(let v): return .value(v, isOptional: false)
            case .entity(let e): return .toOne(destination: e, isOptional: false)
            case .brokenEnum, nil: return nil
            }
        case .optional(let wrapped):
            switch wrapped.kind {
            case .named(let parts):
                switch named(parts, range: wrapped.range, in: entity, owner: owner, model: &model) {
                case .value(let v): return .value(v, isOptional: true)
                case .entity(let e): return .toOne(destination: e, isOptional: true)
                case .brokenEnum, nil: return nil
                }
            case .array(let element):
                guard let elementType = arrayElement(element, whole: type, in: entity, owner: owner, model: &model) else { return nil }
                switch elementType {
                case .value(let v): return .value(.array(v), isOptional: true)
                case .entity(let e):
                    // An optional to-many (SwiftData's, required by CloudKit-synced models): stored as a
                    // to-many; `CheckedRelationship.isOptional` records the spelling.
                    return .toMany(destination: e)
                case .brokenEnum: return nil
                }
            case .optional:
                unsupported(type, owner, "a double optional", fix: "write '\(wrapped)'", model: &model)
                return nil
            case .dictionary, .tuple, .generic:
                return structural(wrapped, owner: owner, model: &model)
            }
        case .array(let element):
            guard let elementType = arrayElement(element, whole: type, in: entity, owner: owner, model: &model) else { return nil }
            switch elementType {
            case .value(let v): return .value(.array(v), isOptional: false)
            case .entity(let e): return .toMany(destination: e)
            case .brokenEnum: return nil
            }
        case .dictionary, .tuple, .generic:
            return structural(type, owner: owner, model: &model)
        }
    }

    /// The element of `[element]`: a name, else unsupported.
    private static func arrayElement(_ element: TypeExpr, whole: TypeExpr, in entity: String?, owner: String, model: inout SemanticModel) -> NamedType? {
        switch element.kind {
        case .named(let parts):
            return named(parts, range: element.range, in: entity, owner: owner, model: &model)
        case .array:
            unsupported(whole, owner, "an array of arrays", fix: "declare an entity for the inner arrays and a to-many relationship to it", model: &model)
        case .optional(let inner):
            unsupported(whole, owner, "an array of optionals", fix: "write '[\(inner)]'", model: &model)
        case .dictionary, .tuple, .generic:
            _ = structural(element, owner: owner, model: &model)
        }
        return nil
    }

    private static func structural(_ type: TypeExpr, owner: String, model: inout SemanticModel) -> ResolvedType? {
        switch type.kind {
        case .dictionary:
            unsupported(type, owner, "a dictionary", fix: "declare an entity with a key and a value property, and a to-many relationship to it", model: &model)
        case .generic(let parts, let arguments):
            let name = parts.map(\.name).joined(separator: ".")
            let fix = switch (name, arguments.count) {
            case ("Dictionary", 2): "declare an entity with a key and a value property, and a to-many relationship to it"
            case ("Array", 1), ("Set", 1): "write '[\(arguments[0])]' (an array, stored as one JSON column)"
            case ("Optional", 1): "write '\(arguments[0])?'"
            default: "use a type of the .model language: Bool, Int…, Double, Float, String, Date, UUID, Data, URL, Decimal, TimeInterval, an enum, a struct, [T] or T?"
            }
            unsupported(type, owner, "the generic type '\(name)<…>'", fix: fix, model: &model)
        default:
            unsupported(type, owner, "a tuple", fix: "declare one property per element", model: &model)
        }
        return nil
    }

    private static func unsupported(_ type: TypeExpr, _ owner: String, _ what: String, fix: String, model: inout SemanticModel) {
        model.sink.error(.unsupportedType, "type '\(type)' of \(owner) is \(what), which cannot be stored: \(fix)", at: type.range)
    }

    /// Resolves a (possibly qualified) type name: nested enum or struct, entity, top-level enum or
    /// struct, value type.
    private static func named(_ parts: [TypeNamePart], range: SourceRange, in entity: String?, owner: String, model: inout SemanticModel) -> NamedType? {
        let written = parts.map(\.name).joined(separator: ".")
        if parts.count == 1 {
            let name = parts[0].name
            if let entity {
                if let nested = model.nestedEnum(name, visibleIn: entity) { return enumType(nested) }
                if let nested = model.nestedStruct(name, visibleIn: entity) { return structType(nested) }
            }
            if model.entities[name] != nil { return .entity(name) }
            if let topLevel = model.topLevelEnums[name] { return enumType(topLevel) }
            if let topLevel = model.structs[name] { return structType(topLevel) }
            if let value = builtinTypes[name] { return .value(value) }
            if let fix = unsupportedSwiftTypes[name] {
                model.sink.error(.unsupportedType, "type '\(name)' of \(owner) cannot be stored: \(fix)", at: range)
                return nil
            }
        } else if parts.count == 2, model.entities[parts[0].name] != nil {
            if let nested = model.nestedEnum(parts[1].name, visibleIn: parts[0].name) { return enumType(nested) }
            if let nested = model.nestedStruct(parts[1].name, visibleIn: parts[0].name) { return structType(nested) }
        }
        var notes = suggestion(for: written, model: model)
        if notes.isEmpty, looksLikeValueType(parts) {
            notes.append(DiagnosticNote("a value type of your app ('\(written)' with fields, like CGRect or a Codable struct) is declared in the model as 'struct \(written) { name: Type … }': it is then stored with its fields as columns"))
        }
        model.sink.error(.unknownType, "unknown type '\(written)' of \(owner): declare an entity, enum or struct of that name, or use a built-in type", at: range, notes: notes)
        return nil
    }

    /// A single capitalized name (`Rect`, `Coordinate`): what an app's own value type is called.
    /// A qualified name (`Trip.Kind`) names a nested type, which a struct note would not help.
    private static func looksLikeValueType(_ parts: [TypeNamePart]) -> Bool {
        guard parts.count == 1, let first = parts[0].name.unicodeScalars.first else { return false }
        return first.properties.isUppercase
    }

    private static func enumType(_ info: EnumInfo) -> NamedType {
        guard let checked = info.checked else { return .brokenEnum }
        guard let rawType = checked.rawType else { return .value(.enumWithAssociatedValues(qualifiedName: checked.qualifiedName)) }
        return .value(.enumeration(qualifiedName: checked.qualifiedName, rawType: rawType))
    }

    private static func structType(_ info: StructInfo) -> NamedType {
        info.isBroken ? .brokenEnum : .value(.composite(qualifiedName: info.qualifiedName))
    }

    /// A "did you mean" note for a misspelled type name, when a close one exists.
    static func suggestion(for name: String, model: SemanticModel) -> [DiagnosticNote] {
        var candidates = Array(builtinTypes.keys) + model.entityOrder + model.topLevelEnumOrder + model.structOrder
        for entity in model.entityOrder {
            for nested in model.entities[entity]?.nestedEnumOrder ?? [] { candidates.append("\(entity).\(nested)") }
        }
        return NameDistance.suggestion(for: name, among: candidates)
    }
}

/// Edit distance for "did you mean" suggestions.
enum NameDistance {
    /// A "did you mean" note naming the candidates closest to `name` (ties all named, at most three),
    /// or nothing when none is close (case-insensitive edit distance at most a third of its length).
    static func suggestion(for name: String, among candidates: [String]) -> [DiagnosticNote] {
        let best = closest(to: name, among: candidates)
        guard !best.isEmpty else { return [] }
        return [DiagnosticNote("did you mean " + best.map { "'\($0)'" }.joined(separator: " or ") + "?")]
    }

    /// The candidates closest to `name`, sorted.
    static func closest(to name: String, among candidates: [String]) -> [String] {
        guard name.count <= 64 else { return [] }
        let target = Array(name.lowercased())
        var best: [String] = []
        var bestDistance = max(1, target.count / 3) + 1
        for candidate in Set(candidates).sorted() where candidate != name && candidate.count <= 64 {
            let distance = levenshtein(target, Array(candidate.lowercased()))
            if distance < bestDistance {
                best = [candidate]
                bestDistance = distance
            } else if distance == bestDistance, !best.isEmpty, best.count < 3 {
                best.append(candidate)
            }
        }
        return best
    }

    private static func levenshtein(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
