/// Rewrites the `?` placeholders of the shared SQL builder into PostgreSQL's numbered `$1 … $n`.
///
/// A `?` inside a string literal (`'…'`, `E'…'` with backslash escapes, `$tag$…$tag$`), a quoted
/// identifier (`"…"`) or a comment (`-- …`, nested `/* … */`) is text and stays. `?::type` works
/// (`$1::type`), which is how a builder gives a parameter a type the server cannot infer
/// (`?::bigint IS NULL`). PostgreSQL's jsonb operators spelled with `?` (`?`, `?|`, `?&`) cannot
/// be written in such SQL: use `jsonb_exists`, `jsonb_exists_any`, `jsonb_exists_all`.
package enum PostgresPlaceholders {
    /// `sql` with its placeholders numbered, and how many there are. SQL with no `?` comes back
    /// unchanged (it may use `$n` itself).
    package static func rewrite(_ sql: String) -> (sql: String, count: Int) {
        let bytes = Array(sql.utf8)
        guard bytes.contains(UInt8(ascii: "?")) else { return (sql, 0) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var count = 0
        var index = 0
        let end = bytes.count

        /// Copies bytes up to and including the next `terminator` not doubled (`''`, `""`).
        func copyQuoted(_ terminator: UInt8, backslashEscapes: Bool) {
            output.append(bytes[index])
            index += 1
            while index < end {
                let byte = bytes[index]
                output.append(byte)
                index += 1
                if backslashEscapes, byte == UInt8(ascii: "\\"), index < end {
                    output.append(bytes[index])
                    index += 1
                } else if byte == terminator {
                    if index < end, bytes[index] == terminator {
                        output.append(bytes[index])
                        index += 1
                    } else {
                        return
                    }
                }
            }
        }

        /// The length of a dollar-quote tag (`$tag$` or `$$`) starting at `start`, or nil.
        func dollarTag(at start: Int) -> Int? {
            var cursor = start + 1
            if cursor < end, isDigit(bytes[cursor]) { return nil }  // `$1` is a parameter
            while cursor < end, isIdentifierByte(bytes[cursor]) { cursor += 1 }
            guard cursor < end, bytes[cursor] == UInt8(ascii: "$") else { return nil }
            return cursor - start + 1
        }

        while index < end {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "?"):
                count += 1
                output.append(UInt8(ascii: "$"))
                output.append(contentsOf: String(count).utf8)
                index += 1
            case UInt8(ascii: "'"):
                let escaped = index > 0 && (bytes[index - 1] == UInt8(ascii: "E") || bytes[index - 1] == UInt8(ascii: "e"))
                    && (index < 2 || !isIdentifierByte(bytes[index - 2]))
                copyQuoted(UInt8(ascii: "'"), backslashEscapes: escaped)
            case UInt8(ascii: "\""):
                copyQuoted(UInt8(ascii: "\""), backslashEscapes: false)
            case UInt8(ascii: "-") where index + 1 < end && bytes[index + 1] == UInt8(ascii: "-"):
                while index < end, bytes[index] != UInt8(ascii: "\n") {
                    output.append(bytes[index])
                    index += 1
                }
            case UInt8(ascii: "/") where index + 1 < end && bytes[index + 1] == UInt8(ascii: "*"):
                var depth = 0
                while index < end {
                    if bytes[index] == UInt8(ascii: "/"), index + 1 < end, bytes[index + 1] == UInt8(ascii: "*") {
                        depth += 1
                        output.append(contentsOf: bytes[index...index + 1])
                        index += 2
                    } else if bytes[index] == UInt8(ascii: "*"), index + 1 < end, bytes[index + 1] == UInt8(ascii: "/") {
                        depth -= 1
                        output.append(contentsOf: bytes[index...index + 1])
                        index += 2
                        if depth == 0 { break }
                    } else {
                        output.append(bytes[index])
                        index += 1
                    }
                }
            case UInt8(ascii: "$") where (index == 0 || !isIdentifierByte(bytes[index - 1])):
                guard let length = dollarTag(at: index) else {
                    output.append(byte)
                    index += 1
                    continue
                }
                let tag = bytes[index..<index + length]
                output.append(contentsOf: tag)
                index += length
                // Copy up to and including the closing tag (or to the end when there is none).
                while index < end {
                    if bytes[index] == UInt8(ascii: "$"), index + length <= end, bytes[index..<index + length].elementsEqual(tag) {
                        output.append(contentsOf: tag)
                        index += length
                        break
                    }
                    output.append(bytes[index])
                    index += 1
                }
            default:
                output.append(byte)
                index += 1
            }
        }
        return (String(decoding: output, as: UTF8.self), count)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// A byte of a dollar-quote tag or an unquoted identifier: ASCII letters, digits, `_`, and any
    /// non-ASCII byte (PostgreSQL allows letters beyond ASCII).
    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_") || byte >= 0x80
    }
}
