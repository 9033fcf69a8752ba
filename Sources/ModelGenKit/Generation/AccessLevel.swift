/// The access level of generated declarations (`--access-level`).
public enum AccessLevel: String, CaseIterable, Sendable {
    case `internal`
    case `public`
    case package

    /// The keyword and a space, put before every generated declaration (`internal ` too: explicit).
    var keyword: String {
        rawValue + " "
    }

    /// The keywords of the hooks ModelStore calls (`init(from:)`, `_encode(to:)`, …): at the public
    /// level they are SPI of the generated module too (`@_spi(ModelStoreGenerated) public `), so a
    /// client of a module with public models sees the models' API and not the hooks.
    var hookKeyword: String {
        self == .public ? "@_spi(ModelStoreGenerated) public " : keyword
    }
}
