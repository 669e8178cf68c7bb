import JSON

/// A mounted view: its spec, data, laid-out tree and the canvas last drawn. An update re-applies
/// the data, matches the new tree to the old by keys, lays out only what changed and repaints only
/// the dirty areas; ``FrameWriter`` then writes only the cells that differ.
public final class ViewDocument {
    public let spec: ViewSpec
    public private(set) var data: JSONValue
    public internal(set) var root: ViewNode
    public internal(set) var canvas: TextCanvas
    public let width: Int
    /// A fixed canvas height, or nil to take the content's.
    public let height: Int?
    /// The most nodes the expanded tree may have (the app's `viewNodes` quota).
    public let nodeLimit: Int
    /// The identity path (sibling keys from the root) of the focused node.
    public private(set) var focusPath: [String]?

    public init(spec: ViewSpec, data: JSONValue, width: Int, height: Int? = nil, nodeLimit: Int = .max) throws(ViewDecodingError) {
        self.spec = spec
        self.data = data
        self.width = width
        self.height = height
        self.nodeLimit = nodeLimit
        root = try ViewExpander.expand(spec, data: data, nodeLimit: nodeLimit)
        var used = FlexLayout.layout(root, width: width, height: height)
        if ScrollViewport.windowsStale(root) {
            // A list's window was guessed before layout measured its rows: expand what it shows.
            root = try ViewExpander.expand(spec, data: data, previous: root, nodeLimit: nodeLimit)
            used = FlexLayout.layout(root, width: width, height: height)
        }
        canvas = TextCanvas(width: width, height: height ?? used)
        ViewPainter.paint(root, into: &canvas)
    }

    public convenience init(json: JSONValue, data: JSONValue = .object([:]), width: Int, height: Int? = nil) throws(ViewDecodingError) {
        try self.init(spec: ViewDecoder.decode(json), data: data, width: width, height: height)
    }

    /// What an update changed.
    public struct Change: Sendable {
        /// The canvas before the update, in the areas that were repainted.
        public var dirty: [Rect]
        /// Whether the canvas changed size (then the whole frame must be redrawn).
        public var resized: Bool
        /// Nodes whose own properties changed, added or removed.
        public var changedNodes: Int
        /// The canvas as it was, for diffing.
        public var previous: TextCanvas?
    }

    /// Applies new data; returns the areas repainted. The canvas holds the new frame.
    @discardableResult
    public func update(data newData: JSONValue) throws(ViewDecodingError) -> Change {
        let fresh = try ViewExpander.expand(spec, data: newData, previous: root, nodeLimit: nodeLimit)
        data = newData
        var dirty: [Rect] = []
        var changed = 0
        let reconciled = ViewReconciler.reconcile(old: root, new: fresh, dirty: &dirty, changed: &changed)
        root = reconciled
        if let focusPath { setFocus(focusPath) }
        let recorder = FrameChanges()
        var used = FlexLayout.layout(root, width: width, height: height, changes: recorder)
        if ScrollViewport.windowsStale(root) {
            let again = try ViewExpander.expand(spec, data: newData, previous: root, nodeLimit: nodeLimit)
            root = ViewReconciler.reconcile(old: root, new: again, dirty: &dirty, changed: &changed)
            if let focusPath { setFocus(focusPath) }
            used = FlexLayout.layout(root, width: width, height: height, changes: recorder)
        }
        let newHeight = height ?? used
        if newHeight != canvas.height {
            let previous = canvas
            canvas = TextCanvas(width: width, height: newHeight)
            ViewPainter.paint(root, into: &canvas)
            return Change(dirty: [Rect(x: 0, y: 0, width: width, height: newHeight)], resized: true, changedNodes: changed, previous: previous)
        }
        // Off-canvas frames (a scrolled list's items above or below its window) are not dirty.
        let bounds = Rect(x: 0, y: 0, width: width, height: canvas.height)
        let rects = Self.merge(dirty + recorder.rects).map { $0.intersection(bounds) }.filter { !$0.isEmpty }
        guard !rects.isEmpty else { return Change(dirty: [], resized: false, changedNodes: changed, previous: nil) }
        let previous = canvas
        for rect in rects { ViewPainter.paint(root, into: &canvas, dirty: rect) }
        return Change(dirty: rects, resized: false, changedNodes: changed, previous: previous)
    }

