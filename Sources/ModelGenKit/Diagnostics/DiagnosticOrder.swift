extension Array where Element == Diagnostic {
    /// The diagnostics in the order they are reported: by file (in `fileOrder`; other files last,
    /// by name), then by start position; diagnostics at the same place keep their order.
    func sorted(byFileOrder fileOrder: [String]) -> [Diagnostic] {
        var rank: [String: Int] = [:]
        for (index, path) in fileOrder.enumerated() where rank[path] == nil { rank[path] = index }
        return enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element.range, rhs.element.range)
            let (rankA, rankB) = (rank[a.file] ?? Int.max, rank[b.file] ?? Int.max)
            if rankA != rankB { return rankA < rankB }
            if a.file != b.file { return a.file < b.file }
            if a.start.offset != b.start.offset { return a.start.offset < b.start.offset }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
