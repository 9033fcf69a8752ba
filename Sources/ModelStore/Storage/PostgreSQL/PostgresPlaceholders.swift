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
        guard let numbered = numbered(sql) else { return (sql, 0) }
        return (String(decoding: numbered.output, as: UTF8.self), numbered.positions.count)
    }

    /// `rewrite(sql)`, with the type of each parameter when the SQL's casts fix every one
    /// (`castTypes`): none for SQL without `?` or `$`.
    static func rewriteWithCastTypes(_ sql: String) -> (sql: String, castTypes: [PostgresType]?) {
        guard let numbered = numbered(sql) else {
            // No placeholder: no parameter, unless the SQL numbers its own (`$1`).
            return (sql, sql.utf8.contains(UInt8(ascii: "$")) ? nil : [])
        }
        return (String(decoding: numbered.output, as: UTF8.self), castTypes(numbered.output, positions: numbered.positions))
    }

    /// The bytes of `sql` with its placeholders numbered, and where each `$n` starts in them; nil
    /// when it has no `?`.
    private static func numbered(_ sql: String) -> (output: [UInt8], positions: [Int])? {
        let bytes = Array(sql.utf8)
        guard bytes.contains(UInt8(ascii: "?")) else { return nil }
        var positions: [Int] = []
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
                positions.append(output.count)
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
        return (output, positions)
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

extension PostgresPlaceholders {
    /// The type names a builder casts a parameter to, and their types (the longest first, so that
    /// `bigint[]` is not read as `bigint`, `jsonb` not as `json`).
    private static let castTypeNames: [(name: [UInt8], type: PostgresType)] = [
        ("double precision[]", PostgresType(rawValue: 1022)), ("double precision", .float8),
        ("bigint[]", PostgresType(rawValue: 1016)), ("integer[]", PostgresType(rawValue: 1007)), ("numeric[]", PostgresType(rawValue: 1231)),
        ("boolean[]", PostgresType(rawValue: 1000)), ("bytea[]", PostgresType(rawValue: 1001)), ("text[]", PostgresType(rawValue: 1009)),
        ("uuid[]", PostgresType(rawValue: 2951)), ("smallint", .int2), ("integer", .int4), ("boolean", .bool), ("numeric", .numeric),
        ("bigint", .int8), ("bytea", .bytea), ("jsonb", .jsonb), ("real", .float4), ("text", .text), ("uuid", .uuid), ("json", .json),
    ].map { (Array($0.0.utf8), $0.1) }.sorted { $0.name.count > $1.name.count }

    /// The type of each parameter of `sql` (with `$1…$n`, the output of `rewrite`, whose
    /// placeholders start at `positions`) when the text fixes it: each is cast where it stands,
    /// `CAST($n AS type)` or `$n::type`, to one of `castTypeNames` (the server infers a cast
    /// parameter's type as the cast's: declaring it changes nothing). Nil when one is not.
    static func castTypes(_ sql: [UInt8], positions: [Int]) -> [PostgresType]? {
        var types: [PostgresType] = []
        types.reserveCapacity(positions.count)
        let open = Array("CAST(".utf8), asWord = Array(" AS ".utf8), colons = Array("::".utf8)
        for start in positions {
            var after = start + 1
            while after < sql.count, isDigit(sql[after]) { after += 1 }
            let type: PostgresType?
            if start >= open.count, sql[(start - open.count)..<start].elementsEqual(open),
               start == open.count || !isIdentifierByte(sql[start - open.count - 1]) {
                type = typeName(in: sql, at: after, after: asWord) { $0 == UInt8(ascii: ")") }
            } else {
                type = typeName(in: sql, at: after, after: colons) { byte in
                    byte.map { !isIdentifierByte($0) && $0 != UInt8(ascii: "[") && $0 != UInt8(ascii: "(") && $0 != UInt8(ascii: ".") } ?? true
                }
            }
            guard let type else { return nil }
            types.append(type)
        }
        return types
    }

    /// The type named at `index` in `sql` after `prefix`, when what follows the name (the next
    /// byte, nil at the end of the text) passes `ends`.
    private static func typeName(in sql: [UInt8], at index: Int, after prefix: [UInt8], ends: (UInt8?) -> Bool) -> PostgresType? {
        guard sql.count - index > prefix.count, sql[index..<(index + prefix.count)].elementsEqual(prefix) else { return nil }
        let start = index + prefix.count
        for (name, type) in castTypeNames where sql.count - start >= name.count {
            let end = start + name.count
            if sql[start..<end].elementsEqual(name), ends(end < sql.count ? sql[end] : nil) { return type }
        }
        return nil
    }
}
