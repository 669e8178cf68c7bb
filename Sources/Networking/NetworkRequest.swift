import Bridge
import CurlTransport
import JSON

/// `network.request`'s params, and the request part of `download`'s: checked beyond what the
/// contract's schema can say (one body at most, header values without line breaks) and turned
/// into a transport request.
struct NetworkRequest: ActionParams {
    enum ResponseType: String, CaseIterable, ParamValue {
        case json, text, bytes
    }

    var transfer: TransferRequest
    /// The `maxBytes` asked for; the transfer's limit is this or the app's `responseBytes`
    /// quota, whichever is lower (`capped(at:)`).
    let maxBytes: Int?
    /// The app's quota, when it is the limit the body is held to (for the error to name it).
    private(set) var responseQuota: Int?
    /// nil: decided by the response's content type (json for JSON media types, else text).
    var responseType: ResponseType?
    var useCache: Bool
    /// `retry`: nil sends once.
    let retry: RetryPolicy?
    /// `sign`: the app's signer to sign with (``RequestSigner``), or nil.
    let sign: String?
    /// The `timeoutMs` asked for, counted from the call (`calledAtMs`): the transfer's is what is
    /// left of it after waiting to start (``TransferQueue``).
    let timeoutMs: Int?
    /// When the call was made, on ``CurlClient/nowMs()``'s clock.
    let calledAtMs = CurlClient.nowMs()

    init(from params: ParamsReader) throws(BridgeError) {
        try self.init(from: params, cacheFlag: true)
    }

    /// `cacheFlag`: whether params may hold `request`'s boolean `cache` (`fetch`'s is a mode of its own).
    init(from params: ParamsReader, cacheFlag: Bool) throws(BridgeError) {
        let url: String = try params.required("url")
        var headers: [(name: String, value: String)] = []
        for (name, value) in try params.optional("headers", as: JSONObject.self) ?? [:] {
            // The path is spelled only for a value that is not a string: it costs a string per header.
            let text: String
            if case .string(let string) = value { text = string } else {
                text = try String(param: value, at: params.path.appending(key: "headers").appending(key: name))
            }
            if let problem = TransferRequest.headerProblem(name: name, value: text) {
                throw BridgeError.badParams("/headers/\(JSONPointer.escape(name))", problem)
            }
            headers.append((name, text))
        }
        var body: [UInt8]?
        var bodyField: String?
        func setBody(_ field: String, _ bytes: [UInt8]) throws(BridgeError) {
            if let bodyField { throw BridgeError.badParams("/\(field)", "give one of body, json or bytes, not both \(bodyField) and \(field)") }
            bodyField = field
            body = bytes
        }
        if let text: String = try params.optional("body") { try setBody("body", Array(text.utf8)) }
        if let json: JSONValue = try params.optional("json") {
            try setBody("json", Array(JSONWriter.write(json).utf8))
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) { headers.append(("Content-Type", "application/json")) }
        }
        // The contract's binary string: a value of its own kind, which no ParamValue names.
        if let bytes: JSONValue = try params.optional("bytes") {
            guard let raw = bytes.bytesValue else { throw BridgeError.badParams("/bytes", "expected a Uint8Array or ArrayBuffer, got \(bytes.typeName)") }
            try setBody("bytes", raw)
        }
        let method = try params.optional("method") ?? (body == nil ? "GET" : "POST")
        if body != nil, method == "GET" || method == "HEAD" {
            throw BridgeError.badParams("/\(bodyField!)", "a \(method) request cannot carry a body; use POST, PUT or PATCH")
        }
        timeoutMs = try params.optional("timeoutMs")
        transfer = TransferRequest(url: url, method: method, headers: headers, body: body,
                                   timeoutMs: timeoutMs, connectTimeoutMs: try params.optional("connectTimeoutMs"),
                                   followRedirects: try params.optional("followRedirects") ?? true)
        maxBytes = try params.optional("maxBytes")
        responseType = try params.optional("responseType")
        useCache = cacheFlag ? try params.optional("cache") ?? false : false
        retry = try params.optional("retry")
        sign = try params.optional("sign")
        try RetryPolicy.check(retry, method: method.uppercased(), headers: headers)
        if useCache, method != "GET" { throw BridgeError.badParams("/cache", "only GET responses are cached; \(method) cannot use cache: true") }
    }

    /// The request with its signer's headers (`sign`), for `app`.
    func signed(for app: AppContext) throws(BridgeError) -> NetworkRequest {
        guard let sign else { return self }
        var request = self
        request.transfer.headers += try RequestSigner(sign, app: app).headers(for: transfer)
        return request
    }

    /// What is left of `timeoutMs` now (at least 1 ms), for the transfer of an attempt that waited
    /// to start or follows others; nil for no limit.
    var remainingTimeoutMs: Int? {
        timeoutMs.map { max(1, $0 - Int((CurlClient.nowMs() - calledAtMs).rounded(.up))) }
    }

    /// The request with its body held to `quota` bytes (`quotas.responseBytes`): one limit, which
    /// `maxBytes` may only lower, checked as the body arrives so the transfer stops at the byte
    /// that passes it.
    func capped(at quota: Int) -> NetworkRequest {
        var request = self
        if let maxBytes, maxBytes < quota {
            request.transfer.maxBytes = maxBytes
        } else {
            request.transfer.maxBytes = quota
            request.responseQuota = quota
        }
        return request
    }

    /// What makes two GETs the same transfer: identical ones in flight at once share it.
    var sharingKey: String? {
        guard transfer.method == "GET", transfer.body == nil else { return nil }
        var key = transfer.url
        // Each name lowered once, not at every comparison of the sort.
        let fields = transfer.headers.map { (name: $0.name.lowercased(), value: $0.value) }.sorted { ($0.name, $0.value) < ($1.name, $1.value) }
        for field in fields {
            key += "\n"
            key += field.name
            key += ": "
            key += field.value
        }
        // The timeout asked for, not what waiting left of it: calls that waited still share.
        key += "\n#\(timeoutMs ?? -1),\(transfer.connectTimeoutMs ?? -1),\(transfer.maxBytes ?? -1),\(transfer.followRedirects)"
        return key
    }
}
