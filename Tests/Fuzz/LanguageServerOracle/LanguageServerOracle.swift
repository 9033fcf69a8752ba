import Foundation
import ModelGenKit

/// What `modelgen lsp` must do with any sequence of edits (docs/Reliability.md, "The language
/// server"): the fuzz target `LanguageServerFuzz` (Scripts/fuzz.sh --target lsp) and the tests run
/// these checks on the server in process, as the editor would drive it.
///
/// Properties checked after every step:
/// - the server does not crash or hang (the process survives; libFuzzer's timeout catches a hang);
/// - every request gets exactly one response, with its id, and no internal error;
/// - the server's text of the document is the text the edits make, computed here independently
///   on UTF-16 code units (so LSP positions and the server's UTF-8 offsets agree);
/// - every range it sends (diagnostics, symbols, locations, edits) lies inside the document;
/// - formatting edits, applied, give text that formats to itself.
public enum LanguageServerOracle {
    public struct Violation: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The document's URI (a file nothing on disk shadows).
    public static let uri = "file:///modelgen-lsp-fuzz/Fuzz.model"

    /// Text the edits insert: pieces of the language, line breaks, and text outside ASCII (two-,
    /// three- and four-byte UTF-8; the last is two UTF-16 units).
    static let pieces: [String] = [
        "entity ", "Trip", " {", "}", "\n", "\r\n", ": ", "String", "[", "]", "?", " = ", "\"", "\\", ".", ",", "(", ")",
        "@Relationship(deleteRule: .cascade, inverse: \\Trip.stays)", "@Attribute(.unique)", "init(", "super.init(", "enum ",
        "case ", "struct ", "container ", "//", "/*", "*/", "///", "é", "名前", "🚀", "`", "#Unique([\\.name])", "= []", "0",
        "stays: [Stay] = []", "entity Stay {\n    trip: Trip?\n}\n", " ", "\t", "migration \"1.0\" -> \"2.0\" { custom }",
    ]

    /// Runs the session an input describes: its bytes up to the first 0 are the document's text,
    /// the bytes after it the steps (4 bytes each: what, then three numbers). Without a 0 the whole
    /// input is the text and the steps are a fixed sweep of every request.
    public static func check(_ bytes: [UInt8]) -> [Violation] {
        let split = bytes.firstIndex(of: 0)
        let text = String(decoding: bytes[..<(split ?? bytes.count)], as: UTF8.self)
        var script = split.map { Array(bytes[($0 + 1)...]) } ?? []
        if split == nil { script = [3, 0, 0, 0, 3, 1, 1, 1, 3, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 3, 5, 5, 5, 3, 6, 6, 6, 3, 7, 7, 7, 3, 8, 8, 8] }
        let session = Session()
        session.open(text)
        var step = 0
        while step + 4 <= script.count, step < 4 * 256, session.violations.isEmpty {
            session.step(script[step], script[step + 1], script[step + 2], script[step + 3])
            step += 4
        }
        session.close()
        return session.violations
    }

    /// Types `text` into an empty document one character at a time (as incremental changes),
    /// asking for completion, hover and symbols at the cursor after each: every prefix of the
    /// text is seen by the server. `every` thins the requests (each `every`th character).
    public static func typeOut(_ text: String, every: Int = 1) -> [Violation] {
        let session = Session()
        session.open("")
        for (count, character) in text.enumerated() {
            guard session.violations.isEmpty else { break }
            let end = session.endPosition
            session.change(from: end, to: end, insert: String(character))
            if count % max(1, every) == 0 {
                let cursor = session.endPosition
                session.request("textDocument/completion", ["position": cursor.json])
                session.request("textDocument/hover", ["position": cursor.json])
                session.request("textDocument/documentSymbol", [:])
            }
        }
        session.request("textDocument/formatting", ["options": ["tabSize": 4, "insertSpaces": true]])
        session.close()
        return session.violations
    }

    /// A position as the oracle computes it.
    struct Position {
        var line: Int
        var character: Int
        var json: JSON { ["line": .int(line), "character": .int(character)] }
    }

    final class Session {
        var violations: [Violation] = []
        /// The document as UTF-16 code units.
        var text: [UInt16] = []
        private let box: Outbox
        private let server: LanguageServer
        private var nextID = 1
        private var version = 1

