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

    static let defaultMaxBytes = 64 << 20

    var transfer: TransferRequest
    /// nil: decided by the response's content type (json for JSON media types, else text).
    var responseType: ResponseType?
    var useCache: Bool

    init(from params: ParamsReader) throws(BridgeError) {
        let url: String = try params.required("url")
        var headers: [(name: String, value: String)] = []
        for (name, value) in try params.optional("headers", as: JSONObject.self) ?? [:] {
            let text = try String(param: value, at: params.path.appending(key: "headers").appending(key: name))
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
        transfer = TransferRequest(url: url, method: method, headers: headers, body: body,
                                   timeoutMs: try params.optional("timeoutMs"), connectTimeoutMs: try params.optional("connectTimeoutMs"),
                                   maxBytes: try params.optional("maxBytes") ?? Self.defaultMaxBytes,
                                   followRedirects: try params.optional("followRedirects") ?? true)
        responseType = try params.optional("responseType")
        useCache = try params.optional("cache") ?? false
        if useCache, method != "GET" { throw BridgeError.badParams("/cache", "only GET responses are cached; \(method) cannot use cache: true") }
    }

    /// What makes two GETs the same transfer: identical ones in flight at once share it.
    var sharingKey: String? {
        guard transfer.method == "GET", transfer.body == nil else { return nil }
        var key = transfer.url
        for (name, value) in transfer.headers.sorted(by: { ($0.name.lowercased(), $0.value) < ($1.name.lowercased(), $1.value) }) {
            key += "\n\(name.lowercased()): \(value)"
        }
        key += "\n#\(transfer.timeoutMs ?? -1),\(transfer.connectTimeoutMs ?? -1),\(transfer.maxBytes ?? -1),\(transfer.followRedirects)"
        return key
    }
}
