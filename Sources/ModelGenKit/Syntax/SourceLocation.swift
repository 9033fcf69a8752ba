/// A position in a source file. `line` and `column` count from 1; `column` counts UTF-8 bytes,
/// as swiftc does. `offset` is the UTF-8 byte offset from the start of the file.
public struct SourceLocation: Hashable, Sendable, Comparable {
    public var line: Int
    public var column: Int
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.offset < rhs.offset
    }
}

/// A half-open span `[start, end)` of one file.
public struct SourceRange: Hashable, Sendable {
    /// The path of the file as the user named it (used verbatim in diagnostics).
    public var file: String
    public var start: SourceLocation
    public var end: SourceLocation

    public init(file: String, start: SourceLocation, end: SourceLocation) {
        self.file = file
        self.start = start
        self.end = end
    }

    /// The smallest range covering both `self` and `other` (same file assumed).
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(file: file, start: min(start, other.start), end: max(end, other.end))
    }
}

/// The text of one input file, with its path as the user named it.
public struct SourceFile: Sendable {
    public let path: String
    /// The raw bytes (possibly invalid UTF-8: the lexer reports that as a `syntax` error).
    public let bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    public init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }

    /// The bytes of line `line` (1-based) without its terminator, or an empty array.
    public func lineBytes(_ line: Int) -> ArraySlice<UInt8> {
        var current = 1
        var start = 0
        var index = 0
        while index < bytes.count, current < line {
            if bytes[index] == UInt8(ascii: "\n") {
                current += 1
                start = index + 1
            }
            index += 1
        }
        if current != line { return [] }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: "\r") { end += 1 }
        return bytes[start..<end]
    }
}
