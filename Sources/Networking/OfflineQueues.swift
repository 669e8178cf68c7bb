import Bridge
import Synchronization

/// An app run's offline queues, one per data folder (an app run has one; a test that calls the
/// service for several folders has one each). A queue opens on its folder's first queue call,
/// which starts its senders, and stops with the run.
final class OfflineQueues: Sendable {
    private let queues = Mutex<(stopped: Bool, byFolder: [String: OfflineQueue])>((false, [:]))

    /// `app`'s queue, opened (and its senders started) on first use with `send`.
    func queue(for app: AppContext, send: @escaping OfflineQueue.Send) throws(BridgeError) -> OfflineQueue {
        try queues.withLock { (queues: inout (stopped: Bool, byFolder: [String: OfflineQueue])) throws(BridgeError) -> OfflineQueue in
            if let queue = queues.byFolder[app.dataDirectory] { return queue }
            guard !queues.stopped else { throw BridgeError(.shutdown, "network: the app run has ended; its offline queue is closed") }
            let queue = try OfflineQueue(app: app, send: send)
            queues.byFolder[app.dataDirectory] = queue
            return queue
        }
    }

    /// Stops every queue's senders: the run has ended.
    func stop() {
        let open = queues.withLock { queues in
            queues.stopped = true
            return Array(queues.byFolder.values)
        }
        for queue in open { queue.stop() }
    }
}
