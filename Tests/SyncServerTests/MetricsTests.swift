import Foundation
import HostTesting
import JSON
import SyncProtocol
import SyncServer
import Testing

/// `GET /v1/metrics` on a real server over HTTP: what a device does moves the counters by exactly
/// that much, and the gauges say what is held now. Each server counts alone, so these run in
/// parallel and beside every other server test.
@Suite("metrics")
struct MetricsTests {
    typealias Server = LocalSyncServer

    static func requests(_ scrape: MetricsText, _ endpoint: String, _ status: Int) -> Double {
        scrape["hybrid_sync_requests_total", ["endpoint": endpoint, "status": String(status)]]
    }

    @Test("pushes, pulls and a held long-poll move the counters by what they did; the gauges follow what is held",
          arguments: TestStore.allCases)
    func countsWhatHappened(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let device = try await server.register()
            let ops = [Server.insert("op-1", "t1", ["x": 1], at: 1), Server.insert("op-2", "t2", ["x": 2], at: 2)]
            #expect(try await server.push(device, packetId: "p1", dependency: nil, ops: ops).status == 200)
            #expect(try await server.push(device, packetId: "p1", dependency: nil, ops: ops).status == 200)  // a retry: replayed
            let held = try await server.push(device, packetId: "p3", dependency: "p2", ops: [Server.insert("op-4", "t4", [:], at: 4)])
            #expect(held.status == 202, "\(held)")
            #expect(try await server.pull(device).status == 200)
            _ = try await server.get("/v1/nowhere", token: nil)

            let pull = LivePullTests.heldPull(server, device, after: 2, waitMs: 60_000)
            try await LivePullTests.holding(server, 1)
            let during = try await MetricsText.take(server)
            #expect(during["hybrid_sync_long_polls"] == 1, "\(during.text)")
            #expect(during["hybrid_sync_held_packets"] == 1)
            #expect(during["hybrid_sync_log_last_seq"] == 2)
            #expect(Self.requests(during, "devices", 201) == 1)
            #expect(Self.requests(during, "push", 200) == 2)
            #expect(Self.requests(during, "push", 202) == 1)
            #expect(Self.requests(during, "pull", 200) == 1)
            #expect(Self.requests(during, "unknown", 404) == 1)
            #expect(during["hybrid_sync_pushes_total", ["outcome": "applied"]] == 1)
            #expect(during["hybrid_sync_pushes_total", ["outcome": "replayed"]] == 1)
            #expect(during["hybrid_sync_pushes_total", ["outcome": "held"]] == 1)
            #expect(during["hybrid_sync_ops_total", ["outcome": "applied"]] == 2)
            // The pull without waitMs read the store, and so did the held one: memory had read
            // nothing yet (a late notification of p1 may send it round once more).
            #expect(during["hybrid_sync_pull_reads_from_store_total"] >= 2)

            // p2 applies, and with it the held p3; the held pull wakes with their ops.
            #expect(try await server.push(device, packetId: "p2", dependency: "p1", ops: [Server.insert("op-3", "t3", [:], at: 3)]).status == 200)
            let (reply, _) = try await pull.value
            #expect(reply.body["ops"]?.arrayValue?.first?["opId"] == "op-3", "\(reply)")
            let after = try await MetricsText.take(server)
            #expect(after["hybrid_sync_long_polls"] == 0, "\(after.text)")
            #expect(after["hybrid_sync_held_packets"] == 0)
            #expect(Self.requests(after, "push", 200) == 3)
            #expect(Self.requests(after, "pull", 200) == 2)
            #expect(Self.requests(after, "metrics", 200) == 1)
            #expect(after["hybrid_sync_pushes_total", ["outcome": "applied"]] == 2)
            // The ops of pushes: a held packet's are not counted when it is applied later; the log
            // counts every op.
            #expect(after["hybrid_sync_ops_total", ["outcome": "applied"]] == 3)
            #expect(after["hybrid_sync_log_last_seq"] == 4)
            #expect(after["hybrid_sync_log_entries"] == 4)
            #expect(after["hybrid_sync_ops_total", ["outcome": "duplicate"]] == 0)
            // Both pulls timed; only the held one waited, and its wait is counted apart.
            #expect(after["hybrid_sync_request_duration_seconds_count", ["endpoint": "pull"]] == 2)
            #expect(after["hybrid_sync_request_duration_seconds_bucket", ["endpoint": "pull", "le": "+Inf"]] == 2)
            #expect(after["hybrid_sync_pull_held_seconds_count"] == 1)
            #expect(after["hybrid_sync_pull_held_seconds_sum"] > 0)
            // Woken, the held pull read memory, which took p2's commit in before waking it. Over
            // PostgreSQL the commit's news comes by NOTIFY, which a loaded server may hear after the
            // pull woke: then that read went to the store, and the two counters share it.
            let storeReads = after["hybrid_sync_pull_reads_from_store_total"] - during["hybrid_sync_pull_reads_from_store_total"]
            let memoryReads = after["hybrid_sync_pull_reads_from_memory_total"]
            if store == .sqlite {
                #expect(storeReads == 0, "\(after.text)")
                #expect(memoryReads >= 1, "\(after.text)")
            } else {
                #expect(storeReads + memoryReads >= 1, "\(after.text)")
            }
        }
    }

    @Test("a packet whose dependency was rejected counts as rejected, its ops as refused", arguments: TestStore.allCases)
    func rejectedPush(store: TestStore) async throws {
        try await Server.with(store: store, hold: .milliseconds(300)) { server in
            let device = try await server.register()
            #expect(try await server.push(device, packetId: "q2", dependency: "q1", ops: [Server.insert("op-2", "t2", [:], at: 2)]).status == 202)
            let rejected = try await eventually(within: .seconds(60)) {
                try await server.packetState(device, "q2").body["state"] == "rejected"
            }
            #expect(rejected)
            let ops = [Server.insert("op-3", "t3", [:], at: 3), Server.insert("op-4", "t4", [:], at: 4)]
            #expect(try await server.push(device, packetId: "q3", dependency: "q2", ops: ops).status == 409)
            let scrape = try await MetricsText.take(server)
            #expect(scrape["hybrid_sync_pushes_total", ["outcome": "held"]] == 1, "\(scrape.text)")
            #expect(scrape["hybrid_sync_pushes_total", ["outcome": "rejected"]] == 1)
            #expect(scrape["hybrid_sync_ops_total", ["outcome": "refused"]] == 2)
            #expect(Self.requests(scrape, "push", 409) == 1)
        }
    }

    @Test("compactions are counted with the entries they removed", arguments: TestStore.allCases)
    func compactions(store: TestStore) async throws {
        try await Server.with(store: store, configure: { configuration in
            configuration.retain = .zero
            configuration.compactionInterval = .milliseconds(100)
        }) { server in
            let device = try await server.register()
            let ops = [Server.insert("op-1", "t1", [:], at: 1), Server.insert("op-2", "t2", [:], at: 2)]
            #expect(try await server.push(device, packetId: "p1", dependency: nil, ops: ops).status == 200)
            var scrape = try await MetricsText.take(server)
            let compacted = try await eventually(within: .seconds(20)) {
                // The gauges are read from the store before the counters are written out: a scrape
                // during a compaction may count it and still show the entries it removed.
                scrape = try await MetricsText.take(server)
                return scrape["hybrid_sync_compacted_ops_total"] == 2 && scrape["hybrid_sync_log_entries"] == 0
            }
            #expect(compacted, "\(scrape.text)")
            #expect(scrape["hybrid_sync_compactions_total"] >= 1)
            #expect(scrape["hybrid_sync_log_last_seq"] == 2)
            #expect(scrape["hybrid_sync_log_entries"] == 0)
        }
    }

    @Test("two servers in one process count alone")
    func serversCountAlone() async throws {
        try await Server.with { first in
            try await Server.with { second in
                _ = try await first.register()
                _ = try await first.register()
                _ = try await second.register()
                #expect(Self.requests(try await MetricsText.take(first), "devices", 201) == 2)
                #expect(Self.requests(try await MetricsText.take(second), "devices", 201) == 1)
            }
        }
    }

    @Test("every sample is named hybrid_sync_*, with a HELP and a TYPE line for each family")
    func names() async throws {
        try await Server.with { server in
            _ = try await server.register()
            _ = try await server.get("/v1/health", token: nil)
            let scrape = try await MetricsText.take(server)
            #expect(scrape.samples.allSatisfy { $0.name.hasPrefix("hybrid_sync_") }, "\(scrape.text)")
            let lines = scrape.text.split(separator: "\n")
            for family in ["hybrid_sync_requests_total", "hybrid_sync_request_duration_seconds", "hybrid_sync_long_polls",
                           "hybrid_sync_held_packets", "hybrid_sync_store_latency_seconds", "hybrid_sync_compactions_total"] {
                #expect(lines.contains { $0.hasPrefix("# HELP \(family) ") }, "no HELP for \(family)")
                #expect(lines.contains { $0.hasPrefix("# TYPE \(family) ") }, "no TYPE for \(family)")
            }
        }
    }
}
