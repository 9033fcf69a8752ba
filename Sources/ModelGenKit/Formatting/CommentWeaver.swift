// Puts every comment of the file back among the canonical code lines and renders the text.
//
// A comment that starts inside the construct of the code line just printed (a container list, an
// init's parameters) stays on that line; a comment that follows code on its source line trails the
// line printed last; a comment alone on its line goes on its own line before the next code line,
// indented like it. Blank lines of the source survive (at most one, never right after `{` or right
// before `}`), and each top-level declaration is followed by exactly one blank line.

/// Merges comments into layout lines and renders the formatted file.
struct CommentWeaver {
    let source: SourceFile
    let attachedDocs: AttachedDocs

    private struct OutputLine {
        var depth: Int
        var text: String
        var blankBefore: Bool
        var opensBlock: Bool
        var endsTopLevelDeclaration: Bool
        /// Text was appended after the line's own content (a trailing comment).
        var hasTrailingText = false
        /// The line ends with a `//` comment: nothing more may follow on it.
        var endsWithLineComment = false
        /// The line is a `///` comment attached to nothing: a blank line must follow it.
        var isDetachedDoc = false
    }

    private var output: [OutputLine] = []
    /// The span end of the code line printed last.
    private var openSpanEnd = -1
    /// Block comments that share their line with the code after them (`/* a */ enum E {`): they
    /// stay in front of that code, so a doc comment above still touches its declaration.
    private var prefix: [String] = []
    /// Where the first comment of `prefix` starts in the source.
    private var prefixStart: Int?

    init(source: SourceFile, attachedDocs: AttachedDocs) {
        self.source = source
        self.attachedDocs = attachedDocs
    }

    /// The formatted text: `lines` with `comments` woven in, ending with one newline (empty if there is nothing).
    mutating func render(_ lines: [LayoutLine], comments: [Comment]) -> String {
        output = []
        openSpanEnd = -1
        prefix = []
        prefixStart = nil
        let sortedComments = comments.sorted { $0.range.start.offset < $1.range.start.offset }
        var nextComment = 0
        for line in lines {
            while nextComment < sortedComments.count, sortedComments[nextComment].range.start.offset < line.anchor {
                place(sortedComments[nextComment], before: line)
                nextComment += 1
            }
            emit(line)
        }
        for comment in sortedComments[nextComment...] {
            place(comment, before: nil)
        }
        return text()
    }

    // MARK: - Placing

    private mutating func emit(_ line: LayoutLine) {
        if line.closesBlock, var last = output.last, last.opensBlock, !last.hasTrailingText, last.depth == line.depth {
            // An empty block: `entity A {}`.
            last.text += line.text
            last.opensBlock = false
            last.endsTopLevelDeclaration = line.endsTopLevelDeclaration
            output[output.count - 1] = last
        } else {
            let anchor = prefixStart ?? line.anchor
            let blank = !line.closesBlock && blankLineFits(sourceHasBlank: hasBlankLineBefore(anchor))
            let text = (prefix + [line.text]).joined(separator: " ")
            output.append(OutputLine(depth: line.depth, text: text, blankBefore: blank, opensBlock: line.opensBlock,
                                     endsTopLevelDeclaration: line.endsTopLevelDeclaration))
        }
        prefix = []
        prefixStart = nil
        openSpanEnd = line.spanEnd
    }

    /// Places a comment that comes before `next` (`nil`: the end of the file).
    private mutating func place(_ comment: Comment, before next: LayoutLine?) {
        let offset = comment.range.start.offset
        let text = commentText(comment)
        let isLineComment = comment.kind != .block
        if !prefix.isEmpty {
            prefix.append(text)
            return
        }
        let trails = !output.isEmpty && (offset < openSpanEnd || !isFirstOnItsLine(offset))
        if !trails, !isLineComment, let next, !next.closesBlock, sharesLine(from: comment.range.end.offset, to: next.anchor) {
            prefix = [text]
            prefixStart = offset
            return
        }
        let depth = next.map { $0.closesBlock ? $0.depth + 1 : $0.depth } ?? 0
        if trails, var last = output.last, !last.endsWithLineComment {
            last.text += " " + text
            last.hasTrailingText = true
            last.endsWithLineComment = isLineComment
            output[output.count - 1] = last
            return
        }
        var blank = blankLineFits(sourceHasBlank: hasBlankLineBefore(offset))
        var lineDepth = depth
        if trails, let last = output.last {
            // Follows a line that already ends with a `//` comment: its own line, right after it.
            blank = blankLineFits(sourceHasBlank: false)
            lineDepth = last.opensBlock ? last.depth + 1 : last.depth
        }
        output.append(OutputLine(depth: lineDepth, text: text, blankBefore: blank, opensBlock: false,
                                 endsTopLevelDeclaration: false, endsWithLineComment: isLineComment,
                                 isDetachedDoc: attachedDocs.isDetachedDoc(comment)))
    }

    /// Whether a new line gets a blank line before it, given whether the source had one.
    private func blankLineFits(sourceHasBlank: Bool) -> Bool {
        guard let last = output.last else { return false }
        if last.opensBlock { return false }
        if last.endsTopLevelDeclaration || last.isDetachedDoc { return true }
        return sourceHasBlank
    }

    // MARK: - Rendering

    private func text() -> String {
        var result = ""
        for line in output {
            if line.blankBefore { result += "\n" }
            result += String(repeating: "    ", count: line.depth) + line.text + "\n"
        }
        return result
    }

    /// A comment as printed: line and doc comments without trailing whitespace, block comments as written.
    private func commentText(_ comment: Comment) -> String {
        guard comment.kind != .block else { return comment.text }
        var text = Substring(comment.text)
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text = text.dropLast() }
        return String(text)
    }

    // MARK: - Source inspection

    /// No line break stands between `start` and `end`.
    private func sharesLine(from start: Int, to end: Int) -> Bool {
        guard start <= end, end <= source.bytes.count else { return false }
        return !source.bytes[start..<end].contains(UInt8(ascii: "\n"))
    }

    /// Only spaces and tabs stand between the start of the line and `offset`.
    private func isFirstOnItsLine(_ offset: Int) -> Bool {
        var index = min(offset, source.bytes.count) - 1
        while index >= 0 {
            switch source.bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0B, 0x0C: index -= 1
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): return true
            default: return false
            }
        }
        return true
    }

    /// The whitespace just before `offset` holds at least one empty line.
    private func hasBlankLineBefore(_ offset: Int) -> Bool {
        var index = min(offset, source.bytes.count) - 1
        var newlines = 0
        while index >= 0 {
            switch source.bytes[index] {
            case UInt8(ascii: "\n"): newlines += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C: break
            default: return newlines >= 2
            }
            index -= 1
        }
        return newlines >= 2
    }
}
