import Foundation

/// Random attribute values, edge cases first: value `i` of a run is the i-th edge case while
/// there are any, then random.
struct RandomValues {
    var random: ReliabilityRandom
    /// Whether strings may hold U+0000 (PostgreSQL's text cannot: there U+0001 stands in for it).
    var allowsNUL = true

    init(seed: UInt64, allowsNUL: Bool = true) {
        random = ReliabilityRandom(seed: seed)
        self.allowsNUL = allowsNUL
    }

    mutating func pick<T>(_ index: Int, _ edges: [T], _ make: (inout ReliabilityRandom) -> T) -> T {
        index < edges.count ? edges[index] : make(&random)
    }

    mutating func int64(_ index: Int) -> Int64 {
        pick(index, [Int64.min, Int64.max, 0, -1, 1, Int64.min + 1, Int64.max - 1, 1 << 53, (1 << 53) + 1]) { Int64.random(in: .min ... .max, using: &$0) }
    }

    mutating func int(_ index: Int) -> Int { Int(int64(index)) }

    mutating func fixed<T: FixedWidthInteger>(_ index: Int, _ type: T.Type) -> T {
        pick(index, [T.min, T.max, 0, T.max - 1]) { T.random(in: T.min ... T.max, using: &$0) }
    }

    /// Any double but NaN: signed zeros, infinities, subnormals, random bit patterns.
    mutating func double(_ index: Int) -> Double {
        let edges: [Double] = [-0.0, 0.0, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
                               .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                               .ulpOfOne, 0.1, 1e308, 9_007_199_254_740_992, -1.5]
        return pick(index, edges) { random in
            while true {
                let value = Double(bitPattern: random.next())
                if !value.isNaN { return value }
            }
        }
    }

    mutating func float(_ index: Int) -> Float {
        let edges: [Float] = [-0.0, 0.0, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1]
        return pick(index, edges) { random in
            while true {
                let value = Float(bitPattern: UInt32.random(in: 0 ... .max, using: &random))
                if !value.isNaN { return value }
            }
        }
    }

    mutating func date(_ index: Int) -> Date {
        let edges: [Date] = [.distantPast, .distantFuture, Date(timeIntervalSinceReferenceDate: 0),
                             Date(timeIntervalSince1970: 0), Date(timeIntervalSinceReferenceDate: -0.0),
                             Date(timeIntervalSinceReferenceDate: 1e-300), Date(timeIntervalSinceReferenceDate: 800_000_000.123456789)]
        return pick(index, edges) { Date(timeIntervalSinceReferenceDate: Double.random(in: -1e11 ... 1e11, using: &$0)) }
    }

    static let stringEdges = ["", "\0", "a\0b", "\0\0\0", "é", "e\u{301}", "日本語", "👩‍👩‍👧‍👦", "'", "\"",
                              "'; DROP TABLE \"Product\"; --", "/* */", "\r\n", "\u{FEFF}", "\u{10FFFF}",
                              String(repeating: "x", count: 5000)]

    /// Strings with NUL bytes, non-ASCII text, emoji, combining marks, quotes and SQL.
    mutating func string(_ index: Int) -> String {
        let (allowsNUL, nul): (Bool, Unicode.Scalar) = (self.allowsNUL, self.allowsNUL ? "\0" : "\u{1}")
        let edges = allowsNUL ? Self.stringEdges : Self.stringEdges.map { String(String.UnicodeScalarView($0.unicodeScalars.map { $0 == "\0" ? "\u{1}" : $0 })) }
        return pick(index, edges) { random in
            let length = Int.random(in: 0...40, using: &random)
            var scalars = String.UnicodeScalarView()
            for _ in 0..<length {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: scalars.append(Unicode.Scalar(UInt8.random(in: allowsNUL ? 0...127 : 1...127, using: &random)))
                case 1: scalars.append(Unicode.Scalar(UInt32.random(in: 0x80...0xD7FF, using: &random))!)
                case 2: scalars.append(Unicode.Scalar(UInt32.random(in: 0xE000...0x10FFFF, using: &random)) ?? "?")
                default: scalars.append(nul)
                }
            }
            return String(scalars)
        }
    }

    mutating func data(_ index: Int) -> Data {
        pick(index, [Data(), Data([0]), Data(repeating: 0xFF, count: 100)]) { random in
            Data((0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0 ... .max, using: &random) })
        }
    }

    mutating func decimal(_ index: Int) -> Decimal {
        let edges: [Decimal] = [0, -1, Decimal(string: "0.1")!, Decimal(string: "-123456789012345678901234567890.5")!,
                                Decimal(string: "1e100")!, Decimal(string: "1e-100")!, .greatestFiniteMagnitude, .leastNonzeroMagnitude]
        return pick(index, edges) { random in
            Decimal(sign: Bool.random(using: &random) ? .minus : .plus, exponent: Int.random(in: -30...30, using: &random),
                    significand: Decimal(UInt64.random(in: 0 ... .max, using: &random)))
        }
    }

    mutating func uuid(_ index: Int) -> UUID {
        pick(index, [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))]) { random in
            var bytes = (0..<16).map { _ in UInt8.random(in: 0 ... .max, using: &random) }
            return bytes.withUnsafeMutableBytes { $0.load(as: UUID.self) }
        }
    }

    mutating func url(_ index: Int) -> URL {
        let edges = ["https://example.com", "file:///tmp/a%20b", "https://例え.jp/パス?q=1#f", "mailto:a@b.c", "x:"]
        if index < edges.count { return URL(string: edges[index])! }
        let path = string(Int.max).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "p"
        return URL(string: "https://h\(Int.random(in: 0...999, using: &random)).example/\(path)")!
    }

    mutating func ints(_ index: Int) -> [Int] {
        pick(index, [[], [Int.min, Int.max, 0]]) { random in
            (0..<Int.random(in: 0...8, using: &random)).map { _ in Int.random(in: .min ... .max, using: &random) }
        }
    }
}
