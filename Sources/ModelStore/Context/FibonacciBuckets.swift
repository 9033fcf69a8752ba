/// The bucket arithmetic of the row-key tables (`IdentityMap`, `RowKeySet`): a power of two of
/// buckets, at most 80 % full, a key's home bucket found by Fibonacci hashing (one multiplication:
/// the product's top bits), which spreads any run of row keys, consecutive or strided, over the
/// table.
enum FibonacciBuckets {
    /// 2^64 divided by the golden ratio.
    static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The home bucket of `key` in a table whose `shift` is `shift(forBucketCount:)`'s.
    @inline(__always) static func home(of key: Int64, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* multiplier) >> shift)
    }

    /// `64 - log2(bucketCount)`: the product's top bits are the bucket.
    @inline(__always) static func shift(forBucketCount bucketCount: Int) -> UInt64 {
        UInt64(64 - bucketCount.trailingZeroBitCount)
    }

    /// The power of two of buckets that holds `capacity` keys at no more than 80 % load.
    static func bucketCount(for capacity: Int) -> Int {
        var buckets = 8
        while capacity * 5 > buckets * 4 { buckets *= 2 }
        return buckets
    }

    /// Whether a table of `bucketCount` buckets holding `count` keys must grow to take one more.
    @inline(__always) static func isFull(count: Int, bucketCount: Int) -> Bool {
        (count + 1) * 5 > bucketCount * 4
    }
}
