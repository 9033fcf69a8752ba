import Foundation

/// Reads a model's stored attributes from a fetched row, from saved values, or (for a fetch with
/// `propertiesToFetch`) as placeholders. Generated `init(from:)` and `_decode(from:)` call
/// `read(_:)` once per stored attribute, addressed by its `AttributeIndex`, so the order of the
/// calls does not matter (`init(from:)` sets the class's own storage before `super.init`, as Swift
/// requires; `_decode` reads the base's first); a struct's generated reader calls `readField()` per
/// field. A hook of generated code (SPI `ModelStoreGenerated`), not API.
///
/// A decoder is an unretained reference to its `RowReader`, which whoever makes the decoder keeps
/// alive while it is used (`RowReader.withDecoder`); generated code only reads through it. An
/// initializer takes its arguments owned, so a class passed to each model's `init(from:)` was
/// retained and released per row read (docs/Benchmarks.md, "Reads"); this struct is two plain words.
@_spi(ModelStoreGenerated) public struct RowDecoder {
    /// The reader, unretained: used through `_withUnsafeGuaranteedRef`, which takes no retain
    /// (an `unowned(unsafe)` reference was retained at each use).
    @usableFromInline let reader: Unmanaged<RowReader>
    /// The reader's per-row state.
    @usableFromInline let state: UnsafeMutablePointer<RowReader.State>

    init(_ reader: RowReader) {
        self.reader = .passUnretained(reader)
        state = reader.state
    }

    /// The position of `attribute`'s first column (-1 when the row does not hold it).
    @inlinable func position(of attribute: Int) -> Int32 {
        // A bounds check, as an array's subscript makes: `positions` is a raw pointer.
        precondition(UInt(bitPattern: attribute) < UInt(bitPattern: state.pointee.count), "attribute index out of range")
        return state.pointee.positions[attribute]
    }

    /// The value of `attribute` (its type's placeholder when the row does not hold it).
    ///
    /// - Throws: `ModelStoreError.corruptRow` when the stored value does not fit the type.
    @inlinable public func read<Value: SQLStorable>(_ attribute: AttributeIndex) throws -> Value {
        let position = position(of: attribute.index)
        state.pointee.attribute = attribute.index
        guard position >= 0 else {
            if let placeholder = Value._placeholder { return placeholder }
            throw corrupt()
        }
        state.pointee.cursor = Int(position)
        return try Value._read(from: self)
    }

    /// Sets `storage` to the value of `attribute` when the row holds it (else leaves it).
    ///
    /// - Throws: `ModelStoreError.corruptRow` when the stored value does not fit the type.
    @inlinable public func read<Value: SQLStorable>(_ attribute: AttributeIndex, into storage: inout Value) throws {
        let position = position(of: attribute.index)
        guard position >= 0 else { return }
        state.pointee.attribute = attribute.index
        state.pointee.cursor = Int(position)
        storage = try Value._read(from: self)
    }

    /// The next field of a struct being read.
    ///
    /// - Throws: `ModelStoreError.corruptRow` when the stored value does not fit the type.
    @inlinable public func readField<Value: SQLStorable>() throws -> Value {
        try Value._read(from: self)
    }

    /// The error for the attribute being read (`RowReader.corrupt()`).
    @usableFromInline func corrupt() -> ModelStoreError {
        reader._withUnsafeGuaranteedRef { $0.corrupt() }
    }

    /// The attribute (`AttributeIndex`) being read, or last read.
    var attributeIndex: Int { state.pointee.attribute }

    /// Reads the next rows with the positions of table `table`.
    func select(table: Int) {
        reader._withUnsafeGuaranteedRef { $0.select(table: table) }
    }

    /// Reads the current row's values from `cells` (`StoreStatement.loadCells`, by result column),
    /// or through the statement again when nil. Whoever steps the statement sets them for each row
    /// before decoding it: cells left from another row would be read as this one's.
    func useCells(_ cells: UnsafePointer<StoreCell>?) {
        state.pointee.cells = cells
    }
}

