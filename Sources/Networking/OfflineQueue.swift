import Bridge
import CurlTransport
import JSON
import Synchronization

/// The offline queue of one app's data folder while the app runs: its store, and one sender per
/// queue that has something to send.
///
/// A sender sends its queue's head through the path `network.request` takes (the grants checked
/// again, the running limits, host routing, signing), and only then the next item: strictly in
/// order per queue, the queues in parallel. An answer 2xx or 3xx delivers the item, another 4xx
/// (not 408, not 429) fails it with its answer; either is committed before the next item is
/// sent. No answer (connect, dns, timeout, protocol, tls), or 408, 429 or 5xx, leaves the item at
/// the head and the sender waits: between half and all of `min(5 s, 100 ms × 2^(n-1))` after the
/// n-th failure in a row, or the answer's `Retry-After` (at most an hour). A delivery to the same
/// host (scheme, host and port) by another queue ends the wait at once: the server is back.
///
/// Senders start with the run's first queue call and stop when the run ends; what is left waits
/// on disk for the next run. Items a crash or a stop left `sending` are sent again, with the same
/// `Idempotency-Key`: the server may have applied them, and the key is how it can tell.
final class OfflineQueue: Sendable {
    /// Sends one request as `network.request` does.
    typealias Send = @Sendable (NetworkRequest, AppContext) async throws(BridgeError) -> TransferResponse

    static let maxBackoffMs = 5_000.0
    static let firstBackoffMs = 100.0
    static let maxRetryAfterMs = 3_600_000.0
    /// How long `queueWatch` gathers finished items after the first before it answers.
    static let batchWindowMs = 5.0

    let store: OfflineQueueStore
    private let app: AppContext
    private let send: Send
    /// Moves on with every finished item: what `queueWatch` waits on.
    private let finishedBoard = LongPollBoard(initial: 0)
    /// Moves on with every delivery to an origin: what senders waiting on that origin wake on.
    private let deliveries = LongPollBoard(initial: 0)

    private struct Sender {
        var task: Task<Void, Never>?
        /// Set when work was added since the sender last looked: it looks again before it ends.
        var again = false
    }

    private struct Senders {
        var stopped = false
        var byQueue: [String: Sender] = [:]
    }

    private let senders = Mutex(Senders())

    /// Opens the store of `app`'s data folder, puts back in line what was being sent when the
    /// last run ended, and starts a sender for every queue with work.
    init(app: AppContext, send: @escaping Send) throws(BridgeError) {
        store = try OfflineQueueStore(dataDirectory: app.dataDirectory)
        self.app = app
        self.send = send
        _ = try store.resumeInterrupted()
        for queue in try store.queuesWithWork() { wake(queue) }
    }

    /// Makes sure `queue` has a sender that will see what was just committed to it.
    func wake(_ queue: String) {
        senders.withLock { senders in
            guard !senders.stopped else { return }
            if senders.byQueue[queue] != nil {
                senders.byQueue[queue]!.again = true
                return
            }
            senders.byQueue[queue] = Sender()
            senders.byQueue[queue]!.task = Task(executorPreference: globalConcurrentExecutor) { [self] in await drain(queue) }
        }
    }

    /// Ends every sender: a transfer in flight is cancelled, its item left for the next run.
    func stop() {
        let tasks = senders.withLock { senders -> [Task<Void, Never>] in
            senders.stopped = true
            return senders.byQueue.values.compactMap(\.task)
        }
        for task in tasks { task.cancel() }
    }

    /// Ends `queue`'s sender when nothing was added since it looked; false: look again.
    private func retire(_ queue: String) -> Bool {
        senders.withLock { senders in
            guard senders.byQueue[queue]?.again != true else {
                senders.byQueue[queue]!.again = false
                return false
            }
            senders.byQueue[queue] = nil
            return true
        }
    }

    private func drain(_ queue: String) async {
        var finishing: (id: Int64, outcome: OfflineQueueStore.Outcome)?
        var failures = 0
        while !Task.isCancelled {
            senders.withLock { $0.byQueue[queue]?.again = false }
            let head: QueuedItem?
            do {
                let step = try store.advance(queue, finishing: finishing)
                if step.finished != nil { finishedBoard.update("finished") }
                head = step.head
            } catch {
                // The store could not be written (a full disk): try again later, the outcome kept.
                try? await Task.sleep(for: .milliseconds(Self.maxBackoffMs))
                continue
            }
            finishing = nil
            guard let head else {
                if retire(queue) { return }
                continue
            }
            let origin = (try? URLTarget(head.request.url).origin) ?? head.request.url
            let seen = deliveries.current(origin).seq
            switch await attempt(head) {
            case nil:
                return
            case .sent(let outcome):
                failures = 0
                if case .delivered = outcome { deliveries.update(origin) }
                finishing = (head.id, outcome)
            case .later(let error, let retryAfterMs):
                failures += 1
                let cap = min(Self.maxBackoffMs, Self.firstBackoffMs * Double(1 << min(failures - 1, 20)))
                let waitMs = retryAfterMs.map { min($0, Self.maxRetryAfterMs) } ?? Double.random(in: (cap / 2)...cap)
                do {
                    try store.postpone(head.id, error: error, at: OfflineQueueStore.nowMs() + Int64(waitMs))
                } catch {
                    // Unrecorded, it stays `sending`: sent again all the same, next turn or next run.
                }
                _ = await deliveries.wait(origin, since: seen, timeoutMs: Int(waitMs.rounded(.up)))
            }
        }
    }

