import Foundation
import HTTPServing
import HostTesting
import JSON
@testable import SyncAuth
import SyncProtocol
@testable import SyncServer
import Testing

/// An attacker's pass at the endpoints, each attack against a real server over loopback: what
/// costs the server before it refuses, and what a token may be made to reach.
@Suite struct EndpointAttackTests {
    typealias Server = LocalSyncServer

    static let secret = Array("a secret of the app's auth server".utf8)
    static let verifier = TokenVerifier(secret: secret)

    static func token(_ subject: String, _ scopes: [String]) -> String {
        TokenSigner(secret: secret).sign(TokenClaims(subject: subject, scopes: scopes, expiresAt: 9_999_999_999))
    }

    @Test("a push from a user over its rate gets 429 before its body is read", arguments: TestStore.allCases)
    func rateBeforeBody(store: TestStore) async throws {
        let alice = Self.token("alice", ["user:alice"])
        try await Server.with(store: store, rateLimit: RateLimit(requestsPerSecond: 0.001, burst: 2), tokenVerifier: Self.verifier) { server in
            let device = try #require(try await server.post("/v1/devices", token: alice, json: [:]).body["deviceId"]?.stringValue)
            #expect(try await server.get("/v1/pull?deviceId=\(device)", token: alice).status == 200)
            // 8 MB announced, none of it sent: a server that read the body first would wait for it.
            let push = try LoopbackSocket(port: server.port)
            push.send("POST /v1/push HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(alice)\r\nContent-Type: application/json\r\nContent-Length: 8000000\r\n\r\n{")
            let reply = push.response(within: 60)
            #expect(reply.status == 429, "\(reply)")
        }
    }

    @Test("an address whose authentications keep failing gets 429, even for a good token, before its tokens are looked at")
    func failedAuthentications() async throws {
        try await Server.with(tokenVerifier: Self.verifier, configure: { $0.authFailureLimit = RateLimit(requestsPerSecond: 0.001, burst: 5) }) { server in
            let forged = TokenSigner(secret: Array("another secret, not the server's".utf8))
                .sign(TokenClaims(subject: "alice", scopes: [], expiresAt: 9_999_999_999))
            var statuses: [Int] = []
            for _ in 0..<8 { statuses.append(try await server.post("/v1/devices", token: forged, json: [:]).status) }
            #expect(statuses == [401, 401, 401, 401, 401, 429, 429, 429], "\(statuses)")
            let good = try await server.post("/v1/devices", token: Self.token("alice", []), json: [:])
            #expect(good.status == 429 && good.headers[.retryAfter] != nil, "\(good)")
            let metrics = try await MetricsText.take(server)
            #expect(metrics["hybrid_sync_refusals_total", ["limit": "auth_failures"]] == 4)
        }
    }

    @Test("a sub holding a newline and another user's name is refused, and never meets that user's remembered device", arguments: TestStore.allCases)
    func newlineSubject(store: TestStore) async throws {
        try await Server.with(store: store, tokenVerifier: Self.verifier) { server in
            let bob = Self.token("bob", ["user:bob", "team:t2"])
            let device = try #require(try await server.post("/v1/devices", token: bob, json: [:]).body["deviceId"]?.stringValue)
            #expect(try await server.get("/v1/pull?deviceId=\(device)", token: bob).status == 200, "bob's device is remembered")
            let forged = Self.token("bob\nuser:bob", ["team:t2"])
            let pulled = try await server.get("/v1/pull?deviceId=\(device)", token: forged)
            #expect(pulled.status == 401 || pulled.status == 403, "\(pulled)")
            let pushed = try await server.post("/v1/push", token: forged, json: Server.packet(device, "p1", nil, [
                Server.insert("op-1", "r1", ["team": "team:t2"], at: 1),
            ]))
            #expect(pushed.status == 401 || pushed.status == 403, "\(pushed)")
        }
    }

    @Test("a user whose name equals another's only under Unicode equivalence does not reach the other's remembered device", arguments: TestStore.allCases)
    func equivalentSubject(store: TestStore) async throws {
        try await Server.with(store: store, tokenVerifier: Self.verifier) { server in
            let kate = Self.token("Kate", ["user:Kate"])
            let device = try #require(try await server.post("/v1/devices", token: kate, json: [:]).body["deviceId"]?.stringValue)
            #expect(try await server.get("/v1/pull?deviceId=\(device)", token: kate).status == 200, "Kate's device is remembered")
            // U+212A KELVIN SIGN: canonically equivalent to K, so Swift's String == says "Kate".
            let kelvin = Self.token("\u{212A}ate", ["user:Kate"])
            let pulled = try await server.get("/v1/pull?deviceId=\(device)", token: kelvin)
            #expect(pulled.status == 403, "\(pulled)")
        }
    }