/// What a `RowDecoder` reads from: the statement or values, and the per-row state.
///
/// The per-row state lives behind a pointer: `read()` is inlined into generated code, where every
/// access to a class's `var` would pay a dynamic exclusivity check (a profile of fetches showed
/// them costing more than reading the column).
@_spi(ModelStoreGenerated) public final class RowReader {
    /// What changes from row to row.
    @usableFromInline struct State {
        /// Where each attribute's first column is (a result column of the statement, or a position
        /// in `values`), by `AttributeIndex`; -1 for an attribute the row does not hold: `count`
        /// positions, one of the decoder's tables.
        @usableFromInline var positions: UnsafePointer<Int32>
        /// The number of `positions`.
        @usableFromInline var count: Int
        /// The column the next read takes.
        @usableFromInline var cursor: Int
        /// The attribute being read (named by errors).
        @usableFromInline var attribute: Int
        /// The current row's cells by result column, when the store loaded them for this row
        /// (`RowDecoder.useCells(_:)`); nil: every value is read through the statement.
        @usableFromInline var cells: UnsafePointer<StoreCell>?
        /// The table in use (its entity is named by errors).
        var table: Int
        /// The position tables (shared: a fetch of a hierarchy takes its container's, made once),
        /// held for `storage` and `starts`, which `select` reads without retaining it.
        var tables: DecoderTables
        var storage: UnsafePointer<Int32>
        var starts: UnsafePointer<Int>
    }

    /// Position tables, one after the other in one allocation, with each table's offset and its
    /// entity's name: made once per hierarchy and container (`ModelContext.MemberTables`), so a
    /// fetch's decoder copies none of them (a lookup of one row made and copied them per fetch,
    /// 1.5 k instructions: docs/Benchmarks.md, "Lookups").
    final class DecoderTables: @unchecked Sendable {
        /// Never written after `init`.
        let storage: UnsafeMutablePointer<Int32>
        /// Each table's offset in `storage`, then the end (never written after `init`).
        let starts: UnsafeMutablePointer<Int>
        /// The entity of each table.
        let entityNames: [String]

        init(_ tables: [[Int32]], entityNames: [String]) {
            let starts = UnsafeMutablePointer<Int>.allocate(capacity: tables.count + 1)
            starts[0] = 0
            for (index, table) in tables.enumerated() { starts[index + 1] = starts[index] + table.count }
            let storage = UnsafeMutablePointer<Int32>.allocate(capacity: starts[tables.count])
            for (index, table) in tables.enumerated() {
                table.withUnsafeBufferPointer { buffer in
                    if let base = buffer.baseAddress { (storage + starts[index]).initialize(from: base, count: buffer.count) }
                }
            }
            self.storage = storage
            self.starts = starts
            self.entityNames = entityNames
        }

        deinit {
            storage.deallocate()
            starts.deallocate()
        }
    }

    /// The statement, read column by column with its typed reads, without `SQLValue` (the fast path).
    @usableFromInline let statement: (any StoreStatement)?
    /// The values themselves (values mode).
    @usableFromInline let values: [SQLValue]
    /// Whether every read gives its type's placeholder (the placeholder of a struct).
    @usableFromInline let makesPlaceholders: Bool
    @usableFromInline let state: UnsafeMutablePointer<State>

    /// A decoder of a statement's rows; `positions` are result columns.
    init(statement: any StoreStatement, positions: [Int32], entityName: String) {
        self.statement = statement
        self.values = []
        self.makesPlaceholders = false
        state = Self.makeState(DecoderTables([positions], entityNames: [entityName]))
    }

    /// A decoder of a statement's rows with several position tables (`select(table:)`), the first selected.
    init(statement: any StoreStatement, tables: [[Int32]], entityNames: [String]) {
        self.statement = statement
        self.values = []
        self.makesPlaceholders = false
        state = Self.makeState(DecoderTables(tables, entityNames: entityNames))
    }

    /// A decoder of a statement's rows with the kept `tables`, the first selected.
    init(statement: any StoreStatement, tables: DecoderTables) {
        self.statement = statement
        self.values = []
        self.makesPlaceholders = false
        state = Self.makeState(tables)
    }

    /// A decoder of stored values; `positions` are positions in `values`.
    init(values: [SQLValue], positions: [Int32], entityName: String) {
        self.statement = nil
        self.values = values
        self.makesPlaceholders = false
        state = Self.makeState(DecoderTables([positions], entityNames: [entityName]))
    }

    /// A decoder whose every read gives the type's placeholder (nil placeholders throw).
    init(placeholdersFor name: String) {
        self.statement = nil
        self.values = []
        self.makesPlaceholders = true
        state = Self.makeState(DecoderTables([[]], entityNames: [name]))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    private static func makeState(_ tables: DecoderTables) -> UnsafeMutablePointer<State> {
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State(positions: UnsafePointer(tables.storage), count: tables.starts[1], cursor: 0, attribute: 0, cells: nil, table: 0,
                                   tables: tables, storage: UnsafePointer(tables.storage), starts: UnsafePointer(tables.starts)))
        return state
    }

    /// Whether this reader reads `statement` with `tables` (`ModelContext.spareReader`).
    func reads(_ statement: any StoreStatement, with tables: DecoderTables) -> Bool {
        self.statement.map { $0 === statement } == true && state.pointee.tables === tables
    }

