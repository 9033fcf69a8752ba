/// The access level of generated declarations (`--access-level`).
public enum AccessLevel: String, CaseIterable, Sendable {
    case `internal`
    case `public`
    case package

    /// The keyword and a space to put before a declaration ("" for internal, the default).
    var keyword: String {
        self == .internal ? "" : rawValue + " "
    }
}
