import Bridge
import CurlTransport
import JSON
import SyncProtocol

/// The reference server's HTTP API as the client uses it, over the network module's transport
/// (libcurl), not an HTTP stack of its own. Answers are JSON, read with SyncProtocol's decoders, the
/// server's own; a transfer that failed is the transport's error, with its reason.
struct SyncServerClient: Sendable {
    let server: String
    let token: String?
    let allowHost: @Sendable (String) -> Bool
    var timeoutMs = 30_000

    struct Answer: Sendable {
        var status: Int
        /// The body as JSON, or why it is none (empty, or not JSON), in a message that names it.
        var body: Result<JSONValue, SyncWireError>

        init(status: Int, body: Result<JSONValue, SyncWireError>) {
            self.status = status
            self.body = body
        }

        /// An answer whose body is `bytes`.
        init(status: Int, bytes: [UInt8]) {
            self.status = status
            if bytes.isEmpty {
                body = .failure(SyncWireError("body: expected JSON, got an empty body", path: ""))
            } else {
                do {
                    body = .success(try JSONParser.parse(bytes))
                } catch {
                    body = .failure(SyncWireError("body: expected JSON, got text that is not JSON (\(error))", path: ""))
                }
            }
        }

        /// The body read as `what` by `decode`, or an error naming what was expected and where
        /// the body is not that: `pull page: cursor: expected integer, missing`.
        func decoded<Message>(_ what: String, _ decode: (JSONValue) throws(SyncWireError) -> Message) throws(SyncWireError) -> Message {
            do {
                return try decode(try body.get())
            } catch {
                throw SyncWireError("\(what): \(error.message)", path: error.path)
            }
        }

        /// The server's refusal, when the body is one (a proxy's 502 page is not).
        var refusal: SyncServerError? {
            try? decoded("error", SyncServerError.decode)
        }

        /// The server's own words for a 4xx/5xx answer.
        var message: String {
            refusal?.message ?? "status \(status)"
        }
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
        return Answer(status: response.status, bytes: response.body)
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

    /// An answer that is not what `request` (`pull from SERVER`) expected, as `sync` reports it:
    /// `E_FAILED` with reason `server` and the status, and the server's words, or what its body
    /// lacked (`answered 200: pull page: cursor: expected integer, missing`).
    static func failure(_ request: String, _ answer: Answer, unreadable: SyncWireError? = nil) -> BridgeError {
        BridgeError.failed(reason: "server", "\(request) answered \(answer.status): \(unreadable?.message ?? answer.message)",
                           details: ["status": .number(Double(answer.status))])
    }
}
