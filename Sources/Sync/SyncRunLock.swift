import Bridge
import JSON
import Synchronization

/// Runs of one database one at a time, in arrival order: two runs at once would both send the
/// same pending operations.
final class SyncRunLock: Sendable {
    private struct Queue {
        var busy: Set<String> = []
        var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    }

    private let queue = Mutex(Queue())

    func serialized(_ key: String, _ body: () async throws(BridgeError) -> JSONValue) async throws(BridgeError) -> JSONValue {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = queue.withLock { queue -> Bool in
                if queue.busy.insert(key).inserted { return true }
                queue.waiting[key, default: []].append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
        defer {
            let next = queue.withLock { queue -> CheckedContinuation<Void, Never>? in
                if var waiting = queue.waiting[key], !waiting.isEmpty {
                    let next = waiting.removeFirst()
                    queue.waiting[key] = waiting.isEmpty ? nil : waiting
                    return next
                }
                queue.busy.remove(key)
                return nil
            }
            next?.resume()
        }
        return try await body()
    }
}
