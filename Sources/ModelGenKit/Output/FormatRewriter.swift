import Foundation

/// `modelgen format --in-place`: rewrites model files with their formatted text.
enum FormatRewriter {
    /// Writes each file's text all or nothing (through `OutputWriter`), at the file a symbolic link
    /// points to, keeping each file's permissions.
    static func rewrite(_ files: [(source: SourceFile, text: String)]) throws(GeneratorError) {
        let outputs = files.map { file in
            PlannedOutput(url: URL(fileURLWithPath: file.source.path).resolvingSymlinksInPath(), contents: file.text)
        }
        let permissions = outputs.map { output in
            (try? FileManager.default.attributesOfItem(atPath: output.url.path))?[.posixPermissions]
        }
        do {
            try OutputWriter.write(outputs)
        } catch {
            throw GeneratorError(.writing, error.description)
        }
        for (output, permission) in zip(outputs, permissions) {
            if let permission {
                try? FileManager.default.setAttributes([.posixPermissions: permission], ofItemAtPath: output.url.path)
            }
        }
    }
}
