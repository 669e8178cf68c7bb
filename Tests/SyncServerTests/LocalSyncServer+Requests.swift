import Foundation
import HostTesting
import Hummingbird
import HummingbirdTesting
import JSON
import SyncProtocol

/// A device's requests to a sync server on a loopback port, in this process or a child, step by
/// step over real HTTP.
extension LocalSyncServer {
    // MARK: Requests

    func request(_ method: HTTPRequest.Method, _ uri: String, token: String? = nil, body: String? = nil, acceptEncoding: String? = nil) async throws -> HTTPReply {
        var headers: HTTPFields = [:]
        if let acceptEncoding { headers[.acceptEncoding] = acceptEncoding }
        if let token { headers[.authorization] = "Bearer \(token)" }
        if body != nil { headers[.contentType] = "application/json" }
        let request = TestClient.Request(uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        // Not a timing test: a loaded machine may take long (HummingbirdTesting's default is 15 s).
        let response = try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(180))) { client in
            try await client.execute(request)
        }
        let text = response.body.map { String(buffer: $0) } ?? ""
        let json = (try? JSONParser.parse(text)) ?? .null
        return HTTPReply(status: Int(response.status.code), body: json, text: text, headers: response.headers,
                         raw: response.body.map { Array($0.readableBytesView) } ?? [])
    }

    func get(_ uri: String, token: String?, acceptEncoding: String? = nil) async throws -> HTTPReply {
        try await request(.get, uri, token: token, acceptEncoding: acceptEncoding)
    }

    func post(_ uri: String, token: String?, json: JSONValue) async throws -> HTTPReply {
        try await request(.post, uri, token: token, body: JSONWriter.write(json))
    }

    // MARK: The protocol, step by step

    func register(name: String? = nil) async throws -> TestDevice {
        let reply = try await post("/v1/devices", token: nil, json: name.map { ["name": .string($0)] } ?? [:])
        guard reply.status == 201, let id = reply.body["deviceId"]?.stringValue, let token = reply.body["token"]?.stringValue else {
            throw TestFailure("registration failed: \(reply)")
        }
        return TestDevice(id: id, token: token)
    }

    func push(_ device: TestDevice, packetId: String, dependency: String?, ops: [SyncOperation]) async throws -> HTTPReply {
        try await post("/v1/push", token: device.token, json: Self.packet(device.id, packetId, dependency, ops))
    }

    func pull(_ device: TestDevice, after: Int = 0, limit: Int? = nil) async throws -> HTTPReply {
        var uri = "/v1/pull?deviceId=\(device.id)&after=\(after)"
        if let limit { uri += "&limit=\(limit)" }
        return try await get(uri, token: device.token)
    }

    func packetState(_ device: TestDevice, _ packetId: String) async throws -> HTTPReply {
        try await get("/v1/packets/\(packetId)?deviceId=\(device.id)", token: device.token)
    }

    func snapshot(_ device: TestDevice) async throws -> JSONValue {
        let reply = try await get("/v1/snapshot", token: device.token)
        guard reply.status == 200 else { throw TestFailure("snapshot failed: \(reply)") }
        return reply.body
    }

    /// The opIds of the whole log, in seq order.
    func loggedOpIds(_ device: TestDevice) async throws -> [String] {
        var ids: [String] = []
        var cursor = 0
        while true {
            let page = try await pull(device, after: cursor)
            ids += page.body["ops"]?.arrayValue?.compactMap { $0["opId"]?.stringValue } ?? []
            cursor = page.body["cursor"]?.intValue ?? cursor
            if page.body["more"]?.boolValue != true { return ids }
        }
    }
}
