// Swift tokens back to text, and Swift expressions to the defaults the `.model` language holds
// (docs/Language.md "Property").

enum SwiftText {
    /// The `.model` keywords, written in backticks when they are names.
    private static let modelKeywords: Set<String> = ["entity", "enum", "case", "init", "container", "super", "var", "struct", "migration", "true", "false", "nil"]

    /// A name as `.model` writes it (backticks for a keyword).
    static func name(_ token: SwiftToken) -> String {
        token.isBackticked || modelKeywords.contains(token.text) ? "`\(token.text)`" : token.text
    }

    /// Tokens as text: a space after `,` and `:` and between words, none elsewhere.
    static func join(_ tokens: ArraySlice<SwiftToken>) -> String {
        var text = ""
        var previous: SwiftToken?
        for token in tokens {
            if let previous {
                let words = previous.kind != .punctuation && token.kind != .punctuation
                if words || previous.is(",") || previous.is(":") && !token.is("]") || token.is("->") || previous.is("->") || token.is("=") || previous.is("=") {
                    text += " "
                }
            }
            text += token.isBackticked ? "`\(token.text)`" : token.text
            previous = token
        }
        return text
    }

    /// `label: Type` or `Type` of an associated value, module prefixes dropped.
    static func typeText(_ tokens: ArraySlice<SwiftToken>) -> String {
        var list = Array(tokens)
        var index = 0
        while index + 1 < list.count {
            if list[index].kind == .identifier, ["Swift", "Foundation", "CoreGraphics"].contains(list[index].text), list[index + 1].is("."),
                index == 0 || !list[index - 1].is(".")
            {
                list.removeSubrange(index...(index + 1))
                continue
            }
            index += 1
        }
        return join(list[...])
    }

    /// Splits `a, b(c, d), [e, f]` at its top-level commas.
    static func splitArguments(_ tokens: ArraySlice<SwiftToken>) -> [ArraySlice<SwiftToken>] {
        var parts: [ArraySlice<SwiftToken>] = []
        var depth = 0
        var start = tokens.startIndex
        for index in tokens.indices {
            let token = tokens[index]
            if token.is("(") || token.is("[") || token.is("{") || token.is("<") && index > tokens.startIndex && !token.spaceBefore {
                depth += 1
            } else if token.is(")") || token.is("]") || token.is("}") || token.is(">") && depth > 0 {
                depth -= 1
            } else if token.is(","), depth == 0 {
                parts.append(tokens[start..<index])
                start = index + 1
            }
        }
        if start < tokens.endIndex { parts.append(tokens[start..<tokens.endIndex]) }
        return parts.filter { !$0.isEmpty }
    }

    // MARK: - Defaults

    /// The default as `.model` writes it, or nil when the expression is not one the language holds:
    /// a literal (number, string without interpolation, `true`, `false`, `nil`), `.member`,
    /// `Type.member` (`Date.now`, `Rect.zero`), `Type()`, `Type(label: number)`, an array of these.
    static func defaultValue(_ tokens: ArraySlice<SwiftToken>) -> String? {
        var list = Array(tokens)[...]
        guard let text = value(&list), list.isEmpty else { return nil }
        return text
    }

    private static func value(_ list: inout ArraySlice<SwiftToken>, depth: Int = 0) -> String? {
        guard let first = list.first, depth < 64 else { return nil }
        if first.is("-"), list.count >= 2, list[list.startIndex + 1].kind == .number {
            let digits = list[list.startIndex + 1].text
            list = list.dropFirst(2)
            return "-" + number(digits)
        }
        switch first.kind {
        case .number:
            list = list.dropFirst()
            return number(first.text)
        case .string:
            list = list.dropFirst()
            return string(first.text)
        case .identifier where !first.isBackticked && ["true", "false", "nil"].contains(first.text):
            list = list.dropFirst()
            return first.text
        case .punctuation where first.is("["):
            list = list.dropFirst()
            var elements: [String] = []
            while let token = list.first, !token.is("]") {
                guard let element = value(&list, depth: depth + 1) else { return nil }
                elements.append(element)
                if list.first?.is(",") == true { list = list.dropFirst() } else { break }
            }
            guard list.first?.is("]") == true else { return nil }
            list = list.dropFirst()
            return "[" + elements.joined(separator: ", ") + "]"
        case .punctuation where first.is("."):
            guard list.count >= 2, list[list.startIndex + 1].kind == .identifier else { return nil }
            let name = list[list.startIndex + 1].text
            list = list.dropFirst(2)
            if name == "init" { return nil }
            return "." + name + (call(&list, depth: depth) ?? "")
        case .identifier:
            var parts = [first.text]
            list = list.dropFirst()
            while list.count >= 2, list.first?.is(".") == true, list[list.startIndex + 1].kind == .identifier {
                parts.append(list[list.startIndex + 1].text)
                list = list.dropFirst(2)
            }
            while parts.count > 1, ["Swift", "Foundation", "CoreGraphics"].contains(parts[0]) { parts.removeFirst() }
            let head = parts.joined(separator: ".")
            if list.first?.is("(") == true {
                guard let arguments = call(&list, depth: depth) else { return nil }
                return head + arguments
            }
            return parts.count >= 2 ? head : nil
        default:
            return nil
        }
    }

