import Synchronization

/// A state behind a lock, and the tasks waiting for it to become what each one needs: the one way
/// a task here waits for something another task does (a long poll for a key's next value, a held
/// pull for a commit it may read, a turn at a lock, a manual clock's sleeper).
///
/// A wait gives a condition on the state, which answers when it is met, and an answer for when it
/// is not met in time (its deadline on the board's clock) or its task is cancelled. Conditions run
/// under the lock, in the order the waits came, after every ``update(_:)``, and may change the
/// state (a wait that takes a turn marks it taken), so they must be quick and must not block. A
/// waiting task holds no thread.
///
/// ```swift
/// let board = WaitingBoard(0)
/// let seen = await board.wait(until: clock.now + .seconds(30)) { count in count > 2 ? count : nil }
///     otherwise: { count in count }
/// board.update { $0 += 1 }      // elsewhere: each update answers the waits it satisfies
/// ```
public final class WaitingBoard<State: Sendable>: Sendable {
    private struct Waiter {
        /// What it waits on (nil: anything): only updates that touch one of them, or name none,
        /// look at its condition.
        var tags: Set<String>?
        /// Under the lock: the waiter's resumption when its condition is met, else nil.
        var ready: @Sendable (inout State) -> (@Sendable () -> Void)?
        /// Under the lock: its resumption with the answer for a timeout or a cancellation.
        var otherwise: @Sendable (inout State) -> @Sendable () -> Void
    }

    private struct Board {
        var state: State
        /// By id, which grows with each wait: sorted ids are arrival order.
        var waiters: [Int: Waiter] = [:]
        /// The waiters filed under each tag, and those under none.
        var tagged: [String: Set<Int>] = [:]
        var untagged: Set<Int> = []
        var nextId = 0

        mutating func file(_ id: Int, _ waiter: Waiter) {
            waiters[id] = waiter
            guard let tags = waiter.tags else {
                untagged.insert(id)
                return
            }
            for tag in tags { tagged[tag, default: []].insert(id) }
        }

        mutating func remove(_ id: Int) -> Waiter? {
            guard let waiter = waiters.removeValue(forKey: id) else { return nil }
            guard let tags = waiter.tags else {
                untagged.remove(id)
                return waiter
            }
            for tag in tags {
                tagged[tag]?.remove(id)
                if tagged[tag]?.isEmpty == true { tagged[tag] = nil }
            }
            return waiter
        }

        /// The waiters an update touching `tags` looks at, in arrival order.
        func candidates(_ tags: Set<String>?) -> [Int] {
            guard let tags else { return waiters.keys.sorted() }
            var ids = untagged
            for tag in tags { if let filed = tagged[tag] { ids.formUnion(filed) } }
            return ids.sorted()
        }
    }

    private let board: Mutex<Board>
    /// What deadlines are read on.
    public let clock: any HostClock

    public init(_ state: State, clock: any HostClock = SystemClock()) {
        board = Mutex(Board(state: state))
        self.clock = clock
    }

    /// Reads the state.
    public func read<Result>(_ body: (State) throws -> Result) rethrows -> Result {
        try board.withLock { try body($0.state) }
    }

    /// Changes the state, then answers, in the order they came, the waits whose conditions it
    /// meets among those it touches: the waits filed under one of `tags`, and those under none;
    /// nil touches every wait. With many waits each on a few things (held pulls, each on its
    /// device's scopes), an update then looks at the few it concerns, not at all of them.
    @discardableResult
    public func update<Result>(touching tags: Set<String>? = nil, _ change: (inout State) throws -> Result) rethrows -> Result {
        let (result, resumptions) = try board.withLock { board in
            let result = try change(&board.state)
            var resumptions: [@Sendable () -> Void] = []
            for id in board.candidates(tags) {
                guard let resume = board.waiters[id]?.ready(&board.state) else { continue }
                resumptions.append(resume)
                _ = board.remove(id)
            }
            return (result, resumptions)
        }
        for resume in resumptions { resume() }
        return result
    }

    /// How many tasks are waiting.
    public var waiting: Int { board.withLock { $0.waiters.count } }

    /// Returns `ready`'s answer as soon as it gives one: at once when it does now, else after the
    /// update that makes it; or `otherwise`'s at `deadline` (nil: none), or when the calling task
    /// is cancelled. `tags`: what the condition depends on, so that only updates touching one of
    /// them look at it (nil: any update may meet it).
    public func wait<Answer: Sendable>(until deadline: ContinuousClock.Instant? = nil, on tags: Set<String>? = nil,
                                       _ ready: @escaping @Sendable (inout State) -> Answer?,
                                       otherwise: @escaping @Sendable (inout State) -> Answer) async -> Answer {
        guard let deadline else { return await waitForUpdates(tags, ready, otherwise: otherwise) }
        // The timer is a child task, so that nothing outlives the wait: whichever ends first, the
        // other is cancelled, and a cancelled wait answers with `otherwise`.
        return await withTaskGroup(of: Answer?.self) { group in
            group.addTask { await self.waitForUpdates(tags, ready, otherwise: otherwise) }
            group.addTask { [clock] in
                try? await clock.sleep(until: deadline)
                return nil
            }
            var answer: Answer?
            while answer == nil, let next = await group.next() {
                answer = next
                group.cancelAll()
            }
            return answer!
        }
    }

    private func waitForUpdates<Answer: Sendable>(_ tags: Set<String>?, _ ready: @escaping @Sendable (inout State) -> Answer?,
                                                  otherwise: @escaping @Sendable (inout State) -> Answer) async -> Answer {
        let id = board.withLock { board in
            board.nextId += 1
            return board.nextId
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
                enter(id, tags, continuation, ready, otherwise: otherwise)
            }
        } onCancel: {
            leave(id)
        }
    }

    /// Answers at once when `ready` does (or the task is cancelled already), else files the waiter.
    private func enter<Answer: Sendable>(_ id: Int, _ tags: Set<String>?, _ continuation: CheckedContinuation<Answer, Never>,
                                         _ ready: @escaping @Sendable (inout State) -> Answer?,
                                         otherwise: @escaping @Sendable (inout State) -> Answer) {
        let waiter = Waiter(
            tags: tags,
            ready: { state in
                guard let answer = ready(&state) else { return nil }
                return { continuation.resume(returning: answer) }
            },
            otherwise: { state in
                let answer = otherwise(&state)
                return { continuation.resume(returning: answer) }
            })
        let immediate: (@Sendable () -> Void)? = board.withLock { board in
            if let resume = waiter.ready(&board.state) { return resume }
            if Task.isCancelled { return waiter.otherwise(&board.state) }
            board.file(id, waiter)
            return nil
        }
        immediate?()
    }

    /// The task was cancelled: a waiter still filed answers with its `otherwise`.
    private func leave(_ id: Int) {
        let resume: (@Sendable () -> Void)? = board.withLock { board in
            guard let waiter = board.remove(id) else { return nil }
            return waiter.otherwise(&board.state)
        }
        resume?()
    }
}
