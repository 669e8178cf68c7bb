import Bridge
import CurlTransport
import JSON
import Synchronization
import WebSocketTransport

/// `socketOpen`'s params: a `ws:` or `wss:` URL, the subprotocols offered, handshake headers.
struct NetworkSocketOpenParams: ActionParams {
    let target: WebSocketClient.Target
    /// The URL as its `http`/`https` twin: what the grants are checked against.
    let grantTarget: URLTarget
    let protocols: [String]
    let headers: [(String, String)]
    let timeoutMs: Int

    init(from params: ParamsReader) throws(BridgeError) {
        let url: String = try params.required("url")
        let lowered = url.lowercased()
        let secure: Bool
        if lowered.hasPrefix("ws://") {
            secure = false
        } else if lowered.hasPrefix("wss://") {
            secure = true
        } else {
            throw BridgeError.badParams("/url", "expected a ws: or wss: URL, got \"\(url)\"")
        }
        let twin = (secure ? "https" : "http") + url.dropFirst(secure ? 3 : 2)
        do {
            grantTarget = try URLTarget(twin)
        } catch {
            throw BridgeError.badParams("/url", "\"\(url)\" is not a URL a WebSocket can open: \(error.message)")
        }
        target = WebSocketClient.Target(secure: secure, host: grantTarget.host, port: grantTarget.port,
                                        resource: Self.resource(of: grantTarget.url))
        protocols = try params.optional("protocols", as: [String].self) ?? []
        var headers: [(String, String)] = []
        for (name, value) in try params.optional("headers", as: JSONObject.self) ?? [:] {
            let text = try String(param: value, at: params.path.appending(key: "headers").appending(key: name))
            guard !text.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw BridgeError.badParams("/headers/\(name)", "a header value may not contain a line break")
            }
            headers.append((name, text))
        }
        self.headers = headers
        timeoutMs = try params.optional("timeoutMs") ?? 30_000
    }

    /// The request target of an absolute URL: from the path on, without the fragment.
    static func resource(of url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return "/" }
        let afterAuthority = url[schemeEnd.upperBound...].drop(while: { $0 != "/" && $0 != "?" && $0 != "#" })
        let resource = afterAuthority.prefix(while: { $0 != "#" })
        return resource.hasPrefix("/") ? String(resource) : "/" + resource
    }
}

struct NetworkSocketParams: ActionParams {
    let socket: Int

    init(from params: ParamsReader) throws(BridgeError) {
        socket = try params.required("socket")
    }
}

struct NetworkSocketSendParams: ActionParams {
    let socket: Int
    let messages: [WebSocketConnection.Message]

    init(from params: ParamsReader) throws(BridgeError) {
        socket = try params.required("socket")
        if let batch = try params.optional("messages", as: [JSONValue].self) {
            var messages: [WebSocketConnection.Message] = []
            for (index, value) in batch.enumerated() {
                guard let object = value.objectValue else { throw BridgeError.badParams("/messages/\(index)", "expected {text} or {bytes}") }
                messages.append(try Self.message(text: object["text"], bytes: object["bytes"], at: "/messages/\(index)"))
            }
            self.messages = messages
        } else if let texts = try params.optional("texts", as: String.self) {
            // A batch of text messages as one JSON array: one string crosses from JS, where each
            // of `messages`' objects costs several engine calls.
            guard case .array(let batch)? = try? JSONParser.parse(Array(texts.utf8)) else {
                throw BridgeError.badParams("/texts", "expected the JSON text of an array of strings")
            }
            var messages: [WebSocketConnection.Message] = []
            messages.reserveCapacity(batch.count)
            for (index, value) in batch.enumerated() {
                guard let text = value.stringValue else { throw BridgeError.badParams("/texts", "expected the JSON text of an array of strings; item \(index) is \(value.typeName)") }
                messages.append(.text(text))
            }
            self.messages = messages
        } else {
            messages = [try Self.message(text: params.optional("text", as: JSONValue.self), bytes: params.optional("bytes", as: JSONValue.self), at: "")]
        }
    }

    private static func message(text: JSONValue?, bytes: JSONValue?, at path: String) throws(BridgeError) -> WebSocketConnection.Message {
        switch (text, bytes) {
        case (let text?, nil):
            guard let text = text.stringValue else { throw BridgeError.badParams(path + "/text", "expected a string") }
            return .text(text)
        case (nil, let bytes?):
            guard let bytes = bytes.bytesValue else { throw BridgeError.badParams(path + "/bytes", "expected a Uint8Array or ArrayBuffer") }
            return .binary(bytes)
        default:
            throw BridgeError.badParams(path, "expected exactly one of text and bytes")
        }
    }
}

