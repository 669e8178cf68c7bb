/// Timers of the event loop, ordered by due time, then by insertion (a binary min-heap).
/// Cleared timers are dropped lazily, when they reach the top; so is an entry a timer has left
/// behind by being rescheduled (`refresh()`), which its owner tells by the entry's `sequence`.
struct TimerQueue {
    struct Entry {
        let due: UInt64  // monotonic nanoseconds
        let sequence: UInt64
        let id: Int

        func precedes(_ other: Entry) -> Bool {
            due != other.due ? due < other.due : sequence < other.sequence
        }
    }

    private var heap: [Entry] = []
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }
    var first: Entry? { heap.first }

    /// Returns the new entry's sequence, unique in this queue.
    @discardableResult
    mutating func insert(id: Int, due: UInt64) -> UInt64 {
        nextSequence += 1
        heap.append(Entry(due: due, sequence: nextSequence, id: id))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
        return nextSequence
    }

    mutating func removeFirst() -> Entry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let entry = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return entry
    }
}
