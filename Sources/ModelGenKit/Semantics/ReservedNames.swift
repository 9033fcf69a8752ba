// Names the generated code needs for itself (rule `reserved-name`).

internal import SchemaEvolution

/// The names a model may not use, because the generated code or its runtime already does.
///
/// - Property names: the members every generated model gets from `PersistentModel`, `Observable`,
///   `Hashable` and `CustomStringConvertible` (`persistentModelID`, `modelContext`, `hasChanges`,
///   `isDeleted`, `hash`, `hashValue`, `description`, …), Swift's own `self`, `Self`, `Type`,
///   `Protocol`, `super`, `init`, and any name starting with `_` (the `@Observable`-style backing
///   storage of property `x` is `_x`, and the runtime uses `_$…`). `id` is not reserved: a model that
///   declares it (`@Attribute(.unique) id: String`) makes it its `Identifiable.id`.
/// - Field names of a struct: Swift's own words and `hashValue` (the struct is `Hashable`).
/// - Type names (entities, enums, containers, nested enums): the runtime's types (`ModelContext`,
///   `ModelContainer`, `Schema`, `PersistentModel`, `FetchDescriptor`, …) and the Swift and
///   Foundation types that generated code names (`String`, `Date`, `UUID`, `Codable`, …), which a
///   declaration of the same name would shadow.
enum ReservedNames {
    /// Property names the generated API uses.
    public static let propertyNames: Set<String> = [
        "persistentModelID", "modelContext", "hasChanges", "isDeleted", "hash", "hashValue",
        "description", "debugDescription", "persistentBackingData", "schemaMetadata", "observationRegistrar",
        "self", "Self", "Type", "Protocol", "super", "init", "deinit",
    ]

    /// Type names the generated code or its runtime use.
    public static let typeNames: Set<String> = Set(ScalarType.allCases.map(\.swiftName)).union([
        // The built-in value types (above, from SchemaEvolution's `ScalarType`); ModelStore: its module
        // name (generated code spells `ModelStore.X`), its API types (SwiftData's names, which an app's
        // own code uses beside the models) and the types generated code builds on.
        "ModelStore", "ModelContext", "ModelContainer", "ModelConfiguration", "Schema", "PersistentModel",
        "PersistentIdentifier", "FetchDescriptor", "SortDescriptor", "Predicate", "ModelObject",
        "EntityMetadata", "RowDecoder", "RowEncoder",
        // Other Swift and Foundation types that generated code spells.
        "Array", "Optional", "Dictionary", "Set",
        "Codable", "Sendable", "Hashable", "Equatable", "Identifiable", "CaseIterable", "Observable",
        "AnyObject", "Any", "Error", "Never", "Void", "Self", "Type", "Protocol", "Foundation", "Swift",
        "KeyPath", "AnyKeyPath", "PartialKeyPath", "ObservationRegistrar",
    ])

    /// Why `name` may not name a property, or `nil` when it may.
    public static func propertyReason(_ name: String) -> String? {
        if name.hasPrefix("_") { return "names starting with '_' are kept for generated storage" }
        if propertyNames.contains(name) { return "every generated model already has a member '\(name)'" }
        return nil
    }

    /// Field names of a struct that the generated struct uses.
    public static let fieldNames: Set<String> = ["hashValue", "self", "Self", "Type", "Protocol", "super", "init", "deinit"]

    /// Why `name` may not name a field of a struct, or `nil` when it may.
    public static func fieldReason(_ name: String) -> String? {
        fieldNames.contains(name) ? "every generated struct already has a member '\(name)'" : nil
    }

    /// Why `name` may not name a type, or `nil` when it may.
    public static func typeReason(_ name: String) -> String? {
        if typeNames.contains(name) { return "'\(name)' is a type the generated code uses" }
        return nil
    }
}
