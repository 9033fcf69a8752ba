import Foundation

/// A position in a source file. `line` and `column` count from 1; `column` counts UTF-8 bytes,
/// as swiftc does. `offset` is the UTF-8 byte offset from the start of the file.
///
/// Stored in 32 bits each (every syntax-tree node holds two: 12 bytes instead of 24; inputs are
/// far below 2 GB, see `GeneratorOptions.maximumInputBytes`).
public struct SourceLocation: Hashable, Sendable, Comparable {
    private var storedLine: Int32
    private var storedColumn: Int32
    private var storedOffset: Int32

    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }

    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    public var offset: Int {
        get { Int(storedOffset) }
        set { storedOffset = Int32(clamping: newValue) }
    }

    public init(line: Int, column: Int, offset: Int) {
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
        storedOffset = Int32(clamping: offset)
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.storedOffset < rhs.storedOffset
    }
}

/// A half-open span `[start, end)` of one file.
///
/// The file's path is stored as a number (`FilePaths`): a range is 28 bytes with nothing to
/// retain, where a `String` made it 64 bytes and a reference count to touch on every copy.
public struct SourceRange: Hashable, Sendable {
    private var fileNumber: UInt32
    public var start: SourceLocation
    public var end: SourceLocation

    /// The path of the file as the user named it (used verbatim in diagnostics).
    public var file: String {
        get { FilePaths.shared.path(fileNumber) }
        set { fileNumber = FilePaths.shared.number(of: newValue) }
    }

    public init(file: String, start: SourceLocation, end: SourceLocation) {
        self.fileNumber = FilePaths.shared.number(of: file)
        self.start = start
        self.end = end
    }

    /// The smallest range covering both `self` and `other` (same file assumed).
    public func union(_ other: SourceRange) -> SourceRange {
        var union = self
        union.start = min(start, other.start)
        union.end = max(end, other.end)
        return union
    }
}

/// The file paths source ranges name, numbered in order of first use for the whole process (a
/// process keeps every path it ever read: a few bytes each).
final class FilePaths: @unchecked Sendable {
    static let shared = FilePaths()

    private let lock = NSLock()
    private var numbers: [String: UInt32] = [:]
    private var paths: [String] = []
    /// The last path numbered: ranges are made file by file, so most calls ask for it again.
    private var last: (path: String, number: UInt32)?

    func number(of path: String) -> UInt32 {
        lock.lock()
        defer { lock.unlock() }
        if let last, last.path == path { return last.number }
        let number = numbers[path] ?? {
            let number = UInt32(paths.count)
            paths.append(path)
            numbers[path] = number
            return number
        }()
        last = (path, number)
        return number
    }

    func path(_ number: UInt32) -> String {
        lock.lock()
        defer { lock.unlock() }
        return paths[Int(number)]
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
