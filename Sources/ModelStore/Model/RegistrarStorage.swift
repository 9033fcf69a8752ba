import Observation

/// Where a model keeps its `ObservationRegistrar` once made (`ModelObject.registrarStorage`; made
/// on the first observed read; docs/Runtime.md, "Semantics", Observation).
///
/// `ObservationRegistrar` is a resilient type of another module. Stored as an
/// `ObservationRegistrar?`, every copy, assignment and destroy of it went through the value
/// witnesses of the optional (its metadata, a tag test, then the registrar's own witness): making a
/// model's registrar cost about 660 instructions and destroying it with the model about 900, where
/// a registrar of its own costs 240 and 630 (docs/Benchmarks.md, "Enumerate and observation").
/// Here it lives in a word of raw storage, with the model's `hasRegistrar` saying whether it was
/// made: made in place, read in place (a borrow: no copy, no retain), destroyed once by the model's
/// `deinit` through its own witness. A registrar is one reference; one that did not fit a word (a
/// later Observation) would live in a heap allocation whose address the word holds.
@usableFromInline struct RegistrarStorage {
    /// The registrar's bytes, or the address of its allocation (`isInline` false); 0 before it is made.
    @usableFromInline var word: UInt = 0

    /// Whether a registrar lives in the word: it fits, and it may be moved bit for bit (a read
    /// views a copy of the word's bytes as the registrar; one that could not be, say holding a weak
    /// reference, lives in the allocation and is read where it is).
    @inlinable static var isInline: Bool {
        MemoryLayout<ObservationRegistrar>.size <= MemoryLayout<UInt>.size
            && MemoryLayout<ObservationRegistrar>.alignment <= MemoryLayout<UInt>.alignment
            && _isBitwiseTakable(ObservationRegistrar.self)
    }

    /// Makes the registrar (not made yet).
    @usableFromInline mutating func initialize() {
        if Self.isInline {
            withUnsafeMutableBytes(of: &word) { _ = $0.baseAddress!.initializeMemory(as: ObservationRegistrar.self, to: ObservationRegistrar()) }
        } else {
            let allocation = UnsafeMutablePointer<ObservationRegistrar>.allocate(capacity: 1)
            allocation.initialize(to: ObservationRegistrar())
            word = UInt(bitPattern: allocation)
        }
    }

    /// Destroys the registrar (made).
    mutating func destroy() {
        if Self.isInline {
            withUnsafeMutableBytes(of: &word) { _ = $0.baseAddress!.assumingMemoryBound(to: ObservationRegistrar.self).deinitialize(count: 1) }
        } else if let allocation = UnsafeMutablePointer<ObservationRegistrar>(bitPattern: word) {
            allocation.deinitialize(count: 1)
            allocation.deallocate()
        }
        word = 0
    }

    /// Calls `body` with the registrar (made), borrowed: the word's bytes are viewed as a registrar
    /// for the call, neither copied as one nor destroyed (the model keeps it alive). `body` only calls
    /// its methods. The registrar is passed `inout`, though none of them mutates it: read through a
    /// pointer, the compiler copied it for the call (a retain and a release).
    @inlinable func withRegistrar<R>(_ body: (inout ObservationRegistrar) throws -> R) rethrows -> R {
        guard Self.isInline else { return try body(&UnsafeMutablePointer<ObservationRegistrar>(bitPattern: word)!.pointee) }
        var view = word
        return try withUnsafeMutableBytes(of: &view) { try body(&$0.baseAddress!.bindMemory(to: ObservationRegistrar.self, capacity: 1).pointee) }
    }
}
