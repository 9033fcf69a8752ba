/// A plain-text table with right-aligned columns (the first column left-aligned), also
/// printable as Markdown for the docs.
public struct TextTable {
    /// The column titles.
    public let header: [String]
    /// The rows, each as many cells as `header`.
    public private(set) var rows: [[String]] = []

    public init(header: [String]) {
        self.header = header
    }

    /// Appends a row.
    public mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The table as aligned text, one line per row, under a dashed rule.
    public var text: String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0.count > column ? $0[column].count : 0 }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: max(0, widths[column] - cell.count))
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }

    /// The table as Markdown.
    public var markdown: String {
        let align = header.indices.map { $0 == 0 ? "---" : "---:" }
        return ([header, align] + rows).map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n")
    }
}

/// Number formatting for tables (plain functions keep the table code quick to type-check).
public enum Cell {
    /// `value` with `digits` decimals.
    public static func fixed(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}
