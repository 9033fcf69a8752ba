import Foundation

// The translation cache's first key (docs/Predicates.md, "Translation cache", "The fast key"):
// the expression's type, with its generic arguments, fixes the type of every node of the tree, so
// for the common nodes a fetch only collects what the type leaves open (key paths, operators,
// variable numbers, the classes of captured values) without a dynamic cast per node, and finds
// its entry by one hashed pair of type identifiers and a comparison of key paths by identity.

/// Nodes the fast walk reads through their static types: a tree made only of them conforms as a
/// whole (one cast per predicate).
protocol FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker)
    /// `PredicateShapeNode.appendShape(to:)` through the children's static types: the same
    /// tokens, without the cast to `PredicateShapeNode` per node, whose first use per node type
    /// looked the conformance up in the runtime (docs/Predicates.md, "Translation cache").
    func appendStaticShape(to walker: inout PredicateShapeWalker)
}

/// What a captured value gives the cached bindings, read once by the fast walk.
struct CapturedInput {
    /// Its stored form (`CapturedValue.sqlValue`); nil for an identifier (made on demand).
    var stored: SQLValue?
    /// The row of a saved identifier.
    var row: Int64?
    /// The identifier itself, for its stored form.
    var identifier: PersistentIdentifier?

    func value(_ form: CapturedForm) -> SQLValue? {
        switch form {
        case .stored:
            if let stored { return stored }
            return identifier.map { .text($0.description) }
        case .rowKey:
            return row.map(SQLValue.integer)
        }
    }

    /// Whether `value(form)` is not nil, without making the value (an identifier's text).
    func hasValue(_ form: CapturedForm) -> Bool {
        switch form {
        case .stored: return stored != nil || identifier != nil
        case .rowKey: return row != nil
        }
    }
}

/// A list whose first element is kept inline: the fast key of a one-node predicate
/// (`$0.name == name`) and its captured value make no array (each array cost an allocation and a
/// release per fetch: docs/Benchmarks.md, "Lookups").
struct SmallList<Element> {
    private var head: Element?
    private var tail: [Element] = []

    var count: Int { head == nil ? 0 : 1 + tail.count }

    mutating func append(_ element: Element) {
        if head == nil {
            head = element
        } else {
            tail.append(element)
        }
    }

    subscript(index: Int) -> Element { index == 0 ? head! : tail[index - 1] }

}

extension SmallList: Equatable where Element: Equatable {}

/// A captured value's `CapturedClass` as the fast walk keeps it: the same classes, without the
/// `AnyHashable` of `.fixed` (copying and comparing that went through the runtime's value
/// witnesses, about 2 k instructions a lookup). Two values of one class here are of one
/// `CapturedClass`.
enum FastValueClass: Equatable {
    case null
    case probed(length: Int)
    /// A saved identifier, by its store's and entity's names: their interned object
    /// (`IdentifierNames`, alive as long as the process), by address. One object per pair as
    /// spelled, so the class is finer than the names' string equality (two spellings of one pair
    /// are two keys: the second takes its own entry), and compared without comparing or retaining
    /// the strings (as strings, the classes' comparison and the walker's release were about 0.13 k
    /// instructions a lookup: docs/Benchmarks.md, "Lookups").
    case identifier(names: UnsafeMutableRawPointer)
    /// A text that is not plain (`CapturedClass.fixedValue`), by its bytes.
    case exactText(ExactText)
    /// An unsaved identifier (`CapturedClass.fixed`).
    case unsaved(PersistentIdentifier)
}

/// The part of a predicate's shape its expression type leaves open. Compared member by member,
/// the classes first (what tells apart most entries of one expression type: an identifier's
/// entity, nil or not, a text's length), key paths by identity, then by `==`.
struct FastShapeKey: Equatable {
    var classes = SmallList<FastValueClass>()
    /// Variable numbers and operators, in walk order.
    var words = SmallList<Int>()
    var keyPaths = SmallList<AnyKeyPath>()
}

