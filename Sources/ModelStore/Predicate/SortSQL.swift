import Foundation

/// Translates a fetch's `SortDescriptor`s into an SQL `ORDER BY` that gives exactly the order
/// Foundation's `sorted(using:)` gives for the same models (see docs/Predicates.md, "Sorting").
///
/// Each descriptor becomes one term: the value (a column of the fetched row, or a correlated
/// scalar subquery for a to-one key path such as `\.trip?.name`), the collation that compares as
/// Foundation does, the direction, and where `nil` goes. The primary key comes last: Foundation's
/// sort is stable, and the in-memory order it keeps for ties is the store's order.
enum SortSQL {
    /// ` ORDER BY …` (with a leading space) for `sortBy` on rows of `entity` (the outer query
    /// selects from `entity.tableName` without an alias), spelled for `dialect`. Throws
    /// `ModelStoreError.unsupportedPredicate` naming the first descriptor that has no SQL equivalent.
    static func orderBy<T>(_ sortBy: [SortDescriptor<T>], entity: EntitySchema, schema: Schema, dialect: any SQLDialect) throws -> SQLFragment {
        orderBy(try terms(sortBy, entity: entity, schema: schema, dialect: dialect), entity: entity)
    }

    /// ` ORDER BY …` of `terms`, then the primary key.
    static func orderBy(_ terms: [Term], entity: EntitySchema) -> SQLFragment {
        var parts = terms.map(\.orderTerm)
        parts.append("\(identifier: entity.tableName).\(identifier: StorageNames.primaryKey) ASC")
        return " ORDER BY \(SQLFragment.joined(parts, separator: ", "))"
    }

    /// One descriptor translated: the value it compares and how.
    struct Term {
        /// The compared value of the fetched row (a column, or a scalar subquery for a to-one key path).
        var value: SQLFragment
        /// The `ORDER BY` term: the value's sort key (the dialect's spelling of Swift's order), direction and `NULLS` placement.
        var orderTerm: SQLFragment
        /// How the descriptor compares (directions, string comparator).
        var comparison: SortComparison
        /// The kind of value compared.
        var kind: SortableKind
        /// How strings compare (for `kind == .string`).
        var stringOrder: StringSortOrder?
        /// The to-one relationships the key path follows.
        var relationships: [RelationshipSchema]
        /// The descriptor's key path.
        var keyPath: AnyKeyPath
    }

    /// Each descriptor's term, spelled for `dialect`. Throws `ModelStoreError.unsupportedPredicate`
    /// naming the first descriptor that has no SQL equivalent.
    static func terms<T>(_ sortBy: [SortDescriptor<T>], entity: EntitySchema, schema: Schema, dialect: any SQLDialect) throws -> [Term] {
        var context = TranslationContext(schema: schema, dialect: dialect, store: nil)
        return try sortBy.map { try term(for: $0, entity: entity, &context) }
    }

    /// One `ORDER BY` term.
    private static func term<T>(for descriptor: SortDescriptor<T>, entity: EntitySchema, _ context: inout TranslationContext) throws -> Term {
        guard let keyPath = descriptor.keyPath else {
            throw ModelStoreError.unsupportedPredicate("sort by a comparison without a key path")
        }
        guard let path = SortKeyPath.resolve(keyPath, in: entity, schema: context.schema) else {
            throw ModelStoreError.unsupportedPredicate(
                "sort by \(KeyPathText.describe(keyPath)): only stored attributes of \(entity.name) and of the models its to-one relationships lead to can be sorted on")
        }
        let comparison = SortComparison(descriptor)
        let order: SortKeyOrder?
        let kind: SortableKind
        var stringOrder: StringSortOrder?
        if let comparator = comparison.stringComparator {
            guard let known = StringSortOrder(comparator) else {
                throw ModelStoreError.unsupportedPredicate("sort by \(keyPath) with the string comparator \(comparator)")
            }
            stringOrder = known
            order = .string(known)
            kind = .string
        } else {
            guard let sortable = SortableKind(path.valueType) else {
                throw ModelStoreError.unsupportedPredicate(
                    "sort by \(keyPath): \(path.valueType) values are ordered by their own Comparable conformance, which has no SQL equivalent")
            }
            order = sortable.order
            kind = sortable
            // A `String` descriptor made without a comparator sorts as SwiftData's does on Apple
            // platforms, where its comparator is `.localizedStandard` (docs/Predicates.md, "Sorting").
            if sortable == .string { stringOrder = .localizedStandard }
        }
        var row = ModelReference.row(of: entity, alias: entity.tableName)
        for relationship in path.relationships {
            guard case .keyColumn(let column) = relationship.storage,
                  let destination = context.schema.entity(named: relationship.destinationName) else {
                throw ModelStoreError.unsupportedPredicate("sort by \(keyPath): \(relationship.entityName).\(relationship.name) is not a to-one relationship")
            }
            row = ModelReference(entity: destination, alias: nil, key: row.column(column, &context))
        }
        let value = row.column(path.attribute.column, &context)
        var term: SQLFragment = "\(value)"
        if let order {
            guard let key = context.dialect.sortKey(value, order) else {
                throw ModelStoreError.unsupportedPredicate("sort by \(keyPath): \(context.dialect.name) has no SQL order equal to this comparison")
            }
            term = key
        }
        term = "\(term) \(raw: comparison.valueOrder == .forward ? "ASC" : "DESC")"
        if path.isOptional { term = "\(term) \(raw: nullsPlacement(first: comparison.nilOrder == .forward))" }
        return Term(value: value, orderTerm: term, comparison: comparison, kind: kind, stringOrder: stringOrder,
                    relationships: path.relationships, keyPath: keyPath)
    }

