/// Turns a checked schema into Swift source: one file per input file, holding the entities, enums
/// and containers that file declares, rendered through the templates.
public struct CodeGenerator: Sendable {
    public var templates: TemplateSet
    public var accessLevel: AccessLevel

    public init(templates: TemplateSet = TemplateSet(), accessLevel: AccessLevel = .internal) {
        self.templates = templates
        self.accessLevel = accessLevel
    }

    /// The generated text of each input, in order.
    public func generate(_ schema: CheckedSchema, for inputs: [GenerationInput]) throws(TemplateError) -> [String] {
        var texts: [String] = []
        for input in inputs {
            texts.append(try generate(schema, for: input))
        }
        return texts
    }

    /// The generated text of one input file.
    public func generate(_ schema: CheckedSchema, for input: GenerationInput) throws(TemplateError) -> String {
        let model = SchemaTranslator(schema: schema, accessLevel: accessLevel).file(input)
        let rendered = try templates.render(TemplateSet.rootTemplateName, with: Self.mustacheValue(of: model))
        return SourceLayout.tidy(rendered)
    }

    /// The view model as a Mustache value (through its `Encodable` form).
    static func mustacheValue(of model: some Encodable) -> MustacheValue {
        // Encoding plain structs of strings, numbers, booleans and arrays cannot fail.
        (try? MustacheValueEncoder.encode(model)) ?? .null
    }
}

/// Whitespace clean-up of rendered source, so templates can be laid out for reading.
enum SourceLayout {
    /// Removes trailing spaces, blank lines at the start, after `{` and before `}`, runs of blank
    /// lines (one is kept), and ends the text with exactly one newline.
    static func tidy(_ text: String) -> String {
        var lines: [Substring] = []
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = rawLine
            while let last = line.last, last == " " || last == "\t" || last == "\r" { line.removeLast() }
            if line.isEmpty {
                guard let previous = lines.last, !previous.isEmpty, !previous.hasSuffix("{") else { continue }
            } else if line.trimmingPrefix(while: { $0 == " " }).hasPrefix("}"), lines.last?.isEmpty == true {
                lines.removeLast()
            }
            lines.append(line)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension Substring {
    fileprivate func trimmingPrefix(while predicate: (Character) -> Bool) -> Substring {
        self[(firstIndex { !predicate($0) } ?? endIndex)...]
    }
}
