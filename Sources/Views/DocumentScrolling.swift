/// Scrolling a document's scroll containers: by offset, by keys, by the mouse wheel, and to bring
/// the focused node into view. Each call repaints what it changed into the canvas and returns
/// those areas; the caller diffs the canvas it held before against the new one.
extension ViewDocument {
    /// Scrolls the container `node` so that its content row `offset` is its first visible row.
    @discardableResult
    public func scroll(_ node: ViewNode, to offset: Int) -> [Rect] {
        guard let viewport = node.viewport else { return [] }
        let target = max(0, min(offset, viewport.maxOffset))
        guard target != viewport.offset else { return [] }
        viewport.offset = target
        var dirty: [Rect] = []
        if !viewport.coversVisibleRows {
            // Expand the list's new window. The data is the one already shown, so this cannot fail
            // but on a key repeated inside the new window, which then shows what it has.
            if let change = try? update(data: data) { dirty += change.dirty }
        }
        guard let current = container(of: viewport) else { return dirty }
        current.layoutValid = false
        FlexLayout.place(current, current.frame, nil)
        let bounds = Rect(x: 0, y: 0, width: canvas.width, height: canvas.height)
        let area = current.frame.intersection(bounds)
        ViewPainter.paint(root, into: &canvas, dirty: area)
        return dirty + [area]
    }

    /// Scrolls the container `node` by `delta` rows (down when positive).
    @discardableResult
    public func scroll(_ node: ViewNode, by delta: Int) -> [Rect] {
        guard let viewport = node.viewport else { return [] }
        return scroll(node, to: viewport.offset + delta)
    }

    /// The mouse wheel at cell (`x`, `y`): scrolls the innermost scroll container there by `delta`
    /// rows (down when positive). Nothing when no container is under the pointer.
    @discardableResult
    public func wheel(x: Int, y: Int, delta: Int) -> [Rect] {
        guard let container = scrollContainer(at: x, y) else { return [] }
        return scroll(container, by: delta)
    }

    /// The innermost scroll container whose frame holds cell (`x`, `y`).
    public func scrollContainer(at x: Int, _ y: Int) -> ViewNode? {
        let point = Rect(x: x, y: y, width: 1, height: 1)
        var found: ViewNode?
        func walk(_ node: ViewNode) {
            guard node.frame.contains(point) else { return }
            if node.viewport != nil { found = node }
            for child in node.children { walk(child) }
        }
        walk(root)
        return found
    }

    /// A scrolling key (up, down, page up, page down, home, end) for the scroll container that has
    /// focus or holds it; nil when focus is in none. Up and down on a node inside the container
    /// move focus to the previous or next focusable node (scrolling it into view); on the container
    /// itself they scroll by a row. Page keys, home and end scroll, and focus moves to the container.
    public func scroll(key: ViewKey) -> [Rect]? {
        guard let (holder, path) = focusedContainer(), let viewport = holder.viewport else { return nil }
        let step = viewport.isLazyList ? viewport.stride : 1
        let page = max(step, (viewport.visibleRows / step) * step - (viewport.isLazyList ? 0 : 1))
        let insideFocus = focusPath != path
        var rects: [Rect] = []
        switch key {
        case .up, .down:
            if insideFocus {
                rects = moveFocus(backward: key == .up)
                paintAreas(rects)
                return rects + revealFocus()
            }
            return scroll(holder, by: key == .up ? -step : step)
        case .pageUp: rects = scroll(holder, by: -page)
        case .pageDown: rects = scroll(holder, by: page)
        case .home: rects = scroll(holder, to: 0)
        case .end: rects = scroll(holder, to: viewport.maxOffset)
        default: return nil
        }
        if insideFocus {
            rects += setFocus(path)
            paintAreas(rects)
        }
        return rects
    }

    /// Tab and Shift-Tab: moves focus as ``moveFocus(backward:)`` does, then scrolls the node into
    /// view. Focus entering a scroll container (from outside it, or from the container itself)
    /// lands on its first visible node (its last, going backward) rather than on one of the items
    /// expanded off screen.
    @discardableResult
    public func moveFocusIntoView(backward: Bool = false) -> [Rect] {
        let from = focusPath ?? []
        var rects = moveFocus(backward: backward)
        if let (holder, holderPath) = focusedContainer(), let path = focusPath, path != holderPath,
           !(from.count > holderPath.count && from.starts(with: holderPath)), let focused = focusedNode() {
            let inner = holder.contentRect
            if !inner.contains(focused.frame) {
                let visible = focusables().filter { $0.path.count > holderPath.count && $0.path.starts(with: holderPath) && inner.contains($0.node.frame) }
                if let target = backward ? visible.last : visible.first { rects += setFocus(target.path) }
            }
        }
        paintAreas(rects)
        return rects + revealFocus()
    }

    /// Scrolls the innermost container holding the focused node so that the node shows whole (its
    /// top, when it is taller than the container).
    @discardableResult
    public func revealFocus() -> [Rect] {
        guard let path = focusPath, let focused = focusedNode() else { return [] }
        var holder: ViewNode?
        var current = root
        for key in path {
            if current.viewport != nil { holder = current }
            guard let next = current.children.first(where: { $0.key == key }) else { return [] }
            current = next
        }
        guard let holder, let viewport = holder.viewport else { return [] }
        let top = focused.frame.y - holder.contentRect.y + viewport.offset
        let bottom = top + focused.frame.height
        var target = viewport.offset
        if bottom > viewport.offset + viewport.visibleRows { target = bottom - viewport.visibleRows }
        if top < target { target = top }
        return scroll(holder, to: target)
    }

    /// The focused scroll container, or the innermost one holding the focused node, with its path.
    func focusedContainer() -> (ViewNode, [String])? {
        guard let path = focusPath else { return nil }
        var found: (ViewNode, [String])?
        var current = root
        for (i, key) in path.enumerated() {
            if current.viewport != nil { found = (current, Array(path[..<i])) }
            guard let next = current.children.first(where: { $0.key == key }) else { return found }
            current = next
        }
        if current.viewport != nil { found = (current, path) }
        return found
    }

    /// The node that holds `viewport` in the current tree (updates replace nodes, not viewports).
    func container(of viewport: ScrollViewport) -> ViewNode? {
        var found: ViewNode?
        func walk(_ node: ViewNode) {
            if found != nil { return }
            if node.viewport === viewport { found = node; return }
            for child in node.children { walk(child) }
        }
        walk(root)
        return found
    }

    func paintAreas(_ rects: [Rect]) {
        for rect in Self.merge(rects) { ViewPainter.paint(root, into: &canvas, dirty: rect) }
    }
}
