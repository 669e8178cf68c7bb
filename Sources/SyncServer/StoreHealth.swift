import JSON
import Synchronization

/// What `GET /v1/health` says of the store: its kind and how long one trivial round trip through
/// it took, or why it did not answer in time.
///
/// ```swift
/// let health = await StoreHealth.check(store, timeout: .seconds(5))
/// health.json   // {"kind": "postgres", "latencyMs": 0.8}, or {"kind": "postgres", "error": "..."}
/// ```
struct StoreHealth: Sendable {
    /// ``SyncStore/kind``: `sqlite` or `postgres`.
    var kind: String
    /// The round trip; nil when the store failed or did not answer.
    var latency: Duration?
    /// Why it did not answer.
    var error: String?

    /// Times ``SyncStore/ping()``, giving up after `timeout`.
    static func check(_ store: any SyncStore, timeout: Duration) async -> StoreHealth {
        let started = ContinuousClock.now
        do {
            try await answer(within: timeout, what: "the store") { try await store.ping() }
            return StoreHealth(kind: store.kind, latency: ContinuousClock.now - started)
        } catch {
            return StoreHealth(kind: store.kind, error: (error as? SyncServerError)?.message ?? PostgresSyncStore.describe(error))
        }
    }

    var json: JSONValue {
        var object: JSONObject = ["kind": .string(kind)]
        if let latency { object["latencyMs"] = .number(latency.inSeconds * 1000) }
        if let error { object["error"] = .string(error) }
        return .object(object)
    }

    /// `body`'s answer, or after `timeout` an `internal` error naming `what`. postgres-nio waits for
    /// a pooled connection with no time limit (forever, while the database refuses connections), so
    /// the body runs in a task of its own: a task group would wait for it at its end even when
    /// cancelled. A body still running at the timeout is cancelled and left to end on its own.
    static func answer<Result: Sendable>(within timeout: Duration, what: String,
                                         _ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
        let pending = PendingAnswer<Result>()
        return try await withCheckedThrowingContinuation { continuation in
            pending.wait(continuation)
            let work = Task {
                do {
                    pending.resume(with: .success(try await body()))
                } catch {
                    pending.resume(with: .failure(error))
                }
            }
            Task {
                try? await Task.sleep(for: timeout)
                let late = SyncServerError(.internalError, "\(what) did not answer within \(StoredText.seconds(timeout.inSeconds)) s")
                if pending.resume(with: .failure(late)) {
                    work.cancel()
                }
            }
        }
    }

    /// A continuation resumed once, by whichever of the work and the timer is first.
    private final class PendingAnswer<Value: Sendable>: Sendable {
        private let continuation = Mutex<CheckedContinuation<Value, any Error>?>(nil)

        func wait(_ continuation: CheckedContinuation<Value, any Error>) {
            self.continuation.withLock { $0 = continuation }
        }

        /// Whether this was the first answer.
        @discardableResult
        func resume(with result: Swift.Result<Value, any Error>) -> Bool {
            guard let continuation = continuation.withLock({ $0.take() }) else { return false }
            continuation.resume(with: result)
            return true
        }
    }
}
