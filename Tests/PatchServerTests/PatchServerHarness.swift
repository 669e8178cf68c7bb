import Foundation
import HostTesting
import Hummingbird
import HummingbirdTesting
import JSON
import PatchProtocol
import PatchServer
import SyncAuth

struct Reply: CustomStringConvertible {
    var status: Int
    var body: JSONValue
    var bytes: Int
    var text = ""
    var headers: HTTPFields = [:]
    /// The body as sent (compressed, when the server compressed it).
    var raw: [UInt8] = []
    var description: String { "\(status) \(JSONWriter.write(body))" }
}

/// A patch server on 127.0.0.1 over a fresh store of the test's kind (a SQLite file, or a
/// PostgreSQL database of its own in `scripts/with-postgres`'s cluster), with tokens signed by its
/// secret, and a publisher's patch key.
struct PatchServerHarness {
    static let secret = Array("patch-server-test-secret-0123456789".utf8)
    static let patchKey = "nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A="

    let folder: TemporaryFolder
    let server: PatchServer
    let port: Int
    let publisher: String
    let configuration: PatchServerConfiguration
    /// The database to drop when the first instance stops; nil for SQLite and for another instance.
    let postgres: PostgresTestDatabase?

    init(_ store: TestStore, _ configure: (inout PatchServerConfiguration) -> Void = { _ in }) async throws {
        let folder = TemporaryFolder(prefix: "patch-server")
        var postgres: PostgresTestDatabase?
        var configuration = PatchServerConfiguration(database: folder.path + "/patches.sqlite")
        if store == .postgres {
            let database = try await PostgresTestDatabase.create()
            configuration.database = database.url
            postgres = database
        }
        configuration.tokenVerifier = TokenVerifier(secret: Self.secret)
        configure(&configuration)
        do {
            try await self.init(configuration: configuration, folder: folder, postgres: postgres)
        } catch {
            await postgres?.drop()
            folder.remove()
            throw error
        }
    }

    private init(configuration: PatchServerConfiguration, folder: TemporaryFolder, postgres: PostgresTestDatabase?) async throws {
        self.folder = folder
        self.configuration = configuration
        self.postgres = postgres
        server = try await PatchServer.open(configuration: configuration)
        do {
            port = try await server.start()
        } catch {
            await server.stop()
            throw error
        }
        publisher = Self.token(sub: "alice", scopes: ["publish:demo", "publish:other"])
    }

    /// A second server over this one's database, as another instance behind a load balancer
    /// (PostgreSQL only); stop it before this one, which drops the database.
    func anotherInstance() async throws -> PatchServerHarness {
        try await PatchServerHarness(configuration: configuration, folder: TemporaryFolder(prefix: "patch-server"), postgres: nil)
    }

    func stop() async {
        await server.stop()
        await postgres?.drop()
        folder.remove()
    }

    static func token(sub: String, scopes: [String]) -> String {
        TokenSigner(secret: secret).sign(TokenClaims(subject: sub, scopes: scopes, expiresAt: Int64(Date().timeIntervalSince1970) + 3600))
    }

    static var publicKey: String { try! SignedPatch.sign(PatchManifest(app: "x", patchVersion: 1, baseVersion: "1", modules: [:]), sources: [:], privateKey: patchKey).key }

    static func patch(app: String = "demo", version: Int, modules: [String: String], key: String = patchKey) throws -> SignedPatch {
        let manifest = PatchManifest(app: app, patchVersion: version, baseVersion: "1.0.0",
                                     modules: modules.mapValues { PatchManifest.Module(mode: .amend, sha256: SignedPatch.sha256($0)) })
        return try SignedPatch.sign(manifest, sources: modules, privateKey: key)
    }

    func request(_ method: HTTPRequest.Method, _ uri: String, token: String?, body: JSONValue? = nil, acceptEncoding: String? = nil) async throws -> Reply {
        var headers: HTTPFields = [:]
        if let acceptEncoding { headers[.acceptEncoding] = acceptEncoding }
        if let token { headers[.authorization] = "Bearer \(token)" }
        if body != nil { headers[.contentType] = "application/json" }
        return try await request(method, uri, headers: headers, body: body.map { JSONWriter.write($0) })
    }

    /// A request with exactly these headers and this body (a form, a cookie).
    func request(_ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields, body: String?) async throws -> Reply {
        try await Self.request(port: port, method, uri, headers: headers, body: body)
    }

    /// A request to the server on 127.0.0.1:`port` (one this harness started, or a `hybrid patch-server` child).
    static func request(port: Int, _ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = [:], body: String?) async throws -> Reply {
        let request = TestClient.Request(uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        let response = try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(180))) { client in
            try await client.execute(request)
        }
        let bytes = response.body?.readableBytes ?? 0
        let text = response.body.map { String(buffer: $0) } ?? ""
        return Reply(status: Int(response.status.code), body: (try? JSONParser.parse(text)) ?? .null, bytes: bytes, text: text, headers: response.headers,
                     raw: response.body.map { Array($0.readableBytesView) } ?? [])
    }

    func addApp(_ app: String = "demo", keys: [String] = [PatchServerHarness.publicKey]) async throws {
        let reply = try await request(.put, "/v1/apps/\(app)", token: publisher, body: ["keys": .array(keys.map(JSONValue.string))])
        guard reply.status == 200 else { throw TestFailure("app add: \(reply)") }
    }

    func publish(_ patch: SignedPatch, app: String = "demo", rollout: Double = 100, minDevices: Int = 20) async throws -> Reply {
        try await request(.post, "/v1/apps/\(app)/patches", token: publisher,
                          body: ["patch": patch.jsonValue, "channel": "production", "rollout": .number(rollout), "minDevices": .number(Double(minDevices))])
    }

    func check(_ device: String, app: String = "demo", highest: Int = 0, modules: [String: String] = [:], acceptEncoding: String? = nil) async throws -> Reply {
        try await request(.post, "/v1/apps/\(app)/check", token: nil,
                          body: PatchCheck(baseVersion: "1.0.0", channel: "production", deviceId: device, highestVersion: highest, modules: modules).jsonValue,
                          acceptEncoding: acceptEncoding)
    }

    func report(_ device: String, version: Int, _ event: PatchReport.Event, reason: String? = nil) async throws -> Reply {
        try await request(.post, "/v1/apps/demo/reports", token: Self.token(sub: device, scopes: ["device:demo"]),
                          body: PatchReport(patchVersion: version, event: event, reason: reason).jsonValue)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
