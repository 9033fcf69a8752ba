// One line of formatted code before comments are woven in.

/// A line of canonical code, with where it came from in the source.
struct LayoutLine: Sendable {
    /// Nesting depth (4 spaces each).
    var depth: Int
    var text: String
    /// The UTF-8 offset of the first source byte this line prints. Lines are built in source
    /// order, so anchors never decrease.
    var anchor: Int
    /// The end offset (exclusive) of the source this line prints: a comment that starts before it
    /// lies inside the line's construct and stays on this line.
    var spanEnd: Int
    /// The line ends with `{` and the next lines are inside the block.
    var opensBlock = false
    /// The line is a block's `}`: comments just before it are indented one level deeper.
    var closesBlock = false
    /// The line ends a top-level declaration: whatever follows gets one blank line before it.
    var endsTopLevelDeclaration = false
}
