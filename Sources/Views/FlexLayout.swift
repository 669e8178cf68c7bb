/// Flexbox on integer terminal cells: direction, grow, shrink, basis, gap, padding, margin, align,
/// justify, min/max and percent sizes. Sizes are border boxes; margins sit outside them.
///
/// Cells are whole numbers, so space shared by grow or shrink is split by largest remainder, the
/// earlier child winning ties: the same tree always gets the same frames.
public enum FlexLayout {
    /// Lays `root` out in a `width` × `height` area. A nil height lets the root take its content's.
    /// Returns the height used (the root's frame plus its vertical margins).
    @discardableResult
    public static func layout(_ root: ViewNode, width: Int, height: Int? = nil) -> Int {
        layout(root, width: width, height: height, changes: nil)
    }

    static func layout(_ root: ViewNode, width: Int, height: Int?, changes: FrameChanges?) -> Int {
        let m = root.style.margin
        let availableWidth = max(0, width - m.horizontal)
        let size = measure(root, width: availableWidth, height: height.map { max(0, $0 - m.vertical) }, parentRow: false)
        var w = root.style.width.resolve(width) ?? availableWidth
        w = clamp(w, root.style.minWidth, root.style.maxWidth, width)
        let h = height.flatMap { root.style.height.resolve($0) } ?? size.height
        place(root, Rect(x: m.left, y: m.top, width: w, height: h), changes)
        return h + m.vertical
    }

    // MARK: measuring

    /// The border-box size `node` asks for when `width` cells are available (and `height`, for
    /// percent heights). Cached per node for the last question asked.
    static func measure(_ node: ViewNode, width: Int, height: Int?, parentRow: Bool) -> Size {
        let heightKey = node.dependsOnHeight ? (height.map { $0 &+ 1 } ?? 0) : 0
        let cacheKey = width &* 2 &+ (parentRow && node.kind == .divider ? 1 : 0) &+ heightKey &* 1_000_003
        if let cache = node.measureCache, cache.width == cacheKey { return cache.size }
        let size = computeSize(node, width: width, height: height, parentRow: parentRow)
        node.measureCache = (cacheKey, size)
        return size
    }

    static func computeSize(_ node: ViewNode, width: Int, height: Int?, parentRow: Bool) -> Size {
        let style = node.style
        let fixedWidth = style.width.resolve(width).map { clamp($0, style.minWidth, style.maxWidth, width) }
        let fixedHeight = height.flatMap { style.height.resolve($0) } ?? (style.height.isPercentFree ? style.height.resolve(0) : nil)
        let chrome = chromeSize(style)
        let outerWidth = fixedWidth ?? clamp(width, .auto, style.maxWidth, width)
        let innerWidth = max(0, outerWidth - chrome.width)
        let innerHeight = (fixedHeight ?? height).map { max(0, $0 - chrome.height) }
        var content: Size
        switch node.kind {
        case .text:
            let natural = node.naturalSize
            if style.overflow == .truncate {
                content = Size(width: min(natural.width, innerWidth), height: natural.height)
            } else if natural.width <= innerWidth {
                content = natural
            } else {
                let lines = TextLayoutCache.lines(node, width: innerWidth)
                content = Size(width: lines.reduce(0) { max($0, TextWrapper.lineWidth($1)) }, height: lines.count)
            }
        case .button:
            let label = Glyph.width(of: node.text) + (style.border == .none ? 4 : 0)
            content = Size(width: min(label, innerWidth), height: 1)
        case .input:
            content = Size(width: min(max(20, Glyph.width(of: node.text) + 1), innerWidth), height: 1)
        case .divider:
            content = parentRow ? Size(width: 1, height: 0) : Size(width: 0, height: 1)
        case .spacer:
            content = Size(width: 0, height: 0)
        case .stack, .box, .list, .scroll:
            let row = direction(node) == .row
            var main = 0, cross = 0
            for (i, child) in node.children.enumerated() {
                let m = child.style.margin
                let s = measure(child, width: max(0, innerWidth - m.horizontal), height: innerHeight.map { max(0, $0 - m.vertical) }, parentRow: row)
                if row {
                    main += s.width + m.horizontal
                    cross = max(cross, s.height + m.vertical)
                } else {
                    main += s.height + m.vertical
                    cross = max(cross, s.width + m.horizontal)
                }
                if i > 0 { main += style.gap }
            }
            if row, main > innerWidth, !node.children.isEmpty {
                // Too wide: the children will shrink, and narrower text wraps onto more lines.
                cross = rowHeightWhenShrunk(node, innerWidth: innerWidth, innerHeight: innerHeight)
            }
            content = row ? Size(width: main, height: cross) : Size(width: cross, height: main)
        }
        var w = fixedWidth ?? (content.width + chrome.width)
        var h = fixedHeight ?? (content.height + chrome.height)
        w = clamp(w, style.minWidth, style.maxWidth, width)
        h = clamp(h, style.minHeight, style.maxHeight, height ?? 0)
        return Size(width: w, height: h)
    }