    /// Makes this reader read its statement's next result from the start, as a new one would:
    /// the first table selected, no cells.
    func restart() {
        state.pointee.cursor = 0
        state.pointee.attribute = 0
        state.pointee.cells = nil
        Self.select(table: 0, in: state)
    }

    private static func select(table: Int, in state: UnsafeMutablePointer<State>) {
        let starts = state.pointee.starts
        let start = starts[table]
        state.pointee.positions = state.pointee.storage + start
        state.pointee.count = starts[table + 1] - start
        state.pointee.table = table
    }

    /// Reads the next rows with the positions of table `table`.
    func select(table: Int) {
        Self.select(table: table, in: state)
    }

    /// Runs `body` with a decoder of this reader, kept alive meanwhile.
    func withDecoder<T>(_ body: (RowDecoder) throws -> T) rethrows -> T {
        try withExtendedLifetime(self) { try body(RowDecoder(self)) }
    }

    /// The error for the attribute being read, whose stored value (the column before the cursor)
    /// does not fit its type. The row is not known here and the property only by index:
    /// `ModelContext.naming` names both.
    @usableFromInline func corrupt() -> ModelStoreError {
        ModelStoreError.corruptRow(entity: state.pointee.tables.entityNames[state.pointee.table], identifier: nil,
                                   property: "attribute \(state.pointee.attribute)",
                                   storedValue: storedValueDescription(at: state.pointee.cursor - 1))
    }

    /// The stored value at column `position` (a result column, or a position in `values`) as short
    /// text for messages.
    func storedValueDescription(at position: Int) -> String {
        let value: SQLValue?
        if position < 0 || makesPlaceholders {
            value = nil
        } else if let statement {
            value = position < Int(statement.columnCount) ? statement.value(at: Int32(position)) : nil
        } else {
            value = position < values.count ? values[position] : nil
        }
        return value.map(SQLValue.shortDescription) ?? "(missing)"
    }
}

/// Writes a model's stored attributes into statement parameters or into a values array.
/// Generated `_encode(to:)` calls `write(_:_:)` once per stored attribute, addressed by its
/// `AttributeIndex`; an attribute the encoder has no place for (a column a partial `UPDATE` leaves
/// alone) is skipped. A struct's generated writer calls `writeField(_:)` per field. A hook of
/// generated code (SPI `ModelStoreGenerated`), not API. Its changing state is behind a pointer,
/// for the same reason as `RowDecoder`'s.
@_spi(ModelStoreGenerated) public final class RowEncoder {
    /// What changes from row to row.
    @usableFromInline struct State {
        /// Where each attribute's first column goes (a parameter index, or a position in
        /// `values`), by `AttributeIndex`; -1 for an attribute not written.
        @usableFromInline var positions: [Int32]
        /// The parameter (or value position) the next write takes.
        @usableFromInline var cursor: Int
        @usableFromInline var values: [SQLValue]
        /// The attribute being written.
        @usableFromInline var attribute: Int = 0
        /// The first attribute of the row that cannot be stored: its `AttributeIndex` and why.
        @usableFromInline var problem: (attribute: Int, reason: String)?
    }

    /// The statement, bound with its typed binds, without `SQLValue` (the fast path); nil in values
    /// mode. A `let` of the encoder, not a field of `state`: a write tests it and unwraps it in
    /// place, which takes no retain (loading it through the pointer, or binding the optional,
    /// copied the existential: a retain and a release per bound column; docs/Benchmarks.md,
    /// "Writes"). An encoder writes into one statement: a save keeps one per statement it binds.
    @usableFromInline let statement: (any StoreStatement)?
    /// Whether `statement` can refuse a value bound into it (`StoreStatement.refusesBoundValues`),
    /// asked once: `problem` asks the statement per row only then.
    private let statementRefusesValues: Bool
    @usableFromInline let state: UnsafeMutablePointer<State>

    /// An encoder into `statement`'s parameters at `positions`.
    init(statement: any StoreStatement, positions: [Int32]) {
        self.statement = statement
        statementRefusesValues = statement.refusesBoundValues
        state = .allocate(capacity: 1)
        state.initialize(to: State(positions: positions, cursor: 0, values: []))
    }