    /// `()` or `(label: literal, …)`; nil (nothing consumed) when the list does not start with `(`.
    private static func call(_ list: inout ArraySlice<SwiftToken>, depth: Int) -> String? {
        guard list.first?.is("(") == true else { return nil }
        var rest = list.dropFirst()
        var arguments: [String] = []
        while let token = rest.first, !token.is(")") {
            var label = ""
            if token.kind == .identifier, rest.count >= 2, rest[rest.startIndex + 1].is(":") {
                label = token.text + ": "
                rest = rest.dropFirst(2)
            }
            guard let element = value(&rest, depth: depth + 1) else { return nil }
            arguments.append(label + element)
            if rest.first?.is(",") == true { rest = rest.dropFirst() } else { break }
        }
        guard rest.first?.is(")") == true else { return nil }
        list = rest.dropFirst()
        return "(" + arguments.joined(separator: ", ") + ")"
    }

    private static func number(_ text: String) -> String {
        text.hasPrefix("0x") || text.hasPrefix("0b") || text.hasPrefix("0o") ? radix(text) : text
    }

    /// `0x1F` as decimal (the model's integers are decimal).
    private static func radix(_ text: String) -> String {
        let base = text.hasPrefix("0x") ? 16 : text.hasPrefix("0b") ? 2 : 8
        return Int(text.dropFirst(2).filter { $0 != "_" }, radix: base).map(String.init) ?? text
    }

    /// A Swift string literal as `.model` writes it, or nil (interpolation, multiline, raw).
    private static func string(_ literal: String) -> String? {
        guard literal.hasPrefix("\""), !literal.hasPrefix("\"\"\""), literal.count >= 2 else { return nil }
        let body = Array(literal.dropFirst().dropLast())
        var text = "\""
        var index = 0
        while index < body.count {
            let character = body[index]
            guard character == "\\" else {
                text.append(character)
                index += 1
                continue
            }
            guard index + 1 < body.count else { return nil }
            let escaped = body[index + 1]
            switch escaped {
            case "\"", "\\", "n", "t": text += "\\" + String(escaped)
            case "r": text += "\\u{D}"
            case "0": text += "\\u{0}"
            case "'": text += "'"
            case "u":
                guard let close = body[index...].firstIndex(of: "}") else { return nil }
                text += String(body[index...close])
                index = close + 1
                continue
            default: return nil  // `\(` interpolation, or an escape the model lacks
            }
            index += 2
        }
        return text + "\""
    }

    /// The type of `var x = value` when the value tells it: literals, `UUID()`, `Date()`, `Date.now`, `T()`.
    static func inferredType(_ tokens: ArraySlice<SwiftToken>) -> String? {
        let list = Array(tokens)
        guard let first = list.first else { return nil }
        let signedNumber = first.is("-") && list.count == 2 && list[1].kind == .number
        if list.count == 1 || signedNumber {
            let token = signedNumber ? list[1] : first
            switch token.kind {
            case .number: return token.text.contains(".") || token.text.lowercased().contains("e") && !token.text.hasPrefix("0x") ? "Double" : "Int"
            case .string: return "String"
            case .identifier where token.text == "true" || token.text == "false": return "Bool"
            default: return nil
            }
        }
        if first.kind == .identifier, first.text.first?.isUppercase == true, list.count == 3, list[1].is("("), list[2].is(")") { return first.text }
        if first.isWord("Date"), list.count >= 3, list[1].is(".") || list[1].is("(") { return "Date" }
        return nil
    }
}