    /// The height of a row whose children overflow `innerWidth`, measured at the widths they
    /// shrink to (the same sharing as ``place``).
    static func rowHeightWhenShrunk(_ node: ViewNode, innerWidth: Int, innerHeight: Int?) -> Int {
        let children = node.children
        var bases: [Int] = []
        var margins = 0
        for child in children {
            let m = child.style.margin
            margins += m.horizontal
            let measured = measure(child, width: max(0, innerWidth - m.horizontal), height: innerHeight, parentRow: true)
            bases.append(child.style.basis.resolve(innerWidth) ?? child.style.width.resolve(innerWidth) ?? measured.width)
        }
        var sizes = bases
        let free = innerWidth - bases.reduce(0, +) - margins - node.style.gap * (children.count - 1)
        if free < 0 {
            let weights = children.enumerated().map { $0.element.style.shrink * Double(bases[$0.offset]) }
            let floors = children.enumerated().map { minimumMain($0.element, basis: bases[$0.offset], row: true, parent: innerWidth) }
            shrink(-free, weights: weights, floors: floors, into: &sizes)
        }
        var cross = 0
        for (i, child) in children.enumerated() {
            let m = child.style.margin
            cross = max(cross, measure(child, width: sizes[i], height: innerHeight, parentRow: true).height + m.vertical)
        }
        return cross
    }

    /// Border plus padding, both sides.
    static func chromeSize(_ style: ViewStyle) -> Size {
        let b = style.border.width * 2
        return Size(width: b + style.padding.horizontal, height: b + style.padding.vertical)
    }

    static func clamp(_ value: Int, _ minimum: Dimension, _ maximum: Dimension, _ parent: Int) -> Int {
        var v = value
        if let hi = maximum.resolve(parent) { v = min(v, hi) }
        if let lo = minimum.resolve(parent) { v = max(v, lo) }
        return max(0, v)
    }

    static func direction(_ node: ViewNode) -> ViewStyle.Direction { node.style.direction ?? .column }

    // MARK: placing

