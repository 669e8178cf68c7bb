import Foundation
import HostTesting
import JSON
import SyncAuth
@testable import SyncServer
import Testing

/// Peers that hold the server's connections without using them: each attack of the kind, against
/// a real server over loopback, with limits small enough to reach in a test. None is a timing
/// test: a timeout is asserted to have closed a connection within a generous bound, never to
/// have waited a given time.
@Suite struct ConnectionLimitTests {
    typealias Server = LocalSyncServer

    static func limits(_ change: @escaping (inout ConnectionLimits) -> Void) -> (inout SyncServerConfiguration) -> Void {
        { configuration in change(&configuration.connections) }
    }

    @Test("a connection that sends nothing, or half a request head, is closed after the head timeout")
    func headTimeout() async throws {
        try await Server.with(configure: Self.limits { $0.headTimeout = .seconds(1) }) { server in
            let silent = try LoopbackSocket(port: server.port)
            let halfHead = try LoopbackSocket(port: server.port)
            halfHead.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            #expect(silent.closedByServer(within: 30))
            #expect(halfHead.closedByServer(within: 30))
            #expect(halfHead.received.isEmpty, "closed without an answer")
            // The scrape's own connection has a second for its head too: on a loaded machine it may
            // be closed before it sends one, and is tried again.
            var scraped: MetricsText?
            for _ in 0..<10 where scraped == nil { scraped = try? await MetricsText.take(server) }
            let metrics = try #require(scraped)
            #expect(metrics["hybrid_sync_connections_closed_total", ["reason": "head_timeout"]] >= 2, "\(metrics.text)")
        }
    }

    @Test("a request body that stops arriving is closed after the body timeout")
    func bodyTimeout() async throws {
        try await Server.with(configure: Self.limits { $0.bodyTimeout = .seconds(1) }) { server in
            let device = try await server.register()
            let slow = try LoopbackSocket(port: server.port)
            slow.send("POST /v1/push HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(device.token)\r\nContent-Length: 1000\r\n\r\n{\"deviceId\"")
            #expect(slow.closedByServer(within: 30))
            #expect(try await server.pull(device).status == 200, "the server goes on")
        }
    }

    @Test("a kept-alive connection that sends no next request is closed after the idle timeout")
    func idleTimeout() async throws {
        try await Server.with(configure: Self.limits { $0.idleTimeout = .milliseconds(300) }) { server in
            let kept = try LoopbackSocket(port: server.port)
            kept.sendGet("/v1/health")
            #expect(kept.response(within: 30).status == 200)
            #expect(kept.closedByServer(within: 30))
        }
    }

    @Test("past the bound of an address, its oldest idle connection is closed to make room, and /v1/health answers")
    func oldestIdleEvicted() async throws {
        // A head timeout no loaded machine reaches: the newest must stay open for being newest.
        try await Server.with(configure: Self.limits { $0.maxConnectionsPerAddress = 4; $0.headTimeout = .seconds(600) }) { server in
            var idle: [LoopbackSocket] = []
            for _ in 0..<4 {
                idle.append(try LoopbackSocket(port: server.port))
                // Accepted in this order: the table counts a connection in when its pipeline is built.
                try await Self.waitFor { server.server.connectionCounts.open == idle.count }
            }
            #expect(try await server.get("/v1/health", token: nil).status == 200)
            #expect(idle[0].closedByServer(within: 30), "the oldest idle connection made room")
            #expect(!idle[3].closedByServer(within: 0.2), "the newest stays")
            let metrics = try await MetricsText.take(server)
            #expect(metrics["hybrid_sync_connections_closed_total", ["reason": "evicted"]] >= 1)
        }
    }

    @Test("with every connection of an address busy, a new one is refused, and one is taken again once they end")
    func busyRefused() async throws {
        try await Server.with(configure: Self.limits { $0.maxConnectionsPerAddress = 3 }) { server in
            let device = try await server.register()
            var held: [LoopbackSocket] = []
            for _ in 0..<3 {
                let socket = try LoopbackSocket(port: server.port)
                socket.sendGet("/v1/pull?deviceId=\(device.id)&waitMs=60000", token: device.token)
                held.append(socket)
            }
            try await Self.waitFor { server.server.heldPulls == 3 }
            let refused = try LoopbackSocket(port: server.port)
            #expect(refused.closedByServer(within: 30))
            #expect(refused.received.isEmpty)
            for socket in held { socket.close() }
            try await Self.waitFor { server.server.heldPulls == 0 && server.server.connectionCounts.open == 0 }
            let metrics = try await MetricsText.take(server)
            #expect(metrics["hybrid_sync_connections_refused_total", ["bound": "address"]] == 1)
        }
    }

