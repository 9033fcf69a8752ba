/// The `.modelversion` inputs of a run, checked before they are parsed: each is named by its
/// version (`1.0.0.modelversion`, `2.1.modelversion`), and no two name the same version.
enum VersionFiles {
    /// Throws an `InputError` (exit status 2) for a version file not named by a version, or two
    /// version files of one version (`1.0.modelversion` and `1.0.0.modelversion`).
    static func check(_ sources: [ModelSource]) throws(InputError) {
        var seen: [SchemaVersion: String] = [:]
        for source in sources where source.isVersionFile {
            guard let version = source.version else {
                throw InputError("'\(source.path)' is not named by a version: a frozen version is MAJOR[.MINOR[.PATCH]].\(SchemaVersion.fileExtension) (written by 'modelgen freeze --version V')")
            }
            if let other = seen[version] {
                throw InputError("'\(other)' and '\(source.path)' are both version \(version)")
            }
            seen[version] = source.path
        }
    }
}
