/// Pairs each item of a new version with its origin in the old one (docs/Migrations.md: `originalName:`): first
/// by the same name, then, for the items left, by `originalName` when that name is neither still in
/// the new version nor already claimed. Shared by ModelGenKit's `SchemaDiff` and ModelStore's plan.
///
/// - Returns: the origin of every matched new item, by new name, and the renames (old name → new name).
package func matchOrigins<Old, New>(
    old: [String: Old], new: [New], newNames: Set<String>,
    name: (New) -> String, originalName: (New) -> String?
) -> (origins: [String: Old], renames: [String: String]) {
    var origins: [String: Old] = [:]
    var renames: [String: String] = [:]
    var claimed: Set<String> = []
    for item in new {
        if let origin = old[name(item)] {
            origins[name(item)] = origin
            claimed.insert(name(item))
        }
    }
    for item in new where origins[name(item)] == nil {
        guard let originalName = originalName(item), !newNames.contains(originalName), !claimed.contains(originalName),
            let origin = old[originalName]
        else { continue }
        origins[name(item)] = origin
        renames[originalName] = name(item)
        claimed.insert(originalName)
    }
    return (origins, renames)
}
