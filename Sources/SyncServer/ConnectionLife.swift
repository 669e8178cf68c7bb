import Synchronization

/// Whether the peer of one connection is still there, for a request that waits on its behalf: a
/// held pull returns as soon as its client has closed the connection (or shut down its sending
/// side), rather than holding the server's socket for the rest of its `waitMs`.
///
/// ```swift
/// await withTaskGroup(of: Void.self) { group in
///     group.addTask { await held.wait(after: generation, until: deadline) }
///     group.addTask { await connection.untilPeerGone() }
///     await group.next()
///     group.cancelAll()
/// }
/// ```
final class ConnectionLife: Sendable {
    private struct State {
        var gone = false
        var nextId = 0
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    var isPeerGone: Bool { state.withLock { $0.gone } }

    /// The peer closed the connection, or its half of it: every wait returns.
    func peerGone() {
        let waiting = state.withLock { state in
            state.gone = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns when the peer is gone (at once if it is), or when the calling task is cancelled.
    func untilPeerGone() async {
        let id = state.withLock { state in
            state.nextId += 1
            return state.nextId
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.gone || Task.isCancelled { return true }
                    state.waiting[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
        }
    }
}
