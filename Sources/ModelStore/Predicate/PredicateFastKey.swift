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
}

/// The part of a predicate's shape its expression type leaves open.
struct FastShapeKey: Equatable {
    var keyPaths: [AnyKeyPath] = []
    /// Variable numbers and operators, in walk order.
    var words: [Int] = []
    var classes: [CapturedClass] = []

    static func == (lhs: FastShapeKey, rhs: FastShapeKey) -> Bool {
        guard lhs.words == rhs.words, lhs.classes == rhs.classes, lhs.keyPaths.count == rhs.keyPaths.count else { return false }
        for (left, right) in zip(lhs.keyPaths, rhs.keyPaths) where left !== right && left != right { return false }
        return true
    }
}

/// Collects a predicate's `FastShapeKey` and its captured values' inputs, in the order
/// `PredicateShapeWalker` collects the values (the cached bindings index them).
struct FastShapeWalker {
    var key = FastShapeKey()
    var inputs: [CapturedInput] = []
    /// False once a value the fast walk does not classify was met (the predicate takes the full
    /// walk, which classifies everything the cache takes).
    var fast = true
    private var variables: [PredicateExpressions.VariableID] = []

    init(root: PredicateExpressions.VariableID) {
        variables.append(root)
    }

    mutating func keyPath(_ keyPath: AnyKeyPath) {
        key.keyPaths.append(keyPath)
    }

    mutating func word(_ word: Int) {
        key.words.append(word)
    }

    mutating func variable(_ id: PredicateExpressions.VariableID) {
        if let index = variables.firstIndex(of: id) {
            key.words.append(index)
        } else {
            key.words.append(variables.count)
            variables.append(id)
        }
    }

    /// A captured value of the types most predicates capture, read by type identity (no cast);
    /// its class is `CapturedClass.of(value)`.
    mutating func captured<V>(_ value: V) {
        guard fast else { return }
        if let input = classify(value) {
            key.classes.append(input.0)
            inputs.append(input.1)
        } else {
            fast = false
        }
    }

    private func classify<V>(_ value: V) -> (CapturedClass, CapturedInput)? {
        if V.self == String.self { return text(unsafeBitCast(value, to: String.self)) }
        if V.self == Int.self { return probed(unsafeBitCast(value, to: Int.self)) }
        if V.self == Int64.self { return probed(unsafeBitCast(value, to: Int64.self)) }
        if V.self == Date.self { return probed(unsafeBitCast(value, to: Date.self)) }
        if V.self == UUID.self { return probed(unsafeBitCast(value, to: UUID.self)) }
        if V.self == PersistentIdentifier.self { return identifier(unsafeBitCast(value, to: PersistentIdentifier.self)) }
        if V.self == String?.self { return unsafeBitCast(value, to: String?.self).map(text) ?? Self.null }
        if V.self == Int?.self { return unsafeBitCast(value, to: Int?.self).map(probed) ?? Self.null }
        if V.self == Int64?.self { return unsafeBitCast(value, to: Int64?.self).map(probed) ?? Self.null }
        if V.self == Date?.self { return unsafeBitCast(value, to: Date?.self).map(probed) ?? Self.null }
        if V.self == UUID?.self { return unsafeBitCast(value, to: UUID?.self).map(probed) ?? Self.null }
        if V.self == PersistentIdentifier?.self { return unsafeBitCast(value, to: PersistentIdentifier?.self).map(identifier) ?? Self.null }
        return nil
    }

    private static var null: (CapturedClass, CapturedInput) { (.null, CapturedInput(stored: .null)) }

    private func text(_ text: String) -> (CapturedClass, CapturedInput) {
        let kind: CapturedClass = CapturedClass.isPlain(text) ? .probed(length: text.utf8.count) : CapturedClass.fixedValue(.text(text))
        return (kind, CapturedInput(stored: .text(text)))
    }

    private func probed<S: SQLStorable>(_ value: S) -> (CapturedClass, CapturedInput) {
        (.probed(length: 0), CapturedInput(stored: value.sqlValue))
    }

    private func identifier(_ identifier: PersistentIdentifier) -> (CapturedClass, CapturedInput) {
        guard let row = identifier.rowID else { return (.fixed(identifier), CapturedInput(identifier: identifier)) }
        return (.identifier(entity: identifier.entityName, store: identifier.storeIdentifier), CapturedInput(row: row, identifier: identifier))
    }
}

extension PredicateExpressions.Value: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) { walker.captured(value) }
}

extension PredicateExpressions.Variable: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) { walker.variable(key) }
}

extension PredicateExpressions.NilLiteral: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) {}
}

extension PredicateExpressions.KeyPath: FastShapeNode where Root: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) {
        root.appendFastShape(to: &walker)
        walker.keyPath(keyPath)
    }
}

extension PredicateExpressions.Equal: FastShapeNode where LHS: FastShapeNode, RHS: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) {
        lhs.appendFastShape(to: &walker)
        rhs.appendFastShape(to: &walker)
    }
}

extension PredicateExpressions.NotEqual: FastShapeNode where LHS: FastShapeNode, RHS: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) {
        lhs.appendFastShape(to: &walker)
        rhs.appendFastShape(to: &walker)
    }
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
}

extension PredicateExpressions.Conjunction: FastShapeNode where LHS: FastShapeNode, RHS: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) {
        lhs.appendFastShape(to: &walker)
        rhs.appendFastShape(to: &walker)
    }
}

extension PredicateExpressions.Disjunction: FastShapeNode where LHS: FastShapeNode, RHS: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) {
        lhs.appendFastShape(to: &walker)
        rhs.appendFastShape(to: &walker)
    }
}

