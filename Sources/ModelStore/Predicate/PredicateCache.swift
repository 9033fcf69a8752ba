import Foundation

/// Translated predicates, by their shape (docs/Predicates.md, "Translation cache"): a fetch that
/// builds a new `#Predicate { $0.name == name }` per call translates it once per shape, as Core
/// Data caches a fetch request's SQL. One per container (the SQL depends on its schema, dialect
/// and store identifier, none of which change); shared by its contexts on any thread.
final class PredicateTranslationCache: @unchecked Sendable {
    /// Most shapes kept; when full, the cache starts over (a program has a few dozen shapes: a
    /// full cache means shapes that hold captured values themselves, see `CapturedClass.fixed`).
    static let capacity = 512

    private let lock = NSLock()
    private var entries: [PredicateShape: Entry] = [:]
    /// The first key: by model and expression type, then by `FastShapeKey` (PredicateFastKey.swift).
    private var fast: [FastTypeKey: FastSlot] = [:]
    private var fastCount = 0
    /// Fast keys met once, with what learns their entry at their second use (`FirstUse`).
    private var fastFirstUses: [FastTypeKey: [(key: FastShapeKey, first: FirstUse)]] = [:]
    /// The last statement id handed out (never reused, even after the cache starts over).
    private var lastStatementID = 0

    /// What the cache knows of a shape.
    enum Entry {
        /// Its SQL, and where each binding comes from.
        case translated(CachedTranslation)
        /// Shapes whose SQL the cache cannot reproduce from their values (a probe translation
        /// disagreed): translated afresh each time.
        case uncacheable
        /// Shapes met once: their entry is learnt at their second use, from the first use's
        /// translation and values (docs/Predicates.md, "Translation cache").
        case firstUse(FirstUse)
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }

    func entry(for shape: PredicateShape) -> Entry? {
        lock.lock()
        defer { lock.unlock() }
        return entries[shape]
    }

    func store(_ entry: Entry, for shape: PredicateShape) {
        lock.lock()
        defer { lock.unlock() }
        if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
        entries[shape] = entry
    }

    /// Forgets the first use of `shape` (its values could not tell its entry: the next use is a first use again).
    func removeEntry(for shape: PredicateShape) {
        lock.lock()
        defer { lock.unlock() }
        entries[shape] = nil
    }

    /// The first use of the fast key (`type`, `shape`); nil when the key was not met since the
    /// cache started over. Kept once learnt: a shape whose entry is not translated (uncacheable,
    /// values that could not tell) takes the full key's path from then on, without a probe.
    func fastFirstUse(_ type: FastTypeKey, _ shape: FastShapeKey) -> FirstUse? {
        lock.lock()
        defer { lock.unlock() }
        return fastFirstUses[type]?.first(where: { $0.key == shape })?.first
    }

    /// Notes the first use of the fast key (`type`, `shape`).
    func storeFastFirstUse(_ type: FastTypeKey, _ shape: FastShapeKey, _ first: FirstUse) {
        lock.lock()
        defer { lock.unlock() }
        if fastCount >= Self.capacity { startFastOver() }
        var list = fastFirstUses[type] ?? []
        if list.contains(where: { $0.key == shape }) { return }
        list.append((shape, first))
        fastFirstUses[type] = list
        fastCount += 1
    }

    /// Empties the fast key's entries and first uses (under the lock).
    private func startFastOver() {
        fast.removeAll(keepingCapacity: true)
        fastFirstUses.removeAll(keepingCapacity: true)
        fastCount = 0
    }

    func fastEntries(_ key: FastTypeKey) -> FastSlot? {
        lock.lock()
        defer { lock.unlock() }
        return fast[key]
    }

    /// Marks an expression type as one the fast walk does not read.
    func storeFast(_ key: FastTypeKey, _ slot: FastSlot) {
        lock.lock()
        defer { lock.unlock() }
        if fast[key] == nil { fast[key] = slot }
    }

