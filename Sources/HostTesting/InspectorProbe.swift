import JSON
import WebSocketTransport

/// A debugger's side of the inspector socket `hybrid run --inspect` (or `hybrid test --inspect`)
/// serves, for tests and benchmarks: each call waits for the answer with its id; events are kept
/// in order until asked for by name. The product's own frontend is the debug adapter's
/// `InspectorClient`; this one keeps what it reads so a test can ask in any order.
// @unchecked: its pending messages and ids are used by one task at a time (a test's or a bench run's).
public final class InspectorProbe: @unchecked Sendable {
    private let connection: WebSocketConnection
    private var nextID = 1
    private var pending: [JSONValue] = []
    /// `Debugger.scriptParsed` params, by scriptId.
    public private(set) var scripts: [String: JSONValue] = [:]

    private init(_ connection: WebSocketConnection) { self.connection = connection }

    /// The port and secret of an inspector URL, `ws://127.0.0.1:PORT/SECRET`; nil for another.
    public static func address(of url: String) -> (port: Int, secret: String)? {
        guard url.hasPrefix("ws://127.0.0.1:") else { return nil }
        let parts = url.dropFirst("ws://127.0.0.1:".count).split(separator: "/")
        guard parts.count == 2, let port = Int(parts[0]) else { return nil }
        return (port, String(parts[1]))
    }

    public static func connect(_ url: String) async throws -> InspectorProbe {
        guard let (port, secret) = address(of: url) else { throw InspectorProbeError("not an inspector URL (ws://127.0.0.1:PORT/SECRET): \(url)") }
        return InspectorProbe(try await WebSocketClient.connect(to: .init(secure: false, host: "127.0.0.1", port: port, resource: "/\(secret)"),
                                                                protocols: [], timeoutMs: 20_000))
    }

    /// Sends `method` and answers its `result`; an `error` answer throws, naming the method.
    @discardableResult
    public func call(_ method: String, _ params: JSONObject = [:]) async throws -> JSONValue {
        let answer = try await answer(method, params)
        if let error = answer["error"] { throw InspectorProbeError("\(method): \(JSONWriter.write(error))") }
        return answer["result"] ?? .null
    }

    /// Sends `method` and returns its whole answer (`result` or `error`).
    public func answer(_ method: String, _ params: JSONObject = [:]) async throws -> JSONValue {
        let id = nextID
        nextID += 1
        try await connection.send(text: JSONWriter.write(["id": .number(Double(id)), "method": .string(method), "params": .object(params)]))
        return try await next { $0["id"]?.intValue == id }
    }

    /// The next event named `method` whose params match (earlier others stay for later), its params.
    @discardableResult
    public func event(_ method: String, where matches: (JSONValue) -> Bool = { _ in true }) async throws -> JSONValue {
        try await next { $0["method"]?.stringValue == method && matches($0["params"] ?? .null) }["params"] ?? .null
    }

    private func next(_ matches: (JSONValue) -> Bool) async throws -> JSONValue {
        var closed: String?
        while true {
            if let index = pending.firstIndex(where: matches) { return pending.remove(at: index) }
            // Messages that came with the close are read before it counts (an app that ends
            // right after answering closes the socket behind its last answer).
            if let closed { throw WebSocketError(.closed, closed) }
            for event in await connection.receive() {
                switch event {
                case .text(let text):
                    let message = try JSONParser.parse(text)
                    if message["method"]?.stringValue == "Debugger.scriptParsed", let id = message["params"]?["scriptId"]?.stringValue {
                        scripts[id] = message["params"]
                    }
                    pending.append(message)
                case .closed(let code, let reason, _):
                    closed = "the inspector closed the socket: \(code) \(reason)"
                case .binary:
                    break
                }
            }
        }
    }

    public func close() { connection.close(code: 1000, reason: "") }
}

/// What ``InspectorProbe`` throws besides the socket's own errors.
public struct InspectorProbeError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
