import Synchronization

/// Keyed values that long-poll actions wait on (`network.progress`, `sync.watch`): each key has a
/// value and a `seq` that grows with every update. A wait answers at once when the key has moved
/// past `since`, else at its next update, else with the value as it is after `timeoutMs`; a wait
/// may come before the key's first update and then waits for it. Cancelling a waiting task
/// answers it the same way.
///
/// ```swift
/// let board = LongPollBoard(initial: 0)
/// board.update("job") { $0 += 1 }
/// let next = await board.wait("job", since: 1, timeoutMs: 30_000)   // (seq, value) after seq 1
/// ```
public final class LongPollBoard<Value: Sendable>: Sendable {
    public struct Version: Sendable {
        /// 0 until the key's first update.
        public var seq: Int
        public var value: Value
    }

    private struct Waiter {
        var since: Int
        var continuation: CheckedContinuation<Version, Never>
        var timer: Task<Void, Never>?
    }

    private struct Entry {
        var version: Version
        var waiters: [Int: Waiter] = [:]
    }

    private struct Board {
        var entries: [String: Entry] = [:]
        var nextWaiter = 0
    }

    private let initial: Value
    private let board = Mutex(Board())

    public init(initial: Value) { self.initial = initial }

    public func current(_ key: String) -> Version {
        board.withLock { $0.entries[key]?.version ?? Version(seq: 0, value: initial) }
    }

    /// Changes the key's value, moves its seq on, and answers the waits it satisfies.
    @discardableResult
    public func update(_ key: String, _ change: (inout Value) -> Void = { _ in }) -> Version {
        let (version, woken) = board.withLock { board -> (Version, [Waiter]) in
            var entry = board.entries[key] ?? Entry(version: Version(seq: 0, value: initial))
            change(&entry.version.value)
            entry.version.seq += 1
            let woken = entry.waiters.values.filter { entry.version.seq > $0.since }
            entry.waiters = entry.waiters.filter { entry.version.seq <= $0.value.since }
            board.entries[key] = entry
            return (entry.version, Array(woken))
        }
        for waiter in woken {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: version)
        }
        return version
    }

    /// Drops a key nobody waits on (a finished job kept long enough).
    public func forget(_ key: String) {
        board.withLock { board in
            if board.entries[key]?.waiters.isEmpty ?? true { board.entries[key] = nil }
        }
    }

    public func wait(_ key: String, since: Int, timeoutMs: Int) async -> Version {
        let id = board.withLock { board -> Int in
            board.nextWaiter += 1
            return board.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Version, Never>) in
                let immediate: Version? = board.withLock { board in
                    var entry = board.entries[key] ?? Entry(version: Version(seq: 0, value: initial))
                    if entry.version.seq > since { return entry.version }
                    entry.waiters[id] = Waiter(since: since, continuation: continuation)
                    board.entries[key] = entry
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                    return
                }
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: .milliseconds(timeoutMs))
                    self?.release(key, id)
                }
                let waiting = board.withLock { board -> Bool in
                    guard board.entries[key]?.waiters[id] != nil else { return false }
                    board.entries[key]!.waiters[id]!.timer = timer
                    return true
                }
                if !waiting { timer.cancel() }
            }
        } onCancel: {
            release(key, id)
        }
    }

    /// Answers one wait with the value as it is (its timeout, or its task's cancellation).
    private func release(_ key: String, _ id: Int) {
        let found: (Waiter, Version)? = board.withLock { board in
            guard let waiter = board.entries[key]?.waiters.removeValue(forKey: id) else { return nil }
            let entry = board.entries[key]!
            // A key that was only ever waited on leaves nothing behind.
            if entry.version.seq == 0, entry.waiters.isEmpty { board.entries[key] = nil }
            return (waiter, entry.version)
        }
        guard let (waiter, version) = found else { return }
        waiter.timer?.cancel()
        waiter.continuation.resume(returning: version)
    }
}

/// What every long-poll action (`storage.watch`, `sync.watch`, `network.progress`) waits for when
/// its params name no `timeoutMs`, as their contracts say.
public enum LongPoll {
    public static let defaultTimeoutMs = 30_000
}
