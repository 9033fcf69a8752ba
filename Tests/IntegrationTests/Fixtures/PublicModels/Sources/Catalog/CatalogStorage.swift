import ModelStore

// SwiftPM makes no module of a target without Swift files, so a library whose models are all in
// `.model` files keeps at least one (here, a helper for the modules that use the catalog).

/// The catalog's store, in memory (for previews and tests of the modules that use the catalog).
public func makeInMemoryCatalog() throws -> ModelContainer {
    try ModelContainer(for: CatalogStore.schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
}
