import Foundation
import Testing
@testable import ModelGenKit

/// Floating-point defaults Swift would warn about (subnormal, or underflowing to zero) are
/// generated as expressions that stand for the very same value (docs/Generation.md,
/// "Floating-point defaults"; found by Scripts/fuzz-generated.py). Oracle: the bits of the value
/// the expression names are those `Double`/`Float` read from the written literal. That swiftc
/// compiles them without a warning is checked on the generated golden
/// (ModelStoreTests' `SubnormalDefaultTests`).
@Suite struct FloatingPointLiteralTests {
    /// The bits a `…(bitPattern: 0x…)` expression names.
    func bits(_ expression: String) -> UInt64? {
        guard let start = expression.range(of: "bitPattern: 0x"), let end = expression[start.upperBound...].firstIndex(of: ")") else { return nil }
        return UInt64(expression[start.upperBound..<end], radix: 16)
    }

    @Test func subnormalsAreTheirBitPatterns() {
        #expect(SwiftLiteral.floatingPoint("5e-324", for: .double) == "Double(bitPattern: 0x0000000000000001)")
        #expect(SwiftLiteral.floatingPoint("-5e-324", for: .double) == "Double(bitPattern: 0x8000000000000001)")
        #expect(SwiftLiteral.floatingPoint("1e-45", for: .float) == "Float(bitPattern: 0x00000001)")
        #expect(SwiftLiteral.floatingPoint("4.9e-324", for: .timeInterval) == "Double(bitPattern: 0x0000000000000001)")
        #expect(SwiftLiteral.floatingPoint("5e-324", for: .cgFloat) == "CGFloat(Double(bitPattern: 0x0000000000000001))")
        #expect(SwiftLiteral.floatingPoint("1e-400", for: .double) == "0.0")
        #expect(SwiftLiteral.floatingPoint("-1e-400", for: .double) == "-0.0")
        #expect(SwiftLiteral.floatingPoint("1e-50", for: .float) == "0.0")
        // Everything else is written as it was.
        for text in ["0.0", "-0.0", "0e5", "1.5", "2.2250738585072014e-308", "1.7976931348623157e308", "0.1", "1e-5"] {
            #expect(SwiftLiteral.floatingPoint(text, for: .double) == text)
        }
        #expect(SwiftLiteral.floatingPoint("1.17549435e-38", for: .float) == "1.17549435e-38")
        #expect(SwiftLiteral.defaultExpression(.float("5e-324"), for: .decimal) == "Decimal(string: \"5e-324\")!")
        #expect(SwiftLiteral.defaultExpression(.array([.float("5e-324"), .float("1.5")]), for: .array(.double))
                == "[Double(bitPattern: 0x0000000000000001), 1.5]")
    }

    @Test func randomSubnormalsKeepTheirBits() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let double = Double(bitPattern: UInt64.random(in: 1..<(1 << 52), using: &generator) | (Bool.random() ? 1 << 63 : 0))
            let text = "\(double)"
            let expression = SwiftLiteral.floatingPoint(text, for: .double)
            #expect(bits(expression) == Double(text)?.bitPattern, "\(text) → \(expression)")

            let float = Float(bitPattern: UInt32.random(in: 1..<(1 << 23), using: &generator) | (Bool.random() ? 1 << 31 : 0))
            let floatText = "\(float)"
            let floatExpression = SwiftLiteral.floatingPoint(floatText, for: .float)
            #expect(floatExpression.hasPrefix("Float(bitPattern: 0x") && floatExpression.count == "Float(bitPattern: 0x00000000)".count)
            #expect(bits(floatExpression) == Float(floatText).map { UInt64($0.bitPattern) }, "\(floatText) → \(floatExpression)")
        }
    }
}
