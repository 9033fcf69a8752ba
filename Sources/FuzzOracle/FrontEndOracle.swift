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

    /// Runs the whole front end on `bytes` (lex, parse, check, render diagnostics, generate to
    /// memory, draw diagrams, format) and checks the properties:
    /// - an input with an error has at least one error diagnostic;
    /// - every diagnostic (and note) position lies inside the input;
    /// - an accepted input generates Swift without a template error, the same text twice, and
    ///   renders as diagrams;
    /// - an input that parses formats to text that parses and formats to itself; formatting an
    ///   accepted input keeps it accepted and generating the same Swift.
    /// Returns the violations found (empty when the input behaves).
    public static func check(_ bytes: [UInt8]) -> [Violation] {
        let source = SourceFile(path: path, bytes: bytes)
        let result = LintRun.run([source])
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
            _ = DotDiagram.render(schema)
            _ = MermaidDiagram.render(schema)
            do {
                generated = try generate(schema)
                if try generate(schema) != generated {
                    violations.append(Violation(description: "generation is not deterministic"))
                }
            } catch {
                violations.append(Violation(description: "accepted input fails to generate: \(error)"))
            }
        }
        violations += formatViolations(source, generated: generated)
        return violations
    }

    /// The Swift generated for the oracle's one input file.
    static func generate(_ schema: CheckedSchema) throws -> String {
        try CodeGenerator().generate(schema, for: GenerationInput(path: path))
    }

    /// Formatting properties: a file that parses formats to text that parses and formats to
    /// itself; the formatted text of an accepted file is accepted and generates the same Swift.
    static func formatViolations(_ source: SourceFile, generated: String?) -> [Violation] {
        guard let formatted = ModelFormatter.format(source).text else { return [] }
        let reformatted = ModelFormatter.format(SourceFile(path: path, text: formatted))
        guard let again = reformatted.text else {
            let first = reformatted.diagnostics.first.map { "\($0.rule) '\($0.message)'" } ?? ""
            return [Violation(description: "formatted text does not parse: \(first)")]
        }
        var violations: [Violation] = []
        if again != formatted { violations.append(Violation(description: "formatting is not idempotent")) }
        if let generated {
            let checked = LintRun.run([SourceFile(path: path, text: formatted)])
            if let schema = checked.schema {
                if (try? generate(schema)) != generated {
                    violations.append(Violation(description: "formatting changed the generated code"))
                }
            } else {
                violations.append(Violation(description: "formatted text of an accepted input is rejected"))
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
