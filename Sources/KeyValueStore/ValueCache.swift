/// A least-recently-used cache of decoded values, bounded by an estimate of their bytes. Not
/// thread-safe, so not Sendable: ``KeyValueStore`` keeps it inside a `Mutex`.
final class ValueCache<Key: Hashable, Value> {
    private final class Node {
        let key: Key
        var value: Value
        var cost: Int
        var previous: Node?
        var next: Node?
        init(key: Key, value: Value, cost: Int) { self.key = key; self.value = value; self.cost = cost }
    }

    private var nodes: [Key: Node] = [:]
    private var head: Node?   // most recent
    private var tail: Node?   // least recent
    private(set) var totalCost = 0
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { nodes.count }

    func value(for key: Key) -> Value? {
        guard let node = nodes[key] else { return nil }
        moveToFront(node)
        return node.value
    }

    func insert(_ value: Value, for key: Key, cost: Int) {
        guard cost <= capacity else { remove(key); return }
        if let node = nodes[key] {
            totalCost += cost - node.cost
            node.value = value
            node.cost = cost
            moveToFront(node)
        } else {
            let node = Node(key: key, value: value, cost: cost)
            nodes[key] = node
            totalCost += cost
            node.next = head
            head?.previous = node
            head = node
            if tail == nil { tail = node }
        }
        while totalCost > capacity, let last = tail { remove(last.key) }
    }

    func remove(_ key: Key) {
        guard let node = nodes.removeValue(forKey: key) else { return }
        totalCost -= node.cost
        unlink(node)
    }

    func removeAll() {
        nodes.removeAll()
        var node = head
        while let current = node { node = current.next; current.previous = nil; current.next = nil }
        head = nil
        tail = nil
        totalCost = 0
    }

    private func unlink(_ node: Node) {
        node.previous?.next = node.next
        node.next?.previous = node.previous
        if head === node { head = node.next }
        if tail === node { tail = node.previous }
        node.previous = nil
        node.next = nil
    }

    private func moveToFront(_ node: Node) {
        guard head !== node else { return }
        unlink(node)
        node.next = head
        head?.previous = node
        head = node
        if tail == nil { tail = node }
    }
}