    /// Keeps `translation` under the fast key (`type`, `shape`), for fetches of `entity`; returns
    /// the entry the key has (this one, or one kept before).
    @discardableResult
    func storeFast(_ type: FastTypeKey, _ opener: any FastShapeOpener, _ shape: FastShapeKey, _ translation: CachedTranslation,
                   entity: EntitySchema) -> FastCacheEntry {
        lock.lock()
        defer { lock.unlock() }
        if fastCount >= Self.capacity { startFastOver() }
        var list: [FastCacheEntry] = []
        if case .entries(_, let known)? = fast[type] { list = known }
        if let known = list.first(where: { $0.key == shape }) { return known }
        lastStatementID += 1
        let entry = FastCacheEntry(key: shape, translation: translation, statementID: lastStatementID, entity: entity)
        list.append(entry)
        fast[type] = .entries(opener, list)
        fastCount += 1
        return entry
    }
}

/// A shape's first use, kept to learn its entry at its second use: learning takes a second,
/// probe translation (`PredicateSQL.learn`), which a shape fetched once (a `fetchCount` on a new
/// container) never needs. Holds the first predicate (its captured values) until then.
final class FirstUse: @unchecked Sendable {
    /// What the first use teaches: the shape, the number of captured values, and the entry (nil:
    /// two captured values alike, these values cannot tell); nil when the shape is not cached.
    struct Lesson {
        let shape: PredicateShape
        let valueCount: Int
        let entry: PredicateTranslationCache.Entry?
    }

    private let lock = NSLock()
    /// Learns the lesson; dropped (with the predicate it holds) once it has.
    private var learner: (() -> Lesson?)?
    private var lesson: Lesson?

    init(_ learner: @escaping () -> Lesson?) {
        self.learner = learner
    }

    /// The lesson, learnt at the first call (a second translation, with probes).
    func learn() -> Lesson? {
        lock.lock()
        defer { lock.unlock() }
        if let learner {
            lesson = learner()
            self.learner = nil
        }
        return lesson
    }
}

/// A translated predicate with its bindings as recipes over the captured values.
struct CachedTranslation {
    let sql: String
    let bindings: [BindingSource]
    let followed: [RelationshipSchema]

    /// The filter for `values` (the captured values of a predicate of the cached shape, in walk
    /// order); nil when a value does not give what the recipe needs.
    func filter(values: [Any]) -> SQLFilter? {
        filter { index, form in form.value(of: values[index]) }
    }

    /// The filter whose captured bindings `captured` gives (the value at a walk index in a form;
    /// nil when it does not give what the recipe needs).
    func filter(_ captured: (Int, CapturedForm) -> SQLValue?) -> SQLFilter? {
        var result: [SQLValue] = []
        result.reserveCapacity(bindings.count)
        for source in bindings {
            switch source {
            case .fixed(let value): result.append(value)
            case .captured(let index, let form):
                guard let value = captured(index, form) else { return nil }
                result.append(value)
            }
        }
        return SQLFilter(sql: sql, bindings: result)
    }
}

/// Where a binding of a cached translation comes from.
enum BindingSource {
    /// The same value whatever the captured values (within the shape).
    case fixed(SQLValue)
    /// Derived from the captured value at `index` (walk order).
    case captured(Int, CapturedForm)
}

/// How a binding is derived from a captured value.
enum CapturedForm: CaseIterable {
    /// Its stored form (`CapturedValue.sqlValue`).
    case stored
    /// The row key of a saved `PersistentIdentifier`.
    case rowKey

    func value(of captured: Any) -> SQLValue? {
        switch self {
        case .stored:
            return CapturedValue.sqlValue(of: captured)
        case .rowKey:
            guard let identifier = CapturedValue.unwrapped(captured) as? PersistentIdentifier, let row = identifier.rowID else { return nil }
            return .integer(row)
        }
    }
}

/// What decides a predicate's SQL: its expression tree without the captured values (the types of
/// its nodes, its key paths, its operators, how its variables are used) and, of each captured
/// value, what the translator reads besides the value it binds (`CapturedClass`).
struct PredicateShape: Hashable {
    var tokens: [ShapeToken]
}

enum ShapeToken: Hashable {
    /// A node of the tree (its children follow, then `.end`).
    case node(ObjectIdentifier)
    case end
    case keyPath(AnyKeyPath)
    /// A variable, numbered by first use (`$0` is 0).
    case variable(Int)
    /// Any other stored property of a node (an operator, an option).
    case leaf(AnyHashable)
    /// A captured value: its type and class.
    case captured(ObjectIdentifier, CapturedClass)
}

