import JSON
import Synchronization
import SystemIO
import WebSocketTransport

/// One event the inspector sent (`Debugger.paused`, `Debugger.scriptParsed`, ...).
struct InspectorEvent: Sendable {
    let method: String
    let params: JSONObject
}

/// A frontend of the WebKit Inspector Protocol over the WebSocket `hybrid run --inspect` serves:
/// each command goes out with an id and its caller waits for the answer with that id; events go
/// to ``events`` in the order they came.
///
/// With `targets` (`hybrid test --inspect`, whose socket speaks the `Target` domain) commands go
/// to the target listed last, wrapped in `Target.sendMessageToTarget`, and what it sends back is
/// unwrapped from `Target.dispatchMessageFromTarget`; `Target.targetCreated` and
/// `Target.targetDestroyed` are events too.
final class InspectorClient: Sendable {
    private let connection: WebSocketConnection
    private let targets: Bool
    private let state = Mutex(State())
    /// The inspector's events, in order; finished when the WebSocket closes.
    let events: AsyncStream<InspectorEvent>
    private let sink: AsyncStream<InspectorEvent>.Continuation

    private struct State {
        var nextId = 1
        var waiting: [Int: CheckedContinuation<Result<JSONObject, DebugAdapterError>, Never>] = [:]
        var closed = false
        /// With `targets`: the target commands go to.
        var target: String?
    }

    /// `HYBRID_DEBUG_ADAPTER_TRACE`: a file each inspector message is appended to, both ways
    /// (for a person finding out what the inspector said).
    private static let traceFile = ProcessEnvironment["HYBRID_DEBUG_ADAPTER_TRACE"].flatMap { $0.isEmpty ? nil : $0 }

    private func trace(_ direction: String, _ text: String) {
        guard let file = Self.traceFile else { return }
        try? FileSystem.append("\(direction) \(text)\n", to: file)
    }

    private init(connection: WebSocketConnection, targets: Bool) {
        self.connection = connection
        self.targets = targets
        (events, sink) = AsyncStream.makeStream(of: InspectorEvent.self)
    }

    /// Opens the WebSocket at `url` (`ws://127.0.0.1:PORT/SECRET`) and starts reading it.
    static func connect(url: String, targets: Bool = false, timeoutMs: Int = 10_000) async throws(DebugAdapterError) -> InspectorClient {
        let target = try Self.target(url)
        let connection: WebSocketConnection
        do {
            connection = try await WebSocketClient.connect(to: target, protocols: [], timeoutMs: timeoutMs)
        } catch {
            throw DebugAdapterError(.inspector, "cannot open the inspector at \(url): \(error.message)")
        }
        let client = InspectorClient(connection: connection, targets: targets)
        Task { await client.read() }
        return client
    }

