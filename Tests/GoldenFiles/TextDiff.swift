/// A readable line diff for golden-file mismatches: `-` lines expected, `+` lines produced,
/// with a few lines of context around each change.
public enum TextDiff {
    public static func lines(expected: String, actual: String, context: Int = 3) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Longest common subsequence table (golden files are small: a few thousand lines at most).
        var table = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var edits: [(kind: Character, line: String, oldLine: Int)] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                edits.append((" ", old[i], i + 1))
                i += 1
                j += 1
            } else if i < old.count, j == new.count || table[i + 1][j] >= table[i][j + 1] {
                edits.append(("-", old[i], i + 1))
                i += 1
            } else {
                edits.append(("+", new[j], i + 1))
                j += 1
            }
        }
        let changed = edits.indices.filter { edits[$0].kind != " " }
        guard !changed.isEmpty else { return "" }
        var output: [String] = []
        var lastPrinted = -1
        for index in changed {
            let start = max(index - context, lastPrinted + 1)
            if lastPrinted < 0 || start > lastPrinted + 1 { output.append("@@ line \(edits[start].oldLine) @@") }
            let end = min(index + context, edits.count - 1)
            guard start <= end else { continue }
            for k in start...end where k > lastPrinted {
                output.append("\(edits[k].kind)\(edits[k].line)")
                lastPrinted = k
            }
        }
        return output.joined(separator: "\n")
    }
}
