import Foundation
import HostTesting
import JSON
import SyncServer
import SystemIO
import Testing

/// `GET /v1/health` names the store and times a round trip through it, and answers 503 within its
/// timeout when the store cannot answer; the listen backlog is the configuration's.
@Suite("health")
struct HealthTests {
    typealias Server = LocalSyncServer

    @Test("health names the store and its latency, without a token; so do the metrics", arguments: TestStore.allCases)
    func storeKindAndLatency(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let reply = try await server.get("/v1/health", token: nil)
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.body["ok"] == true)
            #expect(reply.body["store"]?["kind"]?.stringValue == store.rawValue)
            let latency = try #require(reply.body["store"]?["latencyMs"]?.numberValue, "\(reply)")
            #expect(latency >= 0)
            let scrape = try await MetricsText.take(server)
            #expect(scrape["hybrid_sync_store_up"] == 1, "\(scrape.text)")
            // Each scrape times the store again.
            #expect(scrape.has("hybrid_sync_store_latency_seconds"))
            #expect(scrape["hybrid_sync_store_latency_seconds"] > 0)
            #expect(MetricsTests.requests(scrape, "health", 200) == 1)
        }
    }

    @Test("a PostgreSQL store whose database is gone answers 503 with the reason, within the health timeout; the metrics still answer")
    func storeGone() async throws {
        try await Server.with(store: .postgres, configure: { $0.healthTimeout = .seconds(2) }) { server in
            // Healthy first: on a loaded machine a check may pass the 2 s timeout, so ask until one answers.
            var healthy = false
            for _ in 0..<30 where !healthy {
                healthy = try await server.get("/v1/health", token: nil).status == 200
            }
            #expect(healthy)
            let unhealthyBefore = MetricsTests.requests(try await MetricsText.take(server), "health", 503)
            // Drops it with its connections (WITH (FORCE)): the pool's connections die, new ones are
            // refused, and postgres-nio waits for a connection with no limit of its own.
            await server.postgres?.drop()
            let started = ContinuousClock.now
            let reply = try await server.get("/v1/health", token: nil)
            #expect(ContinuousClock.now - started < .seconds(20))
            #expect(reply.status == 503, "\(reply)")
            #expect(reply.body["ok"] == false)
            #expect(reply.body["store"]?["kind"] == "postgres")
            #expect(reply.body["store"]?["error"]?.stringValue?.isEmpty == false, "\(reply)")
            let scrape = try await MetricsText.take(server)
            #expect(scrape["hybrid_sync_store_up"] == 0, "\(scrape.text)")
            #expect(MetricsTests.requests(scrape, "health", 503) - unhealthyBefore == 1)
        }
    }

    /// The listening socket's backlog as the kernel reports it (`ss`: Send-Q of a LISTEN socket).
    static func backlog(port: Int) throws -> Int {
        let text = String(decoding: try ChildProcess.run("ss", ["-Hltn", "sport = :\(port)"]).output, as: UTF8.self)
        let columns = text.split(whereSeparator: \.isWhitespace)
        guard columns.count >= 3, columns[0] == "LISTEN", let backlog = Int(columns[2]) else { throw TestFailure("ss: \(text)") }
        return backlog
    }

    @Test("the listen backlog is the configuration's and --backlog's: 4096 by default (as the kernel's somaxconn allows), not Hummingbird's 256")
    func listenBacklog() async throws {
        let somaxconn = try Int(String(contentsOfFile: "/proc/sys/net/core/somaxconn", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 4096
        try await Server.with { server in
            let backlog = try Self.backlog(port: server.port)
            #expect(backlog == min(4096, somaxconn))
        }
        try await Server.with(configure: { $0.backlog = 1000 }) { server in
            let backlog = try Self.backlog(port: server.port)
            #expect(backlog == min(1000, somaxconn))
        }
        // And from the command line.
        let database = NSTemporaryDirectory() + "sync-backlog-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) } }
        let process = try await LocalSyncServer.startChild(database: database, rateLimit: .off, arguments: ["--backlog", "900"])
        defer { process.stopProcess() }
        #expect(try Self.backlog(port: process.port) == min(900, somaxconn))
    }
}
