/// Turns canvases into terminal output: a whole frame, or only the cells that changed since the
/// previous one (cursor moves plus changed runs), wrapped in synchronized-output markers so the
/// terminal shows the update at once.
public enum FrameWriter {
    static let beginSync = "\u{1B}[?2026h"
    static let endSync = "\u{1B}[?2026l"

    /// The whole canvas, drawn from the top-left of the screen (`top` rows down).
    public static func full(_ canvas: TextCanvas, mode: ColorMode, top: Int = 0) -> String {
        var out = beginSync + "\u{1B}[\(top + 1);1H\u{1B}[0m\u{1B}[J"
        for y in 0..<canvas.height {
            out += "\u{1B}[\(top + y + 1);1H"
            out += canvas.rowANSI(y, from: 0, to: canvas.width, mode)
            out += "\u{1B}[0m"
        }
        return out + endSync
    }

    /// The whole canvas drawn over what the screen shows, without clearing it first (a terminal
    /// that does not know synchronized output would show the blank screen in between): each row
    /// is written whole, then only what lies beyond the canvas on a `columns` × `rows` screen is
    /// erased. For a resize, when nothing on screen can be reused.
    public static func redraw(_ canvas: TextCanvas, mode: ColorMode, columns: Int, rows: Int) -> String {
        var out = beginSync
        for y in 0..<min(canvas.height, rows) {
            out += "\u{1B}[\(y + 1);1H\u{1B}[0m"
            out += canvas.rowANSI(y, from: 0, to: canvas.width, mode)
            out += "\u{1B}[0m"
            if canvas.width < columns { out += "\u{1B}[K" }
        }
        if canvas.height < rows { out += "\u{1B}[\(canvas.height + 1);1H\u{1B}[J" }
        return out + endSync
    }

    /// The cells of `canvas` that differ from `previous` inside `areas`: for each run of changed
    /// cells, a cursor move, the style where it changes, and the text. Unchanged cells cost nothing.
    public static func changes(from previous: TextCanvas, to canvas: TextCanvas, in areas: [Rect], mode: ColorMode, top: Int = 0) -> String {
        guard previous.width == canvas.width, previous.height == canvas.height else { return full(canvas, mode: mode, top: top) }
        var out = ""
        var style: CellStyle?
        let bounds = Rect(x: 0, y: 0, width: canvas.width, height: canvas.height)
        for area in areas {
            let r = area.intersection(bounds)
            guard !r.isEmpty else { continue }
            for y in r.y..<r.maxY {
                var x = r.x
                while x < r.maxX {
                    guard previous[x, y] != canvas[x, y] else { x += 1; continue }
                    // Start a run at a whole glyph.
                    var start = x
                    if canvas[start, y].text.isEmpty, start > 0 { start -= 1 }
                    // Extend over changed cells, bridging gaps of up to 3 unchanged ones (a cursor
                    // move costs about as much).
                    var lastChanged = x
                    var probe = x + 1
                    while probe < r.maxX, probe - lastChanged <= 4 {
                        if previous[probe, y] != canvas[probe, y] { lastChanged = probe }
                        probe += 1
                    }
                    var end = lastChanged + 1
                    if end < canvas.width, canvas[end, y].text.isEmpty { end += 1 }
                    out += "\u{1B}[\(top + y + 1);\(start + 1)H"
                    for cx in start..<end {
                        let cell = canvas[cx, y]
                        if cell.text.isEmpty { continue }
                        if style != cell.style { out += cell.style.sgr(mode); style = cell.style }
                        out += cell.text
                    }
                    x = end
                }
            }
        }
        guard !out.isEmpty else { return "" }
        return beginSync + out + "\u{1B}[0m" + endSync
    }
}