/// Collects a predicate's `FastShapeKey` and its captured values' inputs, in the order
/// `PredicateShapeWalker` collects the values (the cached bindings index them).
struct FastShapeWalker {
    var key = FastShapeKey()
    var inputs = SmallList<CapturedInput>()
    /// False once a value the fast walk does not classify was met (the predicate takes the full
    /// walk, which classifies everything the cache takes).
    var fast = true
    /// The predicate's own variable (numbered 0), then the others met, numbered from 1.
    private let root: PredicateExpressions.VariableID
    private var variables: [PredicateExpressions.VariableID] = []

    init(root: PredicateExpressions.VariableID) {
        self.root = root
    }

    /// The inputs, moved out (the walker keeps none): a copy of them, and the walker's destroy of
    /// its own, went through the runtime's value witnesses (docs/Benchmarks.md, "Lookups").
    mutating func takeInputs() -> SmallList<CapturedInput> {
        var taken = SmallList<CapturedInput>()
        swap(&taken, &inputs)
        return taken
    }

    mutating func keyPath(_ keyPath: AnyKeyPath) {
        key.keyPaths.append(keyPath)
    }

    mutating func word(_ word: Int) {
        key.words.append(word)
    }

    mutating func variable(_ id: PredicateExpressions.VariableID) {
        if id == root {
            key.words.append(0)
        } else if let index = variables.firstIndex(of: id) {
            key.words.append(index + 1)
        } else {
            variables.append(id)
            key.words.append(variables.count)
        }
    }

    /// A captured value of the types most predicates capture, read by type identity (no cast);
    /// its class is `CapturedClass.of(value)`.
    mutating func captured<V>(_ value: V) {
        guard fast else { return }
        if V.self == String.self { return text(unsafeBitCast(value, to: String.self)) }
        if V.self == PersistentIdentifier.self { return identifier(unsafeBitCast(value, to: PersistentIdentifier.self)) }
        if V.self == Int.self { return probed(unsafeBitCast(value, to: Int.self)) }
        if V.self == Int64.self { return probed(unsafeBitCast(value, to: Int64.self)) }
        if V.self == Date.self { return probed(unsafeBitCast(value, to: Date.self)) }
        if V.self == UUID.self { return probed(unsafeBitCast(value, to: UUID.self)) }
        if V.self == String?.self { return unsafeBitCast(value, to: String?.self).map { text($0) } ?? null() }
        if V.self == Int?.self { return unsafeBitCast(value, to: Int?.self).map { probed($0) } ?? null() }
        if V.self == Int64?.self { return unsafeBitCast(value, to: Int64?.self).map { probed($0) } ?? null() }
        if V.self == Date?.self { return unsafeBitCast(value, to: Date?.self).map { probed($0) } ?? null() }
        if V.self == UUID?.self { return unsafeBitCast(value, to: UUID?.self).map { probed($0) } ?? null() }
        if V.self == PersistentIdentifier?.self { return unsafeBitCast(value, to: PersistentIdentifier?.self).map { identifier($0) } ?? null() }
        fast = false
    }

    private mutating func null() {
        key.classes.append(.null)
        inputs.append(CapturedInput(stored: .null))
    }

    private mutating func text(_ text: String) {
        key.classes.append(CapturedClass.isPlain(text) ? .probed(length: text.utf8.count) : .exactText(ExactText(bytes: Array(text.utf8))))
        inputs.append(CapturedInput(stored: .text(text)))
    }

    private mutating func probed<S: SQLStorable>(_ value: S) {
        key.classes.append(.probed(length: 0))
        inputs.append(CapturedInput(stored: value.sqlValue))
    }