/// What of a captured value, besides the value bound, can change the SQL.
enum CapturedClass: Hashable {
    /// nil.
    case null
    /// A value whose SQL depends only on its type (and, for a text, its length): a number that is
    /// finite, a date, a UUID, a text of plain ASCII characters (one spelling, no pattern
    /// characters: docs/Predicates.md, "Equality and indexes"). Its bindings are derived anew.
    case probed(length: Int)
    /// A saved `PersistentIdentifier`: its entity and store decide the SQL, its row is bound.
    case identifier(entity: String, store: String?)
    /// A value that decides the SQL itself (a Bool, a raw-value enum, a text with other
    /// characters, an unsaved identifier…): the shape holds it (its stored form), bindings are the
    /// shape's.
    case fixed(AnyHashable)

    /// The class of `value`; nil for values the cache does not take (sequences, structs…).
    static func of(_ value: Any) -> CapturedClass? {
        if let optional = value as? any OptionalTypeInfo {
            guard let wrapped = optional.wrappedAny else { return .null }
            return of(wrapped)
        }
        switch value {
        case let text as String:
            return isPlain(text) ? .probed(length: text.utf8.count) : fixedValue(.text(text))
        case is Int, is Int64, is Int32, is Int16, is Int8, is UInt8, is UInt16, is UInt32, is Date, is UUID:
            return .probed(length: 0)
        case let number as Double:
            // Not a NaN: it equals no key, itself included.
            return number.isFinite ? .probed(length: 0) : nil
        case let number as Float:
            return number.isFinite ? .probed(length: 0) : nil
        case let identifier as PersistentIdentifier:
            guard identifier.rowID != nil else { return .fixed(identifier) }
            return .identifier(entity: identifier.entityName, store: identifier.storeIdentifier)
        case is Bool, is ComparisonResult:
            return CapturedValue.sqlValue(of: value).map(fixedValue)
        default:
            guard value is any RawRepresentable, let stored = CapturedValue.sqlValue(of: value) else { return nil }
            return fixedValue(stored)
        }
    }

    /// A fixed value by its stored form, a text by its bytes: `==` on `String` is canonical
    /// equivalence, and two spellings of a text are bound as they are.
    static func fixedValue(_ stored: SQLValue) -> CapturedClass {
        if case .text(let text) = stored { return .fixed(ExactText(bytes: Array(text.utf8))) }
        return .fixed(stored)
    }

    /// Non-empty, and only letters (but `K`, which has a non-ASCII equivalent), digits, space and
    /// `-.,:/@`: no pattern character, no quote, one spelling.
    static func isPlain(_ text: String) -> Bool {
        var any = false
        for byte in text.utf8 {
            any = true
            switch byte {
            case UInt8(ascii: "K"): return false
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "@"):
                continue
            default: return false
            }
        }
        return any
    }

    /// Another value of `value`'s class and type (a probe), different from it in every form a
    /// binding can take; `value` itself for classes whose bindings are the shape's; nil when none
    /// can be made.
    static func probe(of value: Any, index: Int) -> Any? {
        if let optional = value as? any OptionalTypeInfo {
            guard let wrapped = optional.wrappedAny else { return value }
            return probe(of: wrapped, index: index)
        }
        let offset = 7919 &* (index + 1) &+ 104_729
        let made: Any?
        switch value {
        case let text as String:
            guard isPlain(text) else { return value }
            let letters = Array("abcdefghijklmnopqrstuvwxyz")
            var state = UInt64(truncatingIfNeeded: offset)
            var probe = ""
            for _ in 0..<text.utf8.count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                probe.append(letters[Int((state >> 33) % 26)])
            }
            made = probe
        case let number as Int: made = number &+ offset
        case let number as Int64: made = number &+ Int64(offset)
        case let number as Int32: made = number &+ Int32(truncatingIfNeeded: offset)
        case let number as Int16: made = number &+ Int16(truncatingIfNeeded: offset | 1)
        case let number as Int8: made = number &+ Int8(truncatingIfNeeded: (index % 100) + 1)
        case let number as UInt8: made = number &+ UInt8(truncatingIfNeeded: (index % 100) + 1)
        case let number as UInt16: made = number &+ UInt16(truncatingIfNeeded: offset | 1)
        case let number as UInt32: made = number &+ UInt32(truncatingIfNeeded: offset)
        case let number as Double: made = number.isFinite ? (number == 0 ? Double(offset) : -number * 1.5 - Double(offset)) : value
        case let number as Float: made = number.isFinite ? (number == 0 ? Float(offset) : -number * 1.5 - Float(offset)) : value
        case let date as Date: made = Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate + Double(offset))
        case is UUID: made = UUID()
        case let identifier as PersistentIdentifier:
            guard let row = identifier.rowID else { return value }
            made = PersistentIdentifier(entityName: identifier.entityName, rowID: row &+ Int64(offset), store: identifier.storeIdentifier)
        default:
            return value
        }
        guard let made else { return nil }
        for form in CapturedForm.allCases {
            if let real = form.value(of: value), real == form.value(of: made) { return nil }
        }
        return made
    }
}