extension PredicateExpressions.Negation: FastShapeNode where Wrapped: FastShapeNode {
    func appendFastShape(to walker: inout FastShapeWalker) {
        wrapped.appendFastShape(to: &walker)
    }
}

/// The cached translation of one fast key, and what a plain fetch of it runs (made on its first
/// plain fetch): docs/Predicates.md, "Translation cache".
final class FastCacheEntry: @unchecked Sendable {
    let key: FastShapeKey
    let translation: CachedTranslation
    /// Identifies `plainSelect` in a connection's statement cache (unique in its container).
    let statementID: Int
    private let lock = NSLock()
    private var plain: [String?] = [nil, nil]

    init(key: FastShapeKey, translation: CachedTranslation, statementID: Int) {
        self.key = key
        self.translation = translation
        self.statementID = statementID
    }

    /// The whole `SELECT` of a fetch of `entity` with this predicate, no sort, and with
    /// (`windowed`) or without `LIMIT ? OFFSET ?`; made once.
    func plainSelect(entity: EntitySchema, windowed: Bool) -> String {
        let slot = windowed ? 1 : 0
        lock.lock()
        defer { lock.unlock() }
        if let sql = plain[slot] { return sql }
        var sql = entity.selectSQL + " WHERE "
        if entity.baseName != nil {
            sql += "\(SQLQuote.identifier(StorageNames.type)) IN (\(entity.typeNames.map { _ in "?" }.joined(separator: ", "))) AND "
        }
        sql += "(\(translation.sql))" + entity.keyOrderSQL
        if windowed { sql += " LIMIT ? OFFSET ?" }
        plain[slot] = sql
        return sql
    }

    /// The statement id of the windowed or plain select.
    func statementID(windowed: Bool) -> Int { statementID * 2 + (windowed ? 1 : 0) }
}

extension CachedTranslation {
    /// `filter(values:)` from the fast walk's inputs.
    func filter(inputs: [CapturedInput]) -> SQLFilter? {
        filter { index, form in index < inputs.count ? inputs[index].value(form) : nil }
    }
}

/// A type pair: the fetched model's and the expression's.
struct FastTypeKey: Hashable {
    let model: ObjectIdentifier
    let expression: ObjectIdentifier
}

extension PredicateSQL {
    /// `translation(of:…cache:)`, first through the fast key; with the fast entry that answered
    /// (nil when the predicate took the full walk).
    static func fastTranslation<T>(of predicate: Predicate<T>, entity: EntitySchema, schema: Schema, dialect: any SQLDialect,
                                   store: String?, cache: PredicateTranslationCache)
        throws -> (filter: SQLFilter, followed: [RelationshipSchema], entry: FastCacheEntry?) {
        let expression = predicate.expression
        let typeKey = FastTypeKey(model: ObjectIdentifier(T.self), expression: ObjectIdentifier(type(of: expression)))
        let known = cache.fastEntries(typeKey)
        let opener: any FastShapeOpener
        switch known {
        case .slow?:
            let full = try translation(of: predicate, entity: entity, schema: schema, dialect: dialect, store: store, cache: cache)
            return (full.filter, full.followed, nil)
        case .entries(let known, _)?:
            opener = known
        case nil:
            // The one cast of an expression type: its opener then walks it without one.
            guard let node = expression as? any FastShapeNode else {
                cache.storeFast(typeKey, .slow)
                let full = try translation(of: predicate, entity: entity, schema: schema, dialect: dialect, store: store, cache: cache)
                return (full.filter, full.followed, nil)
            }
            opener = makeOpener(node)
            cache.storeFast(typeKey, .entries(opener, []))
        }
        var walker = FastShapeWalker(root: predicate.variable.key)
        walkOpened(expression, opener, &walker)
        guard walker.fast else {
            let full = try translation(of: predicate, entity: entity, schema: schema, dialect: dialect, store: store, cache: cache)
            return (full.filter, full.followed, nil)
        }
        if case .entries(_, let entries)? = known, let entry = entries.first(where: { $0.key == walker.key }),
           let filter = entry.translation.filter(inputs: walker.inputs) {
            #if DEBUG
            checkCached(filter, entry.translation.followed, predicate: predicate, entity: entity, schema: schema, dialect: dialect, store: store)
            #endif
            return (filter, entry.translation.followed, entry)
        }
        // Not known by its fast key: the full walk finds (or learns) its entry, kept under the fast key too.
        var full = PredicateShapeWalker(root: predicate.variable.key, model: T.self)
        full.walk(expression)
        let result = try translation(of: predicate, entity: entity, schema: schema, dialect: dialect, store: store, cache: cache)
        if full.cacheable, full.values.count == walker.inputs.count, case .translated(let cached)? = cache.entry(for: PredicateShape(tokens: full.tokens)) {
            cache.storeFast(typeKey, opener, walker.key, cached)
        }
        return (result.filter, result.followed, nil)
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
}

struct FastShapeOpenerOf<E: FastShapeNode>: FastShapeOpener {
    func walk<X>(_ expression: X, into walker: inout FastShapeWalker) {
        // `X` is `E`: the cache found this opener by `ObjectIdentifier(X.self)`.
        precondition(X.self == E.self, "fast shape opener of \(E.self) given \(X.self)")
        withUnsafePointer(to: expression) { pointer in
            pointer.withMemoryRebound(to: E.self, capacity: 1) { $0.pointee.appendFastShape(to: &walker) }
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