    private mutating func identifier(_ identifier: PersistentIdentifier) {
        guard let row = identifier.rowID else {
            key.classes.append(.unsaved(identifier))
            inputs.append(CapturedInput(identifier: identifier))
            return
        }
        key.classes.append(.identifier(names: identifier.namesReference.toOpaque()))
        inputs.append(CapturedInput(row: row, identifier: identifier))
    }
}

extension PredicateExpressions.Value: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) { walker.captured(value) }
    func appendStaticShape(to walker: inout PredicateShapeWalker) { appendShape(to: &walker) }
}

extension PredicateExpressions.Variable: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) { walker.variable(key) }
    func appendStaticShape(to walker: inout PredicateShapeWalker) { appendShape(to: &walker) }
}

extension PredicateExpressions.NilLiteral: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) {}
    func appendStaticShape(to walker: inout PredicateShapeWalker) { appendShape(to: &walker) }
}

extension PredicateExpressions.KeyPath: FastShapeNode where Root: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) {
        root.appendFastShape(to: &walker)
        walker.keyPath(keyPath)
    }

    func appendStaticShape(to walker: inout PredicateShapeWalker) {
        walker.node(Self.self)
        root.appendStaticShape(to: &walker)
        walker.keyPath(keyPath)
        walker.end()
    }
}

extension FastShapeNode {
    /// A node of two operands and nothing else (`PredicateShapeWalker.binary`).
    func appendStaticBinary<L: FastShapeNode, R: FastShapeNode>(_ lhs: L, _ rhs: R, to walker: inout PredicateShapeWalker) {
        walker.node(Self.self)
        lhs.appendStaticShape(to: &walker)
        rhs.appendStaticShape(to: &walker)
        walker.end()
    }
}

extension PredicateExpressions.Equal: FastShapeNode where LHS: FastShapeNode, RHS: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) {
        lhs.appendFastShape(to: &walker)
        rhs.appendFastShape(to: &walker)
    }

    func appendStaticShape(to walker: inout PredicateShapeWalker) { appendStaticBinary(lhs, rhs, to: &walker) }
}

extension PredicateExpressions.NotEqual: FastShapeNode where LHS: FastShapeNode, RHS: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) {
        lhs.appendFastShape(to: &walker)
        rhs.appendFastShape(to: &walker)
    }

    func appendStaticShape(to walker: inout PredicateShapeWalker) { appendStaticBinary(lhs, rhs, to: &walker) }
}

extension PredicateExpressions.Comparison: FastShapeNode where LHS: FastShapeNode, RHS: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) {
        switch op {
        case .lessThan: walker.word(-1)
        case .lessThanOrEqual: walker.word(-2)
        case .greaterThan: walker.word(-3)
        case .greaterThanOrEqual: walker.word(-4)
        }
        lhs.appendFastShape(to: &walker)
        rhs.appendFastShape(to: &walker)
    }

    func appendStaticShape(to walker: inout PredicateShapeWalker) {
        walker.node(Self.self)
        walker.tokens.append(.leaf(op))
        lhs.appendStaticShape(to: &walker)
        rhs.appendStaticShape(to: &walker)
        walker.end()
    }
}

extension PredicateExpressions.Conjunction: FastShapeNode where LHS: FastShapeNode, RHS: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) {
        lhs.appendFastShape(to: &walker)
        rhs.appendFastShape(to: &walker)
    }

    func appendStaticShape(to walker: inout PredicateShapeWalker) { appendStaticBinary(lhs, rhs, to: &walker) }
}

extension PredicateExpressions.Disjunction: FastShapeNode where LHS: FastShapeNode, RHS: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) {
        lhs.appendFastShape(to: &walker)
        rhs.appendFastShape(to: &walker)
    }

    func appendStaticShape(to walker: inout PredicateShapeWalker) { appendStaticBinary(lhs, rhs, to: &walker) }
}

extension PredicateExpressions.Negation: FastShapeNode where Wrapped: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) {
        wrapped.appendFastShape(to: &walker)
    }

    func appendStaticShape(to walker: inout PredicateShapeWalker) {
        walker.node(Self.self)
        wrapped.appendStaticShape(to: &walker)
        walker.end()
    }
}

