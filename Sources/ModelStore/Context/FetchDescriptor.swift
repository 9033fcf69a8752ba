import Foundation

/// What to fetch: a predicate, an order, a window (SwiftData's `FetchDescriptor`).
public struct FetchDescriptor<T: PersistentModel> {
    /// Rows must satisfy it (translated to SQL; nil: every row of `T` and its subclasses).
    public var predicate: Predicate<T>?
    /// The order, on `T`'s own or inherited properties; ties keep store order.
    public var sortBy: [SortDescriptor<T>]
    /// At most this many results.
    public var fetchLimit: Int?
    /// Skip this many results first.
    public var fetchOffset: Int?
    /// The attributes to read (SwiftData's `propertiesToFetch`); empty: all of them. Only these
    /// columns (and the to-one keys) are read from the store; the model's other attributes hold a
    /// placeholder until first accessed (read or set), which loads them in one query for that
    /// model. Observation and change tracking see no difference. Attributes whose type has no
    /// placeholder (an enum with associated values, a struct holding one) are always read; a
    /// subclass's own attributes load later unless named through its own key paths.
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// Whether the context's unsaved changes count (SwiftData's default, true): models inserted
    /// and not saved are found, models deleted and not saved are left out, and changed models are
    /// judged and ordered on their values in memory. False: the store's answer, on saved values
    /// only (no inserted model; a model deleted in the context and not saved is still found).
    public var includePendingChanges: Bool = true
    /// Relationships of `T` (to-one or to-many) to load for every fetched model at once: one
    /// query per relationship for the whole result (two for a many-to-many), not one per model.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    /// Creates a descriptor.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}

/// A `WHERE` condition in SQL with its bound values.
struct SQLFilter: Sendable, Equatable {
    /// The condition (uses `?` placeholders only; identifiers quoted).
    public var sql: String
    /// The values of the placeholders, in order.
    public var bindings: [SQLValue]

    /// Creates a filter.
    public init(sql: String, bindings: [SQLValue]) {
        self.sql = sql
        self.bindings = bindings
    }
}

extension FetchDescriptor {
    /// Throws `ModelStoreError.invalidFetch` naming a negative `fetchLimit` or `fetchOffset`:
    /// every fetch refuses them alike on every store (docs/Runtime.md, "Fetch windows").
    func checkWindow() throws {
        try ErasedFetchDescriptor.checkWindow(limit: fetchLimit, offset: fetchOffset)
    }
}

/// `FetchDescriptor<T>`'s stored properties in its order, with types whose layout is that of
/// theirs for every `T` (none of them depends on `T`: a predicate is an expression existential and
/// a variable's identifier, an array one reference). A plain fetch or count, which runs without
/// `T` (`ModelContext.fetchIfPlain`, `countIfPlain`), reads the caller's descriptor through it, by
/// address: read as `FetchDescriptor<T>` in code not specialized for `T`, each access looked
/// `FetchDescriptor<T>`'s, `Predicate<T>`'s and `Optional`'s metadata up in the runtime, and
/// copying the predicate went through their value witnesses, about 1.6 k instructions a fetch
/// (docs/Benchmarks.md, "Lookups"). Debug builds check the layout against `FetchDescriptor<T>`'s,
/// and the values read, at each use.
struct ErasedFetchDescriptor {
    var predicate: ErasedPredicate?
    var sortBy: [AnyObject]
    var fetchLimit: Int?
    var fetchOffset: Int?
    var propertiesToFetch: [AnyObject]
    var includePendingChanges: Bool
    var relationshipKeyPathsForPrefetching: [AnyObject]

    /// `Predicate<T>`'s stored properties in its order: its expression, and its variable (a
    /// `Predicate` of one input holds one `PredicateExpressions.Variable`, whose one stored
    /// property is its identifier). Not generic, not variadic: its layout is known where it is
    /// compiled, so copying it copies the expression existential alone, where copying a
    /// `Predicate<Never>?` went through the runtime's value witnesses of `Optional` and of the
    /// variadic `Predicate` (about 0.7 k instructions a fetch: docs/Benchmarks.md, "Lookups").
    struct ErasedPredicate {
        let expression: any StandardPredicateExpression<Bool>
        let root: PredicateExpressions.VariableID
    }

