import CurlTransport
import JSON

/// One row of the offline queue, as a value read out of ``OfflineQueueStore``.
struct QueuedItem: Sendable {
    enum State: String, Sendable, CaseIterable {
        /// Waiting for its turn, or for the server (after a transient failure: `lastError`).
        case pending
        /// Handed to the transport. Left so by a crash, it is sent again, with the same key.
        case sending
        /// The server answered 2xx or 3xx: `answer` holds it.
        case delivered
        /// The server refused it for good (a 4xx other than 408 and 429: `answer` holds it), or the
        /// request could not be sent as stored (`lastError`); its queue has moved on.
        case failed
    }

    /// The server's answer, kept for `queueWatch`.
    struct Answer: Sendable {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]
        var url: String
    }

    /// Grows with each enqueue in the data folder, never reused: the order of a queue's items.
    let id: Int64
    let queue: String
    let request: QueuedRequest
    let idempotencyKey: String
    var state: State
    var attempts: Int
    var lastError: String?
    /// When the sender tries again after a transient failure (ms since the epoch).
    var nextAttemptAt: Int64?
    /// Its place among finished items (delivered or failed), the cursor of `queueWatch`; nil until then.
    var finished: Int64?
    var answer: Answer?

    /// What `queueStatus` and `queueWatch` list: the answer's status, and with `body` its headers
    /// and body read as the request's `responseType` says (text when the body is not the JSON asked for).
    func json(body: Bool) -> JSONValue {
        var object: JSONObject = ["id": .number(Double(id)), "queue": .string(queue), "state": .string(state.rawValue),
                                  "attempts": .number(Double(attempts)), "idempotencyKey": .string(idempotencyKey),
                                  "url": .string(request.url)]
        if let lastError { object["lastError"] = .string(lastError) }
        if let nextAttemptAt, state == .pending { object["nextAttemptAt"] = .number(Double(nextAttemptAt)) }
        if let finished { object["seq"] = .number(Double(finished)) }
        if let answer {
            object["status"] = .number(Double(answer.status))
            if body {
                object["headers"] = .object(ResponseEncoder.headers(answer.headers))
                let response = TransferResponse(status: answer.status, headers: answer.headers, body: answer.body, url: answer.url,
                                                timing: TransferTiming(totalMs: 0, connectMs: 0, firstByteMs: 0), bodySize: Int64(answer.body.count))
                let type = request.stored["responseType"]?.stringValue.flatMap(NetworkRequest.ResponseType.init(rawValue:))
                object["body"] = (try? ResponseEncoder.json(response, as: type)["body"]) ?? .string(String(decoding: answer.body, as: UTF8.self))
            }
        }
        return .object(object)
    }
}