        init() {
            let box = Outbox()
            self.box = box
            server = LanguageServer { box.messages.append($0) }
        }

        final class Outbox {
            var messages: [JSON] = []
        }

        func fail(_ description: String) {
            violations.append(Violation(description: description))
        }

        /// Line starts in UTF-16 units (lines end at `\n`, `\r\n` or `\r`).
        var lineStarts: [Int] {
            var starts = [0]
            var index = 0
            while index < text.count {
                if text[index] == 10 {
                    starts.append(index + 1)
                } else if text[index] == 13 {
                    if index + 1 < text.count, text[index + 1] == 10 { index += 1 }
                    starts.append(index + 1)
                }
                index += 1
            }
            return starts
        }

        /// The units of line `line` without its terminator.
        func lineLength(_ line: Int, _ starts: [Int]) -> Int {
            var end = line + 1 < starts.count ? starts[line + 1] : text.count
            if end > starts[line], text[end - 1] == 10 { end -= 1 }
            if end > starts[line], text[end - 1] == 13 { end -= 1 }
            return end - starts[line]
        }

        var endPosition: Position {
            let starts = lineStarts
            return Position(line: starts.count - 1, character: lineLength(starts.count - 1, starts))
        }

        /// The offset of a position (past the last line: the end; past a line's end: its end).
        func offset(_ position: Position, starts known: [Int]? = nil) -> Int {
            let starts = known ?? lineStarts
            guard position.line < starts.count else { return text.count }
            return starts[position.line] + min(position.character, lineLength(position.line, starts))
        }

        /// A position picked by two numbers: any line (or one past the last), and a character
        /// at a code-point boundary of it (or one past its end).
        func position(_ a: UInt8, _ b: UInt8) -> Position {
            let starts = lineStarts
            let line = Int(a) % (starts.count + 1)
            guard line < starts.count else { return Position(line: line, character: Int(b) % 3) }
            let length = lineLength(line, starts)
            var boundaries: [Int] = []
            for unit in 0...length where unit == length || !UTF16.isTrailSurrogate(text[starts[line] + unit]) { boundaries.append(unit) }
            let pick = Int(b) % (boundaries.count + 1)
            return Position(line: line, character: pick < boundaries.count ? boundaries[pick] : length + 1 + Int(b) % 3)
        }

