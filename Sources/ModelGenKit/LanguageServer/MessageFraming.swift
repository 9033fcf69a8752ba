import Foundation

/// The base protocol of the Language Server Protocol: each JSON-RPC message is a header part
/// (`Content-Length: N`, optionally `Content-Type`, each line ended by `\r\n`), an empty line, then
/// N bytes of JSON (docs/Editors.md).
package struct MessageFraming {
    /// A body larger than this is refused (and skipped): no editor sends a 64 MB message.
    package static let maximumBodyBytes = 64 << 20

    private var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` start (consumed bytes are dropped in chunks).
    private var start = 0

    package init() {}

    /// Adds bytes read from the stream.
    package mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// What the next complete frame holds, if one has arrived: a body, or a header part that is
    /// not valid (no or a bad `Content-Length`, or a body over the limit), which is dropped.
    package enum Frame: Equatable {
        case body(Data)
        case badHeader(String)
    }

    /// The next complete frame, or nil when more bytes are needed.
    package mutating func next() -> Frame? {
        guard let headerEnd = headerEnd() else {
            // A header part that never ends is junk: drop it once it is larger than any header.
            if buffer.count - start > 64 << 10 {
                start = buffer.count
                compact()
                return .badHeader("header part without an end")
            }
            return nil
        }
        let header = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
        var length: Int?
        for line in header.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" else { continue }
            length = Int(parts[1].trimmingCharacters(in: .whitespaces))
        }
        let bodyStart = headerEnd + 4
        guard let length, length >= 0, length <= Self.maximumBodyBytes else {
            start = bodyStart
            compact()
            return .badHeader("missing or invalid Content-Length in '\(header)'")
        }
        guard buffer.count - bodyStart >= length else { return nil }
        let body = Data(buffer[bodyStart..<(bodyStart + length)])
        start = bodyStart + length
        compact()
        return .body(body)
    }

    /// The index of the `\r\n\r\n` ending the header part at `start`.
    private func headerEnd() -> Int? {
        var index = start
        while index + 3 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 { return index }
            index += 1
        }
        return nil
    }

    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 1 << 16 {
            buffer.removeFirst(start)
            start = 0
        }
    }

    /// A message framed for the stream.
    package static func frame(_ body: Data) -> Data {
        var data = Data("Content-Length: \(body.count)\r\n\r\n".utf8)
        data.append(body)
        return data
    }
}