    /// Applies RFC 6902 operations to the data, then updates.
    @discardableResult
    public func update(patch: JSONValue) throws(ViewUpdateError) -> Change {
        let patched: JSONValue
        do {
            patched = try JSONPatch.apply(patch, to: data)
        } catch {
            throw .patch(error)
        }
        do {
            return try update(data: patched)
        } catch {
            throw .view(error)
        }
    }

    /// Overlapping or touching rectangles merged; many rectangles become their bounding box.
    static func merge(_ rects: [Rect]) -> [Rect] {
        var result: [Rect] = []
        for rect in rects where !rect.isEmpty {
            var r = rect
            var i = 0
            while i < result.count {
                let grown = Rect(x: result[i].x - 1, y: result[i].y - 1, width: result[i].width + 2, height: result[i].height + 2)
                if grown.intersects(r) {
                    r = r.union(result.remove(at: i))
                    i = 0
                } else {
                    i += 1
                }
            }
            result.append(r)
        }
        if result.count > 16 { return [result.dropFirst().reduce(result[0]) { $0.union($1) }] }
        return result
    }

    // MARK: focus and events

    /// Focusable nodes (buttons, inputs) in document order, with their identity paths.
    public func focusables() -> [(path: [String], node: ViewNode)] {
        var found: [(path: [String], node: ViewNode)] = []
        func walk(_ node: ViewNode, _ path: [String]) {
            if node.focusable { found.append((path, node)) }
            for child in node.children { walk(child, path + [child.key]) }
        }
        walk(root, [])
        return found
    }

    /// Moves focus forward (or backward), wrapping; returns the areas to repaint.
    @discardableResult
    public func moveFocus(backward: Bool = false) -> [Rect] {
        let list = focusables()
        guard !list.isEmpty else { return [] }
        let current = focusPath.flatMap { path in list.firstIndex { $0.path == path } }
        let next: Int = switch current {
        case nil: backward ? list.count - 1 : 0
        case let i?: (i + (backward ? list.count - 1 : 1)) % list.count
        }
        return setFocus(list[next].path)
    }

    @discardableResult
    func setFocus(_ path: [String]) -> [Rect] {
        var rects: [Rect] = []
        if let old = focusedNode() {
            old.focused = false
            rects.append(old.frame)
        }
        focusPath = path
        if let node = node(at: path) {
            node.focused = true
            rects.append(node.frame)
        }
        return rects
    }

    public func focusedNode() -> ViewNode? { focusPath.flatMap(node(at:)) }

    func node(at path: [String]) -> ViewNode? {
        var current = root
        for key in path {
            guard let next = current.children.first(where: { $0.key == key }) else { return nil }
            current = next
        }
        return current
    }

    /// The first node with `id`.
    public func node(id: String) -> ViewNode? {
        var found: ViewNode?
        func walk(_ node: ViewNode) {
            if found != nil { return }
            if node.id == id { found = node; return }
            for child in node.children { walk(child) }
        }
        walk(root)
        return found
    }

    /// Repaints `rects` (after a focus change); returns the canvas before.
    public func repaint(_ rects: [Rect]) -> TextCanvas {
        let previous = canvas
        for rect in Self.merge(rects) { ViewPainter.paint(root, into: &canvas, dirty: rect) }
        return previous
    }
}

/// Why `view.update` with a patch failed.
public enum ViewUpdateError: Error, Sendable {
    case patch(JSONPatchError)
    case view(ViewDecodingError)
}

extension ViewDocument {
    /// The key of the list item `node` belongs to (its nearest one), as the list's `key` field gave it.
    func itemKey(of target: ViewNode) -> String? {
        var result: String?
        func walk(_ node: ViewNode, _ item: String?) -> Bool {
            let here = node.key.hasPrefix("k:") ? String(node.key.dropFirst(2)) : node.key.hasPrefix("#") ? String(node.key.dropFirst()) : item
            if node === target { result = here; return true }
            for child in node.children where walk(child, here) { return true }
            return false
        }
        _ = walk(root, nil)
        return result
    }
}
