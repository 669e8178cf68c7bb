import JSON
import Synchronization
import SystemIO

/// What a server's `GET /v1/health` says of its store: its kind and how long one trivial round
/// trip through it took, or why it did not answer in time. Both servers' stores (SQLite, and
/// PostgreSQL shared by several instances) are checked so.
///
/// ```swift
/// let health = await StoreHealth.check(kind: "postgres", timeout: .seconds(5), on: SystemClock(),
///                                      describe: PostgresPool.describe) { try await store.ping() }
/// health.json   // {"kind": "postgres", "latencyMs": 0.8}, or {"kind": "postgres", "error": "..."}
/// ```
public struct StoreHealth: Sendable {
    /// `sqlite` or `postgres`.
    public var kind: String
    /// The round trip; nil when the store failed or did not answer.
    public var latency: Duration?
    /// Why it did not answer.
    public var error: String?

    /// Whether the store answered.
    public var isUp: Bool { latency != nil }

    /// Times `ping`, giving up after `timeout`; a failure is told by `describe` (a timeout by
    /// ``StoreCallTimeout``'s message).
    public static func check(kind: String, timeout: Duration, on clock: any HostClock, describe: @Sendable (any Error) -> String,
                             ping: @escaping @Sendable () async throws -> Void) async -> StoreHealth {
        let started = clock.now
        do {
            try await answer(within: timeout, on: clock, what: "the store", ping)
            return StoreHealth(kind: kind, latency: clock.now - started)
        } catch let late as StoreCallTimeout {
            return StoreHealth(kind: kind, error: late.message)
        } catch {
            return StoreHealth(kind: kind, error: describe(error))
        }
    }

    public var json: JSONValue {
        var object: JSONObject = ["kind": .string(kind)]
        // To the microsecond: 1.035, not 1.0345879999999998.
        if let latency { object["latencyMs"] = .number((latency.seconds * 1_000_000).rounded() / 1000) }
        if let error { object["error"] = .string(error) }
        return .object(object)
    }

    /// `body`'s answer, or after `timeout` a ``StoreCallTimeout`` naming `what`. postgres-nio waits for
    /// a pooled connection with no time limit (forever, while the database refuses connections), so
    /// the body runs in a task of its own: a task group would wait for it at its end even when
    /// cancelled. A body still running at the timeout is cancelled and left to end on its own; a
    /// timer still running when the body answers is cancelled.
    public static func answer<Result: Sendable>(within timeout: Duration, on clock: any HostClock, what: String,
                                         _ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
        let pending = PendingAnswer<Result>()
        // The caller cancelled (a server shutting down) answers at once too: its wait must not
        // outlive it, since the service group waits for every service to return.
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                pending.wait(continuation)
                let work = Task {
                    do {
                        pending.resume(with: .success(try await body()))
                    } catch {
                        pending.resume(with: .failure(error))
                    }
                }
                pending.work(work)
                pending.timer(Task {
                    try? await clock.sleep(for: timeout)
                    let late = StoreCallTimeout(what: what, timeout: timeout)
                    if pending.resume(with: .failure(late)) { work.cancel() }
                })
            }
        } onCancel: {
            pending.cancel()
        }
    }

    /// A continuation resumed once, by whichever of the work and the timer is first.
    private final class PendingAnswer<Value: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Value, any Error>?
            var timer: Task<Void, Never>?
            var work: Task<Void, Never>?
            var answered = false
            var cancelled = false
        }

        private let state = Mutex(State())

        func wait(_ continuation: CheckedContinuation<Value, any Error>) {
            let cancelled = state.withLock { state in
                state.continuation = continuation
                return state.cancelled
            }
            if cancelled { resume(with: .failure(CancellationError())) }
        }

        func work(_ work: Task<Void, Never>) {
            let cancelled = state.withLock { state in
                state.work = work
                return state.cancelled
            }
            if cancelled { work.cancel() }
        }

        /// The caller was cancelled: it answers with `CancellationError`, and the work is cancelled.
        func cancel() {
            let work = state.withLock { state in
                state.cancelled = true
                return state.work
            }
            resume(with: .failure(CancellationError()))
            work?.cancel()
        }

        /// The timer to cancel at the answer (at once, when the work has answered already).
        func timer(_ timer: Task<Void, Never>) {
            let answered = state.withLock { state in
                state.timer = timer
                return state.answered
            }
            if answered { timer.cancel() }
        }

        /// Whether this was the first answer.
        @discardableResult
        func resume(with result: Swift.Result<Value, any Error>) -> Bool {
            let (continuation, timer) = state.withLock { state in
                state.answered = true
                return (state.continuation.take(), state.timer)
            }
            guard let continuation else { return false }
            timer?.cancel()
            continuation.resume(with: result)
            return true
        }
    }
}

/// A store call that did not answer within its time (``StoreHealth/answer(within:on:what:_:)``).
public struct StoreCallTimeout: Error, CustomStringConvertible, Sendable {
    /// `the store did not answer within 5 s`.
    public let message: String

    init(what: String, timeout: Duration) {
        let seconds = timeout.seconds
        let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        message = "\(what) did not answer within \(shown) s"
    }

    public var description: String { message }
}
