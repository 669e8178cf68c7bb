import JSON
import Synchronization
import SystemIO

/// Sends DAP messages to the editor: responses, events, each with the next `seq`, written whole
/// (from the session and from the threads relaying the app's output, in one order).
final class DAPWriter: Sendable {
    private let fd: Int32
    private let seq = Mutex(0)

    init(fd: Int32) {
        self.fd = fd
    }

    func event(_ name: String, _ body: JSONObject = [:]) {
        send(["type": "event", "event": .string(name), "body": .object(body)])
    }

    func respond(to request: JSONObject, body: JSONObject = [:]) {
        send(["type": "response", "request_seq": request["seq"] ?? 0, "success": true,
              "command": request["command"] ?? "", "body": .object(body)])
    }

    func fail(_ request: JSONObject, _ message: String) {
        send(["type": "response", "request_seq": request["seq"] ?? 0, "success": false,
              "command": request["command"] ?? "", "message": .string(message),
              "body": ["error": ["id": 1, "format": .string(message), "showUser": false]]])
    }

    private func send(_ message: JSONObject) {
        seq.withLock { seq in
            seq += 1
            var message = message
            message["seq"] = .number(Double(seq))
            StandardStreams.write(DAPFraming.frame(.object(message)), to: fd)
        }
    }
}