struct NetworkSocketCloseParams: ActionParams {
    let socket: Int
    let code: Int?
    let reason: String
    /// End at once, without a closing handshake, and forget the socket.
    let abort: Bool

    init(from params: ParamsReader) throws(BridgeError) {
        socket = try params.required("socket")
        abort = try params.optional("abort") ?? false
        code = try params.optional("code")
        reason = try params.optional("reason") ?? ""
        if let code, code != 1000, !(3000...4999).contains(code) {
            throw BridgeError.badParams("/code", "expected 1000 or a code from 3000 to 4999, got \(code)")
        }
        guard reason.utf8.count <= 123 else {
            throw BridgeError.badParams("/reason", "expected at most 123 bytes of UTF-8, got \(reason.utf8.count)")
        }
    }
}

/// The app's open WebSockets, by the id JS knows each by. An app run's sockets end with it.
final class NetworkSockets: Sendable {
    private let open = Mutex<(next: Int, sockets: [Int: WebSocketConnection])>((1, [:]))

    func add(_ connection: WebSocketConnection) -> Int {
        open.withLock { open in
            let id = open.next
            open.next += 1
            open.sockets[id] = connection
            return id
        }
    }

    func connection(_ id: Int) throws(BridgeError) -> WebSocketConnection {
        guard let connection = open.withLock({ $0.sockets[id] }) else {
            throw BridgeError.badParams("/socket", "no WebSocket \(id) is open: it closed, or was never opened")
        }
        return connection
    }

    /// `socketReceive`: what arrived since the last call, waiting for something. The closing event
    /// forgets the socket.
    func receive(_ id: Int) async throws(BridgeError) -> JSONValue {
        let connection = try connection(id)
        let events = await withTaskCancellationHandler {
            await connection.receive()
        } onCancel: {
            connection.cancelReceive()
        }
        if events.contains(where: { if case .closed = $0 { true } else { false } }) {
            open.withLock { _ = $0.sockets.removeValue(forKey: id) }
        }
        return ["events": .array(events.map(Self.jsonValue))]
    }

    private static func jsonValue(_ event: WebSocketEvent) -> JSONValue {
        switch event {
        case .text(let text):
            ["text": .string(text)]
        case .binary(let bytes):
            ["bytes": .bytes(bytes)]
        case .closed(let code, let reason, let wasClean):
            ["closed": ["code": .number(Double(code)), "reason": .string(reason), "wasClean": .bool(wasClean)]]
        }
    }

    /// `socketClose`: the closing handshake, or with `abort` the socket ended and forgotten at once.
    func close(_ params: NetworkSocketCloseParams) throws(BridgeError) {
        let connection = try connection(params.socket)
        guard params.abort else { return connection.close(code: params.code, reason: params.reason) }
        open.withLock { _ = $0.sockets.removeValue(forKey: params.socket) }
        connection.abort()
    }

    /// The app run is over: its sockets end at once, without a closing handshake.
    deinit {
        for socket in open.withLock({ Array($0.sockets.values) }) { socket.abort() }
    }
}

extension NetworkService {
    /// `socketOpen`: the host checked against the grants, the connection made and the handshake
    /// run within `timeoutMs`, the host's `caFile` and `pins` from app.json applied.
    func openSocket(_ call: ServiceCall, _ params: NetworkSocketOpenParams) async throws(BridgeError) -> JSONValue {
        do { try params.grantTarget.checkGranted(call.app.allowsHost) } catch { throw error.bridgeError }
        let host = call.app.network.hosts[params.grantTarget.host]
        let connection: WebSocketConnection
        do {
            connection = try await WebSocketClient.connect(to: params.target, protocols: params.protocols, headers: params.headers,
                                                           timeoutMs: params.timeoutMs,
                                                           maximumMessageBytes: call.app.quotas.responseBytes,
                                                           caFile: host?.caFile, pins: host?.pins ?? [])
        } catch {
            throw BridgeError.failed(reason: error.reason.rawValue, error.message)
        }
        let id = sockets.add(connection)
        return ["socket": .number(Double(id)), "protocol": .string(connection.subprotocol), "extensions": .string(connection.extensions)]
    }

    func send(_ params: NetworkSocketSendParams) async throws(BridgeError) -> JSONValue {
        let connection = try sockets.connection(params.socket)
        do {
            try await connection.send(params.messages)
        } catch {
            throw BridgeError.failed(reason: error.reason.rawValue, error.message)
        }
        return .null
    }
}
