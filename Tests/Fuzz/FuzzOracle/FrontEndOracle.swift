import ModelGenKit

/// What a fuzz input must satisfy, beyond "no crash, no hang": the properties the fuzz target
/// checks on every input, and the regression tests check on every kept input.
public enum FrontEndOracle {
    /// A broken property: which one, and about what.
    public struct Violation: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The file name the fuzzed bytes are read as.
    public static let path = "Fuzz.model"

    /// Runs the whole front end on `bytes` through `ModelGen` (load, parse, check, generate to
    /// memory; render diagnostics, draw diagrams, format) and checks the properties:
    /// - the run ends with a result (an in-memory input this small never stops it with an error);
    /// - an input with an error has at least one error diagnostic;
    /// - every diagnostic (and note) position lies inside the input;
    /// - an accepted input generates Swift, the same text twice, and renders as diagrams;
    /// - an input that parses formats to text that parses and formats to itself; formatting an
    ///   accepted input keeps it accepted and generating the same Swift.
    /// Returns the violations found (empty when the input behaves).
    public static func check(_ bytes: [UInt8]) -> [Violation] {
        let source = SourceFile(path: path, bytes: bytes)
        let result: GeneratorResult
        do {
            result = try run(source)
        } catch {
            return [Violation(description: "the run stopped with a \(error.kind) error: \(error.message)")]
        }
        var violations: [Violation] = []
        if result.schema == nil && result.errorCount == 0 {
            violations.append(Violation(description: "input rejected without any error diagnostic"))
        }
        for diagnostic in result.diagnostics {
            violations += positionViolations(diagnostic.range, of: diagnostic, in: source)
            for note in diagnostic.notes {
                if let range = note.range { violations += positionViolations(range, of: diagnostic, in: source) }
            }
        }
        // Rendering reads the source lines the positions point at.
        _ = DiagnosticRenderer(sources: [source]).render(result.diagnostics)
        _ = DiagnosticJSON.encode(result.diagnostics)
        var generated: String?
        if let schema = result.schema {
            _ = ModelGen.diagram(of: schema, format: .dot)
            _ = ModelGen.diagram(of: schema, format: .mermaid)
            generated = result.outputs.first?.contents
            if generated == nil {
                violations.append(Violation(description: "accepted input generated no file"))
            } else if (try? run(source))?.outputs.first?.contents != generated {
                violations.append(Violation(description: "generation is not deterministic"))
            }
        }
        violations += formatViolations(source, generated: generated)
        return violations
    }

    /// One run of the generator on the oracle's one input file, keeping the output in memory.
    static func run(_ source: SourceFile) throws(GeneratorError) -> GeneratorResult {
        try ModelGen.run(.files([source]), options: GeneratorOptions(output: .inMemory))
    }

    /// Formatting properties: a file that parses formats to text that parses and formats to
    /// itself; the formatted text of an accepted file is accepted and generates the same Swift.
    static func formatViolations(_ source: SourceFile, generated: String?) -> [Violation] {
        guard let formatted = (try? ModelGen.format(.files([source])))?.formatted.first else { return [] }
        let reformatted: FormatResult
        do {
            reformatted = try ModelGen.format(.files([SourceFile(path: path, text: formatted)]))
        } catch {
            return [Violation(description: "formatting the formatted text stopped: \(error.message)")]
        }
        guard let again = reformatted.formatted.first else {
            let first = reformatted.diagnostics.first.map { "\($0.rule) '\($0.message)'" } ?? ""
            return [Violation(description: "formatted text does not parse: \(first)")]
        }
        var violations: [Violation] = []
        if again != formatted { violations.append(Violation(description: "formatting is not idempotent")) }
        if let generated {
            let checked = try? run(SourceFile(path: path, text: formatted))
            if checked?.schema == nil {
                violations.append(Violation(description: "formatted text of an accepted input is rejected"))
            } else if checked?.outputs.first?.contents != generated {
                violations.append(Violation(description: "formatting changed the generated code"))
            }
        }
        return violations
    }

    /// Problems with one range of `diagnostic`: outside the file, reversed, or with a line and
    /// column that do not match its byte offset.
    public static func positionViolations(_ range: SourceRange, of diagnostic: Diagnostic, in source: SourceFile) -> [Violation] {
        guard range.file == source.path else { return [] }
        var problems: [String] = []
        for (name, location) in [("start", range.start), ("end", range.end)] {
            if location.offset < 0 || location.offset > source.bytes.count {
                problems.append("\(name) offset \(location.offset) outside 0...\(source.bytes.count)")
            }
            if location.line < 1 || location.column < 1 {
                problems.append("\(name) line \(location.line) column \(location.column) not 1-based")
            }
        }
        if range.end.offset < range.start.offset {
            problems.append("end \(range.end.offset) before start \(range.start.offset)")
        }
        if let expected = lineOfOffset(range.start.offset, in: source.bytes), expected != range.start.line {
            problems.append("start line \(range.start.line) but offset \(range.start.offset) is on line \(expected)")
        }
        return problems.map { Violation(description: "\(diagnostic.rule) '\(diagnostic.message)': \($0)") }
    }

    /// The 1-based line holding byte `offset` (only `\n` ends a line, as in the lexer; a `\r`
    /// is whitespace), or nil when the offset is outside the input.
    public static func lineOfOffset(_ offset: Int, in bytes: [UInt8]) -> Int? {
        guard offset >= 0, offset <= bytes.count else { return nil }
        return 1 + bytes[..<offset].count { $0 == UInt8(ascii: "\n") }
    }
}
