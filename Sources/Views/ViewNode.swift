import JSON

/// One node of a view with its data applied: templates resolved, lists expanded. It also carries
/// its layout (frame and cached measurements), which an update keeps for unchanged nodes.
public final class ViewNode {
    public let kind: ViewKind
    public let id: String?
    /// Stable identity among its siblings: the child index, or a list item's key.
    public let key: String
    public let style: ViewStyle
    /// Text of text and button nodes, value of an input.
    public let text: String
    public let placeholder: String
    public let handlers: [String: String]
    public internal(set) var children: [ViewNode]
    /// Where its spec is in the view JSON.
    let pointer: String

    /// Where layout put it, in canvas cells (the border box, margins excluded).
    public internal(set) var frame = Rect.zero
    var measureCache: (width: Int, size: Size)? = nil
    var focused = false
    /// Set by layout: the frame is current for this subtree, so an equal frame needs no relayout.
    var layoutValid = false
    var linesCache: (width: Int, lines: [TextWrapper.Line])? = nil
    /// For a list item: the item it was expanded from, and the outermost scope its templates read
    /// (an item that reads only itself can be kept while its item is unchanged).
    var sourceItem: JSONValue?
    var lowestScope = Int.max
    /// For a `scroll` node or a list given a height: what it shows of its content (``ScrollViewport``).
    public internal(set) var viewport: ScrollViewport?

    init(kind: ViewKind, id: String?, key: String, style: ViewStyle, text: String, placeholder: String,
         handlers: [String: String], children: [ViewNode], pointer: String) {
        self.kind = kind
        self.id = id
        self.key = key
        self.style = style
        self.text = text
        self.placeholder = placeholder
        self.handlers = handlers
        self.children = children
        self.pointer = pointer
        var count = 1
        for child in children { count += child.nodeCount }
        nodeCount = count
        let s = style
        dependsOnHeight = !(s.height.isPercentFree && s.minHeight.isPercentFree && s.maxHeight.isPercentFree && s.basis.isPercentFree)
            || children.contains { $0.dependsOnHeight }
    }

    /// Whether its size can depend on the height available (a percent height in its subtree): if
    /// not, measurements ignore the height, and more of them hit the cache.
    let dependsOnHeight: Bool

    /// The text's widest line and line count, unwrapped (text and buttons never change in place).
    lazy var naturalSize: Size = TextWrapper.naturalSize(text)

    /// Whether the node's own properties (not its children) equal `other`'s.
    func sameProperties(as other: ViewNode) -> Bool {
        kind == other.kind && id == other.id && text == other.text && placeholder == other.placeholder
            && style == other.style && handlers == other.handlers
    }

    /// Every node of the subtree, depth first, parents before children.
    public func forEach(_ body: (ViewNode) -> Void) {
        body(self)
        for child in children { child.forEach(body) }
    }

    /// Nodes in the subtree, itself included. Fixed at creation: the reconciler only swaps a child
    /// for an equal one.
    public let nodeCount: Int

    /// Nodes that take focus, in document order.
    var focusable: Bool { kind == .button || kind == .input || viewport != nil }
}

public struct Rect: Sendable, Hashable, CustomStringConvertible {
    public var x, y, width, height: Int
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    var maxX: Int { x + width }
    var maxY: Int { y + height }
    var isEmpty: Bool { width <= 0 || height <= 0 }

    func intersection(_ o: Rect) -> Rect {
        let x0 = max(x, o.x), y0 = max(y, o.y), x1 = min(maxX, o.maxX), y1 = min(maxY, o.maxY)
        return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    func union(_ o: Rect) -> Rect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = min(x, o.x), y0 = min(y, o.y)
        return Rect(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
    }

    func contains(_ o: Rect) -> Bool { o.isEmpty || (o.x >= x && o.y >= y && o.maxX <= maxX && o.maxY <= maxY) }
    func intersects(_ o: Rect) -> Bool { !intersection(o).isEmpty }

    public var description: String { "(\(x),\(y) \(width)x\(height))" }
}

public struct Size: Sendable, Hashable {
    public var width, height: Int
}
