/// Typing into a document's focused input: each edit repaints the input's field and returns that
/// area, and the terminal cursor goes where the input's cursor is.
extension ViewDocument {
    /// The focused node when it is an input.
    public var focusedInput: ViewNode? {
        guard let node = focusedNode(), node.kind == .input else { return nil }
        return node
    }

    /// Applies `edit` to the focused input and repaints it. Nil when no input has focus; else the
    /// area repainted and whether the value changed (a cursor move alone does not change it).
    public func edit(_ edit: InputEditor.Edit) -> (rects: [Rect], changed: Bool)? {
        guard let node = focusedInput, let editor = node.editor else { return nil }
        let changed = editor.apply(edit, maxLength: node.maxLength)
        paintAreas([node.frame])
        return ([node.frame], changed)
    }

    /// Moves focus to the focusable node with `id`, scrolling it into view; nil when no focusable
    /// node has that id.
    public func focus(id: String) -> [Rect]? {
        guard let target = focusables().first(where: { $0.node.id == id }) else { return nil }
        guard target.path != focusPath else { return [] }
        let rects = setFocus(target.path)
        paintAreas(rects)
        return rects + revealFocus()
    }

    /// A click at cell (`x`, `y`): focuses the innermost focusable node shown there, and puts an
    /// input's cursor at the character clicked. Nil when none is there; else the node and the areas
    /// repainted.
    public func click(x: Int, y: Int) -> (node: ViewNode, rects: [Rect])? {
        let point = Rect(x: x, y: y, width: 1, height: 1)
        var found: (path: [String], node: ViewNode)?
        func walk(_ node: ViewNode, _ path: [String], _ clip: Rect) {
            guard node.frame.intersection(clip).contains(point) else { return }
            if node.focusable { found = (path, node) }
            let b = node.style.border.width
            let f = node.frame
            let inside = clip.intersection(Rect(x: f.x + b, y: f.y + b, width: max(0, f.width - 2 * b), height: max(0, f.height - 2 * b)))
            for child in node.children { walk(child, path + [child.key], inside) }
        }
        walk(root, [], Rect(x: 0, y: 0, width: canvas.width, height: canvas.height))
        guard let (path, node) = found else { return nil }
        var rects = path == focusPath ? [] : setFocus(path)
        if let editor = node.editor, !node.value.isEmpty {
            let inner = node.contentRect
            editor.moveCursor(toColumn: x - inner.x, width: inner.width, secret: node.secret)
            rects.append(node.frame)
        }
        paintAreas(rects)
        return (node, rects)
    }

    /// Where the terminal cursor goes: the focused input's cursor cell, when it is on screen.
    public func cursorCell() -> (x: Int, y: Int)? {
        guard let path = focusPath else { return nil }
        var clip = Rect(x: 0, y: 0, width: canvas.width, height: canvas.height)
        var current = root
        func narrow(_ node: ViewNode) {
            let b = node.style.border.width
            let f = node.frame
            clip = clip.intersection(Rect(x: f.x + b, y: f.y + b, width: max(0, f.width - 2 * b), height: max(0, f.height - 2 * b)))
        }
        for key in path {
            narrow(current)
            guard let next = current.children.first(where: { $0.key == key }) else { return nil }
            current = next
        }
        narrow(current)
        guard current.kind == .input, let editor = current.editor else { return nil }
        let inner = current.contentRect
        let column = current.value.isEmpty ? 0 : editor.visible(width: inner.width, secret: current.secret).cursorColumn
        let cell = Rect(x: inner.x + column, y: inner.y, width: 1, height: 1)
        guard column < inner.width, clip.contains(cell) else { return nil }
        return (cell.x, cell.y)
    }

    /// Shows the terminal cursor at ``cursorCell()``, or hides it when no input's cursor shows.
    public var cursorSequence: String {
        guard let cell = cursorCell() else { return "\u{1B}[?25l" }
        return "\u{1B}[\(cell.y + 1);\(cell.x + 1)H\u{1B}[?25h"
    }
}
