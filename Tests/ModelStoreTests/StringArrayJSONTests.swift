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
        #expect(StringArrayJSON.decode(#"[ "a\u00e9" ]"#) == nil)
        #expect([String](sqlValue: .text(#"[ "a" , "b\u00e9" ]"#)) == ["a", "bé"])
        #expect(StringArrayJSON.decode(#"["a","b"]x"#) == nil)
        #expect([String](sqlValue: .text(#"["a","b"]x"#)) == nil)
        #expect([String](sqlValue: .text("[\"a\nb\"]")) == nil)
        #expect([String](sqlValue: .text("[1,2]")) == nil)
        #expect([Int](sqlValue: .text("[1,2]")) == [1, 2])
    }

    /// PostgreSQL's jsonb gives the array back as `["a", "b"]`: the fast path reads JSON whitespace
    /// between tokens (without it, every `[String]` read on PostgreSQL went through `JSONDecoder`).
    @Test func whitespaceBetweenTokensIsRead() {
        #expect(StringArrayJSON.decode(#"["a", "b"]"#) == ["a", "b"])
        #expect(StringArrayJSON.decode(" [ \"a\" ,\n\t\"\" ]\r\n") == ["a", ""])
        #expect(StringArrayJSON.decode("[ ]") == [])
        #expect(StringArrayJSON.decode(#"["a", ]"#) == nil)
        #expect(StringArrayJSON.decode(#"["a" "b"]"#) == nil)
        #expect(StringArrayJSON.decode("[\u{A0}\"a\"]") == nil)  // not JSON whitespace
    }

    /// Oracle: random arrays of strings as `JSONEncoder` writes them, with random JSON whitespace
    /// between the tokens; the fast path gives `JSONDecoder`'s strings, or nil (then the column is
    /// read through `JSONDecoder`), and nil only when a string holds an escape.
    @Test func fastPathAgreesWithJSONDecoder() throws {
        var random = ReliabilityRandom(seed: ReliabilityRandom.runSeed())
        let alphabet: [String] = ["a", "Z", "0", " ", "é", "日", "🚀", ",", "[", "]", ":", "\"", "\\", "/", "\n", "\u{7F}"]
        let spaces = ["", " ", "\n", "\t", "\r", "  "]
        for _ in 0..<3000 {
            let strings = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                (0..<Int.random(in: 0...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
            }
            let compact = String(decoding: try JSONEncoder().encode(strings), as: UTF8.self)
            // Whitespace around the structural characters outside strings.
            var spaced = ""
            var inString = false
            var escaped = false
            for character in compact {
                if inString {
                    spaced.append(character)
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                    continue
                }
                spaced += spaces.randomElement(using: &random)! + String(character)
                if character == "\"" { inString = true } else { spaced += spaces.randomElement(using: &random)! }
            }
            for text in [compact, spaced] {
                let expected = try JSONDecoder().decode([String].self, from: Data(text.utf8))
                #expect(expected == strings)
                let fast = StringArrayJSON.decode(text)
                #expect(fast == nil || fast == expected, "\(text)")
                #expect((fast == nil) == text.contains("\\"), "\(text)")
                #expect([String](sqlValue: .text(text)) == expected, "\(text)")
            }
        }
    }
}