/// The cached translation of one fast key, and what a plain fetch or count of it runs:
/// docs/Predicates.md, "Translation cache". Its fast key names the fetched model type, so its
/// entity is one.
final class FastCacheEntry: @unchecked Sendable {
    let key: FastShapeKey
    let translation: CachedTranslation
    /// Identifies `plainTexts(_:dialect:)` in a connection's statement cache (unique in its
    /// container): `statementID(_:windowed:)`.
    let statementID: Int
    /// The entity of the fast key's model type.
    let entity: EntitySchema
    private let lock = NSLock()
    private var kept = KeptPlainTexts()

    init(key: FastShapeKey, translation: CachedTranslation, statementID: Int, entity: EntitySchema) {
        self.key = key
        self.translation = translation
        self.statementID = statementID
        self.entity = entity
    }

    /// The SQL text of a plain fetch of the entity with this predicate and no sort (the entity's
    /// columns, its type filter, the predicate, the key order) or of a plain count (`fetchCount`'s
    /// `EntitySchema.countSQL` around the entity's keys with the type filter and the predicate),
    /// without and with `LIMIT ? OFFSET ?`: each made on its first use (a predicate only counted
    /// never makes the select), then kept by the contexts' memos (`FastMemo`), read without the lock.
    func plainTexts(_ kind: PlainQueryKind, dialect: any SQLDialect) -> PlainTexts {
        lock.lock()
        defer { lock.unlock() }
        if let texts = kept.of(kind) { return texts }
        let made: PlainTexts
        switch kind {
        case .fetch:
            let sql = entity.selectSQL + conditions(dialect) + entity.keyOrderSQL
            made = PlainTexts(plain: sql, windowed: sql + dialect.windowClause)
        case .count:
            let keys = entity.keySelectSQL + conditions(dialect)
            made = PlainTexts(plain: EntitySchema.countSQL(around: keys), windowed: EntitySchema.countSQL(around: keys + dialect.windowClause))
        }
        kept.keep(made, of: kind)
        return made
    }

    /// ` WHERE` the type filter (a subclass) `AND` the predicate, as the general path spells it.
    private func conditions(_ dialect: any SQLDialect) -> String {
        var sql = " WHERE "
        if entity.baseName != nil {
            sql += dialect.typeFilter(entity.typeNames) + " AND "
        }
        return sql + "(\(translation.sql))"
    }

    /// The statement id of a plain fetch's or count's text, windowed or plain.
    func statementID(_ kind: PlainQueryKind, windowed: Bool) -> Int {
        statementID * 4 + (kind == .count ? 2 : 0) + (windowed ? 1 : 0)
    }
}

/// What a plain query of a cached predicate is: a fetch of its models or their count.
enum PlainQueryKind {
    case fetch
    case count
}

/// A plain query's text without and with `LIMIT ? OFFSET ?` (`FastCacheEntry.plainTexts`).
struct PlainTexts {
    let plain: String
    let windowed: String

    func text(windowed: Bool) -> String { windowed ? self.windowed : plain }
}

/// An entry's plain texts made or looked up so far, by kind (kept by the entry and by the
/// contexts' memos).
struct KeptPlainTexts {
    var fetch: PlainTexts?
    var count: PlainTexts?

    func of(_ kind: PlainQueryKind) -> PlainTexts? { kind == .fetch ? fetch : count }

    mutating func keep(_ texts: PlainTexts, of kind: PlainQueryKind) {
        if kind == .fetch { fetch = texts } else { count = texts }
    }
}

extension CachedTranslation {
    /// `filter(values:)` from the fast walk's inputs.
    func filter(inputs: SmallList<CapturedInput>) -> SQLFilter? {
        filter { index, form in index < inputs.count ? inputs[index].value(form) : nil }
    }
}

