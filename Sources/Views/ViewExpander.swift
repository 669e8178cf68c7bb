import JSON

/// Applies data to a ``ViewSpec``: resolves `${path}` templates and expands lists, one node per
/// item, each identified by its `key` field (or its index when the list has no key).
///
/// Given the tree on screen, a list item whose data is unchanged, and whose templates read only
/// that item, is not expanded again: its node is kept as it is, layout included. So an update
/// costs what changed, not what is shown.
///
/// Nodes are counted as they are made, against `nodeLimit` (the app's `viewNodes` quota): a list
/// whose items alone pass it fails before one of them is expanded, and nothing too large reaches
/// layout.
public enum ViewExpander {
    public static func expand(_ spec: ViewSpec, data: JSONValue, previous: ViewNode? = nil, nodeLimit: Int = .max) throws(ViewDecodingError) -> ViewNode {
        var lowest = Int.max
        var budget = Budget(limit: nodeLimit)
        return try node(spec, key: "root", scopes: [data], previous: previous, lowest: &lowest, budget: &budget)
    }

    /// The nodes made so far, and how many may be.
    struct Budget {
        let limit: Int
        var used = 0

        mutating func take(_ count: Int, at pointer: String) throws(ViewDecodingError) {
            used += count
            guard used > limit else { return }
            throw ViewDecodingError(pointer, "the view expands to more than \(limit) nodes, the app's quota (app.json quotas.viewNodes: \(limit)); show fewer items (page or window the list)",
                                    nodeLimit: limit)
        }
    }

    static func node(_ spec: ViewSpec, key: String, scopes: [JSONValue], previous: ViewNode?, lowest: inout Int, budget: inout Budget) throws(ViewDecodingError) -> ViewNode {
        try budget.take(1, at: spec.pointer)
        var children: [ViewNode] = []
        // A scroll node or a list given a height keeps its scroll state from the tree on screen.
        let viewport = spec.scrolls ? (previous?.kind == spec.kind ? previous?.viewport : nil) ?? ScrollViewport(spec) : nil
        if spec.kind == .list, let items = spec.items, let path = items.singlePath, let template = spec.template.first {
            let value = TemplateString.lookup(path, scopes, lowest: &lowest) ?? .null
            let array: [JSONValue]
            switch value {
            case .array(let a): array = a
            case .null: array = []
            default:
                throw ViewDecodingError(spec.pointer + "/items", "expected \"${\(path.joined(separator: "."))}\" to be an array in the data, got \(value.typeName)")
            }
            // Only a scrolling list's window of items is expanded (``LazyListWindow``).
            let range = viewport?.window(itemCount: array.count) ?? 0..<array.count
            // Each item is a node at least: a list past the quota fails here, before any is made.
            if budget.used + range.count > budget.limit { try budget.take(range.count, at: spec.pointer + "/items") }
            children.reserveCapacity(range.count)
            var seen = Set<String>()
            var previousItems: [String: ViewNode] = [:]
            if let previous, previous.kind == .list {
                previousItems.reserveCapacity(previous.children.count)
                for child in previous.children { previousItems[child.key] = child }
            }
            let itemScope = scopes.count
            for i in range {
                let item = array[i]
                var itemKey = "#" + String(i)
                if let keyField = spec.key {
                    let keyValue = item[keyField]
                    switch keyValue {
                    case .string(let s)?: itemKey = "k:" + s
                    case .number?: itemKey = "k:" + JSONWriter.write(keyValue!)
                    default:
                        throw ViewDecodingError(spec.pointer + "/key", "item \(i) of \"${\(path.joined(separator: "."))}\" has no string or number \"\(keyField)\"")
                    }
                    guard seen.insert(itemKey).inserted else {
                        throw ViewDecodingError(spec.pointer + "/key", "item \(i) repeats the key \(itemKey.dropFirst(2)); keys must be unique")
                    }
                }
                let old = previousItems[itemKey]
                if let old, old.lowestScope >= itemScope, old.sourceItem == item {
                    try budget.take(old.nodeCount, at: spec.pointer + "/template")
                    children.append(old)
                    lowest = min(lowest, old.lowestScope)
                    continue
                }
                var inner = scopes
                inner.append(item)
                var itemLowest = Int.max
                let child = try node(template, key: itemKey, scopes: inner, previous: old, lowest: &itemLowest, budget: &budget)
                child.sourceItem = item
                child.lowestScope = itemLowest
                lowest = min(lowest, itemLowest)
                children.append(child)
            }
        } else {
            children.reserveCapacity(spec.children.count)
            let previousChildren = previous?.children ?? []
            for (i, child) in spec.children.enumerated() {
                let old = i < previousChildren.count ? previousChildren[i] : nil
                children.append(try node(child, key: String(i), scopes: scopes, previous: old, lowest: &lowest, budget: &budget))
            }
        }
        let node = ViewNode(kind: spec.kind, id: spec.id?.render(scopes, lowest: &lowest), key: key, style: spec.style,
                            text: spec.text?.render(scopes, lowest: &lowest) ?? "",
                            placeholder: spec.placeholder?.render(scopes, lowest: &lowest) ?? "",
                            handlers: spec.handlers, children: children, pointer: spec.pointer)
        node.viewport = viewport
        return node
    }
}
