import JSON
import Synchronization

/// Events waiting for `view.nextEvent`, and the one call waiting for them. Only JS initiates: an
/// event is handed over only as the answer to a pending `nextEvent`, or kept until one comes.
final class ViewEventQueue: Sendable {
    private struct State {
        var events: [JSONValue] = []
        var waiter: (id: Int, continuation: CheckedContinuation<JSONValue?, Never>)?
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// Hands `event` to the waiting call, or queues it (unless `onlyIfWaiting`).
    func post(_ event: JSONValue, onlyIfWaiting: Bool = false) {
        let waiter: CheckedContinuation<JSONValue?, Never>? = state.withLock { state in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter.continuation
            }
            if !onlyIfWaiting { state.events.append(event) }
            return nil
        }
        waiter?.resume(returning: event)
    }

    /// The next event; nil when the calling task is cancelled first (a timeout or an abort).
    func next() async -> JSONValue? {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<JSONValue?, Never>) in
                let ready: JSONValue?? = state.withLock { state in
                    // A call cancelled before its task started (an aborted long-poll, the view
                    // stopped) must not take an event: nobody would receive it.
                    if Task.isCancelled { return .some(nil) }
                    if !state.events.isEmpty { return .some(state.events.removeFirst()) }
                    // A newer call replaces an older one, which ends empty.
                    if let old = state.waiter { old.continuation.resume(returning: nil) }
                    state.waiter = (id, continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<JSONValue?, Never>? in
                guard let waiter = state.waiter, waiter.id == id else { return nil }
                state.waiter = nil
                return waiter.continuation
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Drops queued events (a new view's events start afresh).
    func clear() {
        state.withLock { $0.events.removeAll() }
    }

    var pendingCount: Int { state.withLock { $0.events.count } }
}