/// A type pair: the fetched model's and the expression's.
struct FastTypeKey: Hashable {
    let model: ObjectIdentifier
    let expression: ObjectIdentifier
}

/// A predicate found by its fast key, with its captured values' inputs: a plain fetch or count
/// binds them straight into the entry's statement (`bind(to:from:)`), without a `SQLFilter` or
/// `[SQLValue]`.
struct FastHit {
    let entry: FastCacheEntry
    let inputs: SmallList<CapturedInput>
    /// The entry's `plainTexts` of the query asked for.
    let texts: PlainTexts

    /// The entry's bindings for these inputs (what `bind(to:from:)` binds; Debug builds compare
    /// them with the general path's).
    var bindings: [SQLValue] { entry.translation.filter(inputs: inputs)?.bindings ?? [] }

    /// Binds the predicate's values to `statement`, from parameter `index` on (advanced past them).
    func bind(to statement: any StoreStatement, from index: inout Int32) {
        for source in entry.translation.bindings {
            switch source {
            case .fixed(let value): statement.bind(value, at: index)
            // Checked by `fastHit`: every captured binding has its value.
            case .captured(let position, let form): statement.bind(inputs[position].value(form)!, at: index)
            }
            index += 1
        }
    }
}

extension PredicateSQL {
    /// The fast walk of a predicate's `expression` with `opener` (`fast` false when a captured value
    /// is not one it reads); `root` is the predicate's variable. Not an optional: the callers
    /// destroyed a `FastShapeWalker?` through the runtime's value witnesses (docs/Benchmarks.md,
    /// "Lookups").
    private static func fastWalk(of expression: any StandardPredicateExpression<Bool>, root: PredicateExpressions.VariableID,
                                 _ opener: any FastShapeOpener) -> FastShapeWalker {
        var walker = FastShapeWalker(root: root)
        walkOpened(expression, opener, &walker)
        return walker
    }

    /// The entry of a predicate whose fast key the cache knows and whose every captured binding
    /// its values give, with their inputs; nil for any other predicate (`fastTranslation` then
    /// translates it, or learns its entry). Learns nothing. `memo` keeps the last expression
    /// type's slot for a caller of one thread (a context), found again without the cache's lock
    /// and dictionary; a key it does not list is looked up in the cache (entries learnt since).
    /// Not generic: a fetch hands over the predicate's parts (`expression`, its variable `root`)
    /// and the fetched model type (`model`), so nothing here looks `Predicate<T>` up at run time.
    static func fastHit(model: ObjectIdentifier, expression: any StandardPredicateExpression<Bool>, root: PredicateExpressions.VariableID,
                        cache: PredicateTranslationCache, dialect: any SQLDialect, for kind: PlainQueryKind,
                        memo: inout FastMemo?) -> FastHit? {
        let typeKey = FastTypeKey(model: model, expression: ObjectIdentifier(type(of: expression)))
        if memo?.type != typeKey {
            guard case .entries(let opener, let entries)? = cache.fastEntries(typeKey) else { return nil }
            memo = FastMemo(type: typeKey, opener: opener, entries: entries)
        }
        guard let opener = memo?.opener else { return nil }
        var walker = fastWalk(of: expression, root: root, opener)
        guard walker.fast else { return nil }
        var found = memo?.entries.firstIndex { $0.key == walker.key }
        if found == nil, case .entries(let opener, let entries)? = cache.fastEntries(typeKey) {
            // Learnt since the memo was made (or the cache started over).
            memo = FastMemo(type: typeKey, opener: opener, entries: entries)
            found = entries.firstIndex { $0.key == walker.key }
        }
        guard let index = found, let entry = memo?.entries[index] else { return nil }
        for source in entry.translation.bindings {
            if case .captured(let index, let form) = source, index >= walker.inputs.count || !walker.inputs[index].hasValue(form) { return nil }
        }
        let texts: PlainTexts
        if let kept = memo?.texts[index].of(kind) {
            texts = kept
        } else {
            texts = entry.plainTexts(kind, dialect: dialect)
            memo?.texts[index].keep(texts, of: kind)
        }
        return FastHit(entry: entry, inputs: walker.takeInputs(), texts: texts)
    }

