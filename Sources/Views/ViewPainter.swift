/// Draws a laid-out ``ViewNode`` tree into a ``TextCanvas``. Every node draws only inside its
/// frame, and children only inside their parent's border, so a child can never break a border.
public enum ViewPainter {
    /// Paints `root` into `canvas`, touching only cells inside `dirty` (everything by default).
    public static func paint(_ root: ViewNode, into canvas: inout TextCanvas, dirty: Rect? = nil) {
        let all = Rect(x: 0, y: 0, width: canvas.width, height: canvas.height)
        let clip = dirty.map { $0.intersection(all) } ?? all
        if dirty != nil { canvas.clear(clip) }
        paint(root, into: &canvas, clip: clip, inherited: .plain, parentRow: false)
    }

    static func paint(_ node: ViewNode, into canvas: inout TextCanvas, clip: Rect, inherited: CellStyle, parentRow: Bool) {
        let frame = node.frame
        let area = frame.intersection(clip)
        guard !area.isEmpty else { return }
        let style = node.style
        var cellStyle = CellStyle(inheriting: inherited, style)
        if node.focused && node.viewport == nil { cellStyle.inverse.toggle() }
        if style.background != nil { canvas.fill(frame, with: TextCanvas.Cell(text: " ", style: cellStyle), clip: area) }
        if style.border != .none { drawBorder(style, frame, &canvas, area, cellStyle) }
        let b = style.border.width
        let inner = Rect(x: frame.x + b + style.padding.left, y: frame.y + b + style.padding.top,
                         width: max(0, frame.width - 2 * b - style.padding.horizontal),
                         height: max(0, frame.height - 2 * b - style.padding.vertical))
        let insideBorder = Rect(x: frame.x + b, y: frame.y + b, width: max(0, frame.width - 2 * b), height: max(0, frame.height - 2 * b))
        let contentClip = insideBorder.intersection(clip)
        switch node.kind {
        case .text:
            let lines = TextLayoutCache.lines(node, width: inner.width)
            for (row, line) in lines.prefix(inner.height).enumerated() {
                drawLine(line, x: inner.x, y: inner.y + row, &canvas, contentClip, cellStyle)
            }
        case .button:
            let label = style.border == .none ? "[ " + node.text + " ]" : node.text
            let line = TextWrapper.truncateLine(Glyph.segment(label), width: inner.width)
            drawLine(line, x: inner.x, y: inner.y + max(0, (inner.height - 1) / 2), &canvas, contentClip, cellStyle)
        case .input:
            var inputStyle = cellStyle
            let shown = node.text.isEmpty ? node.placeholder : node.text
            if node.text.isEmpty { inputStyle.dim = true }
            var line = TextWrapper.truncateLine(Glyph.segment(shown), width: inner.width)
            let used = TextWrapper.lineWidth(line)
            if used < inner.width { line += Array(repeating: Glyph("_", width: 1), count: inner.width - used) }
            drawLine(line, x: inner.x, y: inner.y, &canvas, contentClip, inputStyle)
        case .divider:
            // Inside its own border and padding, if it has any, like every other leaf.
            let vertical = (inner.width == 1 && inner.height > 1) || (parentRow && inner.width == 1)
            let piece = Glyph(vertical ? "│" : "─", width: 1)
            if vertical {
                for y in inner.y..<max(inner.y, inner.maxY) { canvas.put(piece, x: inner.x, y: y, style: cellStyle, clip: contentClip) }
            } else if inner.height > 0 {
                for x in inner.x..<max(inner.x, inner.maxX) { canvas.put(piece, x: x, y: inner.y, style: cellStyle, clip: contentClip) }
            }
        case .spacer:
            break
        case .stack, .box, .list, .scroll:
            let row = (style.direction ?? .column) == .row
            for child in node.children {
                paint(child, into: &canvas, clip: contentClip, inherited: cellStyle, parentRow: row)
            }
            if let viewport = node.viewport {
                viewport.paintScrollbar(in: inner, into: &canvas, clip: contentClip, style: cellStyle, focused: node.focused)
            }
        }
    }

    static func drawLine(_ line: TextWrapper.Line, x: Int, y: Int, _ canvas: inout TextCanvas, _ clip: Rect, _ style: CellStyle) {
        var cx = x
        for glyph in line {
            if cx >= clip.maxX { break }
            cx += canvas.put(glyph, x: cx, y: y, style: style, clip: clip)
        }
    }

    static func drawBorder(_ style: ViewStyle, _ frame: Rect, _ canvas: inout TextCanvas, _ clip: Rect, _ base: CellStyle) {
        guard frame.width >= 2, frame.height >= 2 else { return }
        var s = base
        if let c = style.borderColor { s.foreground = c }
        let p = style.border.pieces
        let x0 = frame.x, x1 = frame.maxX - 1, y0 = frame.y, y1 = frame.maxY - 1
        let g = { (t: String) in Glyph(t, width: 1) }
        canvas.put(g(p.tl), x: x0, y: y0, style: s, clip: clip)
        canvas.put(g(p.tr), x: x1, y: y0, style: s, clip: clip)
        canvas.put(g(p.bl), x: x0, y: y1, style: s, clip: clip)
        canvas.put(g(p.br), x: x1, y: y1, style: s, clip: clip)
        if x1 > x0 + 1 {
            for x in (x0 + 1)..<x1 {
                canvas.put(g(p.h), x: x, y: y0, style: s, clip: clip)
                canvas.put(g(p.h), x: x, y: y1, style: s, clip: clip)
            }
        }
        if y1 > y0 + 1 {
            for y in (y0 + 1)..<y1 {
                canvas.put(g(p.v), x: x0, y: y, style: s, clip: clip)
                canvas.put(g(p.v), x: x1, y: y, style: s, clip: clip)
            }
        }
    }
}
