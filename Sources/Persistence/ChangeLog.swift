import Foundation
import SystemIO

/// The committed changes of one database, kept in a bounded buffer, and the watchers waiting for
/// them. Only the write path publishes, after its transaction commits and before the next write
/// starts, so events are in commit order and a rolled-back transaction publishes nothing.
///
/// A watcher whose `since` is older than the oldest kept event (it fell behind) gets a single
/// `refresh` event: reload, then watch from its `seq`.
public final class ChangeLog: Sendable {
    public static let defaultCapacity = 10_000
    /// At most this many events per batch; the rest come with the next call.
    public static let batchLimit = 1_000

    private struct Waiter {
        var since: Int64
        var tables: Set<String>?
        var continuation: CheckedContinuation<WatchBatch, Never>
        var timer: Task<Void, Never>?
    }

    private struct State {
        var events: [ChangeEvent] = []
        var start = 0
        var lastSeq: Int64 = 0
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    private let capacity: Int
    private let state = Locked(State())
    private let observers = Locked<[@Sendable ([ChangeEvent]) -> Void]>([])

    /// Calls `observer` with each committed transaction's events, on the writer, before the next
    /// write starts: where caches drop what a commit changed.
    public func onCommit(_ observer: @escaping @Sendable ([ChangeEvent]) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    public init(capacity: Int = ChangeLog.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    public var lastSeq: Int64 { state.withLock { $0.lastSeq } }

    /// Numbers and appends the events of one committed transaction, then wakes the watchers they
    /// concern. Returns the last seq.
    @discardableResult
    func publish(_ events: [ChangeEvent], dropped: Int = 0) -> Int64 {
        guard !events.isEmpty || dropped > 0 else { return lastSeq }
        var ready: [(CheckedContinuation<WatchBatch, Never>, WatchBatch, Task<Void, Never>?)] = []
        let observers = self.observers.withLock { $0 }
        var numbered: [ChangeEvent] = []
        // Only the last `capacity` events of a transaction can be kept: skip the rest outright.
        let skip = max(0, events.count - capacity)
        let last: Int64 = state.withLock { state in
            state.lastSeq += Int64(dropped + skip)
            if dropped + skip > 0 {
                state.events.removeAll(keepingCapacity: true)
                state.start = 0
            }
            if !observers.isEmpty {
                if dropped + skip > 0 { numbered.append(ChangeEvent(seq: state.lastSeq, kind: .refresh, table: "*", key: .null)) }
                numbered.reserveCapacity(events.count - skip + numbered.count)
            }
            for var event in events[skip...] {
                state.lastSeq += 1
                event.seq = state.lastSeq
                state.events.append(event)
                if !observers.isEmpty { numbered.append(event) }
            }
            let kept = state.events.count - state.start
            if kept > capacity { state.start += kept - capacity }
            if state.start > capacity { state.events.removeFirst(state.start); state.start = 0 }
            for (id, waiter) in state.waiters {
                if let batch = Self.batch(after: waiter.since, tables: waiter.tables, in: state) {
                    ready.append((waiter.continuation, batch, waiter.timer))
                    state.waiters[id] = nil
                }
            }
            return state.lastSeq
        }
        for observer in observers { observer(numbered) }
        for (continuation, batch, timer) in ready {
            timer?.cancel()
            continuation.resume(returning: batch)
        }
        return last
    }

    /// The events after `since` (of `tables`, when given), or nil when there are none yet.
    private static func batch(after since: Int64, tables: Set<String>?, in state: State) -> WatchBatch? {
        if since > state.lastSeq || (state.start < state.events.count && state.events[state.start].seq > since + 1)
            || (state.start == state.events.count && state.lastSeq > since) {
            return WatchBatch(events: [ChangeEvent(seq: state.lastSeq, kind: .refresh, table: "*", key: .null)], seq: state.lastSeq)
        }
        guard since < state.lastSeq else { return nil }
        let first = state.events.count - Int(state.lastSeq - since)
        var events: [ChangeEvent] = []
        var seq = state.lastSeq
        for i in max(first, state.start)..<state.events.count {
            let event = state.events[i]
            if let tables, !tables.contains(event.table) { continue }
            events.append(event)
            if events.count == batchLimit { seq = event.seq; break }
        }
        return events.isEmpty ? nil : WatchBatch(events: events, seq: seq)
    }

    /// Resolves at once when events after `since` exist, else at the next commit that brings some,
    /// else with no events after `timeoutMs`. `since` nil means "from now". Cancelling the task
    /// resolves it with no events.
    public func watch(since: Int64?, tables: Set<String>?, timeoutMs: Int) async -> WatchBatch {
        let id: Int = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<WatchBatch, Never>) in
                let immediate: WatchBatch? = state.withLock { state in
                    let from = since ?? state.lastSeq
                    if let batch = Self.batch(after: from, tables: tables, in: state) { return batch }
                    state.waiters[id] = Waiter(since: from, tables: tables, continuation: continuation, timer: nil)
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                    return
                }
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: .milliseconds(timeoutMs))
                    self?.resolveEmpty(id)
                }
                let stillWaiting = state.withLock { state -> Bool in
                    guard state.waiters[id] != nil else { return false }
                    state.waiters[id]!.timer = timer
                    return true
                }
                if !stillWaiting { timer.cancel() }
            }
        } onCancel: {
            resolveEmpty(id)
        }
    }

    private func resolveEmpty(_ id: Int) {
        let waiter: (Waiter, Int64)? = state.withLock { state in
            guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
            return (waiter, state.lastSeq)
        }
        guard let (waiter, seq) = waiter else { return }
        waiter.timer?.cancel()
        waiter.continuation.resume(returning: WatchBatch(events: [], seq: max(seq, waiter.since)))
    }

    /// How many watchers are waiting (for tests).
    public var waiterCount: Int { state.withLock { $0.waiters.count } }
}
