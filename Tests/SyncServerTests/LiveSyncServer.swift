import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import SyncAuth
import SyncProtocol
import SyncServer

/// A real ``SyncServer`` on an ephemeral loopback port and a fresh database file, driven over real
/// HTTP: what a device would see.
struct LiveSyncServer: Sendable {
    let server: SyncServer
    let port: Int
    let databasePath: String

    /// Starts a server; with no `databasePath`, on a new file in the temporary directory.
    static func start(databasePath: String? = nil, holdSeconds: Double = 30,
                      maxBodyBytes: Int = 8 * 1024 * 1024, rateLimit: RateLimit = .standard,
                      tokenVerifier: TokenVerifier? = nil) async throws -> LiveSyncServer {
        let path = databasePath ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("sync-server-test-\(UUID().uuidString).sqlite").path
        var configuration = SyncServerConfiguration(databasePath: path, holdSeconds: holdSeconds, maxBodyBytes: maxBodyBytes,
                                                    tokenVerifier: tokenVerifier)
        configuration.rateLimit = rateLimit
        let server = try SyncServer(configuration: configuration)
        let port = try await server.start()
        return LiveSyncServer(server: server, port: port, databasePath: path)
    }

    /// Runs `body` against a new server, then stops it and deletes its database, whatever `body` did.
    static func with(holdSeconds: Double = 30, maxBodyBytes: Int = 8 * 1024 * 1024, rateLimit: RateLimit = .standard,
                     tokenVerifier: TokenVerifier? = nil, _ body: (LiveSyncServer) async throws -> Void) async throws {
        let server = try await start(holdSeconds: holdSeconds, maxBodyBytes: maxBodyBytes, rateLimit: rateLimit, tokenVerifier: tokenVerifier)
        do {
            try await body(server)
        } catch {
            await server.finish()
            throw error
        }
        await server.finish()
    }

    /// Stops the server, keeping its database for a successor.
    func stop() async { await server.stop() }

    /// Stops the server and deletes its database files.
    func finish() async {
        await server.stop()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: databasePath + suffix) }
    }

    // MARK: Requests

    func request(_ method: HTTPRequest.Method, _ uri: String, token: String? = nil, body: String? = nil) async throws -> HTTPReply {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if body != nil { headers[.contentType] = "application/json" }
        let request = TestClient.Request(uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        let response = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            try await client.execute(request)
        }
        let text = response.body.map { String(buffer: $0) } ?? ""
        let json = (try? JSONParser.parse(text)) ?? .null
        return HTTPReply(status: Int(response.status.code), body: json, text: text, headers: response.headers)
    }

    func get(_ uri: String, token: String?) async throws -> HTTPReply {
        try await request(.get, uri, token: token)
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

    /// Waits until `condition` holds, checking every 50 ms, for at most `seconds`.
    func eventually(within seconds: Double = 30, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try await condition()
    }

    // MARK: Bodies

    static func packet(_ deviceId: String, _ packetId: String, _ dependency: String?, _ ops: [SyncOperation]) -> JSONValue {
        ["deviceId": .string(deviceId), "packetId": .string(packetId), "dependencyIdentifier": dependency.map(JSONValue.string) ?? .null,
         "ops": .array(ops.map { .object($0.json) })]
    }

    static func insert(_ opId: String, table: String = "tasks", _ dataId: String, _ data: JSONObject, at timestamp: Double) -> SyncOperation {
        SyncOperation(opId: opId, dataId: dataId, table: table, type: .insert, data: data, timestamp: timestamp)
    }

    static func update(_ opId: String, table: String = "tasks", _ dataId: String, _ data: JSONObject, at timestamp: Double) -> SyncOperation {
        SyncOperation(opId: opId, dataId: dataId, table: table, type: .update, data: data, timestamp: timestamp)
    }

    static func delete(_ opId: String, table: String = "tasks", _ dataId: String, at timestamp: Double) -> SyncOperation {
        SyncOperation(opId: opId, dataId: dataId, table: table, type: .delete, data: nil, timestamp: timestamp)
    }

    static func batch(_ opId: String, table: String = "tasks", where filter: JSONObject, set: JSONObject, at timestamp: Double) -> SyncOperation {
        SyncOperation(opId: opId, dataId: "*", table: table, type: .batch, data: ["where": .object(filter), "set": .object(set)],
                      timestamp: timestamp)
    }
}