    /// Gives `node` its frame and lays its children out inside it.
    static func place(_ node: ViewNode, _ frame: Rect, _ changes: FrameChanges?) {
        if node.layoutValid && node.frame == frame { return }
        if node.frame != frame { changes?.record(node.frame, frame) }
        node.frame = frame
        node.layoutValid = true
        if node.viewport != nil { return placeScrolled(node, changes) }
        guard node.kind.isContainer, !node.children.isEmpty else { return }
        let style = node.style
        let b = style.border.width
        let inner = Rect(x: frame.x + b + style.padding.left, y: frame.y + b + style.padding.top,
                         width: max(0, frame.width - 2 * b - style.padding.horizontal),
                         height: max(0, frame.height - 2 * b - style.padding.vertical))
        let row = direction(node) == .row
        let innerMain = row ? inner.width : inner.height
        let innerCross = row ? inner.height : inner.width
        let children = node.children
        let count = children.count

        // Cross sizes first for columns (a child's height depends on its width); main bases.
        var bases = [Int](repeating: 0, count: count)
        var crosses = [Int](repeating: 0, count: count)
        var mainMargins = 0
        for (i, child) in children.enumerated() {
            let cs = child.style
            let m = cs.margin
            let crossAvailable = max(0, innerCross - (row ? m.vertical : m.horizontal))
            let align = cs.alignSelf ?? style.align ?? .stretch
            mainMargins += row ? m.horizontal : m.vertical
            if row {
                let measured = measure(child, width: max(0, inner.width - m.horizontal), height: crossAvailable, parentRow: true)
                bases[i] = cs.basis.resolve(inner.width) ?? cs.width.resolve(inner.width).map { clamp($0, cs.minWidth, cs.maxWidth, inner.width) } ?? measured.width
            } else {
                let fixedCross = cs.width.resolve(inner.width).map { clamp($0, cs.minWidth, cs.maxWidth, inner.width) }
                let cross: Int
                if let fixedCross {
                    cross = fixedCross
                } else if align == .stretch {
                    cross = clamp(crossAvailable, cs.minWidth, cs.maxWidth, inner.width)
                } else {
                    cross = min(crossAvailable, measure(child, width: crossAvailable, height: nil, parentRow: false).width)
                }
                crosses[i] = cross
                let measured = measure(child, width: cross, height: inner.height, parentRow: false)
                bases[i] = cs.basis.resolve(inner.height) ?? measured.height
            }
        }
        let gaps = style.gap * max(0, count - 1)
        var sizes = bases
        let free = innerMain - bases.reduce(0, +) - mainMargins - gaps
        if free > 0 {
            let weights = children.map(\.style.grow)
            share(free, weights: weights, into: &sizes, sign: 1)
        } else if free < 0 {
            let weights = children.enumerated().map { $0.element.style.shrink * Double(bases[$0.offset]) }
            let floors = children.enumerated().map { minimumMain($0.element, basis: bases[$0.offset], row: row, parent: innerMain) }
            shrink(-free, weights: weights, floors: floors, into: &sizes)
        }
        for (i, child) in children.enumerated() {
            let cs = child.style
            sizes[i] = row ? clamp(sizes[i], cs.minWidth, cs.maxWidth, inner.width) : clamp(sizes[i], cs.minHeight, cs.maxHeight, inner.height)
        }
        let used = sizes.reduce(0, +) + mainMargins + gaps
        let leftover = max(0, innerMain - used)
        var position = 0
        var between = style.gap
        var extraBetween = 0
        switch style.justify {
        case .start: break
        case .center: position = leftover / 2
        case .end: position = leftover
        case .spaceBetween:
            if count > 1 { between += leftover / (count - 1); extraBetween = leftover % (count - 1) }
        case .spaceAround:
            let each = leftover / count
            position = each / 2
            between += each
        case .spaceEvenly:
            let each = leftover / (count + 1)
            position = each
            between += each
        }
        for (i, child) in children.enumerated() {
            let cs = child.style
            let m = cs.margin
            let align = cs.alignSelf ?? style.align ?? .stretch
            let crossAvailable = max(0, innerCross - (row ? m.vertical : m.horizontal))
            let cross: Int
            if row {
                if let fixed = cs.height.resolve(inner.height) {
                    cross = clamp(fixed, cs.minHeight, cs.maxHeight, inner.height)
                } else if align == .stretch {
                    cross = clamp(crossAvailable, cs.minHeight, cs.maxHeight, inner.height)
                } else {
                    cross = min(crossAvailable, measure(child, width: sizes[i], height: crossAvailable, parentRow: true).height)
                }
            } else {
                cross = crosses[i]
            }
            let crossStart = row ? m.top : m.left
            let crossOffset: Int = switch align {
            case .start, .stretch: crossStart
            case .center: crossStart + max(0, crossAvailable - cross) / 2
            case .end: crossStart + max(0, crossAvailable - cross)
            }
            position += row ? m.left : m.top
            let rect = row
                ? Rect(x: inner.x + position, y: inner.y + crossOffset, width: sizes[i], height: cross)
                : Rect(x: inner.x + crossOffset, y: inner.y + position, width: cross, height: sizes[i])
            place(child, rect, changes)
            position += sizes[i] + (row ? m.right : m.bottom) + between
            if i < extraBetween { position += 1 }
        }
    }

