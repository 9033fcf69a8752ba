/// The parts of a version written `MAJOR[.MINOR[.PATCH]]` (missing parts are 0), or nil when `text`
/// is not one: one to three parts, each non-empty, decimal digits only (no sign), and at most
/// `maxDigits` digits per part when given. Shared by ModelGenKit's `SchemaVersion` and ModelStore's
/// `Schema.Version`.
package func parseVersionParts(_ text: String, maxDigits: Int? = nil) -> (major: Int, minor: Int, patch: Int)? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count) else { return nil }
    var numbers: [Int] = []
    for part in parts {
        guard !part.isEmpty, maxDigits.map({ part.utf8.count <= $0 }) ?? true,
            part.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let number = Int(part)
        else { return nil }
        numbers.append(number)
    }
    while numbers.count < 3 { numbers.append(0) }
    return (numbers[0], numbers[1], numbers[2])
}