    /// `translation(of:…cache:)`, first through the fast key; with the fast entry that answered
    /// (nil when the predicate took the full walk).
    static func fastTranslation<T>(of predicate: Predicate<T>, entity: EntitySchema, schema: Schema, dialect: any SQLDialect,
                                   store: String?, cache: PredicateTranslationCache)
        throws -> (filter: SQLFilter, followed: [RelationshipSchema], entry: FastCacheEntry?) {
        let expression = predicate.expression
        let typeKey = FastTypeKey(model: ObjectIdentifier(T.self), expression: ObjectIdentifier(type(of: expression)))
        var slot = cache.fastEntries(typeKey)
        if slot == nil {
            // The one cast of an expression type: its opener then walks it without one.
            if let node = expression as? any FastShapeNode {
                slot = .entries(makeOpener(node), [])
            } else {
                slot = .slow
            }
            cache.storeFast(typeKey, slot!)
        }
        guard case .entries(let opener, let entries)? = slot, case let walker = fastWalk(of: expression, root: predicate.variable.key, opener),
              walker.fast else {
            let full = try translation(of: predicate, entity: entity, schema: schema, dialect: dialect, store: store, cache: cache)
            return (full.filter, full.followed, nil)
        }
        if let entry = entries.first(where: { $0.key == walker.key }), let filter = entry.translation.filter(inputs: walker.inputs) {
            #if DEBUG
            checkCached(filter, entry.translation.followed, predicate: predicate, entity: entity, schema: schema, dialect: dialect, store: store)
            #endif
            return (filter, entry.translation.followed, entry)
        }
        if let first = cache.fastFirstUse(typeKey, walker.key) {
            // The fast key's second use: its entry is learnt from the first use, whose full walk
            // gives the shape (one shape per fast key), and this predicate's values are bound.
            if let lesson = first.learn(), lesson.valueCount == walker.inputs.count {
                var known = cache.entry(for: lesson.shape)
                if case .translated? = known {} else if let entry = lesson.entry {
                    cache.store(entry, for: lesson.shape)
                    known = entry
                }
                if case .translated(let cached)? = known {
                    let entry = cache.storeFast(typeKey, opener, walker.key, cached, entity: entity)
                    if let filter = entry.translation.filter(inputs: walker.inputs) {
                        #if DEBUG
                        checkCached(filter, entry.translation.followed, predicate: predicate, entity: entity, schema: schema, dialect: dialect, store: store)
                        #endif
                        return (filter, entry.translation.followed, entry)
                    }
                }
            }
        } else {
            // The fast key's first use: translated, without the full walk or the probe translation
            // (docs/Predicates.md, "Translation cache"); both wait for a second use.
            let fresh = try translation(of: predicate, entity: entity, schema: schema, dialect: dialect, store: store)
            let root = predicate.variable.key
            cache.storeFastFirstUse(typeKey, walker.key, FirstUse {
                // The full walk through the opener: its tree is the fast walk's, of known types.
                var full = PredicateShapeWalker(root: root, model: T.self)
                walkShapeOpened(expression, opener, &full)
                #if DEBUG
                var dynamic = PredicateShapeWalker(root: root, model: T.self)
                dynamic.walk(expression)
                precondition(dynamic.cacheable == full.cacheable && (!full.cacheable || dynamic.tokens == full.tokens),
                             "static shape walk \(full.tokens) differs from \(dynamic.tokens)")
                #endif
                guard full.cacheable else { return nil }
                let shape = PredicateShape(tokens: full.tokens)
                return FirstUse.Lesson(shape: shape, valueCount: full.values.count,
                                       entry: learn(fresh, values: full.values, predicate: predicate, entity: entity, schema: schema, dialect: dialect, store: store))
            })
            return (fresh.filter, fresh.followed, nil)
        }
        // Not known by its fast key: the full walk finds (or learns) its entry, kept under the fast key too.
        var full = PredicateShapeWalker(root: predicate.variable.key, model: T.self)
        full.walk(expression)
        let result = try translation(of: predicate, entity: entity, schema: schema, dialect: dialect, store: store, cache: cache)
        if full.cacheable, full.values.count == walker.inputs.count, case .translated(let cached)? = cache.entry(for: PredicateShape(tokens: full.tokens)) {
            cache.storeFast(typeKey, opener, walker.key, cached, entity: entity)
        }
        return (result.filter, result.followed, nil)
    }
}

