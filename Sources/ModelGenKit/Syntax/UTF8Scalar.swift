/// Strict UTF-8 decoding of one scalar, without `String`'s repairing path (which throws internally,
/// and so is slow under a test harness that records a backtrace for every throw).
enum UTF8Scalar {
    /// The scalar starting at `bytes[index]` and its length in bytes, or nil when the bytes there
    /// are not valid UTF-8 (overlong forms, surrogates and values past U+10FFFF are invalid).
    static func decode<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at index: Bytes.Index) -> (UnicodeScalar, Int)? {
        let lead = bytes[index]
        let length: Int
        var value: UInt32
        switch lead {
        case 0x00...0x7F: return (UnicodeScalar(lead), 1)
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07)
        default: return nil
        }
        guard bytes.distance(from: index, to: bytes.endIndex) >= length else { return nil }
        for i in 1..<length {
            let continuation = bytes[bytes.index(index, offsetBy: i)]
            guard continuation & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(continuation & 0x3F)
        }
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= minimum, value <= 0x10FFFF, let scalar = UnicodeScalar(value) else { return nil }
        return (scalar, length)
    }

    /// The bytes as a `String`: each invalid sequence and each control character other than tab
    /// becomes U+FFFD, so the text is safe to print on a terminal.
    static func printableString(_ bytes: ArraySlice<UInt8>) -> String {
        var cleaned: [UInt8] = []
        cleaned.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte < 0x80 {
                if (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F {
                    cleaned += [0xEF, 0xBF, 0xBD]
                } else {
                    cleaned.append(byte)
                }
                index += 1
            } else if let (_, length) = decode(bytes, at: index) {
                cleaned += bytes[index..<(index + length)]
                index += length
            } else {
                cleaned += [0xEF, 0xBF, 0xBD]
                index += 1
            }
        }
        return String(decoding: cleaned, as: UTF8.self)
    }
}
