import Foundation
import HostTesting
import Hummingbird
import HummingbirdTesting
import JSON
import PatchProtocol
import PatchServer
import Patches
import SyncAuth
import Testing

/// The real patch server and the real loader together: apps started as `hybrid run` starts them,
/// whose app.json names a ``PatchServer`` on 127.0.0.1 (tokens checked, SQLite store), publishing
/// over its HTTP API as `hybrid patch publish` does. What the client tests check against a stub
/// and the server tests with hand-made requests, checked here across the wire.
@Suite("patch rollout end to end: the real server and two devices")
struct PatchRolloutEndToEndTests {
    static let secret = Array("end-to-end-patch-secret-0123456789".utf8)
    static let main = "globalThis.greet = require('./greet');\n"
    static let greet = "module.hot.accept();\nexports.hello = () => 'hello v0';\n"

    /// Device ids on either side of patch 1's 50% cohort, found by the protocol's own hash.
    static func deviceIds() -> (inside: String, outside: String) {
        var inside: String?
        var outside: String?
        var index = 0
        while inside == nil || outside == nil {
            let id = String(format: "00000000-0000-4000-8000-%012d", index)
            if PatchCohort.contains(app: "patched", patchVersion: 1, deviceId: id, percent: 50) {
                inside = inside ?? id
            } else {
                outside = outside ?? id
            }
            index += 1
        }
        return (inside!, outside!)
    }

    static func token(sub: String, scopes: [String]) -> String {
        TokenSigner(secret: secret).sign(TokenClaims(subject: sub, scopes: scopes, expiresAt: Int64(Date().timeIntervalSince1970) + 3600))
    }

    struct Server {
        let server: PatchServer
        let port: Int
        let publisher = PatchRolloutEndToEndTests.token(sub: "alice", scopes: ["publish:patched"])