/// A context's last expression type and what the cache knew of it (`PredicateSQL.fastHit`), with
/// the entries' plain texts.
struct FastMemo {
    let type: FastTypeKey
    let opener: any FastShapeOpener
    let entries: [FastCacheEntry]
    /// Each entry's `plainTexts`, once a plain fetch or count asked for them.
    var texts: [KeptPlainTexts]

    init(type: FastTypeKey, opener: any FastShapeOpener, entries: [FastCacheEntry]) {
        self.type = type
        self.opener = opener
        self.entries = entries
        texts = Array(repeating: KeptPlainTexts(), count: entries.count)
    }
}

/// What the cache knows of an expression type (`PredicateTranslationCache.fastEntries`).
enum FastSlot {
    /// Its tree has a node the fast walk does not read: predicates of it take the full walk.
    case slow
    /// Its opener and the entries learnt for it, one per fast key.
    case entries(any FastShapeOpener, [FastCacheEntry])

    var isSlow: Bool {
        if case .slow = self { return true }
        return false
    }
}

/// Walks an expression of one type (`E`), known by its type identifier, without a cast: made
/// from the first expression of the type that casts to `FastShapeNode`.
protocol FastShapeOpener: Sendable {
    func walk<X>(_ expression: X, into walker: inout FastShapeWalker)
    /// The full walk (`PredicateShapeWalker`) of `expression`, through its static type.
    func walkShape<X>(_ expression: X, into walker: inout PredicateShapeWalker)
}

struct FastShapeOpenerOf<E: FastShapeNode>: FastShapeOpener {
    func walk<X>(_ expression: X, into walker: inout FastShapeWalker) {
        // `X` is `E`: the cache found this opener by `ObjectIdentifier(X.self)`.
        precondition(X.self == E.self, "fast shape opener of \(E.self) given \(X.self)")
        withUnsafePointer(to: expression) { pointer in
            pointer.withMemoryRebound(to: E.self, capacity: 1) { $0.pointee.appendFastShape(to: &walker) }
        }
    }

    func walkShape<X>(_ expression: X, into walker: inout PredicateShapeWalker) {
        precondition(X.self == E.self, "fast shape opener of \(E.self) given \(X.self)")
        withUnsafePointer(to: expression) { pointer in
            pointer.withMemoryRebound(to: E.self, capacity: 1) { $0.pointee.appendStaticShape(to: &walker) }
        }
    }
}

private func makeOpener<E: FastShapeNode>(_ node: E) -> any FastShapeOpener {
    FastShapeOpenerOf<E>()
}

/// Opens the expression existential and hands its concrete value to `opener`.
private func walkOpened<X: PredicateExpression>(_ expression: X, _ opener: any FastShapeOpener, _ walker: inout FastShapeWalker) {
    opener.walk(expression, into: &walker)
}

/// `walkOpened` for the full walk.
private func walkShapeOpened<X: PredicateExpression>(_ expression: X, _ opener: any FastShapeOpener, _ walker: inout PredicateShapeWalker) {
    opener.walkShape(expression, into: &walker)
}
