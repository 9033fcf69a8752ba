import Foundation

/// The hand-written side's codec for `[String]` columns: the same JSON text the runtime stores
/// (`["a","b"]`), written and read by hand, as a careful hand-written data layer would.
enum StringArrayJSON {
    /// `strings` as a JSON array (`"`, `\` and control characters escaped).
    static func encode(_ strings: [String]) -> String {
        if strings.isEmpty { return "[]" }
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, string) in strings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(byte)
                case 0..<0x20:
                    bytes.append(contentsOf: Array(String(format: "\\u%04x", byte).utf8))
                default:
                    bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The strings of a JSON array read from `bytes`; escapes other than `\"` and `\\` go
    /// through `JSONDecoder`. Nil when the text is not an array of strings.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        if bytes.count == 2, bytes[0] == UInt8(ascii: "["), bytes[1] == UInt8(ascii: "]") { return [] }
        var strings: [String] = []
        var index = 0
        func skipSpaces() { while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 } }
        skipSpaces()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        skipSpaces()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { return [] }
        while index < bytes.count {
            skipSpaces()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            let start = index
            var escaped = false
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                if bytes[index] == UInt8(ascii: "\\") {
                    escaped = true
                    index += 1
                }
                index += 1
            }
            guard index < bytes.count else { return nil }
            let body = UnsafeBufferPointer(rebasing: bytes[start..<index])
            if escaped {
                guard let string = try? JSONDecoder().decode(String.self, from: Data([UInt8(ascii: "\"")] + body + [UInt8(ascii: "\"")])) else { return nil }
                strings.append(string)
            } else {
                strings.append(String(decoding: body, as: UTF8.self))
            }
            index += 1
            skipSpaces()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "]") { return index + 1 == bytes.count ? strings : nil }
            guard bytes[index] == UInt8(ascii: ",") else { return nil }
            index += 1
        }
        return nil
    }
}
