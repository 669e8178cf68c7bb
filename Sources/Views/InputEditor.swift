/// What an `input` node holds while it is typed into: its value as grapheme clusters, the cursor
/// (a cluster index, so a wide character or a letter with its combining marks is stepped over and
/// deleted whole), and the first cluster shown when the value is wider than the field.
///
/// An update keeps it (the expander hands it from the node on screen to the new one), so typing
/// survives new data; when the data's value for the input changes, that value replaces what was
/// typed. After a submit, the next update's value replaces it whatever it is, so new data whose
/// value is still `""` clears the input.
public final class InputEditor {
    public private(set) var value = ""
    /// The value's grapheme clusters, with their widths.
    private(set) var glyphs: [Glyph] = []
    /// The cursor: how many clusters are before it.
    public private(set) var cursor = 0
    /// The first cluster painted (the field scrolls sideways to keep the cursor in view).
    var scroll = 0
    /// The value the data last gave, to tell a new value from JS from the same one again.
    private var source: String?

    init() {}

    /// Set when the data replaced the value: the input must be repainted though its node's own
    /// properties are unchanged (``takeRepaint()``).
    private var replaced = false

    /// Takes the value the data gives, unless it is the one it gave before.
    func sync(rendered: String, maxLength: Int?) {
        guard rendered != source else { return }
        source = rendered
        guard rendered != value else { return }
        set(Glyph.segment(rendered), maxLength: maxLength)
        cursor = glyphs.count
        replaced = true
    }

    /// Whether the data replaced the value since the last call.
    func takeRepaint() -> Bool {
        defer { replaced = false }
        return replaced
    }

    /// Enter was pressed: the next update's value replaces what was typed.
    func submitted() { source = nil }

    private func set(_ new: [Glyph], maxLength: Int?) {
        glyphs = maxLength.map { Array(new.prefix($0)) } ?? new
        value = glyphs.map(\.text).joined()
    }

    /// An editing action on the value or the cursor.
    public enum Edit: Sendable, Equatable {
        case insert(String)
        case backspace, delete, left, right, home, end, wordLeft, wordRight
    }

    /// Applies `edit`; returns whether the value changed (the cursor alone moving returns false).
    @discardableResult
    public func apply(_ edit: Edit, maxLength: Int?) -> Bool {
        let before = value
        switch edit {
        case .insert(let text):
            // Lines pasted into one line join with spaces; other control characters are dropped.
            var inserted = Glyph.segment(String(text.map { $0.isNewline ? " " : $0 }))
            if let maxLength { inserted = Array(inserted.prefix(max(0, maxLength - glyphs.count))) }
            guard !inserted.isEmpty else { return false }
            // Segment again: a combining mark typed after a letter joins its cluster.
            let head = Glyph.segment((glyphs[..<cursor] + inserted).map(\.text).joined())
            glyphs = Glyph.segment(head.map(\.text).joined() + glyphs[cursor...].map(\.text).joined())
            value = glyphs.map(\.text).joined()
            cursor = min(head.count, glyphs.count)
        case .backspace:
            guard cursor > 0 else { return false }
            glyphs.remove(at: cursor - 1)
            cursor -= 1
            value = glyphs.map(\.text).joined()
        case .delete:
            guard cursor < glyphs.count else { return false }
            glyphs.remove(at: cursor)
            value = glyphs.map(\.text).joined()
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(glyphs.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = glyphs.count
        case .wordLeft:
            // Back over spaces, then over the word before them.
            while cursor > 0, glyphs[cursor - 1].isSpace { cursor -= 1 }
            while cursor > 0, !glyphs[cursor - 1].isSpace { cursor -= 1 }
        case .wordRight:
            // Over spaces, then to the end of the next word.
            while cursor < glyphs.count, glyphs[cursor].isSpace { cursor += 1 }
            while cursor < glyphs.count, !glyphs[cursor].isSpace { cursor += 1 }
        }
        return value != before
    }

    /// Puts the cursor on the cluster painted at `column` of a field `width` cells wide (after the
    /// last when the column is past the text).
    func moveCursor(toColumn column: Int, width: Int, secret: Bool) {
        let (line, _) = visible(width: width, secret: secret)
        var used = 0
        var index = 0
        while index < line.count, used + line[index].width <= column {
            used += line[index].width
            index += 1
        }
        cursor = min(glyphs.count, scroll + index)
    }

    // MARK: painting

    /// What the field shows in `width` cells: the value (each cluster as `•` when `secret`), moved
    /// sideways so that the cursor, and a cell for it, fits; and the cursor's column in the field.
    func visible(width: Int, secret: Bool) -> (line: [Glyph], cursorColumn: Int) {
        let shown = secret ? Array(repeating: Glyph("•", width: 1), count: glyphs.count) : glyphs
        guard width > 0 else { return ([], 0) }
        let cursorWidth = cursor < shown.count ? max(1, shown[cursor].width) : 1
        func span(_ from: Int, _ to: Int) -> Int { shown[from..<to].reduce(0) { $0 + $1.width } }
        scroll = min(scroll, cursor)
        while scroll < cursor, span(scroll, cursor) + cursorWidth > width { scroll += 1 }
        // Shorter text (a deletion): show as much as fits before the scroll point again.
        while scroll > 0, span(scroll - 1, shown.count) + (cursor == shown.count ? 1 : 0) <= width { scroll -= 1 }
        var line: [Glyph] = []
        var used = 0
        for glyph in shown[scroll...] {
            if used + glyph.width > width { break }
            line.append(glyph)
            used += glyph.width
        }
        return (line, span(scroll, cursor))
    }
}
