import Bridge
import JSON

// The params of the offline queue's actions on the `network` target (`enqueue`, `queueStatus`,
// `queueRetry`, `queueCancel`, `queueWatch`; contract `services/network.json`).

/// A queue's name: what orders its items, as the app chooses it ("orders", "uploads/photos").
enum QueueName {
    static func check(_ name: String, at path: ParamsPath) throws(BridgeError) -> String {
        guard !name.isEmpty, name.utf8.count <= 200, !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw BridgeError.badParams(path.pointer, "expected a queue name of 1 to 200 bytes without control characters, got \(JSONValue.string(name))")
        }
        return name
    }
}

/// `network.enqueue`.
struct NetworkEnqueueParams: ActionParams {
    let queue: String
    let request: QueuedRequest

    init(from params: ParamsReader) throws(BridgeError) {
        queue = try QueueName.check(try params.required("queue"), at: params.path.appending(key: "queue"))
        request = try params.required("request")
    }
}

/// `network.queueStatus`.
struct NetworkQueueStatusParams: ActionParams {
    let queue: String?
    let limit: Int

    init(from params: ParamsReader) throws(BridgeError) {
        let name: String? = try params.optional("queue")
        queue = try name.map { (name: String) throws(BridgeError) in try QueueName.check(name, at: params.path.appending(key: "queue")) }
        limit = try params.optional("limit") ?? 100
    }
}

/// `network.queueRetry` and `network.queueCancel`: a queue, and one of its items or all.
struct NetworkQueueItemsParams: ActionParams {
    let queue: String
    let id: Int64?

    init(from params: ParamsReader) throws(BridgeError) {
        queue = try QueueName.check(try params.required("queue"), at: params.path.appending(key: "queue"))
        id = try params.optional("id", as: Int.self).map(Int64.init)
    }
}

/// `network.queueWatch`.
struct NetworkQueueWatchParams: ActionParams {
    let queue: String?
    /// The cursor last seen: 0 reads from the first finished item kept.
    let after: Int64
    let timeoutMs: Int
    let limit: Int

    init(from params: ParamsReader) throws(BridgeError) {
        let name: String? = try params.optional("queue")
        queue = try name.map { (name: String) throws(BridgeError) in try QueueName.check(name, at: params.path.appending(key: "queue")) }
        after = Int64(try params.optional("after", as: Int.self) ?? 0)
        timeoutMs = try params.optional("timeoutMs") ?? LongPoll.defaultTimeoutMs
        limit = try params.optional("limit") ?? 100
    }
}
