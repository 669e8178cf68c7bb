extension FlexLayout {
    /// Places the children of a scroll container: one column, each child at its own height (a
    /// scrolling list's items all at the row height), shifted up by the offset, one column narrower
    /// for the scrollbar. Children above or below the visible rows get frames outside the container,
    /// which the painter clips away.
    static func placeScrolled(_ node: ViewNode, _ changes: FrameChanges?) {
        guard let viewport = node.viewport else { return }
        let inner = node.contentRect
        let width = max(0, inner.width - 1)
        let gap = node.style.gap
        viewport.visibleRows = inner.height
        if viewport.isLazyList {
            if let first = node.children.first, viewport.rowHeightWidth != width {
                let m = first.style.margin
                viewport.rowHeight = max(1, measure(first, width: max(0, width - m.horizontal), height: nil, parentRow: false).height + m.vertical)
                viewport.rowHeightWidth = width
            }
            viewport.contentRows = max(0, viewport.itemCount * viewport.stride - gap)
            viewport.clampOffset()
            for (j, child) in node.children.enumerated() {
                let m = child.style.margin
                let top = inner.y + (viewport.windowStart + j) * viewport.stride - viewport.offset
                place(child, Rect(x: inner.x + m.left, y: top + m.top, width: max(0, width - m.horizontal),
                                  height: max(0, viewport.rowHeight - m.vertical)), changes)
            }
            return
        }
        var heights: [Int] = []
        heights.reserveCapacity(node.children.count)
        var total = 0
        for (i, child) in node.children.enumerated() {
            let m = child.style.margin
            let height = measure(child, width: max(0, width - m.horizontal), height: nil, parentRow: false).height + m.vertical
            heights.append(height)
            total += height + (i > 0 ? gap : 0)
        }
        viewport.contentRows = total
        viewport.clampOffset()
        var y = inner.y - viewport.offset
        for (i, child) in node.children.enumerated() {
            let m = child.style.margin
            place(child, Rect(x: inner.x + m.left, y: y + m.top, width: max(0, width - m.horizontal),
                              height: max(0, heights[i] - m.vertical)), changes)
            y += heights[i] + gap
        }
    }
}
