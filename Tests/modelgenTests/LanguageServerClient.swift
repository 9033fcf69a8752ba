import Foundation

/// A JSON-RPC client of `modelgen lsp`: starts the built binary, frames messages with
/// `Content-Length` headers, and reads what the server sends on a thread of its own, so a test
/// waits for a message with a deadline instead of blocking on the pipe.
final class LanguageServerClient: @unchecked Sendable {
    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let condition = NSCondition()
    private var buffer: [UInt8] = []
    private var messages: [[String: Any]] = []
    private var ended = false
    private var nextID = 1
    /// Every notification received, in order (diagnostics among them).
    private(set) var notifications: [[String: Any]] = []

    init(arguments: [String] = ["lsp"], in directory: URL? = nil) throws {
        process.executableURL = ToolRunner.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? ToolRunner.packageRoot
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                condition.lock()
                if data.isEmpty {
                    ended = true
                } else {
                    buffer += data
                    while let message = takeMessage() { messages.append(message) }
                }
                condition.broadcast()
                condition.unlock()
                if data.isEmpty { return }
            }
        }
    }

    /// One framed message from the front of `buffer`, if complete.
    private func takeMessage() -> [String: Any]? {
        guard let end = buffer.indices.dropLast(3).first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10 }) else { return nil }
        let header = String(decoding: buffer[..<end], as: UTF8.self)
        let length = header.split(separator: "\r\n").compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            return parts.count == 2 && parts[0].lowercased() == "content-length" ? Int(parts[1].trimmingCharacters(in: .whitespaces)) : nil
        }.first ?? 0
        guard buffer.count >= end + 4 + length else { return nil }
        let body = Data(buffer[(end + 4)..<(end + 4 + length)])
        buffer.removeFirst(end + 4 + length)
        return (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? ["unparsed": String(decoding: body, as: UTF8.self)]
    }

    func send(_ message: [String: Any]) throws {
        var message = message
        message["jsonrpc"] = "2.0"
        let body = try JSONSerialization.data(withJSONObject: message)
        input.fileHandleForWriting.write(Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }

    /// Writes bytes as they are (a broken message).
    func write(raw: Data) {
        input.fileHandleForWriting.write(raw)
    }

    func notify(_ method: String, _ params: [String: Any]) throws {
        try send(["method": method, "params": params])
    }

    /// Sends a request and waits for its response (notifications that arrive meanwhile are kept).
    func request(_ method: String, _ params: Any, timeout: TimeInterval = 60) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        try send(["id": id, "method": method, "params": params])
        return try wait(timeout: timeout, what: "the response to \(method)") { ($0["id"] as? Int) == id && $0["method"] == nil }
    }

    /// Waits for the first message `matching` (earlier notifications are kept in `notifications`).
    func wait(timeout: TimeInterval = 60, what: String, matching: ([String: Any]) -> Bool) throws -> [String: Any] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            while !messages.isEmpty {
                let message = messages.removeFirst()
                if message["id"] == nil || message["method"] != nil { notifications.append(message) }
                if matching(message) { return message }
            }
            if ended { throw Timeout(description: "the server ended its output before \(what)") }
            guard condition.wait(until: deadline) else { throw Timeout(description: "no \(what) within \(timeout) s") }
        }
    }

    /// Waits for diagnostics of `uri` that satisfy `accept`.
    func diagnostics(for uri: String, timeout: TimeInterval = 60, _ accept: ([[String: Any]]) -> Bool = { _ in true }) throws -> [[String: Any]] {
        let message = try wait(timeout: timeout, what: "diagnostics of \(uri)") { message in
            guard message["method"] as? String == "textDocument/publishDiagnostics",
                  let params = message["params"] as? [String: Any], params["uri"] as? String == uri,
                  let diagnostics = params["diagnostics"] as? [[String: Any]] else { return false }
            return accept(diagnostics)
        }
        return ((message["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]]) ?? []
    }

    /// Closes the server's input and waits for it to end; returns its exit status.
    func finish(timeout: TimeInterval = 30) throws -> Int32 {
        try? input.fileHandleForWriting.close()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            throw Timeout(description: "the server did not exit within \(timeout) s")
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

/// LSP positions and ranges in tests.
func position(_ line: Int, _ character: Int) -> [String: Any] { ["line": line, "character": character] }

func range(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int) -> [String: Any] {
    ["start": position(startLine, startCharacter), "end": position(endLine, endCharacter)]
}