    /// Where NULLs go. SQLite puts them first in `ASC` and last in `DESC` by default, as Foundation
    /// does when the value order and the `nil` order agree, but says it explicitly: they disagree
    /// for a `String?` descriptor whose `order` was changed after it was made (below), and other
    /// databases (PostgreSQL) default the other way.
    static func nullsPlacement(first: Bool) -> String {
        first ? "NULLS FIRST" : "NULLS LAST"
    }
}

/// The value types a sort can compare in SQL exactly as their `Comparable` conformance does.
enum SortableKind {
    /// Integers, `Double`, `CGFloat` (a Double), `Float` (stored as the Double holding it exactly), `Date` (seconds
    /// since 2001), `UUID` (16 bytes, compared bytewise as Foundation's `<` does).
    case plain
    /// `String`: `localizedStandardCompare` unless the descriptor names another comparator
    /// (SQLite's `MODELSTORE_LOCALIZED_STANDARD` collation, PostgreSQL's ICU collation).
    case string
    /// `Decimal`: compared as numbers (SQLite's `MODELSTORE_DECIMAL` collation over its text,
    /// PostgreSQL's `numeric`).
    case decimal

    init?(_ type: Any.Type) {
        switch type {
        case is String.Type: self = .string
        case is Decimal.Type: self = .decimal
        case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
             is UInt8.Type, is UInt16.Type, is UInt32.Type,
             is Double.Type, is Float.Type, is CGFloat.Type, is Date.Type, is UUID.Type:
            self = .plain
        default:
            // Bool, Data, URL and arrays are not Comparable; an enum (or any other type) that an
            // app makes Comparable is ordered by code SQL cannot see.
            return nil
        }
    }

    /// The order that compares such values as Swift does, if the store's own order of numbers does not.
    var order: SortKeyOrder? {
        switch self {
        case .plain: return nil
        case .string: return .string(.localizedStandard)
        case .decimal: return .decimal
        }
    }
}

/// How a `SortDescriptor` compares, read from the comparison Foundation stores in it.
///
/// `SortDescriptor.order` is a plain stored property: setting it after the descriptor was made
/// does not change the comparator Foundation made at `init`, so `compare` keeps the initial
/// direction (swift-foundation 6.3.1, `SortDescriptor.swift`). A `String?` descriptor made with a
/// `comparator:` is the exception for `nil`s, which it places by `order`. To give exactly
/// Foundation's order, the directions are those of the stored comparator.
///
/// The stored comparator is not public. It is found by equality (`SortDescriptor` is `Equatable`
/// over its `order`, key path and comparator): the descriptor is made again from its key path
/// with each initial direction, its `order` set to the given one's, and the one candidate equal to
/// it names the comparator's direction. Only when that does not decide (a value type the runtime
/// does not sort, or not exactly one candidate equal) is the comparison read through `Mirror`,
/// whose first use in a process looks protocol conformances up in the runtime (3.7 M instructions,
/// 19 % of a PostgreSQL fetch of `BusinessTrip` sorted by date, one repetition), and each later
/// use about 31 µs a term (docs/Benchmarks.md, "Where the remaining gaps go").
struct SortComparison {
    /// The direction non-nil values are compared in.
    var valueOrder: SortOrder
    /// `.forward` when `nil` sorts before every value, `.reverse` when after.
    var nilOrder: SortOrder
    /// The string comparator (its `order` forward), for a descriptor made with `comparator:`.
    var stringComparator: String.StandardComparator?