        func request(_ method: HTTPRequest.Method, _ path: String, _ body: JSONValue? = nil) async throws -> (Int, JSONValue) {
            var headers: HTTPFields = [.authorization: "Bearer \(publisher)"]
            if body != nil { headers[.contentType] = "application/json" }
            let request = TestClient.Request(path, method: method, headers: headers, body: body.map { ByteBuffer(string: JSONWriter.write($0)) })
            let response = try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(60))) { client in
                try await client.execute(request)
            }
            let text = response.body.map { String(buffer: $0) } ?? ""
            return (Int(response.status.code), (try? JSONParser.parse(text)) ?? .null)
        }

        func status(_ version: Int) async throws -> JSONValue {
            let (code, body) = try await request(.get, "/v1/apps/patched/status")
            guard code == 200 else { throw FixtureError("status: \(code) \(body)") }
            return body["patches"]?.arrayValue?.first { $0["patchVersion"] == .number(Double(version)) } ?? .null
        }
    }

    /// A device: the app in a data dir of its own whose device-id is `id`, started.
    func device(_ id: String, server: Server, publisherKey: String) async throws -> PatchFixture {
        let patches = #"{"server": "http://127.0.0.1:\#(server.port)", "channel": "production", "checkEvery": 3600}"#
        let fixture = try PatchFixture(files: ["main.js": Self.main, "greet.js": Self.greet], extraKeys: [publisherKey],
                                       grants: ["patch", "device", "network:127.0.0.1"], patches: patches)
        try FileManager.default.createDirectory(atPath: fixture.dataDirectory, withIntermediateDirectories: true)
        try (id + "\n").write(toFile: fixture.dataDirectory + "/device-id", atomically: true, encoding: .utf8)
        try await fixture.start()
        try await poll("the check at start") { fixture.session?.patches.server?.isChecking == false }
        let token = Self.token(sub: id, scopes: ["device:patched"])
        _ = try await fixture.jsAwait("Hybrid.call('patch', 'configure', {token: '\(token)'})")
        return fixture
    }

    func check(_ fixture: PatchFixture) async throws -> JSONValue {
        try await fixture.jsAwait("Hybrid.call('patch', 'check', {}).then(v => v, e => ({error: e.code, reason: e.details && e.details.reason}))")
    }

    @Test("published at 50% one device of two gets it; at 100% both; a patch that throws on load is rolled back by both and halted by the server")
    func rollout() async throws {
        let folder = TemporaryFolder(prefix: "patch-e2e")
        defer { folder.remove() }
        var configuration = PatchServerConfiguration(database: folder.path + "/patches.sqlite")
        configuration.tokenVerifier = TokenVerifier(secret: Self.secret)
        let patchServer = try PatchServer(configuration: configuration)
        let server = Server(server: patchServer, port: try await patchServer.start())
        let publisherKey = PatchSigner.generateKey()
        let (insideId, outsideId) = Self.deviceIds()
        let inside = try await device(insideId, server: server, publisherKey: publisherKey.publicKey)
        let outside = try await device(outsideId, server: server, publisherKey: publisherKey.publicKey)
        defer {
            inside.stop(); inside.remove()
            outside.stop(); outside.remove()
        }

        let (added, _) = try await server.request(.put, "/v1/apps/patched", ["keys": [.string(publisherKey.publicKey)]])
        #expect(added == 200)
        let fix = try inside.patch(1, ["greet.js": (.amend, "module.hot.accept();\nexports.hello = () => 'hello v1';\n")],
                                   privateKey: publisherKey.privateKey)
        let (published, publishBody) = try await server.request(.post, "/v1/apps/patched/patches",
                                                                ["patch": fix.jsonValue, "channel": "production", "rollout": 50, "minDevices": 2])
        #expect(published == 201, "\(publishBody)")

        // 50%: the device inside the cohort gets it, the other is up to date.
        #expect(try await check(inside)["outcome"] == "applied")
        #expect(try await check(outside)["outcome"] == "upToDate")
        #expect(try await inside.js("greet.hello()") == "hello v1")
        #expect(try await outside.js("greet.hello()") == "hello v0")
        _ = try await inside.jsAwait("Hybrid.call('patch', 'ready')")

        // 100%: the other device is in too.
        let (raised, _) = try await server.request(.post, "/v1/apps/patched/patches/1/rollout", ["percent": 100])
        #expect(raised == 200)
        #expect(try await check(outside)["outcome"] == "applied")
        _ = try await outside.jsAwait("Hybrid.call('patch', 'ready')")
        try await poll("both devices' reports") {
            let funnel = try await server.status(1)["funnel"]
            return funnel?["confirmed"] == 2
        }
        let funnel = try await server.status(1)["funnel"]
        #expect(funnel?["offered"] == 2 && funnel?["downloaded"] == 2 && funnel?["applied"] == 2 && funnel?["rolledBack"] == 0, "\(funnel ?? .null)")

        // A patch that throws while loading: each device rolls it back to patch 1 and says why; the
        // server halts it by itself once both have, and offers it to no one after.
        let bad = try inside.patch(2, ["greet.js": (.amend, "module.hot.accept();\nexports.hello = () => 'hello v2';\nthrow new Error('boom at load');\n")],
                                   privateKey: publisherKey.privateKey)
        let (publishedBad, _) = try await server.request(.post, "/v1/apps/patched/patches",
                                                         ["patch": bad.jsonValue, "channel": "production", "minDevices": 2, "haltAbove": 2])
        #expect(publishedBad == 201)
        for fixture in [inside, outside] {
            let refused = try await check(fixture)
            #expect(refused["error"] == "E_FAILED", "\(refused)")
            #expect(try await fixture.js("greet.hello()") == "hello v1")
        }
        // Halted once both have applied it and one or both rolled it back (the lower bound of 1 of 2
        // already passes 2%), whichever device's reports arrive first; both rollbacks are counted.
        try await poll("the server halts patch 2, both rollbacks counted") {
            let status = try await server.status(2)
            return status["state"] == "halted" && status["funnel"]?["rolledBack"] == 2
        }
        let halted = try await server.status(2)
        #expect(halted["funnel"]?["applied"] == 2, "\(halted)")
        #expect(halted["haltReason"]?.stringValue?.contains("of 2 devices that applied it rolled it back") == true, "\(halted)")
        let (_, audit) = try await server.request(.get, "/v1/apps/patched/audit")
        let halt = audit["entries"]?.arrayValue?.last { $0["action"] == "halt" }
        #expect(halt?["subject"] == "server" && halt?["patchVersion"] == 2, "\(audit)")
        // Halted: no device is offered it again; both run patch 1.
        #expect(try await check(inside)["outcome"] == "upToDate")
        #expect(try await inside.jsAwait("Hybrid.call('patch', 'current')")["patchVersion"] == 1)
        await patchServer.stop()
    }
}