/// A text compared by its bytes.
struct ExactText: Hashable {
    let bytes: [UInt8]
}

/// Collects a predicate's shape and its captured values, in a fixed order (the order the
/// translator meets them: checked when a shape is first cached).
struct PredicateShapeWalker {
    var tokens: [ShapeToken] = []
    var values: [Any] = []
    /// False once a part the cache does not take was met.
    var cacheable = true
    private var variables: [PredicateExpressions.VariableID] = []

    init(root: PredicateExpressions.VariableID, model: Any.Type) {
        tokens.reserveCapacity(12)
        tokens.append(.node(ObjectIdentifier(model)))
        variables.append(root)
    }

    mutating func walk(_ node: Any) {
        guard cacheable else { return }
        if let fast = node as? any PredicateShapeNode {
            fast.appendShape(to: &self)
            return
        }
        tokens.append(.node(ObjectIdentifier(type(of: node))))
        for child in Mirror(reflecting: node).children { walkProperty(child.value) }
        tokens.append(.end)
    }

    /// A stored property of a node the walker knows only through `Mirror`.
    private mutating func walkProperty(_ value: Any) {
        if value is any PredicateExpression {
            walk(value)
        } else if let keyPath = value as? AnyKeyPath {
            tokens.append(.keyPath(keyPath))
        } else if let variable = value as? PredicateExpressions.VariableID {
            self.variable(variable)
        } else if let hashable = value as? AnyHashable {
            tokens.append(.leaf(hashable))
        } else {
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .enum && mirror.children.isEmpty {
                tokens.append(.leaf(String(reflecting: value)))
            } else {
                cacheable = false
            }
        }
    }

    mutating func node(_ type: Any.Type) {
        tokens.append(.node(ObjectIdentifier(type)))
    }

    mutating func end() {
        tokens.append(.end)
    }

    /// A node of two operands and nothing else (`==`, `!=`, `&&`, `||`).
    mutating func binary(_ type: Any.Type, _ lhs: Any, _ rhs: Any) {
        node(type)
        walk(lhs)
        walk(rhs)
        end()
    }

    mutating func keyPath(_ keyPath: AnyKeyPath) {
        tokens.append(.keyPath(keyPath))
    }

    mutating func variable(_ id: PredicateExpressions.VariableID) {
        if let index = variables.firstIndex(of: id) {
            tokens.append(.variable(index))
        } else {
            tokens.append(.variable(variables.count))
            variables.append(id)
        }
    }

    mutating func captured(_ value: Any) {
        guard let kind = CapturedClass.of(value) else {
            cacheable = false
            return
        }
        tokens.append(.captured(ObjectIdentifier(type(of: value)), kind))
        values.append(value)
    }
}

/// Nodes the walker reads without `Mirror` (the common ones).
protocol PredicateShapeNode {
    func appendShape(to walker: inout PredicateShapeWalker)
}

extension PredicateExpressions.Value: PredicateShapeNode {
    func appendShape(to walker: inout PredicateShapeWalker) {
        walker.node(Self.self)
        walker.captured(value)
    }
}

extension PredicateExpressions.Variable: PredicateShapeNode {
    func appendShape(to walker: inout PredicateShapeWalker) {
        walker.node(Self.self)
        walker.variable(key)
    }
}

extension PredicateExpressions.KeyPath: PredicateShapeNode {
    func appendShape(to walker: inout PredicateShapeWalker) {
        walker.node(Self.self)
        walker.walk(root)
        walker.keyPath(keyPath)
        walker.end()
    }
}