        func open(_ initial: String) {
            text = Array(initial.utf16)
            request("initialize", ["capabilities": [:], "rootUri": .null], withDocument: false)
            notify("initialized", [:])
            notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "model", "version": 1, "text": .string(initial)]])
            checkText()
        }

        func close() {
            notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
            request("shutdown", .null, withDocument: false)
            notify("exit", .null)
            if server.exitStatus != 0 { fail("exit after shutdown gave status \(server.exitStatus.map(String.init) ?? "none")") }
        }

        /// One step: 0 insert, 1 delete, 2 replace, 3 a request (which by `b`).
        func step(_ what: UInt8, _ a: UInt8, _ b: UInt8, _ c: UInt8) {
            let piece = pieces[Int(c) % pieces.count]
            switch what % 4 {
            case 0:
                let at = position(a, b)
                change(from: at, to: at, insert: piece)
            case 1, 2:
                var from = position(a, b)
                var to = position(a &+ c % 3, b &+ c)
                if offset(to) < offset(from) { swap(&from, &to) }
                change(from: from, to: to, insert: what % 4 == 1 ? "" : piece)
            default:
                let at = position(a, c)
                switch b % 9 {
                case 0: request("textDocument/completion", ["position": at.json])
                case 1: request("textDocument/hover", ["position": at.json])
                case 2: request("textDocument/definition", ["position": at.json])
                case 3: request("textDocument/references", ["position": at.json, "context": ["includeDeclaration": true]])
                case 4: request("textDocument/rename", ["position": at.json, "newName": c % 2 == 0 ? "Renamed" : "名前"])
                case 5: request("textDocument/prepareRename", ["position": at.json])
                case 6: request("textDocument/documentSymbol", [:])
                case 7:
                    request("textDocument/codeAction", ["range": ["start": Position(line: 0, character: 0).json, "end": endPosition.json],
                                                        "context": ["diagnostics": []]])
                default: format()
                }
            }
        }

        func change(from: Position, to: Position, insert: String) {
            let lower = offset(from)
            let upper = max(lower, offset(to))
            text.replaceSubrange(lower..<upper, with: Array(insert.utf16))
            version += 1
            notify("textDocument/didChange", [
                "textDocument": ["uri": .string(uri), "version": .int(version)],
                "contentChanges": [["range": ["start": from.json, "end": to.json], "text": .string(insert)]],
            ])
            checkText()
        }

        /// Formats, applies the edits, and checks that formatting again changes nothing.
        func format() {
            guard let edits = request("textDocument/formatting", ["options": ["tabSize": 4, "insertSpaces": true]])?.array, !edits.isEmpty else { return }
            guard edits.count == 1, let range = edits[0]["range"], let newText = edits[0]["newText"]?.string,
                  let start = range["start"], let end = range["end"] else {
                fail("formatting answered \(edits.count) edits, expected one edit of the whole text")
                return
            }
            change(from: Position(line: start["line"]?.int ?? 0, character: start["character"]?.int ?? 0),
                   to: Position(line: end["line"]?.int ?? 0, character: end["character"]?.int ?? 0), insert: newText)
            if let again = request("textDocument/formatting", ["options": ["tabSize": 4, "insertSpaces": true]])?.array, !again.isEmpty {
                fail("formatted text is not formatted: \(again)")
            }
        }

        private func checkText() {
            let held = server.documentText(uri: uri)
            let expected = String(decoding: text, as: UTF16.self)
            if held != expected {
                fail("the server's text differs from the edits' text:\n\(held.map { String(reflecting: $0) } ?? "none")\nexpected:\n\(String(reflecting: expected))")
            }
            drain()
        }

        func notify(_ method: String, _ params: JSON) {
            server.handle(["jsonrpc": "2.0", "method": .string(method), "params": params])
        }

        @discardableResult
        func request(_ method: String, _ params: JSON, withDocument: Bool = true) -> JSON? {
            var params = params
            if withDocument, case .object(var object) = params {
                object["textDocument"] = ["uri": .string(uri)]
                params = .object(object)
            }
            let id = nextID
            nextID += 1
            server.handle(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
            let responses = box.messages.filter { $0["id"] != nil }
            var result: JSON?
            if responses.count != 1 || responses.first?["id"] != .int(id) {
                fail("\(method) got \(responses.count) responses: \(responses)")
            } else if let error = responses[0]["error"] {
                if error["code"]?.int == -32603 || error["code"]?.int == -32601 { fail("\(method) failed: \(error)") }
            } else {
                result = responses[0]["result"]
                checkRanges(responses[0], what: method)
            }
            drain()
            return result
        }

        /// Checks the notifications sent so far and forgets them.
        private func drain() {
            for message in box.messages where message["id"] == nil {
                checkRanges(message, what: message["method"]?.string ?? "notification")
            }
            box.messages = []
        }

        /// Every `range` inside `value` lies inside the document.
        private func checkRanges(_ value: JSON, what: String) {
            var pending = [value]
            let starts = lineStarts
            while let next = pending.popLast() {
                if case .array(let items) = next { pending += items }
                guard case .object(let object) = next else { continue }
                for (key, item) in object {
                    if key == "range" || key == "selectionRange", let start = item["start"], let end = item["end"] {
                        for point in [start, end] {
                            guard let line = point["line"]?.int, let character = point["character"]?.int,
                                  line >= 0, line < starts.count, character >= 0, character <= lineLength(line, starts) else {
                                fail("\(what) sent a range outside the document (\(starts.count) lines): \(item) in \(String(reflecting: String(decoding: text, as: UTF16.self)))")
                                return
                            }
                        }
                        let lower = offset(Position(line: start["line"]?.int ?? 0, character: start["character"]?.int ?? 0), starts: starts)
                        let upper = offset(Position(line: end["line"]?.int ?? 0, character: end["character"]?.int ?? 0), starts: starts)
                        if upper < lower { fail("\(what) sent a range that ends before it starts: \(item)") }
                    } else {
                        pending.append(item)
                    }
                }
            }
        }
    }
}
