import HostTesting
import Hummingbird
import JSON
import SyncProtocol
import SyncServer
import Testing

@Suite("bad requests")
struct BadRequestTests {
    typealias Server = LocalSyncServer

    @Test("a bad request gets a clear 4xx and changes nothing", arguments: TestStore.allCases, BadRequest.table)
    func refused(store: TestStore, _ bad: BadRequest) async throws {
        try await Server.with(store: store, maxBodyBytes: LiveBadRequestLimit.maxBodyBytes) { server in
            let a = try await server.register(name: "a")
            let b = try await server.register(name: "b")
            _ = try await server.push(a, packetId: "p1", dependency: nil, ops: [Server.insert("op-1", "t1", ["title": "milk"], at: 1)])
            let snapshot = try await server.snapshot(a)
            let log = try await server.pull(a)

            let fill = { (text: String) in text.replacingOccurrences(of: "$A", with: a.id).replacingOccurrences(of: "$B", with: b.id) }
            let token: String? = switch bad.token {
            case .deviceA: a.token
            case .none: nil
            case .unknown: String(repeating: "ab", count: 32)
            }
            let body: String? = switch bad.body {
            case .none: nil
            case .text(let text): fill(text)
            case .larger(let limit):
                fill(#"{"deviceId": "$A", "packetId": "bad", "dependencyIdentifier": null, "ops": [], "pad": ""#)
                    + String(repeating: "x", count: limit) + #""}"#
            case .ops(let count):
                fill(#"{"deviceId": "$A", "packetId": "bad", "dependencyIdentifier": null, "ops": ["#)
                    + (0..<count).map { #"{"opId": "bad-\#($0)", "dataId": "d", "table": "tasks", "type": "insert", "data": {}, "timestamp": 5}"# }
                    .joined(separator: ",") + "]}"
            }
            let reply = try await server.request(HTTPRequest.Method(bad.method) ?? .get, fill(bad.uri), token: token, body: body)

            #expect(reply.status == bad.status, "\(reply)")
            #expect(reply.errorCode == bad.code, "\(reply)")
            if let path = bad.path { #expect(reply.errorPath == path, "\(reply)") }
            if let message = bad.message { #expect(reply.errorMessage?.contains(message) == true, "\(reply)") }

            #expect(try await server.snapshot(a) == snapshot)
            #expect(try await server.pull(a).body == log.body)
            #expect(try await server.packetState(a, "bad").status == 404)
        }
    }
}
