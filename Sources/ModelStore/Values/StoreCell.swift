/// One column of the current row, decoded by the store before the row's attributes are read
/// (`StoreStatement.loadCells`): a number as its bits, text and bytes in place in the store's
/// buffer. A model's generated `init(from:)` then reads its values from these cells with no call
/// into the store per column (`SQLStorable.read(cell:)`, inlined), where the statement's typed
/// reads are a dynamic call each (docs/Architecture.md, "The storage seam"). A store whose typed
/// reads are already cheap loads none (SQLite).
///
/// A cell only holds what the store can give in one of these forms exactly; anything else
/// (`other`, or a form a type does not take) is read through the statement as before, so a value
/// read from a cell is always the one the statement's typed read gives. A hook of generated code's
/// runtime (SPI `ModelStoreGenerated`), not API.
@_spi(ModelStoreGenerated) public struct StoreCell {
    /// What the cell holds.
    @usableFromInline enum Form: UInt8 {
        /// Nothing to read here: the value is read through the statement.
        case other
        /// NULL.
        case null
        /// An integer: `bits` is its `Int64` bit pattern.
        case integer
        /// A floating-point number: `bits` is its `Double` bit pattern.
        case real
        /// UTF-8 text at `bytes`, `bits` bytes long.
        case text
        /// Bytes at `bytes`, `bits` long.
        case bytes
    }

    @usableFromInline var form: Form
    @usableFromInline var bits: UInt64
    @usableFromInline var bytes: UnsafeRawPointer?

    init(form: Form, bits: UInt64 = 0, bytes: UnsafeRawPointer? = nil) {
        self.form = form
        self.bits = bits
        self.bytes = bytes
    }

    static var other: StoreCell { StoreCell(form: .other) }
    static var null: StoreCell { StoreCell(form: .null) }

    /// The integer, when the cell holds one.
    @inlinable var integer: Int64? { form == .integer ? Int64(bitPattern: bits) : nil }

    /// The number as a double (an integer converted, as the stores' `double(at:)` does), when the
    /// cell holds one.
    @inlinable var real: Double? {
        switch form {
        case .real: return Double(bitPattern: bits)
        case .integer: return Double(Int64(bitPattern: bits))
        default: return nil
        }
    }

    /// The text's UTF-8 bytes, when the cell holds text.
    @inlinable var text: UnsafeBufferPointer<UInt8>? {
        form == .text ? UnsafeBufferPointer(start: bytes?.assumingMemoryBound(to: UInt8.self), count: Int(bits)) : nil
    }

    /// The bytes, when the cell holds bytes.
    @inlinable var byteBuffer: UnsafeRawBufferPointer? {
        form == .bytes ? UnsafeRawBufferPointer(start: bytes, count: Int(bits)) : nil
    }
}
