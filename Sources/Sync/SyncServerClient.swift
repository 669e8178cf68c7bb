import Bridge
import CurlTransport
import JSON

/// The reference server's HTTP API as the client uses it, over the network module's transport
/// (libcurl), not an HTTP stack of its own. Answers are JSON; a transfer that failed is the
/// transport's error, with its reason.
struct SyncServerClient: Sendable {
    let server: String
    let token: String?
    let allowHost: @Sendable (String) -> Bool
    var timeoutMs = 30_000

    struct Answer: Sendable {
        var status: Int
        var body: JSONValue
    }

    func get(_ path: String) async throws(BridgeError) -> Answer {
        try await send("GET", path, body: nil)
    }

    func post(_ path: String, body: String) async throws(BridgeError) -> Answer {
        try await send("POST", path, body: Array(body.utf8))
    }

    private func send(_ method: String, _ path: String, body: [UInt8]?) async throws(BridgeError) -> Answer {
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        let base = server.hasSuffix("/") ? String(server.dropLast()) : server
        let request = TransferRequest(url: base + path, method: method, headers: headers, body: body, timeoutMs: timeoutMs,
                                      connectTimeoutMs: 5_000, maxBytes: 64 << 20, followRedirects: false)
        let response: TransferResponse
        do {
            response = try await CurlClient.shared.perform(request, allowHost: allowHost)
        } catch {
            throw Self.bridgeError(error)
        }
        let parsed = response.body.isEmpty ? JSONValue.null : ((try? JSONParser.parse(response.body)) ?? .null)
        return Answer(status: response.status, body: parsed)
    }

    /// A transfer that produced no answer, as `sync` reports it: the server's host not granted is
    /// `E_DENIED`, a server address that is no http(s) URL `E_BAD_PARAMS` at `/server`, anything
    /// else `E_FAILED` with the transport's reason (`connect`, `timeout`, ...) for a retry later.
    static func bridgeError(_ error: TransferError) -> BridgeError {
        switch error.reason {
        case .denied: BridgeError(.denied, error.message, details: ["reason": "host", "url": error.url.map(JSONValue.string) ?? .null])
        case .badURL: BridgeError.badParams("/server", error.message)
        default: BridgeError.failed(reason: error.reason.rawValue, error.message, details: error.details)
        }
    }

    /// The server's own words for a 4xx/5xx answer.
    static func message(_ answer: Answer) -> String {
        answer.body["error"]?["message"]?.stringValue ?? answer.body["reason"]?.stringValue ?? "status \(answer.status)"
    }
}
