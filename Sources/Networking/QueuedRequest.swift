import Bridge
import JSON

/// A request as the offline queue keeps it: `network.enqueue`'s `request`, checked as
/// `network.request` checks its params, and reduced to what can be stored and sent later. Its body
/// is bytes whatever it was given as (`body`, `json` or `bytes`; `json`'s Content-Type header is
/// already among the headers), so sending it again builds the same request.
///
/// What makes no sense for a request sent later is refused at enqueue: `cache` (a queued request
/// is a write, not a read to share) and `retry` (the queue retries without limit itself).
/// `timeoutMs` bounds each attempt, counted from its start; 60 s when the request names none, so
/// that a server that accepts and never answers cannot hold its queue for the rest of the run.
struct QueuedRequest: ActionParams, Sendable {
    static let defaultAttemptTimeoutMs = 60_000

    /// Fields of `network.request` a queued request may not carry, and why.
    static let refusedFields = [
        "cache": "the queue sends a request later and answers through queueWatch, so there is no cached answer to give",
        "retry": "the queue retries a queued request itself, without limit, until the server answers",
    ]

    /// `{url, method, headers, timeoutMs?, connectTimeoutMs?, maxBytes?, followRedirects, sign?,
    /// responseType?}`: what is stored in the `request` column as JSON text.
    let stored: JSONObject
    let body: [UInt8]?

    init(from params: ParamsReader) throws(BridgeError) {
        for (field, why) in Self.refusedFields where params.contains(field) {
            throw BridgeError.badParams(params.path.appending(key: field).pointer, "a queued request takes no \(field): \(why)")
        }
        let request: NetworkRequest
        do {
            request = try NetworkRequest(from: params, cacheFlag: false)
        } catch {
            throw Self.nested(error, under: params.path.pointer)
        }
        var stored: JSONObject = ["url": .string(request.transfer.url), "method": .string(request.transfer.method)]
        var headers = JSONObject()
        for (name, value) in request.transfer.headers { headers.appendUnique(name, .string(value)) }
        stored["headers"] = .object(headers)
        if let timeoutMs = request.timeoutMs { stored["timeoutMs"] = .number(Double(timeoutMs)) }
        if let connect = request.transfer.connectTimeoutMs { stored["connectTimeoutMs"] = .number(Double(connect)) }
        if let maxBytes = request.maxBytes { stored["maxBytes"] = .number(Double(maxBytes)) }
        stored["followRedirects"] = .bool(request.transfer.followRedirects)
        if let sign = request.sign { stored["sign"] = .string(sign) }
        if let type = request.responseType { stored["responseType"] = .string(type.rawValue) }
        self.stored = stored
        body = request.transfer.body
    }

    /// A stored request read back.
    init(stored: JSONObject, body: [UInt8]?) {
        self.stored = stored
        self.body = body
    }

    var url: String { stored["url"]?.stringValue ?? "" }

    /// Whether the request names its own `Idempotency-Key` header, and which.
    var idempotencyKey: String? {
        stored["headers"]?.objectValue?.first { $0.key.lowercased() == "idempotency-key" }?.value.stringValue
    }

    /// The `network.request` this item sends, with `key` as its `Idempotency-Key` unless it has one.
    func networkRequest(idempotencyKey key: String) throws(BridgeError) -> NetworkRequest {
        var params = stored
        if idempotencyKey == nil, case .object(var headers)? = params["headers"] {
            headers.appendUnique("Idempotency-Key", .string(key))
            params["headers"] = .object(headers)
        }
        if let body { params["bytes"] = .bytes(body) }
        if params["timeoutMs"] == nil { params["timeoutMs"] = .number(Double(Self.defaultAttemptTimeoutMs)) }
        return try NetworkRequest(from: ParamsReader(params), cacheFlag: false)
    }

    /// `NetworkRequest`'s errors name paths from the params' root (`/headers/X`); under `enqueue`
    /// they sit under `/request`.
    static func nested(_ error: BridgeError, under prefix: String) -> BridgeError {
        guard !prefix.isEmpty, let path = error.path, !path.hasPrefix(prefix) else { return error }
        var moved = error
        moved.path = prefix + path
        if moved.message.hasPrefix("params" + path) { moved.message = "params" + prefix + moved.message.dropFirst(6) }
        return moved
    }
}