    /// The least a child shrinks to, as CSS's `min-width: auto`: a leaf keeps its longest word
    /// (rows) or its lines (columns); a container keeps only an explicit minimum, and clips.
    static func minimumMain(_ node: ViewNode, basis: Int, row: Bool, parent: Int) -> Int {
        let style = node.style
        if let explicit = (row ? style.minWidth : style.minHeight).resolve(parent) { return min(explicit, basis) }
        let chrome = row ? chromeSize(style).width : chromeSize(style).height
        switch node.kind {
        case .text:
            guard row else { return basis }
            if style.overflow == .truncate { return min(basis, chrome + 1) }
            return min(basis, chrome + longestUnit(node.text))
        case .button:
            return row ? min(basis, chrome + Glyph.width(of: node.text) + (style.border == .none ? 4 : 0)) : basis
        case .input, .divider:
            return row ? min(basis, chrome + 1) : basis
        default:
            return 0
        }
    }

    /// The widest word (or wide character): where wrapping cannot break.
    static func longestUnit(_ text: String) -> Int {
        var longest = 0, current = 0
        for glyph in Glyph.segment(text) {
            if glyph.isSpace || glyph.text == "\n" { current = 0; continue }
            if glyph.breaksFreely { longest = max(longest, glyph.width); current = 0; continue }
            current += glyph.width
            longest = max(longest, current)
        }
        return longest
    }

    /// Takes `amount` cells away in proportion to `weights`, never below `floors`; what a child at
    /// its floor cannot give is shared among the others.
    static func shrink(_ amount: Int, weights: [Double], floors: [Int], into sizes: inout [Int]) {
        var remaining = amount
        var frozen = weights.map { $0 <= 0 }
        for (i, floor) in floors.enumerated() where sizes[i] <= floor { frozen[i] = true }
        while remaining > 0 {
            let active = weights.indices.filter { !frozen[$0] }
            guard !active.isEmpty else { return }
            var part = [Int](repeating: 0, count: sizes.count)
            var trial = part
            share(remaining, weights: weights.enumerated().map { frozen[$0.offset] ? 0 : $0.element }, into: &trial, sign: 1)
            part = trial
            var clamped = false
            for i in active {
                let room = sizes[i] - floors[i]
                if part[i] >= room {
                    sizes[i] = floors[i]
                    remaining -= room
                    frozen[i] = true
                    clamped = true
                }
            }
            if !clamped {
                for i in active { sizes[i] -= part[i]; remaining -= part[i] }
                return
            }
        }
    }

    /// Adds (sign 1) or takes away (sign -1) `amount` cells, in proportion to `weights`.
    static func share(_ amount: Int, weights: [Double], into sizes: inout [Int], sign: Int) {
        let total = weights.reduce(0, +)
        guard total > 0 else { return }
        var given = 0
        var remainders: [(Double, Int)] = []
        for (i, w) in weights.enumerated() where w > 0 {
            let exact = Double(amount) * w / total
            var whole = Int(exact)
            if sign < 0 { whole = min(whole, sizes[i]) }
            sizes[i] += sign * whole
            given += whole
            remainders.append((exact - Double(whole), i))
        }
        remainders.sort { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }
        var k = 0
        while given < amount, !remainders.isEmpty, k < remainders.count * 2 {
            let i = remainders[k % remainders.count].1
            k += 1
            if sign < 0 && sizes[i] == 0 { continue }
            sizes[i] += sign
            given += 1
        }
    }
}

extension Dimension {
    /// Whether it resolves without knowing the parent (cells or auto).
    var isPercentFree: Bool { if case .percent = self { false } else { true } }
}