    private enum Attempt {
        case sent(OfflineQueueStore.Outcome)
        /// No answer to keep: the item stays at the head.
        case later(error: String, retryAfterMs: Double?)
    }

    /// Sends `item` once; nil when the sender was stopped meanwhile.
    private func attempt(_ item: QueuedItem) async -> Attempt? {
        let request: NetworkRequest
        do {
            request = try item.request.networkRequest(idempotencyKey: item.idempotencyKey)
        } catch {
            return .sent(.failed(nil, error: "\(error.code.rawValue): \(error.message)"))
        }
        do {
            let response = try await send(request, app)
            let answer = QueuedItem.Answer(status: response.status, headers: response.headers, body: response.body, url: response.url)
            if (200..<400).contains(response.status) { return .sent(.delivered(answer)) }
            if RetryPolicy.retries(status: response.status) {
                let retryAfter = response.header("retry-after").flatMap(RetryPolicy.seconds).map { $0 * 1000 }
                return .later(error: "status \(response.status)", retryAfterMs: retryAfter)
            }
            return .sent(.failed(answer, error: "status \(response.status)"))
        } catch {
            if Task.isCancelled { return nil }
            let reason = error.details?["reason"]?.stringValue
            let text = "\(error.code.rawValue)\(reason.map { " (\($0))" } ?? ""): \(error.message)"
            if Self.isTransient(error, reason: reason) { return .later(error: text, retryAfterMs: nil) }
            return .sent(.failed(nil, error: text))
        }
    }

    /// What leaves an item at its queue's head: no answer from the network (it may be offline),
    /// or the app's running limits full (`E_TOO_MANY`).
    static func isTransient(_ error: BridgeError, reason: String?) -> Bool {
        switch error.code {
        case .tooMany, .timeout: true
        case .failed: reason.map { RetryPolicy.retriedReasons.contains($0) || $0 == "tls" } ?? false
        default: false
        }
    }

    /// `queueStatus`: counts by state per queue, and the first `limit` items not delivered.
    func status(queue: String?, limit: Int) throws(BridgeError) -> JSONValue {
        var (counts, items) = try store.status(queue: queue, limit: limit)
        if let queue, counts[queue] == nil { counts[queue] = [:] }
        var queues = JSONObject()
        for name in counts.keys.sorted() {
            var object = JSONObject()
            for state in QueuedItem.State.allCases { object.appendUnique(state.rawValue, .number(Double(counts[name]![state] ?? 0))) }
            queues.appendUnique(name, .object(object))
        }
        return ["queues": .object(queues), "items": .array(items.map { $0.json(body: false) })]
    }

    // MARK: - Watching

    /// `queueWatch`: finished items after the finished seq `after` (of `queue`, or of every queue),
    /// at once when there are some, else as soon as one finishes, else none after `timeoutMs`.
    /// The cursor to pass back as `after` comes with them.
    func watch(queue: String?, after: Int64, timeoutMs: Int, limit: Int) async throws(BridgeError) -> JSONValue {
        let deadline = CurlClient.nowMs() + Double(timeoutMs)
        while true {
            let version = finishedBoard.current("finished").seq
            let (items, last) = try store.finished(after: after, queue: queue, limit: limit)
            let remaining = deadline - CurlClient.nowMs()
            if !items.isEmpty || remaining <= 0 || Task.isCancelled {
                // Fewer than asked for: every item finished up to `last` was seen.
                let cursor = items.count < limit ? max(after, last) : items.last!.finished!
                return ["items": .array(items.map { $0.json(body: true) }), "cursor": .number(Double(cursor))]
            }
            _ = await finishedBoard.wait("finished", since: version, timeoutMs: Int(remaining.rounded(.up)))
            // While a queue drains, items finish one after another: a moment's wait after the first
            // lets one answer carry the items that follow it, instead of one call (and one read)
            // per item.
            if !Task.isCancelled, deadline - CurlClient.nowMs() > Self.batchWindowMs {
                try? await Task.sleep(for: .milliseconds(Self.batchWindowMs))
            }
        }
    }
}
