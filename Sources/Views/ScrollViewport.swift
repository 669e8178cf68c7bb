/// What a scroll container shows of its content: a `scroll` node (its children, laid out at their
/// own heights) or a list given a `height` or `maxHeight` (its items, expanded lazily).
///
/// A scrolling list expands only a window of its items: those on screen plus ``margin`` on each
/// side, so a list of 1,000,000 items costs what one of 100 does, at mount, on update and per
/// scroll step. Every row of such a list is as tall as its first expanded item measured at the
/// list's width (the template's fixed `height`, when it has one), measured again only when the
/// width changes; an item that would be taller is clipped to that height. Keys (`key`) are checked
/// for repeats within the window only.
///
/// The container keeps its rightmost inner column for a scrollbar: a track with a thumb whose
/// length is the visible share of the content and whose place is the offset's.
public final class ScrollViewport {
    /// Items expanded above and below the visible ones, so that Tab reaches the next item off screen.
    static let margin = 8

    /// The first content row shown, from 0 to ``maxOffset``.
    public internal(set) var offset = 0
    /// Rows inside the container (its inner height), known once it has been laid out.
    public internal(set) var visibleRows: Int
    /// Rows of content in all (a scrolling list's: items × row height, gaps between).
    public internal(set) var contentRows = 0
    /// A scrolling list's: its items, the height of each row, the first expanded item and how many.
    public internal(set) var itemCount = 0
    public internal(set) var rowHeight = 1
    public internal(set) var windowStart = 0
    public internal(set) var windowCount = 0
    /// The width the row height was measured at.
    var rowHeightWidth = -1
    /// Whether it is a list's, whose items are expanded by window, rather than a `scroll` node's.
    let isLazyList: Bool
    let gap: Int

    init(_ spec: ViewSpec) {
        isLazyList = spec.kind == .list
        gap = spec.style.gap
        // A guess until layout measures it: the fixed height when there is one.
        let chrome = FlexLayout.chromeSize(spec.style).height
        let fixed: Int? = if case .cells(let n) = spec.style.height { n } else if case .cells(let n) = spec.style.maxHeight { n } else { nil }
        visibleRows = max(1, (fixed ?? 50 + chrome) - chrome)
    }

    public var maxOffset: Int { max(0, contentRows - visibleRows) }
    /// Rows from one item's top to the next's.
    var stride: Int { rowHeight + gap }

    func clampOffset() { offset = max(0, min(offset, maxOffset)) }

    /// The items of a list of `itemCount` to expand for the current offset; remembers the window.
    func window(itemCount count: Int) -> Range<Int> {
        itemCount = count
        contentRows = max(0, count * stride - gap)
        clampOffset()
        let first = offset / stride
        let shown = visibleRows / stride + 2
        let start = max(0, first - Self.margin)
        let end = min(count, first + shown + Self.margin)
        windowStart = start
        windowCount = max(0, end - start)
        return start..<max(start, end)
    }

    /// Whether the expanded window still holds every visible item and one more on each side.
    var coversVisibleRows: Bool {
        guard isLazyList, itemCount > 0 else { return true }
        let first = offset / stride
        let last = min(itemCount - 1, (offset + max(1, visibleRows) - 1) / stride)
        return windowStart <= max(0, first - 1) && windowStart + windowCount >= min(itemCount, last + 2)
    }

    /// Whether some scrolling list under `root` needs another window than the one expanded (its
    /// rows were measured, or the container resized, after the window was chosen).
    static func windowsStale(_ root: ViewNode) -> Bool {
        var stale = false
        func walk(_ node: ViewNode) {
            if stale { return }
            if let viewport = node.viewport, !viewport.coversVisibleRows { stale = true; return }
            for child in node.children { walk(child) }
        }
        walk(root)
        return stale
    }

    /// The scrollbar's thumb: its first row in the track and its length.
    public var thumb: (start: Int, length: Int) {
        guard visibleRows > 0, contentRows > visibleRows else { return (0, max(0, visibleRows)) }
        let length = max(1, visibleRows * visibleRows / contentRows)
        let room = visibleRows - length
        let start = maxOffset == 0 ? 0 : (offset * room + maxOffset / 2) / maxOffset
        return (start, length)
    }

    /// Draws the scrollbar in the rightmost column of `inner`: `│` track (`┃` while the container
    /// has focus), `█` thumb.
    func paintScrollbar(in inner: Rect, into canvas: inout TextCanvas, clip: Rect, style: CellStyle, focused: Bool) {
        guard inner.width > 0, inner.height > 0 else { return }
        let x = inner.maxX - 1
        let (start, length) = thumb
        var track = style
        track.dim = !focused
        let trackGlyph = Glyph(focused ? "┃" : "│", width: 1)
        let thumbGlyph = Glyph("█", width: 1)
        for row in 0..<inner.height {
            let inThumb = row >= start && row < start + length
            _ = canvas.put(inThumb ? thumbGlyph : trackGlyph, x: x, y: inner.y + row, style: inThumb ? style : track, clip: clip)
        }
    }
}

extension ViewSpec {
    /// A `scroll` node, or a list given a height or a maximum height: it scrolls, and a list's
    /// items are expanded by window.
    var scrolls: Bool {
        kind == .scroll || (kind == .list && (!style.height.isAuto || !style.maxHeight.isAuto))
    }
}

extension ViewNode {
    /// Inside its border and padding: where its children go.
    var contentRect: Rect {
        let b = style.border.width
        return Rect(x: frame.x + b + style.padding.left, y: frame.y + b + style.padding.top,
                    width: max(0, frame.width - 2 * b - style.padding.horizontal),
                    height: max(0, frame.height - 2 * b - style.padding.vertical))
    }
}
