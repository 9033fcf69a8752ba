/// Whitespace clean-up of rendered source, so templates can be laid out for reading.
enum SourceLayout {
    /// Removes trailing spaces, blank lines at the start, after `{` and before `}`, runs of blank
    /// lines (one is kept), and ends the text with exactly one newline.
    static func tidy(_ text: String) -> String {
        // Text without `\r` (all generated code) is tidied byte by byte; the line rules are the same.
        if !text.utf8.contains(UInt8(ascii: "\r")) { return tidyBytes(text) }
        var lines: [Substring] = []
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = rawLine
            while let last = line.last, last == " " || last == "\t" || last == "\r" { line.removeLast() }
            if line.isEmpty {
                guard let previous = lines.last, !previous.isEmpty, !previous.hasSuffix("{") else { continue }
            } else if line.trimmingPrefix(while: { $0 == " " }).hasPrefix("}"), lines.last?.isEmpty == true {
                lines.removeLast()
            }
            lines.append(line)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension SourceLayout {
    /// `tidy` on UTF-8 bytes, for text without `\r`: lines are byte ranges, and `{` / `}` count
    /// only as whole characters (an ASCII neighbour, so no combining mark attaches to them).
    fileprivate static func tidyBytes(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        var lines: [Range<Int>] = []
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != newline { end += 1 }
            let next = end + 1
            while end > start, bytes[end - 1] == space || bytes[end - 1] == tab { end -= 1 }
            let line = start..<end
            if line.isEmpty {
                if let previous = lines.last, !previous.isEmpty, !endsWithOpeningBrace(bytes, previous) {
                    lines.append(line)
                }
            } else {
                if startsWithClosingBrace(bytes, line), let previous = lines.last, previous.isEmpty { lines.removeLast() }
                lines.append(line)
            }
            start = next
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 1)
        for line in lines {
            output.append(contentsOf: bytes[line])
            output.append(newline)
        }
        if lines.isEmpty { output = [newline] }
        return String(decoding: output, as: UTF8.self)
    }

    private static func endsWithOpeningBrace(_ bytes: [UInt8], _ line: Range<Int>) -> Bool {
        guard bytes[line.upperBound - 1] == UInt8(ascii: "{") else { return false }
        return line.count == 1 || bytes[line.upperBound - 2] < 0x80
    }

    private static func startsWithClosingBrace(_ bytes: [UInt8], _ line: Range<Int>) -> Bool {
        var index = line.lowerBound
        while index < line.upperBound, bytes[index] == UInt8(ascii: " ") { index += 1 }
        guard index < line.upperBound, bytes[index] == UInt8(ascii: "}") else { return false }
        return index + 1 == line.upperBound || bytes[index + 1] < 0x80
    }
}

extension Substring {
    fileprivate func trimmingPrefix(while predicate: (Character) -> Bool) -> Substring {
        self[(firstIndex { !predicate($0) } ?? endIndex)...]
    }
}
