import Foundation

/// A template that cannot be loaded or parsed (a usage error of `--templates`).
struct TemplateError: Error, Hashable, Sendable, CustomStringConvertible {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}

/// The templates of a run: the built-in ones (compiled into the binary from `Templates/`), each
/// replaceable by a file of the same name in a `--templates` folder. A replacement may extend the
/// built-in it replaces: `{{<entity}}…{{/entity}}` inside a user `entity.mustache` means the
/// built-in `entity`, whose `{{$blocks}}` it can then override.
struct TemplateSet: Sendable {
    /// The name of the template rendered once per generated file.
    static let rootTemplateName = "file"

    /// The built-in templates by name (file name without `.mustache`).
    static var builtin: [String: String] { BuiltinTemplates.all }

    /// Templates from the user, by name; they take precedence over the built-in ones.
    var overrides: [String: String]

    init(overrides: [String: String] = [:]) {
        self.overrides = overrides
    }

    /// Loads every `*.mustache` file of `directory` as an override and checks that all templates parse.
    init(overridesIn directory: URL) throws(TemplateError) {
        let fileManager = FileManager.default
        let names: [String]
        do {
            names = try fileManager.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw TemplateError("cannot read templates folder '\(directory.path)'")
        }
        var overrides: [String: String] = [:]
        for file in names.sorted() where file.hasSuffix(".mustache") {
            let url = directory.appendingPathComponent(file)
            guard let data = fileManager.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
                throw TemplateError("cannot read template '\(url.path)'")
            }
            overrides[String(file.dropLast(".mustache".count))] = text
        }
        self.init(overrides: overrides)
        try validate()
    }

    /// Parses every template, so that a broken one is reported before anything is generated.
    func validate() throws(TemplateError) {
        for (name, text) in overrides.sorted(by: { $0.key < $1.key }) {
            do {
                _ = try MustacheTemplate(text)
            } catch {
                throw TemplateError("template '\(name).mustache': \(error)")
            }
        }
    }

    /// A renderer that prints values as is (source code, not HTML) with these templates as
    /// partials; it keeps what it parsed for the renders after the first.
    func renderer() -> MustacheRenderer {
        MustacheRenderer(layers: [overrides, Self.builtin], escaping: .none)
    }
}
