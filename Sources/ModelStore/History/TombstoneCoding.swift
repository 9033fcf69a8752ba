import Foundation

/// The preserved values of a deleted model (`@Attribute(.preserveValueOnDeletion)`) as one
/// blob of the change row: for each value, its property name and the value as stored, each
/// value keeping its storage class. Portable (a blob in any database), compact, and written
/// without an encoder object per change.
///
/// Layout, repeated per value: name length (LEB128), name (UTF-8), tag (0 null, 1 integer,
/// 2 real, 3 text, 4 blob), then for integer and real 8 bytes little-endian (a real as its bit
/// pattern), for text and blob a length (LEB128) and the bytes.
enum TombstoneCoding {
    static func encode(_ values: [(name: String, value: SQLValue)]) -> Data {
        bytes(values).withUnsafeBufferPointer { Data(buffer: $0) }
    }

    /// `encode`'s bytes, as an array (what a save binds: no `Data` storage to make and free).
    static func bytes(_ values: [(name: String, value: SQLValue)]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 32)
        for (name, value) in values { append(name, value, to: &bytes) }
        return bytes
    }

    /// Appends one value of `encode`'s layout to `bytes` (the values one by one, without a list of them).
    static func append(_ name: String, _ value: SQLValue, to bytes: inout [UInt8]) {
        appendText(name, to: &bytes)
        switch value {
        case .null:
            bytes.append(0)
        case .integer(let number):
            bytes.append(1)
            appendFixed(UInt64(bitPattern: number), to: &bytes)
        case .real(let number):
            bytes.append(2)
            appendFixed(number.bitPattern, to: &bytes)
        case .text(let text):
            bytes.append(3)
            appendText(text, to: &bytes)
        case .blob(let data):
            bytes.append(4)
            appendLength(data.count, to: &bytes)
            // From the bytes in place, as typed bytes (appending `Data`, or raw bytes, goes byte by byte).
            data.withUnsafeBytes { raw in raw.withMemoryRebound(to: UInt8.self) { bytes.append(contentsOf: $0) } }
        }
    }

    /// The values of a blob written by `encode`; nil when the bytes are not such a blob.
    static func decode(_ data: Data) -> [(name: String, value: SQLValue)]? {
        let bytes = [UInt8](data)
        var position = 0
        var result: [(name: String, value: SQLValue)] = []
        while position < bytes.count {
            guard let nameLength = readLength(bytes, &position), let nameBytes = take(bytes, &position, nameLength),
                  position < bytes.count else { return nil }
            let name = String(decoding: nameBytes, as: UTF8.self)
            let tag = bytes[position]
            position += 1
            let value: SQLValue
            switch tag {
            case 0:
                value = .null
            case 1:
                guard let bits = readFixed(bytes, &position) else { return nil }
                value = .integer(Int64(bitPattern: bits))
            case 2:
                guard let bits = readFixed(bytes, &position) else { return nil }
                value = .real(Double(bitPattern: bits))
            case 3:
                guard let length = readLength(bytes, &position), let text = take(bytes, &position, length) else { return nil }
                value = .text(String(decoding: text, as: UTF8.self))
            case 4:
                guard let length = readLength(bytes, &position), let blob = take(bytes, &position, length) else { return nil }
                value = .blob(Data(blob))
            default:
                return nil
            }
            result.append((name, value))
        }
        return result
    }

    private static func appendLength(_ length: Int, to bytes: inout [UInt8]) {
        var rest = UInt64(length)
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// A length (LEB128), then the UTF-8 bytes (copied at once where the string holds them so).
    static func appendText(_ text: String, to bytes: inout [UInt8]) {
        let utf8 = text.utf8
        appendLength(utf8.count, to: &bytes)
        if utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil { bytes.append(contentsOf: utf8) }
    }

    private static func appendFixed(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private static func readLength(_ bytes: [UInt8], _ position: inout Int) -> Int? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count, shift < 63 {
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value <= UInt64(Int.max) ? Int(value) : nil }
            shift += 7
        }
        return nil
    }

    private static func readFixed(_ bytes: [UInt8], _ position: inout Int) -> UInt64? {
        guard bytes.count - position >= 8 else { return nil }
        var value: UInt64 = 0
        for offset in 0..<8 { value |= UInt64(bytes[position + offset]) << UInt64(offset * 8) }
        position += 8
        return value
    }

    private static func take(_ bytes: [UInt8], _ position: inout Int, _ count: Int) -> ArraySlice<UInt8>? {
        guard count <= bytes.count - position else { return nil }
        defer { position += count }
        return bytes[position..<position + count]
    }
}
