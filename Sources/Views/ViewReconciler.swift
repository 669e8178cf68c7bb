/// Matches a freshly expanded tree against the one on screen, by sibling keys (list items by their
/// `key` field), so that unchanged subtrees keep their nodes, layout and wrapped text.
enum ViewReconciler {
    /// Returns the node to keep: `old` itself when nothing in its subtree changed, else `new` with
    /// the old frame carried over. Adds to `dirty` the frames that must be repainted.
    static func reconcile(old: ViewNode, new: ViewNode, dirty: inout [Rect], changed: inout Int) -> ViewNode {
        if old === new { return old }   // kept by the expander: its item did not change
        // An input whose value the data replaced is repainted though its properties are the same.
        let sameOwn = old.sameProperties(as: new) && !(new.editor?.takeRepaint() ?? false)
        var childrenChanged = old.children.count != new.children.count
        if old.children.isEmpty && new.children.isEmpty {
            if sameOwn { return old }
        }
        var matched: [ViewNode] = []
        matched.reserveCapacity(new.children.count)
        // Fast path: same keys in the same order.
        var sameOrder = old.children.count == new.children.count
        if sameOrder {
            for i in 0..<new.children.count where old.children[i].key != new.children[i].key { sameOrder = false; break }
        }
        if sameOrder {
            for i in 0..<new.children.count {
                let kept = reconcile(old: old.children[i], new: new.children[i], dirty: &dirty, changed: &changed)
                if kept !== old.children[i] { childrenChanged = true }
                matched.append(kept)
            }
        } else {
            childrenChanged = true
            var byKey: [String: ViewNode] = [:]
            for child in old.children { byKey[child.key] = child }
            for child in new.children {
                if let previous = byKey.removeValue(forKey: child.key) {
                    matched.append(reconcile(old: previous, new: child, dirty: &dirty, changed: &changed))
                } else {
                    changed += 1
                    matched.append(child)
                }
            }
            for removed in byKey.values {
                changed += 1
                dirty.append(removed.frame)
            }
        }
        if sameOwn && !childrenChanged { return old }
        new.children = matched
        new.frame = old.frame
        new.focused = old.focused
        if !sameOwn {
            changed += 1
            dirty.append(old.frame)
            if new.kind == old.kind && new.text == old.text && new.style.samePaintFreeLayout(as: old.style) {
                // Paint only: the layout of this subtree holds.
                new.layoutValid = !childrenChanged
                new.measureCache = childrenChanged ? nil : old.measureCache
                new.linesCache = old.linesCache
            }
        }
        return new
    }
}
