@testable import ModelGenKit

/// A dump of a parsed file's declarations without any source position: two files with the same
/// shape say the same thing, however they are laid out. Built by reflection so that it does not
/// share code (or mistakes) with the formatter.
enum SyntaxShape {
    static func of(_ file: ModelFile) -> String {
        var text = ""
        dump(file.declarations, into: &text, depth: 0)
        return text
    }

    /// Every comment's text (line comments without trailing whitespace), sorted: a multiset.
    static func commentTexts(_ file: ModelFile) -> [String] {
        file.comments.map { comment in
            comment.kind == .block ? comment.text : withoutTrailingWhitespace(comment.text)
        }.sorted()
    }

    static func withoutTrailingWhitespace(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }

    private static let positionLabels: Set<String> = ["range", "keywordRange", "source"]

    private static func dump(_ value: Any, into text: inout String, depth: Int) {
        let mirror = Mirror(reflecting: value)
        let indent = String(repeating: " ", count: depth * 2)
        if mirror.children.isEmpty {
            if let string = value as? String {
                text += indent + string.debugDescription + "\n"
            } else {
                text += indent + String(describing: value) + "\n"
            }
            return
        }
        // An enum case with a payload has one child labelled with the case name.
        text += indent + String(describing: mirror.subjectType) + "\n"
        for child in mirror.children {
            if let label = child.label, positionLabels.contains(label) { continue }
            text += indent + "  ." + (child.label ?? "_") + "\n"
            if let doc = child.value as? DocComment {
                // The formatter drops trailing whitespace, inside doc comments too.
                dump(doc.lines.map(withoutTrailingWhitespace), into: &text, depth: depth + 2)
            } else {
                dump(child.value, into: &text, depth: depth + 2)
            }
        }
    }
}