extension PredicateExpressions.Equal: PredicateShapeNode {
    func appendShape(to walker: inout PredicateShapeWalker) { walker.binary(Self.self, lhs, rhs) }
}

extension PredicateExpressions.NotEqual: PredicateShapeNode {
    func appendShape(to walker: inout PredicateShapeWalker) { walker.binary(Self.self, lhs, rhs) }
}

extension PredicateExpressions.Comparison: PredicateShapeNode {
    func appendShape(to walker: inout PredicateShapeWalker) {
        walker.node(Self.self)
        walker.tokens.append(.leaf(op))
        walker.walk(lhs)
        walker.walk(rhs)
        walker.end()
    }
}

extension PredicateExpressions.Conjunction: PredicateShapeNode {
    func appendShape(to walker: inout PredicateShapeWalker) { walker.binary(Self.self, lhs, rhs) }
}

extension PredicateExpressions.Disjunction: PredicateShapeNode {
    func appendShape(to walker: inout PredicateShapeWalker) { walker.binary(Self.self, lhs, rhs) }
}

extension PredicateExpressions.Negation: PredicateShapeNode {
    func appendShape(to walker: inout PredicateShapeWalker) {
        walker.node(Self.self)
        walker.walk(wrapped)
        walker.end()
    }
}

extension PredicateExpressions.NilLiteral: PredicateShapeNode {
    func appendShape(to walker: inout PredicateShapeWalker) {
        walker.node(Self.self)
    }
}

/// The captured values met by a probe translation (`TranslationContext.captured`): each is
/// replaced by its probe, in the order met, and recorded to check that order is the walk's.
struct CapturedProbe {
    let probes: [Any]
    var met: [Any] = []
    var failed = false

    mutating func substitute<V>(_ value: V) -> V {
        let index = met.count
        met.append(value)
        guard index < probes.count, let probe = probes[index] as? V else {
            failed = true
            return value
        }
        return probe
    }
}

extension PredicateSQL {
    /// `translation(of:…)` through `cache`: a predicate of a shape seen before takes the cached SQL
    /// with its own values bound; a new shape is translated, and at its second use the first use's
    /// translation is checked against one with probe values, to learn which bindings come from
    /// which captured value (docs/Predicates.md, "Translation cache").
    static func translation<T>(of predicate: Predicate<T>, entity: EntitySchema, schema: Schema, dialect: any SQLDialect,
                               store: String?, cache: PredicateTranslationCache) throws -> (filter: SQLFilter, followed: [RelationshipSchema]) {
        var walker = PredicateShapeWalker(root: predicate.variable.key, model: T.self)
        walker.walk(predicate.expression)
        guard walker.cacheable else {
            return try translation(of: predicate, entity: entity, schema: schema, dialect: dialect, store: store)
        }
        let shape = PredicateShape(tokens: walker.tokens)
        switch cache.entry(for: shape) {
        case .translated(let cached)?:
            if let filter = cached.filter(values: walker.values) {
                #if DEBUG
                checkCached(filter, cached.followed, predicate: predicate, entity: entity, schema: schema, dialect: dialect, store: store)
                #endif
                return (filter, cached.followed)
            }
        case .uncacheable?:
            break
        case .firstUse(let first)?:
            // The shape's second use: learn its entry from the first use.
            guard let entry = first.learn()?.entry else {
                // The first use's values could not tell: this use is the shape's first use now.
                let fresh = try translation(of: predicate, entity: entity, schema: schema, dialect: dialect, store: store)
                cache.store(.firstUse(firstUse(fresh, shape: shape, values: walker.values, predicate: predicate, entity: entity,
                                               schema: schema, dialect: dialect, store: store)), for: shape)
                return fresh
            }
            cache.store(entry, for: shape)
            if case .translated(let cached) = entry, let filter = cached.filter(values: walker.values) {
                #if DEBUG
                checkCached(filter, cached.followed, predicate: predicate, entity: entity, schema: schema, dialect: dialect, store: store)
                #endif
                return (filter, cached.followed)
            }
        case nil:
            let fresh = try translation(of: predicate, entity: entity, schema: schema, dialect: dialect, store: store)
            cache.store(.firstUse(firstUse(fresh, shape: shape, values: walker.values, predicate: predicate, entity: entity,
                                           schema: schema, dialect: dialect, store: store)), for: shape)
            return fresh
        }
        return try translation(of: predicate, entity: entity, schema: schema, dialect: dialect, store: store)
    }