    /// `FetchDescriptor.checkWindow()`.
    @inline(__always)
    static func checkWindow(limit: Int?, offset: Int?) throws {
        if let limit, limit < 0 {
            throw ModelStoreError.invalidFetch("fetchLimit \(limit): a limit is 0 or more (nil for none)")
        }
        if let offset, offset < 0 {
            throw ModelStoreError.invalidFetch("fetchOffset \(offset): an offset is 0 or more (nil for none)")
        }
    }

    #if DEBUG
    /// `checkLayout(of:)` of the `FetchDescriptor` of `model` at `descriptor`.
    static func checkLayout(of descriptor: UnsafeRawPointer, model: any PersistentModel.Type) {
        func check<T: PersistentModel>(_ type: T.Type) {
            checkLayout(of: descriptor.assumingMemoryBound(to: FetchDescriptor<T>.self).pointee)
        }
        check(model)
    }

    /// Stops when `FetchDescriptor<T>`'s layout is not this one, or a value read through it differs.
    static func checkLayout<T>(of descriptor: FetchDescriptor<T>) {
        typealias Real = FetchDescriptor<T>
        let real = [MemoryLayout<Real>.size, MemoryLayout<Real>.alignment, MemoryLayout<Real>.offset(of: \.predicate)!,
                    MemoryLayout<Real>.offset(of: \.sortBy)!, MemoryLayout<Real>.offset(of: \.fetchLimit)!,
                    MemoryLayout<Real>.offset(of: \.fetchOffset)!, MemoryLayout<Real>.offset(of: \.propertiesToFetch)!,
                    MemoryLayout<Real>.offset(of: \.includePendingChanges)!, MemoryLayout<Real>.offset(of: \.relationshipKeyPathsForPrefetching)!,
                    MemoryLayout<Predicate<T>?>.size, MemoryLayout<Predicate<T>>.size, MemoryLayout<Predicate<T>>.offset(of: \.variable)!]
        typealias Erased = ErasedFetchDescriptor
        let erased = [MemoryLayout<Erased>.size, MemoryLayout<Erased>.alignment, MemoryLayout<Erased>.offset(of: \.predicate)!,
                      MemoryLayout<Erased>.offset(of: \.sortBy)!, MemoryLayout<Erased>.offset(of: \.fetchLimit)!,
                      MemoryLayout<Erased>.offset(of: \.fetchOffset)!, MemoryLayout<Erased>.offset(of: \.propertiesToFetch)!,
                      MemoryLayout<Erased>.offset(of: \.includePendingChanges)!, MemoryLayout<Erased>.offset(of: \.relationshipKeyPathsForPrefetching)!,
                      MemoryLayout<ErasedPredicate?>.size, MemoryLayout<ErasedPredicate>.size, MemoryLayout<ErasedPredicate>.offset(of: \.root)!]
        precondition(real == erased, "FetchDescriptor<\(T.self)>'s layout \(real) is not ErasedFetchDescriptor's \(erased)")
        withUnsafePointer(to: descriptor) { pointer in
            let view = UnsafeRawPointer(pointer).assumingMemoryBound(to: ErasedFetchDescriptor.self).pointee
            let window = view.fetchLimit == descriptor.fetchLimit && view.fetchOffset == descriptor.fetchOffset
            let flags = view.includePendingChanges == descriptor.includePendingChanges
            let sortCount: Bool = view.sortBy.count == descriptor.sortBy.count
            let propertyCount: Bool = view.propertiesToFetch.count == descriptor.propertiesToFetch.count
            let prefetchCount: Bool = view.relationshipKeyPathsForPrefetching.count == descriptor.relationshipKeyPathsForPrefetching.count
            let viewKey: PredicateExpressions.VariableID? = view.predicate?.root
            let realKey: PredicateExpressions.VariableID? = descriptor.predicate?.variable.key
            precondition(window && flags && sortCount && propertyCount && prefetchCount && viewKey == realKey,
                         "FetchDescriptor<\(T.self)> read through ErasedFetchDescriptor differs")
            if let predicate = view.predicate, let real = descriptor.predicate {
                let same: Bool = type(of: predicate.expression) == type(of: real.expression)
                precondition(same, "FetchDescriptor<\(T.self)>'s predicate read through ErasedFetchDescriptor differs")
            } else {
                precondition(view.predicate == nil && descriptor.predicate == nil, "FetchDescriptor<\(T.self)>'s predicate read through ErasedFetchDescriptor differs")
            }
        }
    }
    #endif
}