    init<T>(_ descriptor: SortDescriptor<T>) {
        valueOrder = descriptor.order
        nilOrder = descriptor.order
        stringComparator = descriptor.stringComparator
        if let (value, nils) = Self.ordersByEquality(descriptor) ?? Self.ordersByReflection(descriptor) {
            valueOrder = value
            nilOrder = nils
        }
    }

    /// The comparator's directions (values, `nil`s), read through `Mirror` (nil: no comparator found).
    static func ordersByReflection<T>(_ descriptor: SortDescriptor<T>) -> (SortOrder, SortOrder)? {
        // `comparison` is `.comparable(AnySortComparator, keyPath)`,
        // `.comparableString(String.StandardComparator, keyPath)` or
        // `.comparableOptionalString(String.StandardComparator, keyPath)`.
        guard let comparison = Mirror(reflecting: descriptor).descendant("comparison"),
              let stored = Mirror(reflecting: comparison).children.first,
              let comparator = Mirror(reflecting: stored.value).children.first?.value as? any SortComparator else {
            return nil
        }
        return (comparator.order, stored.label == "comparableOptionalString" ? descriptor.order : comparator.order)
    }

    /// The comparator's directions (values, `nil`s), found by equality with descriptors made again
    /// from the key path; nil when that does not decide.
    static func ordersByEquality<T>(_ descriptor: SortDescriptor<T>) -> (SortOrder, SortOrder)? {
        guard let keyPath = descriptor.keyPath else { return nil }
        if let comparator = descriptor.stringComparator {
            if let path = sendable(keyPath as? KeyPath<T, String>) {
                return initialOrder(of: descriptor) { SortDescriptor(path, comparator: comparator, order: $0) }.map { ($0, $0) }
            }
            if let path = sendable(keyPath as? KeyPath<T, String?>) {
                return initialOrder(of: descriptor) { SortDescriptor(path, comparator: comparator, order: $0) }.map { ($0, descriptor.order) }
            }
            return nil
        }
        func made<Value: Comparable>(_: Value.Type) -> (SortOrder, SortOrder)? {
            if let path = sendable(keyPath as? KeyPath<T, Value>) {
                return initialOrder(of: descriptor) { SortDescriptor(path, order: $0) }.map { ($0, $0) }
            }
            if let path = sendable(keyPath as? KeyPath<T, Value?>) {
                return initialOrder(of: descriptor) { SortDescriptor(path, order: $0) }.map { ($0, $0) }
            }
            return nil
        }
        // The value types `SortableKind` sorts, compared by identity (a cast to an existential,
        // such as `any Comparable.Type`, would look conformances up in the runtime).
        let valueType = type(of: keyPath).valueType
        func holds<Value>(_: Value.Type) -> Bool { valueType == Value.self || valueType == Value?.self }
        if holds(Date.self) { return made(Date.self) }
        if holds(String.self) { return made(String.self) }
        if holds(Int.self) { return made(Int.self) }
        if holds(Double.self) { return made(Double.self) }
        if holds(Int64.self) { return made(Int64.self) }
        if holds(Int32.self) { return made(Int32.self) }
        if holds(Int16.self) { return made(Int16.self) }
        if holds(Int8.self) { return made(Int8.self) }
        if holds(UInt32.self) { return made(UInt32.self) }
        if holds(UInt16.self) { return made(UInt16.self) }
        if holds(UInt8.self) { return made(UInt8.self) }
        if holds(Float.self) { return made(Float.self) }
        if holds(CGFloat.self) { return made(CGFloat.self) }
        if holds(UUID.self) { return made(UUID.self) }
        if holds(Decimal.self) { return made(Decimal.self) }
        return nil
    }

    /// `path` as the `Sendable` key path `SortDescriptor`'s initializers take. The descriptor's own
    /// key path was one when it was made (it is the same object; `keyPath` hands it back without
    /// the marker protocol, which a cast cannot test).
    private static func sendable<Root, Value>(_ path: KeyPath<Root, Value>?) -> (KeyPath<Root, Value> & Sendable)? {
        path.map { unsafeBitCast($0, to: (KeyPath<Root, Value> & Sendable).self) }
    }