    /// The first use of `shape` by `predicate` (whose translation is `fresh`, its captured values
    /// `values`), to learn the shape's entry from at its second use.
    static func firstUse<T>(_ fresh: (filter: SQLFilter, followed: [RelationshipSchema]), shape: PredicateShape, values: [Any],
                            predicate: Predicate<T>, entity: EntitySchema, schema: Schema, dialect: any SQLDialect, store: String?) -> FirstUse {
        FirstUse {
            FirstUse.Lesson(shape: shape, valueCount: values.count,
                            entry: learn(fresh, values: values, predicate: predicate, entity: entity, schema: schema, dialect: dialect, store: store))
        }
    }

    /// The cache entry for a new shape, from its translation with `values` and one with probes;
    /// nil when these values cannot tell (two captured values alike): the next predicate of the
    /// shape tries again.
    static func learn<T>(_ fresh: (filter: SQLFilter, followed: [RelationshipSchema]), values: [Any], predicate: Predicate<T>,
                                 entity: EntitySchema, schema: Schema, dialect: any SQLDialect, store: String?) -> PredicateTranslationCache.Entry? {
        var probes: [Any] = []
        var probedForms: [(index: Int, form: CapturedForm, real: SQLValue, probe: SQLValue)] = []
        var seen = Set<SQLValue>()
        for (index, value) in values.enumerated() {
            guard let probe = CapturedClass.probe(of: value, index: index) else { return nil }
            probes.append(probe)
            if case .probed? = CapturedClass.of(value) {} else if case .identifier? = CapturedClass.of(value) {} else { continue }
            // Two probed values with one stored form would leave the order unchecked.
            guard let stored = CapturedValue.sqlValue(of: value), seen.insert(stored).inserted else { return nil }
            for form in CapturedForm.allCases {
                if let real = form.value(of: value), let probed = form.value(of: probe) { probedForms.append((index, form, real, probed)) }
            }
        }
        var context = TranslationContext(schema: schema, dialect: dialect, store: store)
        context.variables[predicate.variable.key] = .model(.row(of: entity, alias: entity.tableName))
        context.probe = CapturedProbe(probes: probes)
        guard let condition = try? context.condition(predicate.expression), let probe = context.probe, !probe.failed,
              probe.met.count == values.count,
              zip(probe.met, values).allSatisfy({ type(of: $0.0) == type(of: $0.1) && CapturedValue.sqlValue(of: $0.0) == CapturedValue.sqlValue(of: $0.1) }),
              condition.sql == fresh.filter.sql, condition.bindings.count == fresh.filter.bindings.count,
              context.followedRelationships.map(ObjectIdentifier.init) == fresh.followed.map(ObjectIdentifier.init) else { return .uncacheable }
        var sources: [BindingSource] = []
        for (real, probed) in zip(fresh.filter.bindings, condition.bindings) {
            if real == probed {
                sources.append(.fixed(real))
                continue
            }
            let matches = probedForms.filter { $0.probe == probed }
            guard matches.count == 1, matches[0].real == real else { return .uncacheable }
            sources.append(.captured(matches[0].index, matches[0].form))
        }
        return .translated(CachedTranslation(sql: fresh.filter.sql, bindings: sources, followed: fresh.followed))
    }

    #if DEBUG
    /// Debug builds check every cache hit against a fresh translation (so every predicate the
    /// tests fetch with is an oracle case of the cache).
    static func checkCached<T>(_ filter: SQLFilter, _ followed: [RelationshipSchema], predicate: Predicate<T>, entity: EntitySchema,
                                       schema: Schema, dialect: any SQLDialect, store: String?) {
        let fresh = try? translation(of: predicate, entity: entity, schema: schema, dialect: dialect, store: store)
        precondition(fresh?.filter == filter && fresh?.followed.map(ObjectIdentifier.init) == followed.map(ObjectIdentifier.init),
                     "predicate translation cache: cached \(filter) differs from fresh \(String(describing: fresh?.filter))")
    }
    #endif
}