    @Test("a held pull whose client closes its connection is released at once", arguments: TestStore.allCases)
    func heldPullReleased(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let device = try await server.register()
            let sockets = try (0..<20).map { _ in
                let socket = try LoopbackSocket(port: server.port)
                socket.sendGet("/v1/pull?deviceId=\(device.id)&waitMs=60000", token: device.token)
                return socket
            }
            try await Self.waitFor { server.server.heldPulls == 20 }
            for socket in sockets { socket.close() }
            // A minute's wait each, released within seconds.
            try await Self.waitFor(seconds: 20) { server.server.heldPulls == 0 }
            try await Self.waitFor(seconds: 20) { server.server.connectionCounts.open == 0 }
            #expect(try await server.pull(device).status == 200)
        }
    }

    @Test("a user holds at most its bound of pulls open; past it a held pull gets 429, a plain pull goes through")
    func heldPullsPerUser() async throws {
        let secret = Array("a secret of the app's auth server".utf8)
        let alice = TokenSigner(secret: secret).sign(TokenClaims(subject: "alice", scopes: ["user:alice"], expiresAt: 9_999_999_999))
        try await Server.with(tokenVerifier: TokenVerifier(secret: secret), configure: { $0.maxHeldPullsPerUser = 2 }) { server in
            var devices: [String] = []
            for _ in 0..<2 { devices.append(try #require(try await server.post("/v1/devices", token: alice, json: [:]).body["deviceId"]?.stringValue)) }
            let held = try devices.map { device in
                let socket = try LoopbackSocket(port: server.port)
                socket.sendGet("/v1/pull?deviceId=\(device)&waitMs=60000", token: alice)
                return socket
            }
            try await Self.waitFor { server.server.heldPulls == 2 }
            let third = try await server.get("/v1/pull?deviceId=\(devices[0])&waitMs=60000", token: alice)
            #expect(third.status == 429, "\(third)")
            #expect(third.errorCode == "rate_limited" && third.errorPath == "/waitMs", "\(third)")
            #expect(try await server.get("/v1/pull?deviceId=\(devices[0])", token: alice).status == 200)
            for socket in held { socket.close() }
            try await Self.waitFor { server.server.heldPulls == 0 }
            let metrics = try await MetricsText.take(server)
            #expect(metrics["hybrid_sync_refusals_total", ["limit": "held_pulls"]] == 1)
        }
    }

    @Test("/v1/metrics shows every limit and the connections open")
    func limitsInMetrics() async throws {
        try await Server.with(configure: Self.limits { $0.headTimeout = .seconds(7); $0.maxConnections = 123 }) { server in
            // A loaded machine may take the head timeout to send the scrape's head: tried again.
            var scraped: MetricsText?
            for _ in 0..<10 where scraped == nil { scraped = try? await MetricsText.take(server) }
            let metrics = try #require(scraped)
            #expect(metrics["hybrid_sync_limit", ["name": "head_timeout_seconds"]] == 7)
            #expect(metrics["hybrid_sync_limit", ["name": "max_connections"]] == 123)
            for name in ["body_timeout_seconds", "idle_timeout_seconds", "max_connections_per_address", "max_body_bytes",
                         "max_devices_per_user", "max_held_pulls_per_user", "rate_limit_per_second", "auth_failures_per_second"] {
                #expect(metrics.samples.contains { $0.name == "hybrid_sync_limit" && $0.labels == ["name": name] }, "\(name)")
            }
            #expect(metrics["hybrid_sync_connections_open", [:]] >= 1, "the scrape's own connection")
        }
    }

    @Test("the connection bound stays below the open-file limit")
    func cappedByOpenFiles() {
        var limits = ConnectionLimits()
        limits.maxConnections = 50_000
        #expect(limits.capped(openFiles: 1024).maxConnections == 1024 - ConnectionLimits.reservedDescriptors)
        #expect(limits.capped(openFiles: 1024).maxConnectionsPerAddress <= 1024 - ConnectionLimits.reservedDescriptors)
        #expect(limits.capped(openFiles: nil).maxConnections == 50_000)
    }

    /// Polls `condition` until it holds, for up to `seconds` (a bound for a loaded machine, not a
    /// figure under test).
    static func waitFor(seconds: Double = 60, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !condition() {
            guard ContinuousClock.now < deadline else { throw TestFailure("still not so after \(seconds) s") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