    /// An encoder into a values array of `count` columns (all `.null` at first), at `positions`.
    init(valueCount count: Int, positions: [Int32]) {
        statement = nil
        statementRefusesValues = false
        state = .allocate(capacity: 1)
        state.initialize(to: State(positions: positions, cursor: 0, values: Array(repeating: .null, count: count)))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The values written (values mode).
    var values: [SQLValue] { state.pointee.values }

    /// Starts writing a new row at the encoder's positions (its `init`'s, or the last `restart`'s
    /// in values mode).
    func restartRow() {
        // Cleared only when set: assigning nil destroyed the old value, a call per row.
        if state.pointee.problem != nil { state.pointee.problem = nil }
    }

    /// Starts writing a new row of `count` values at `positions` (values mode).
    func restart(valueCount count: Int, positions: [Int32]) {
        precondition(statement == nil, "a statement's encoder restarted in values mode")
        state.pointee.positions = positions
        state.pointee.problem = nil
        // Set back in place, then shortened or lengthened by the difference (a few values between
        // entities of a hierarchy): emptying and refilling the array cost more than the row.
        let previous = state.pointee.values.count
        state.pointee.values.withUnsafeMutableBufferPointer { values in
            for index in 0..<min(previous, count) { values[index] = .null }
        }
        if previous > count {
            for _ in count..<previous { state.pointee.values.removeLast() }
        } else {
            for _ in previous..<count { state.pointee.values.append(.null) }
        }
    }

    /// The value at `position` (values mode).
    func value(at position: Int) -> SQLValue { state.pointee.values[position] }

    /// Whether the value at `position` is `other` (values mode), compared in place: no copy of
    /// either (a copied text value was retained and released). Always inlined: called out of line,
    /// its caller retained and released the encoder around it (1.2 M of a 20,000-row update with
    /// history).
    @inline(__always) func value(at position: Int, is other: UnsafePointer<SQLValue>) -> Bool {
        state.pointee.values.withUnsafeBufferPointer { $0[position] == other.pointee }
    }

    /// The first attribute written since the last restart that the store cannot give back as it
    /// is (`SQLStorable.storageProblem`): its `AttributeIndex` and why.
    var problem: (attribute: Int, reason: String)? {
        if let problem = state.pointee.problem { return problem }
        return statementRefusesValues ? storeProblem() : nil
    }

    /// Whether the row written since the last restart holds a value the store cannot give back:
    /// `problem`'s test, asked per row by a save, without making its answer (the statement is
    /// tested and unwrapped in place, with no retain; `problem` then names the attribute).
    @inline(__always) var hasProblem: Bool {
        if state.pointee.problem != nil { return true }
        guard statementRefusesValues, statement != nil else { return false }
        return statement!.hasBindingProblem
    }

    /// A value bound into the statement that the store cannot hold (`StoreStatement.bindingProblem`:
    /// PostgreSQL text holding U+0000), as the attribute whose columns hold its parameter, so
    /// `save()` names the entity and property.
    private func storeProblem() -> (attribute: Int, reason: String)? {
        guard let statement, let (parameter, reason) = statement.bindingProblem else { return nil }
        var found: (attribute: Int, first: Int32)?
        for (attribute, first) in state.pointee.positions.enumerated() where first >= 0 && first <= parameter {
            if found == nil || first > found!.first { found = (attribute, first) }
        }
        return found.map { ($0.attribute, reason) }
    }

    /// Records a value of the attribute being written that the store cannot give back (the first
    /// of the row only).
    @usableFromInline func noteProblem(_ reason: String) {
        guard state.pointee.problem == nil else { return }
        state.pointee.problem = (state.pointee.attribute, reason)
    }

    /// Writes the value of `attribute`, if the encoder has a place for it. The value is read only
    /// then (an autoclosure: generated code's `row.write(_p, E._$p)` reads the stored property
    /// `_p`, with its dynamic exclusivity check and its retain, only for the columns a partial
    /// `UPDATE` binds).
    @inlinable public func write<Value: SQLStorable>(_ value: @autoclosure () -> Value, _ attribute: AttributeIndex) {
        let position = state.pointee.positions[attribute.index]
        guard position >= 0 else { return }
        state.pointee.cursor = Int(position)
        state.pointee.attribute = attribute.index
        let value = value()
        if let problem = value.storageProblem { noteProblem(problem) }
        value._write(to: self)
    }

    /// Writes the next field of a struct.
    @inlinable public func writeField<Value: SQLStorable>(_ value: Value) {
        if let problem = value.storageProblem { noteProblem(problem) }
        value._write(to: self)
    }

    /// The stored form of one attribute value: one value per column it takes.
    static func storedValues<Value: SQLStorable>(of value: Value) -> [SQLValue] {
        let encoder = RowEncoder(valueCount: Value._columnCount, positions: [])
        value._write(to: encoder)
        return encoder.values
    }
}

extension SQLValue {
    /// The value as short text for error messages (long text and blobs abbreviated).
    static func shortDescription(_ value: SQLValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let number): return String(number)
        case .real(let number): return "\(number)"
        case .text(let text): return text.count > 40 ? "'\(text.prefix(40))…' (\(text.utf8.count) bytes)" : "'\(text)'"
        case .blob(let data): return "a blob of \(data.count) bytes"
        }
    }
}
