import Foundation
import Testing
@_spi(ModelStoreGenerated) @testable import ModelStore

/// The `[String]` column fast path writes what `JSONEncoder` writes and reads it back; anything
/// it does not handle falls back to Codable with the same result.
@Suite struct StringArrayJSONTests {
    static let samples: [[String]] = [
        [], [""], ["Ann"], ["Ann", "Bob 7"], ["é", "日本", "emoji 🚀"], ["a\"b"], ["back\\slash"], ["a/b"], ["line\nbreak"], ["tab\t"],
        ["\u{7F}", "\u{1}"],
    ]

    @Test(arguments: samples)
    func storedTextMatchesJSONEncoder(_ strings: [String]) throws {
        let expected = String(decoding: try JSONEncoder().encode(strings), as: UTF8.self)
        #expect(strings.sqlValue == .text(expected))
        if let fast = StringArrayJSON.encode(strings) { #expect(fast == expected) }
    }

    @Test(arguments: samples)
    func storedTextReadsBack(_ strings: [String]) throws {
        #expect([String](sqlValue: strings.sqlValue) == strings)
    }

    @Test func textThatIsNotPlainGoesThroughJSONDecoder() {
        #expect(StringArrayJSON.decode(#"[ "a" ]"#) == nil)
        #expect([String](sqlValue: .text(#"[ "a" , "b\u00e9" ]"#)) == ["a", "bé"])
        #expect(StringArrayJSON.decode(#"["a","b"]x"#) == nil)
        #expect([String](sqlValue: .text(#"["a","b"]x"#)) == nil)
        #expect([String](sqlValue: .text("[\"a\nb\"]")) == nil)
        #expect([String](sqlValue: .text("[1,2]")) == nil)
        #expect([Int](sqlValue: .text("[1,2]")) == [1, 2])
    }
}
