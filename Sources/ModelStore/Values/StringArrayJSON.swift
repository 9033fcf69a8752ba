/// The fast path of `[String]` columns: the exact JSON text `JSONEncoder` writes for an array of
/// strings that need no escaping (`["a","b"]`), written and read without Codable. Anything else
/// (escapes, other shapes) returns nil and goes through `JSONEncoder`/`JSONDecoder`; whitespace
/// between the tokens is read (the text PostgreSQL's jsonb gives back has it).
enum StringArrayJSON {
    /// `strings` as `JSONEncoder` would write them, or nil when a string needs escaping
    /// (`"`, `\`, `/` or a control character).
    static func encode(_ strings: [String]) -> String? {
        if strings.isEmpty { return "[]" }
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, string) in strings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            for byte in string.utf8 {
                if needsEscape(byte) { return nil }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The strings of `text` when it is a JSON array of strings without escapes (`[]`, `["…","…"]`,
    /// with or without JSON whitespace between the tokens: PostgreSQL's jsonb prints `["a", "b"]`);
    /// else nil.
    static func decode(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { decode($0) }
    }

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        var index = 0
        let count = bytes.count
        /// Skips JSON whitespace (space, tab, line feed, carriage return).
        func skipWhitespace() {
            while index < count {
                let byte = bytes[index]
                guard byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D else { return }
                index += 1
            }
        }
        skipWhitespace()
        guard index < count, bytes[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        skipWhitespace()
        var strings: [String] = []
        guard index < count else { return nil }
        if bytes[index] == UInt8(ascii: "]") {
            index += 1
            skipWhitespace()
            return index == count ? strings : nil
        }
        while true {
            guard index < count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            let start = index
            while index < count, bytes[index] != UInt8(ascii: "\"") {
                if bytes[index] == UInt8(ascii: "\\") || bytes[index] < 0x20 { return nil }
                index += 1
            }
            guard index < count else { return nil }
            strings.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
            index += 1
            skipWhitespace()
            guard index < count else { return nil }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                skipWhitespace()
                return index == count ? strings : nil
            }
            guard bytes[index] == UInt8(ascii: ",") else { return nil }
            index += 1
            skipWhitespace()
        }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/")
    }
}
