extension Array {
    /// The same elements in a buffer of their count. An array built by appending keeps up to twice
    /// the room it needs (its capacity doubles as it grows); syntax-tree nodes store their lists
    /// through this, since a run keeps every file's tree until all of them are checked.
    func compacted() -> [Element] {
        guard capacity > count else { return self }
        return withUnsafeBufferPointer { Array($0) }
    }
}