    @Test("ops stamped past the allowed skew (5 minutes) ahead of the server's clock, or not a time at all, are refused with the op's path",
          arguments: [1.7e308, 1e300, 0])
    func timestamps(offset: Double) async throws {
        try await Server.with { server in
            let device = try await server.register()
            let stamp = offset == 0 ? (Date().timeIntervalSince1970 + 330) * 1000 : offset
            let reply = try await server.push(device, packetId: "p1", dependency: nil, ops: [
                Server.insert("op-0", "r0", ["a": 1], at: 1),
                Server.insert("op-1", "r1", ["a": 1], at: stamp),
            ])
            #expect(reply.status == 400 && reply.errorPath == "/ops/1/timestamp", "\(reply)")
            #expect(try await server.pull(device).body["ops"]?.arrayValue?.isEmpty == true, "nothing of the packet was applied")
            let now = try await server.push(device, packetId: "p2", dependency: nil, ops: [
                Server.insert("op-2", "r2", ["a": 1], at: Date().timeIntervalSince1970 * 1000 + 60_000),
            ])
            #expect(now.status == 200, "a clock a minute ahead is fine: \(now)")
        }
    }

    @Test("a table whose scope column the server's configuration fixes refuses another, whoever writes first", arguments: TestStore.allCases)
    func configuredTableScope(store: TestStore) async throws {
        let alice = Self.token("alice", ["user:alice"])
        try await Server.with(store: store, tokenVerifier: Self.verifier, configure: { $0.tableScopes = ["projects": "owner"] }) { server in
            let device = try #require(try await server.post("/v1/devices", token: alice, json: [:]).body["deviceId"]?.stringValue)
            var unscoped = Server.insert("op-1", table: "projects", "p1", ["owner": "user:alice"], at: 1)
            unscoped.scopeColumn = nil
            let refused = try await server.post("/v1/push", token: alice, json: Server.packet(device, "p1", nil, [unscoped]))
            #expect(refused.status == 400 && refused.errorPath == "/ops/0/scopeColumn", "\(refused)")
            var scoped = unscoped
            scoped.scopeColumn = "owner"
            #expect(try await server.post("/v1/push", token: alice, json: Server.packet(device, "p2", nil, [scoped])).status == 200)
        }
    }

    @Test("a user registers at most its bound of devices; another user is not held back", arguments: TestStore.allCases)
    func devicesPerUser(store: TestStore) async throws {
        let alice = Self.token("alice", ["user:alice"])
        try await Server.with(store: store, tokenVerifier: Self.verifier, configure: { $0.maxDevicesPerUser = 2 }) { server in
            #expect(try await server.post("/v1/devices", token: alice, json: [:]).status == 201)
            #expect(try await server.post("/v1/devices", token: alice, json: [:]).status == 201)
            let third = try await server.post("/v1/devices", token: alice, json: [:])
            #expect(third.status == 429 && third.errorCode == "rate_limited", "\(third)")
            #expect(third.errorMessage?.contains("2 devices") == true, "\(third)")
            #expect(try await server.post("/v1/devices", token: Self.token("bob", []), json: [:]).status == 201)
            let metrics = try await MetricsText.take(server)
            #expect(metrics["hybrid_sync_refusals_total", ["limit": "devices"]] == 1)
        }
    }

    /// A token signed with the server's secret over `payload` and `header` as written, numbers
    /// and all (TokenSigner only signs claims that are already in range).
    static func rawToken(payload: String, header: String = #"{"alg":"HS256","typ":"JWT"}"#) -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        return input + "." + Base64URL.encode(TokenSigner(secret: secret).signature(of: input))
    }

    @Test("signed tokens with numbers no clock holds, a nbf ahead or a crit header are refused with 401, and the server serves on", arguments: [
        #"{"sub":"alice","scopes":[],"exp":1e19}"#,
        #"{"sub":"alice","scopes":[],"exp":9999999999,"iat":1e300}"#,
        #"{"sub":"alice","scopes":[],"exp":-1e19}"#,
        #"{"sub":"alice","scopes":[],"exp":9999999999,"nbf":9999999990}"#,
        #"{"sub":"alice\u0000","scopes":[],"exp":9999999999}"#,
    ])
    func hostileClaims(payload: String) async throws {
        try await Server.with(tokenVerifier: Self.verifier) { server in
            let refused = try await server.post("/v1/devices", token: Self.rawToken(payload: payload), json: [:])
            #expect(refused.status == 401, "\(refused)")
            let critical = try await server.post("/v1/devices", token: Self.rawToken(payload: #"{"sub":"alice","exp":9999999999}"#,
                                                                                     header: #"{"alg":"HS256","crit":["exp"],"exp":1}"#), json: [:])
            #expect(critical.status == 401, "\(critical)")
            #expect(try await server.get("/v1/health", token: nil).status == 200)
            #expect(try await server.post("/v1/devices", token: Self.token("alice", []), json: [:]).status == 201)
        }
    }
}
