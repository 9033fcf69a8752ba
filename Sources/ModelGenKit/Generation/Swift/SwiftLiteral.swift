internal import SchemaEvolution

/// Swift source text for literal values.
enum SwiftLiteral {
    /// A string literal that evaluates to `text` (quotes, backslashes and control characters escaped).
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                    || scalar.properties.generalCategory == .lineSeparator
                    || scalar.properties.generalCategory == .paragraphSeparator
                {
                    result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// Whether the integer `text` is exactly a value of a binary floating-point type of `bits` bits.
    private static func isExact(_ text: String, bits: Int) -> Bool {
        guard let integer = Int64(text) else { return false }
        return bits == 32 ? Float(exactly: integer) != nil : Double(exactly: integer) != nil
    }

    /// A decimal floating-point literal as Swift reads it for `type` without a warning: as written,
    /// unless the value is subnormal in that type, then `Double(bitPattern: 0x…)` (or `Float(…)`):
    /// Swift warns that such a literal "underflows and loses precision", decimal or hexadecimal,
    /// even where the value is exact; a literal that underflows to zero is `0.0`
    /// (docs/Generation.md, "Floating-point defaults").
    static func floatingPoint(_ text: String, for type: ValueType?) -> String {
        switch type {
        case .double?, .timeInterval?:
            guard let value = Double(text) else { return text }
            return exactWhereSwiftWarns(value, text) ?? text
        case .cgFloat?:
            guard let value = Double(text) else { return text }
            return exactWhereSwiftWarns(value, text).map { $0.hasPrefix("Double(") ? "CGFloat(\($0))" : $0 } ?? text
        case .float?:
            guard let value = Float(text) else { return text }
            return exactWhereSwiftWarns(value, text) ?? text
        default:
            return text
        }
    }

    /// The spelling of `value` (read from `text`) where `text` would make Swift warn, else nil.
    private static func exactWhereSwiftWarns<F: BinaryFloatingPoint>(_ value: F, _ text: String) -> String? {
        if value.isSubnormal { return bitPattern(value) }
        // Zero from a literal that is not zero: an underflow.
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        if value.isZero, mantissa.contains(where: { ("1"..."9").contains($0) }) { return value.sign == .minus ? "-0.0" : "0.0" }
        return nil
    }

    /// `Double(bitPattern: 0x0000000000000001)` or `Float(bitPattern: 0x00000001)`: the value's bits.
    static func bitPattern<F: BinaryFloatingPoint>(_ value: F) -> String {
        let bits = 1 + Int(F.exponentBitCount) + Int(F.significandBitCount)
        let pattern = (UInt64(value.sign == .minus ? 1 : 0) << UInt64(bits - 1))
            | (UInt64(value.exponentBitPattern) << UInt64(F.significandBitCount)) | UInt64(value.significandBitPattern)
        let digits = String(pattern, radix: 16, uppercase: true)
        let name = bits == 32 ? "Float" : "Double"
        return "\(name)(bitPattern: 0x\(String(repeating: "0", count: bits / 4 - digits.count) + digits))"
    }

    /// Case names that `Optional` has too: `.none` where an optional enum is expected is Swift's
    /// `Optional.none` (nil), so such a case is spelled with its type (`Level.none`; docs/Generation.md).
    static let optionalMemberNames: Set<String> = ["none", "some"]

    /// The expression for a default value of a property of type `type`, spelled inside the entity
    /// `context` (whose nested enums are named without it).
    static func defaultExpression(_ value: DefaultValue, for type: ValueType?, in context: String? = nil) -> String {
        switch value {
        case .string(let text):
            switch type {
            case .url: return "URL(string: \(string(text)))!"
            case .decimal: return "Decimal(string: \(string(text)))!"
            case .uuid: return "UUID(uuidString: \(string(text)))!"
            default: return string(text)
            }
        case .integer(let text):
            // Decimal's integer literal goes through Int: a larger one is spelled as a string.
            if type == .decimal, Int64(text) == nil { return "Decimal(string: \(string(text)))!" }
            // An integer literal a float type cannot hold exactly makes swiftc warn; a float literal rounds quietly.
            if case .binaryFloatingPoint(let bits)? = type?.scalar?.facts.numeric, !isExact(text, bits: bits) { return text + ".0" }
            return text
        case .float(let text):
            // Decimal's float literal goes through Double and loses digits: spell it as a string.
            if type == .decimal { return "Decimal(string: \(string(text)))!" }
            return floatingPoint(text, for: type)
        case .bool(let value):
            return value ? "true" : "false"
        case .nil:
            return "nil"
        case .enumCase(let name):
            guard optionalMemberNames.contains(name), let type else { return "." + SwiftIdentifier.escaped(name) }
            return SwiftTypeName.of(type, in: context) + "." + SwiftIdentifier.escaped(name)
        case .array(let elements):
            let elementType: ValueType?
            if case .array(let inner) = type { elementType = inner } else { elementType = nil }
            return "[" + elements.map { defaultExpression($0, for: elementType, in: context) }.joined(separator: ", ") + "]"
        case .newUUID:
            return "UUID()"
        case .now:
            return "Date()"
        case .distantPast:
            return "Date.distantPast"
        case .distantFuture:
            return "Date.distantFuture"
        case .dateSinceReferenceDate(let seconds):
            return "Date(timeIntervalSinceReferenceDate: \(seconds))"
        case .staticMember(let member):
            // Spelled with its type: `.zero` would name a member of Optional where the property is optional.
            guard let type else { return "." + SwiftIdentifier.escaped(member) }
            return SwiftTypeName.of(type, in: context) + "." + SwiftIdentifier.escaped(member)
        case .defaultStruct:
            // The struct's memberwise init with every argument left to its default.
            if case .composite(let name)? = type { return SwiftIdentifier.escapedPath(name) + "()" }
            return "nil"
        }
    }
}
