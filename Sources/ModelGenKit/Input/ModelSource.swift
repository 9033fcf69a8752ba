/// One `.model` (or `.modelversion`) file of a run: its bytes, the path diagnostics print, and the
/// path its generated file is named from. What the load stage hands to the parse stage.
public struct ModelSource: Sendable {
    /// The path as the user named it, and the bytes read (possibly invalid UTF-8).
    public var file: SourceFile
    /// For a file found inside a folder input: its path below that folder (`Travel/Trips.model`);
    /// for a file named directly: its file name. The output file is named from it (docs/CommandLine.md).
    public var relativePath: String

    /// A model file; `relativePath` defaults to the file name (a file named directly).
    public init(_ file: SourceFile, relativePath: String? = nil) {
        self.file = file
        self.relativePath = relativePath ?? Self.lastComponent(of: file.path)
    }

    /// A model file from text in memory.
    public init(path: String, text: String, relativePath: String? = nil) {
        self.init(SourceFile(path: path, text: text), relativePath: relativePath)
    }

    /// The path as the user named it.
    public var path: String { file.path }

    /// Whether it is a frozen version of the model (a `.modelversion` file, docs/Migrations.md), not the current model.
    public var isVersionFile: Bool { SchemaVersion.isVersionFile(file.path) }

    /// For a `.modelversion` file, the version its name gives (`1.2.modelversion` → 1.2.0); nil
    /// for a `.model` file or a version file whose name is not a version.
    public var version: SchemaVersion? { SchemaVersion.ofVersionFile(file.path) }

    /// The file name alone (`Trips.model`), as the generated file's header names it.
    var fileName: String { Self.lastComponent(of: file.path) }

    private static func lastComponent(of path: String) -> String {
        String(path.split(separator: "/", omittingEmptySubsequences: true).last ?? Substring(path))
    }
}
