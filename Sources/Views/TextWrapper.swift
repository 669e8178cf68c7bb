/// Breaks text into lines of at most a given number of cells: at spaces, and between wide (CJK)
/// characters; a word longer than a line is cut. A symbol (an arrow, a key glyph, an emoji) one
/// space from a word is kept with that word: `Enter ⏎` never breaks between the two (unless the
/// pair is wider than a line). Truncation keeps one line and ends it with "…".
public enum TextWrapper {
    public typealias Line = [Glyph]

    /// The lines of `text` at `width` cells. Explicit newlines always break.
    public static func wrap(_ text: String, width: Int) -> [Line] {
        guard width > 0 else { return [] }
        var lines: [Line] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            wrapParagraph(Glyph.segment(paragraph), width: width, into: &lines)
        }
        return lines
    }

    static func wrapParagraph(_ glyphs: [Glyph], width: Int, into lines: inout [Line]) {
        var line: Line = []
        var lineWidth = 0
        var i = 0
        let n = glyphs.count
        if n == 0 { lines.append([]); return }
        while i < n {
            // The next unit: a run of spaces, a word, or one wide glyph.
            var j = i
            if glyphs[i].isSpace {
                while j < n, glyphs[j].isSpace { j += 1 }
                let spaces = j - i
                if lineWidth + spaces <= width {
                    line.append(contentsOf: glyphs[i..<j])
                    lineWidth += spaces
                } else {
                    // Spaces at a break vanish.
                    lines.append(trimmed(line)); line = []; lineWidth = 0
                }
                i = j
                continue
            }
            let wordEnd = wordEnd(glyphs, from: i)
            j = wordEnd
            // A symbol one space from a word (`Enter ⏎`, `⚠ Low`) stays on the word's line.
            while j + 1 < n, glyphs[j].isSpace, !glyphs[j + 1].isSpace {
                let next = Self.wordEnd(glyphs, from: j + 1)
                guard isSymbols(glyphs[(j + 1)..<next]) || isSymbols(glyphs[i..<j]) else { break }
                j = next
            }
            var unitWidth = glyphs[i..<j].reduce(0) { $0 + $1.width }
            if unitWidth > width && j > wordEnd {
                j = wordEnd
                unitWidth = glyphs[i..<j].reduce(0) { $0 + $1.width }
            }
            if lineWidth + unitWidth <= width {
                line.append(contentsOf: glyphs[i..<j])
                lineWidth += unitWidth
                i = j
            } else if lineWidth > 0 && unitWidth <= width {
                lines.append(trimmed(line)); line = []; lineWidth = 0
            } else {
                // Longer than a whole line: cut it glyph by glyph.
                for glyph in glyphs[i..<j] {
                    if lineWidth + glyph.width > width, lineWidth > 0 {
                        lines.append(line); line = []; lineWidth = 0
                    }
                    if glyph.width > width { continue }
                    line.append(glyph)
                    lineWidth += glyph.width
                }
                i = j
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(trimmed(line)) }
    }

    /// The end of the word starting at `i`: up to a space, or just one wide (CJK) glyph.
    static func wordEnd(_ glyphs: [Glyph], from i: Int) -> Int {
        if glyphs[i].breaksFreely && !glyphs[i].isSymbol { return i + 1 }
        var j = i
        while j < glyphs.count, !glyphs[j].isSpace, !(glyphs[j].breaksFreely && !glyphs[j].isSymbol) { j += 1 }
        return max(j, i + 1)
    }

    static func isSymbols(_ glyphs: ArraySlice<Glyph>) -> Bool {
        !glyphs.isEmpty && glyphs.allSatisfy(\.isSymbol)
    }

    static func trimmed(_ line: Line) -> Line {
        var line = line
        while line.last?.isSpace == true { line.removeLast() }
        return line
    }

    /// One line per paragraph, each cut to `width` cells with a trailing "…" when too long.
    public static func truncate(_ text: String, width: Int) -> [Line] {
        guard width > 0 else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { truncateLine(Glyph.segment($0), width: width) }
    }

    static func truncateLine(_ glyphs: [Glyph], width: Int) -> Line {
        let total = glyphs.reduce(0) { $0 + $1.width }
        if total <= width { return glyphs }
        var line: Line = []
        var used = 0
        for glyph in glyphs {
            if used + glyph.width > width - 1 { break }
            line.append(glyph)
            used += glyph.width
        }
        line.append(.ellipsis)
        return line
    }

    /// The widest line when nothing wraps, and the number of lines.
    public static func naturalSize(_ text: String) -> Size {
        if !text.utf8.contains(10) { return Size(width: Glyph.width(of: text), height: 1) }
        var widest = 0, count = 0
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            widest = max(widest, Glyph.width(of: String(paragraph)))
            count += 1
        }
        return Size(width: widest, height: count)
    }

    static func lineWidth(_ line: Line) -> Int { line.reduce(0) { $0 + $1.width } }
}
