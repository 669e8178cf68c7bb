import Synchronization

/// Pulls held open (`waitMs`) until the log may have grown past what they read: each waits for
/// the next ``wake()`` for its keys after the generation it read at, or its deadline, or the
/// server's shutdown, whichever is first. A waiting pull holds no database connection; on waking it reads
/// the store again through the normal pull path, so a commit in scopes it may not see just sends
/// it back to wait.
///
/// ```swift
/// let generation = held.generation      // before reading the store
/// let page = try await store.pull(...)  // empty
/// await held.wait(after: generation, until: deadline)
/// ```
final class HeldPulls: Sendable {
    private struct State {
        /// Moves on at every wake: a pull that read the store at generation g missed nothing
        /// committed before the wake that ended g.
        var generation = 0
        var closed = false
        var nextId = 0
        /// Each waiting pull, with the log keys its device reads (nil: the whole log).
        var waiting: [Int: (keys: Set<String>?, continuation: CheckedContinuation<Void, Never>)] = [:]
        /// The keys of the last ``recentWakes`` wakes (nil: anywhere), in a ring: the wake that
        /// moved the generation to g is at `g % recentWakes`.
        var wakes = [Set<String>?](repeating: nil, count: HeldPulls.recentWakes)

        /// Whether a wake after `generation` concerned `keys`: true when one named any of them
        /// or anywhere, or when the wakes since are too many to tell.
        func woke(after generation: Int, keys: Set<String>?) -> Bool {
            guard self.generation > generation else { return false }
            guard self.generation - generation <= HeldPulls.recentWakes else { return true }
            return (generation + 1...self.generation).contains { wake in
                guard let woken = wakes[wake % HeldPulls.recentWakes], let keys else { return true }
                return !keys.isDisjoint(with: woken)
            }
        }
    }

    /// Wakes remembered, so that a pull whose read overlapped a wake for other keys still waits.
    static let recentWakes = 256

    private let state = Mutex(State())

    var generation: Int { state.withLock { $0.generation } }

    /// Pulls waiting right now (for the server's metrics).
    var count: Int { state.withLock { $0.waiting.count } }

    /// Whether the server is shutting down: a pull asked for now answers at once.
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Something may have committed under `keys` (log keys; nil: anywhere): the waiting pulls
    /// whose devices read any of them read the store again; the others go on waiting. Waking only
    /// those matters at scale: with a thousand devices holding pulls, a commit that woke them all
    /// cost a thousand futile reads (BENCHMARKS.md, "1,000 devices").
    func wake(keys: Set<String>? = nil) {
        let woken = state.withLock { state in
            state.generation += 1
            state.wakes[state.generation % Self.recentWakes] = keys
            // A pull stays only when both sides name keys and none of them meet.
            let woken = state.waiting.filter { _, entry in
                guard let keys, let reads = entry.keys else { return true }
                return !reads.isDisjoint(with: keys)
            }
            for id in woken.keys { state.waiting.removeValue(forKey: id) }
            return woken.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// The server is stopping: every waiting pull answers with what it has (an empty page), and
    /// later ones do not wait.
    func close() {
        state.withLock { $0.closed = true }
        wake()
    }

    /// Returns at the first wake after `generation` for a key in `keys` (the device's log keys;
    /// nil: any), at once when one already happened; at `deadline`, at close, or when the calling
    /// task is cancelled. A wake for other keys while the pull read does not send it back to read
    /// again: with a thousand devices, a read slower than the time between commits (the store's,
    /// under load) would otherwise never get to wait.
    func wait(after generation: Int, keys: [String]? = nil, until deadline: ContinuousClock.Instant) async {
        let keys = keys.map(Set.init)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wake(after: generation, keys: keys) }
            group.addTask { try? await Task.sleep(until: deadline, clock: .continuous) }
            await group.next()
            group.cancelAll()
        }
    }

    private func wake(after generation: Int, keys: Set<String>?) async {
        let id = state.withLock { state in
            state.nextId += 1
            return state.nextId
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.closed || state.woke(after: generation, keys: keys) || Task.isCancelled { return true }
                    state.waiting[id] = (keys, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            resume(id)
        }
    }

    private func resume(_ id: Int) {
        state.withLock { $0.waiting.removeValue(forKey: id) }?.continuation.resume()
    }
}