    /// `ws://HOST:PORT/PATH` as a WebSocket target.
    static func target(_ url: String) throws(DebugAdapterError) -> WebSocketClient.Target {
        guard url.hasPrefix("ws://") else {
            throw DebugAdapterError(.badArguments, "url: expected ws://HOST:PORT/SECRET (what `hybrid run --inspect` prints), got \"\(url)\"")
        }
        let rest = url.dropFirst("ws://".count)
        let authority = rest.prefix { $0 != "/" }
        let path = String(rest.dropFirst(authority.count))
        let host: Substring, portText: Substring
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
            portText = authority[authority.index(after: close)...].drop { $0 == ":" }
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            host = parts[0]
            portText = parts.count > 1 ? parts[1] : "80"
        }
        guard !host.isEmpty, let port = Int(portText), (1...65535).contains(port) else {
            throw DebugAdapterError(.badArguments, "url: expected ws://HOST:PORT/SECRET with a port from 1 to 65535, got \"\(url)\"")
        }
        return WebSocketClient.Target(secure: false, host: String(host), port: port, resource: path)
    }

    /// Sends `method` with `params` and waits for its result; the inspector's error, or the
    /// WebSocket's end, throws.
    @discardableResult
    func send(_ method: String, _ params: JSONObject = [:]) async throws(DebugAdapterError) -> JSONObject {
        let (id, target): (Int?, String?) = state.withLock { state in
            guard !state.closed else { return (nil, nil) }
            defer { state.nextId += 1 }
            return (state.nextId, state.target)
        }
        guard let id else { throw DebugAdapterError(.inspector, "\(method): the inspector has closed") }
        let command: JSONValue = ["id": .number(Double(id)), "method": .string(method), "params": .object(params)]
        let message: JSONValue
        if targets {
            guard let target else { throw DebugAdapterError(.inspector, "\(method): no test file is running") }
            // The same id outside: an error answer to the wrapper fails this command too.
            message = ["id": .number(Double(id)), "method": "Target.sendMessageToTarget",
                       "params": ["targetId": .string(target), "message": .string(JSONWriter.write(command))]]
        } else {
            message = command
        }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<JSONObject, DebugAdapterError>, Never>) in
            let open = state.withLock { state in
                if !state.closed { state.waiting[id] = continuation }
                return !state.closed
            }
            guard open else {
                continuation.resume(returning: .failure(DebugAdapterError(.inspector, "\(method): the inspector has closed")))
                return
            }
            Task {
                do {
                    let text = JSONWriter.write(message)
                    trace("->", text)
                    try await connection.send(text: text)
                } catch {
                    answer(id, .failure(DebugAdapterError(.inspector, "\(method): \(error)")))
                }
            }
        }
        return try result.get()
    }

    /// Closes the WebSocket (the app goes on running, without its debugger).
    func close() {
        connection.close(code: 1000, reason: "")
    }

    private func answer(_ id: Int, _ result: Result<JSONObject, DebugAdapterError>) {
        let waiter = state.withLock { $0.waiting.removeValue(forKey: id) }
        waiter?.resume(returning: result)
    }

    private func read() async {
        reading: while true {
            for event in await connection.receive() {
                switch event {
                case .text(let text):
                    dispatch(text)
                case .binary:
                    continue
                case .closed:
                    break reading
                }
            }
        }
        let waiting = state.withLock { state in
            state.closed = true
            defer { state.waiting = [:] }
            return state.waiting
        }
        for (_, waiter) in waiting { waiter.resume(returning: .failure(DebugAdapterError(.inspector, "the inspector closed before answering"))) }
        sink.finish()
    }

    private func dispatch(_ text: String, fromTarget: Bool = false) {
        trace("<-", text)
        guard let message = (try? JSONParser.parse(text))?.objectValue else { return }
        if targets, !fromTarget {
            dispatchTargetDomain(message)
            return
        }
        if let id = message["id"]?.intValue {
            if let error = message["error"]?.objectValue {
                answer(id, .failure(DebugAdapterError(.command, error["message"]?.stringValue ?? "the inspector refused the command")))
            } else {
                answer(id, .success(message["result"]?.objectValue ?? [:]))
            }
        } else if let method = message["method"]?.stringValue {
            sink.yield(InspectorEvent(method: method, params: message["params"]?.objectValue ?? [:]))
        }
    }

    /// A message of the `Target` domain: a wrapped one of the current target's, a target listed
    /// or ended, or the answer to a wrapper (only its error counts: the target answers the rest).
    private func dispatchTargetDomain(_ message: JSONObject) {
        let params = message["params"]?.objectValue ?? [:]
        switch message["method"]?.stringValue {
        case "Target.dispatchMessageFromTarget":
            let current = state.withLock { $0.target }
            guard let text = params["message"]?.stringValue, params["targetId"]?.stringValue == current else { return }
            dispatch(text, fromTarget: true)
        case "Target.targetCreated":
            state.withLock { $0.target = params["targetInfo"]?["targetId"]?.stringValue }
            sink.yield(InspectorEvent(method: "Target.targetCreated", params: params))
        case "Target.targetDestroyed":
            let waiting: [Int: CheckedContinuation<Result<JSONObject, DebugAdapterError>, Never>] = state.withLock { state in
                guard state.target != nil, state.target == params["targetId"]?.stringValue else { return [:] }
                state.target = nil
                defer { state.waiting = [:] }
                return state.waiting
            }
            for (_, waiter) in waiting { waiter.resume(returning: .failure(DebugAdapterError(.inspector, "the test file ended before answering"))) }
            sink.yield(InspectorEvent(method: "Target.targetDestroyed", params: params))
        case nil:
            if let id = message["id"]?.intValue, let error = message["error"]?.objectValue {
                answer(id, .failure(DebugAdapterError(.command, error["message"]?.stringValue ?? "the hub refused the command")))
            }
        default:
            break
        }
    }
}
