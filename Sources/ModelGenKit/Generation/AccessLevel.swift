/// The access level of generated declarations (`--access-level`).
public enum AccessLevel: String, CaseIterable, Sendable {
    case `internal`
    case `public`
    case package

    /// The keyword and a space, put before every generated declaration (`internal ` too: explicit).
    var keyword: String {
        rawValue + " "
    }
}
