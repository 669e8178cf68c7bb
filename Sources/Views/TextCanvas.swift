/// A grid of cells, each a grapheme and its style. A wide glyph takes its cell and the next, which
/// holds an empty continuation.
public struct TextCanvas: Sendable, Equatable {
    public struct Cell: Sendable, Hashable {
        /// The grapheme; "" for the right half of a wide glyph.
        public var text: String
        public var style: CellStyle
        public static let blank = Cell(text: " ", style: .plain)
    }

    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell { cells[y * width + x] }

    /// Writes `glyph` at (x, y) if it fits inside `clip`; a wide glyph that would cross the clip's
    /// edge becomes a space. Returns the cells advanced.
    @discardableResult
    mutating func put(_ glyph: Glyph, x: Int, y: Int, style: CellStyle, clip: Rect) -> Int {
        guard y >= clip.y, y < clip.maxY, y >= 0, y < height else { return glyph.width }
        if glyph.width == 0 { return 0 }
        if glyph.width == 2 {
            if x >= clip.x, x + 1 < clip.maxX, x >= 0, x + 1 < width {
                set(x, y, Cell(text: glyph.text, style: style))
                set(x + 1, y, Cell(text: "", style: style))
            } else if x >= clip.x, x < clip.maxX, x >= 0, x < width {
                set(x, y, Cell(text: " ", style: style))
            }
            return 2
        }
        if x >= clip.x, x < clip.maxX, x >= 0, x < width { set(x, y, Cell(text: glyph.text, style: style)) }
        return 1
    }

    /// Sets one cell, repairing a wide glyph it cuts in half.
    mutating func set(_ x: Int, _ y: Int, _ cell: Cell) {
        let i = y * width + x
        // Overwriting the right half of a wide glyph leaves its left half alone: blank it.
        if cells[i].text.isEmpty, x > 0, !cell.text.isEmpty { cells[i - 1].text = " " }
        // Overwriting the left half orphans the right half: blank it (a wide glyph written here
        // writes its own right half next).
        if x + 1 < width, cells[i + 1].text.isEmpty, !cells[i].text.isEmpty { cells[i + 1].text = " " }
        cells[i] = cell
    }

    /// Fills `rect ∩ clip` with `cell`.
    mutating func fill(_ rect: Rect, with cell: Cell, clip: Rect) {
        let r = rect.intersection(clip).intersection(Rect(x: 0, y: 0, width: width, height: height))
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX { set(x, y, cell) }
        }
    }

    /// Resets `rect` to blank cells.
    mutating func clear(_ rect: Rect) {
        fill(rect, with: .blank, clip: rect)
    }

    /// The text of one row, trailing spaces dropped.
    public func plainRow(_ y: Int) -> String {
        var s = ""
        for x in 0..<width { s += cells[y * width + x].text }
        while s.last == " " { s.removeLast() }
        return s
    }

    /// Every row as plain text, without escapes.
    public var plainText: String {
        (0..<height).map(plainRow).joined(separator: "\n") + (height > 0 ? "\n" : "")
    }

    /// Every row with SGR escapes for its styles (as `mode` allows), each row reset at its end.
    public func ansiText(_ mode: ColorMode) -> String {
        var out = ""
        for y in 0..<height {
            out += rowANSI(y, from: 0, to: width, mode)
            out += "\u{1B}[0m\n"
        }
        return out
    }

    func rowANSI(_ y: Int, from x0: Int, to x1: Int, _ mode: ColorMode, current: CellStyle? = nil) -> String {
        var out = ""
        var style = current
        for x in x0..<x1 {
            let cell = cells[y * width + x]
            if cell.text.isEmpty { continue }
            if style != cell.style {
                out += cell.style.sgr(mode)
                style = cell.style
            }
            out += cell.text
        }
        return out
    }

    /// The styled cells, as golden files record them: one line per run of equally styled,
    /// non-plain cells (`2:4-9 bold fg=red`).
    public var styleRuns: String {
        var lines: [String] = []
        for y in 0..<height {
            var x = 0
            while x < width {
                let style = cells[y * width + x].style
                var end = x + 1
                while end < width, cells[y * width + end].style == style { end += 1 }
                if style != .plain { lines.append("\(y):\(x)-\(end - 1) \(style.label)") }
                x = end
            }
        }
        return lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
    }
}
