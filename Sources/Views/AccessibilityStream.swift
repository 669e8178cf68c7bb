/// A plain, line-oriented account of a view for a screen reader: what has focus, and what changed
/// there, one line per change, no escape sequences (`espeak-ng` can read it from stdin).
///
/// ```text
/// view opened, 3 controls
/// button Add, 1 of 3
/// list tasks, 3 items, showing 1 to 3
/// button Done, list tasks, item 2 of 3: call mum, Done
/// ```
///
/// Announced: the mount and unmount of the view, every move of focus, and a change of what the
/// focused node says (an input's value, a list's items or visible range, the item around a focused
/// button). Changes elsewhere on screen are not announced.
final class AccessibilityStream {
    /// Every line so far (the last 1,000), for `view.frame`'s `spoken` and for tests.
    private(set) var lines: [String] = []
    private let sink: (String) -> Void
    private var lastFocus: [String]?
    private var lastLine: String?

    init(sink: @escaping (String) -> Void) {
        self.sink = sink
    }

    func mounted(_ document: ViewDocument) {
        let count = Self.controls(document).count
        emit("view opened, \(count) control\(count == 1 ? "" : "s")")
        observe(document)
    }

    private var closed = false

    /// At unmount, or when q quits (said once).
    func unmounted() {
        guard !closed else { return }
        closed = true
        emit("view closed")
    }

    /// Announces the focused node when focus moved or what it says changed.
    func observe(_ document: ViewDocument) {
        let line = document.focusedNode().map { Self.describe($0, document) }
        if document.focusPath != lastFocus || line != lastLine {
            lastFocus = document.focusPath
            lastLine = line
            if let line { emit(line) }
        }
    }

    private func emit(_ line: String) {
        // One line each: a newline in the view's text must not split an announcement.
        let clean = String(line.map { $0.isNewline || $0 == "\u{1B}" ? " " : $0 })
        lines.append(clean)
        if lines.count > 1000 { lines.removeFirst(lines.count - 1000) }
        sink(clean)
    }

    // MARK: describing

    /// "button Add, 1 of 2"; "input title: buy milk"; "list tasks, 3 items, showing 1 to 3"; a node
    /// inside a list item adds the list and the item ("list tasks, item 2 of 3: call mum, done").
    static func describe(_ node: ViewNode, _ document: ViewDocument) -> String {
        var parts = [own(node)]
        let path = document.focusPath ?? []
        if let (list, item, index) = enclosingItem(path, document), list !== node {
            parts.append("\(name("list", list)), item \(index + 1) of \(itemCount(list)): \(texts(item).joined(separator: ", "))")
        } else if node.kind == .button || node.kind == .input {
            let controls = controls(document)
            if let i = controls.firstIndex(where: { $0 === node }) { parts.append("\(i + 1) of \(controls.count)") }
        }
        return parts.joined(separator: ", ")
    }

    static func own(_ node: ViewNode) -> String {
        switch node.kind {
        case .button: return "button " + node.text
        case .input:
            let label = node.id ?? node.placeholder
            return "input" + (label.isEmpty ? "" : " " + label) + ": " + (node.text.isEmpty ? "empty" : node.text)
        case .list:
            var line = "\(name("list", node)), \(itemCount(node)) item\(itemCount(node) == 1 ? "" : "s")"
            if let range = shownItems(node) { line += ", showing \(range.lowerBound + 1) to \(range.upperBound)" }
            return line
        case .scroll:
            var line = name("scroll", node)
            if let viewport = node.viewport, viewport.contentRows > 0 {
                line += ", lines \(viewport.offset + 1) to \(min(viewport.contentRows, viewport.offset + viewport.visibleRows)) of \(viewport.contentRows)"
            }
            return line
        default:
            return ([node.kind.rawValue] + texts(node)).joined(separator: " ")
        }
    }

    static func name(_ kind: String, _ node: ViewNode) -> String { node.id.map { kind + " " + $0 } ?? kind }

    static func itemCount(_ list: ViewNode) -> Int { list.viewport?.itemCount ?? list.children.count }

    /// The items of a list on screen, when it scrolls.
    static func shownItems(_ list: ViewNode) -> Range<Int>? {
        guard let viewport = list.viewport, viewport.isLazyList, viewport.itemCount > 0 else { return nil }
        let first = viewport.offset / viewport.stride
        let last = min(viewport.itemCount, (viewport.offset + viewport.visibleRows + viewport.stride - 1) / viewport.stride)
        return first..<max(first, last)
    }

    /// The innermost list item on `path`: its list, the item node and its index in the data.
    static func enclosingItem(_ path: [String], _ document: ViewDocument) -> (ViewNode, ViewNode, Int)? {
        var found: (ViewNode, ViewNode, Int)?
        var current = document.root
        for key in path {
            guard let index = current.children.firstIndex(where: { $0.key == key }) else { break }
            let next = current.children[index]
            if current.kind == .list { found = (current, next, (current.viewport?.windowStart ?? 0) + index) }
            current = next
        }
        return found
    }

    /// The words of a subtree: texts, button labels and input values, in document order.
    static func texts(_ node: ViewNode) -> [String] {
        var found: [String] = []
        node.forEach { n in
            if (n.kind == .text || n.kind == .button || n.kind == .input), !n.text.isEmpty { found.append(n.text) }
        }
        return found
    }

    /// Buttons, inputs and scroll containers outside list items, in document order: the "1 of 2".
    static func controls(_ document: ViewDocument) -> [ViewNode] {
        var found: [ViewNode] = []
        func walk(_ node: ViewNode) {
            if node.focusable { found.append(node) }
            guard node.kind != .list else { return }
            for child in node.children { walk(child) }
        }
        walk(document.root)
        return found
    }
}
