/// Spelling names as Swift source: keywords get backticks.
enum SwiftIdentifier {
    /// Words that cannot be used as a plain identifier in declarations or expressions, plus the
    /// type names that clash with Swift's own (`Type`, `Protocol`, `Self`, `Any`).
    static let reservedWords: Set<String> = [
        // Declarations
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var",
        // Statements
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
        "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        // Expressions and types
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        "Type", "Protocol", "package",
    ]

    /// `name`, in backticks when it is a reserved word.
    static func escaped(_ name: String) -> String {
        reservedWords.contains(name) ? "`\(name)`" : name
    }

    /// `name` as an argument label at a call site (`super.init(default: …)`): only `inout` needs
    /// backticks there; escaping any other keyword makes swiftc warn.
    static func argumentLabel(_ name: String) -> String {
        name == "inout" ? "`inout`" : name
    }

    /// A dotted name (`PersonalTrip.Reason`) with each component escaped.
    static func escapedPath(_ name: String) -> String {
        name.split(separator: ".").map { escaped(String($0)) }.joined(separator: ".")
    }
}
