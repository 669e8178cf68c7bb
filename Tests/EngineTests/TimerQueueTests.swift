import Testing

@testable import Engine

@Suite("timer queue")
struct TimerQueueTests {
    @Test("entries come out by due time, then by insertion")
    func order() {
        var queue = TimerQueue()
        let entries: [(id: Int, due: UInt64)] = [(1, 100), (2, 100), (3, 100), (4, 110), (5, 105), (6, 100), (7, 90)]
        for entry in entries { queue.insert(id: entry.id, due: entry.due) }
        var order: [Int] = []
        while let next = queue.removeFirst() { order.append(next.id) }
        #expect(order == [7, 1, 2, 3, 6, 5, 4])
        #expect(queue.isEmpty)
    }

    @Test("many entries with few distinct due times keep insertion order within each due time")
    func stableUnderLoad() {
        var queue = TimerQueue()
        for id in 0..<1000 { queue.insert(id: id, due: UInt64((id * 7919) % 5)) }
        var previous: (due: UInt64, id: Int)?
        while let next = queue.removeFirst() {
            if let previous {
                #expect(previous.due < next.due || (previous.due == next.due && previous.id < next.id))
            }
            previous = (next.due, next.id)
        }
    }
}
