import Foundation

/// Hands the memory a finished stage freed back to the system, between checking and generating.
///
/// The C library's allocator keeps freed memory for later allocations. When a large run ends its
/// check stage, most of its memory is freed (the syntax trees and the semantic model, in pieces of
/// a few hundred bytes), and what generation then allocates (each file's text, hundreds of
/// kilobytes at a time) rarely fits in those pieces: the resident size would keep the check stage's
/// peak and grow past it. glibc's `malloc_trim` returns the free pages. It is looked up at run time
/// (no module declares it to Swift); where the C library has none, nothing happens.
enum FreedMemory {
    /// Runs with less model text than this skip it: they have little to give back.
    static let minimumInputBytes = 1 << 20

    /// Returns the allocator's free memory to the system, where the C library can.
    static func release() {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
}