    /// The initial direction `make` must be given for a descriptor equal to `descriptor` once its
    /// `order` is set to `descriptor`'s: nil unless exactly one direction gives one.
    private static func initialOrder<T>(of descriptor: SortDescriptor<T>, _ make: (SortOrder) -> SortDescriptor<T>) -> SortOrder? {
        var found: SortOrder?
        for initial in [SortOrder.forward, .reverse] {
            var candidate = make(initial)
            candidate.order = descriptor.order
            guard candidate == descriptor else { continue }
            if found != nil { return nil }
            found = initial
        }
        return found
    }
}

/// A sort key path resolved against the schema: the to-one relationships it follows from the
/// fetched entity (none for `\.name`; `trip` for `\.trip?.name`), then a stored attribute.
struct SortKeyPath {
    /// The to-one relationships followed, in order.
    var relationships: [RelationshipSchema]
    /// The attribute compared, of the entity the relationships lead to.
    var attribute: AttributeColumn
    /// The attribute's Swift type without `Optional`.
    var valueType: Any.Type
    /// Whether the value can be nil (an optional attribute, or reached through a relationship).
    var isOptional: Bool

    /// The path `keyPath` stands for on `entity`, or nil if it is not a stored attribute reached
    /// through to-one relationships.
    static func resolve(_ keyPath: AnyKeyPath, in entity: EntitySchema, schema: Schema) -> SortKeyPath? {
        if let name = entity.property(forKeyPath: keyPath) {
            guard let attribute = entity.attribute(named: name) else { return nil }
            return SortKeyPath(relationships: [], attribute: attribute)
        }
        guard let (relationships, attribute) = chain(keyPath, from: entity, schema: schema) else { return nil }
        // The key path's value must be the attribute's value made optional by the chain.
        let expected = unwrapped(type(of: attribute.keyPath).valueType)
        guard unwrapped(type(of: keyPath).valueType) == expected else { return nil }
        return SortKeyPath(relationships: relationships, attribute: attribute)
    }

    private init(relationships: [RelationshipSchema], attribute: AttributeColumn) {
        self.relationships = relationships
        self.attribute = attribute
        valueType = Self.unwrapped(type(of: attribute.keyPath).valueType)
        isOptional = !relationships.isEmpty || attribute.details.isNullable
    }

    private static func unwrapped(_ type: Any.Type) -> Any.Type {
        (type as? any OptionalTypeInfo.Type)?.wrappedType ?? type
    }

    /// Splits a key path of several components (`\Accommodation.trip?.name`) into the stored
    /// properties of the generated metadata it is made of.
    ///
    /// Swift has no API to take a key path apart, and one built with `appending(path:)` does
    /// not compare equal to the literal (its reference-prefix flags differ). The key path's
    /// `debugDescription` (SE-0369) writes each component as the single-component key path of
    /// the same property writes it (a stored property's name, or the accessor's address for a
    /// computed one, as the generated properties are), followed by `?` where it optional-chains,
    /// so the components are matched against the metadata key paths' own descriptions, one
    /// entity at a time. A format this does not recognise matches nothing: the sort throws,
    /// it never sorts by the wrong property.
    private static func chain(_ keyPath: AnyKeyPath, from entity: EntitySchema, schema: Schema) -> ([RelationshipSchema], AttributeColumn)? {
        let text = String(reflecting: keyPath)
        guard var rest = components(of: text, root: type(of: keyPath).rootType) else { return nil }
        var current = entity
        var relationships: [RelationshipSchema] = []
        next: while true {
            for (candidate, name) in current.propertyNamesByKeyPath where type(of: candidate).rootType == current.type {
                guard let component = components(of: String(reflecting: candidate), root: current.type),
                      rest.hasPrefix(component) else { continue }
                let after = rest.dropFirst(component.count)
                if let attribute = current.attribute(named: name) {
                    // The last component, maybe followed by the optional wrap of the chain.
                    if !relationships.isEmpty && (after.isEmpty || after == "?") { return (relationships, attribute) }
                } else if let relationship = current.relationship(named: name), !relationship.isToMany,
                          after.hasPrefix("?"), let destination = schema.entity(named: relationship.destinationName) {
                    relationships.append(relationship)
                    current = destination
                    rest = after.dropFirst()
                    continue next
                }
            }
            return nil
        }
    }

    /// The part of a key path's description after its root type (`.<…>?.<…>` of `\Root.<…>?.<…>`).
    private static func components(of description: String, root: Any.Type) -> Substring? {
        let prefix = "\\" + String(describing: root)
        guard description.hasPrefix(prefix) else { return nil }
        let rest = description.dropFirst(prefix.count)
        return rest.hasPrefix(".") ? rest : nil
    }
}
