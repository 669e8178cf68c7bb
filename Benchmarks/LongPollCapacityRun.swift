import Foundation
import HostTesting
import JSON
import NIOCore
import Synchronization
import SyncAuth
import SystemIO

/// The capacity part of `hybrid-bench sync-server`: `pulls` devices (3,000) each hold a live pull
/// (`waitMs` 60,000, the most allowed) on one server (over PostgreSQL when there is a cluster, else SQLite), all of them in one scope (`team:all`);
/// it reports how many were held at once, the server's resident memory idle (devices registered,
/// nothing held) and holding them, and how long one write takes to reach them all.
///
/// Held is counted on the client: pulls sent and not yet answered five seconds after the last was
/// sent (nothing was written meanwhile, so none had a reason to answer). `GET /v1/metrics`, where
/// the server has it, is printed beside it.
struct LongPollCapacityRun: Sendable {
    let pulls: Int
    let hybrid: String
    let secretFile: String
    let signer: TokenSigner
    let group: any EventLoopGroup

    final class Tally: Sendable {
        struct State {
            var sent = 0
            var answered = 0
            var failed = 0
            /// When each pull that carried the write answered (monotonic ns).
            var woken: [UInt64] = []
        }

        let state = Mutex(State())
    }

    func run(database: String, store: String) async throws {
        let server = try await LocalSyncServer.startChild(executable: hybrid, database: database, authSecretFile: secretFile, rateLimit: .off,
                                                    arguments: LocalSyncServer.unlimited)
        defer { server.stopProcess() }
        let client = LoadHTTPClient(host: "127.0.0.1", port: server.port, group: group)
        defer { client.close() }
        let population = try await SyncServerLoadBenchmark.register(
            LoadDevice.population(pulls, signer: signer, now: Int64(Date().timeIntervalSince1970), prefix: "c", team: { _ in "team:all" }),
            clients: [client])
        try await Task.sleep(nanoseconds: 1_000_000_000)
        let idleMiB = server.residentMiB
        print("[capacity: \(pulls) live pulls held by one instance, \(store)]")

        // The connections first, 200 at a time (the server's listen backlog is 256), then every pull at once.
        let rampStart = MonotonicClock.now()
        try await client.prewarm(pulls + 8)
        let rampSeconds = Double(MonotonicClock.now() - rampStart) / 1e9
        let tally = Tally()
        let held = Task {
            await withTaskGroup(of: Void.self) { group in
                for device in population {
                    group.addTask {
                        tally.state.withLock { $0.sent += 1 }
                        do {
                            let answer = try await client.request(.GET, "/v1/pull?deviceId=\(device.id)&after=0&limit=100&waitMs=60000",
                                                                  token: device.token, timeout: .seconds(90))
                            let answered = MonotonicClock.now()
                            let ops = (try? JSONParser.parse(Array(answer.body.readableBytesView)))?["ops"]?.arrayValue ?? []
                            tally.state.withLock { state in
                                state.answered += 1
                                if answer.status == 200, !ops.isEmpty { state.woken.append(answered) }
                            }
                        } catch {
                            tally.state.withLock { $0.failed += 1 }
                        }
                    }
                }
            }
        }
        while tally.state.withLock({ $0.sent }) < pulls { try await Task.sleep(nanoseconds: 50_000_000) }
        try await Task.sleep(nanoseconds: 5_000_000_000)
        let (sent, answeredEarly, failedEarly) = tally.state.withLock { ($0.sent, $0.answered, $0.failed) }
        let heldMiB = server.residentMiB
        print(BenchmarkTable.row("  held at once (client's count)", Double(sent - answeredEarly),
                                 unit: "pulls (\(sent) sent, \(answeredEarly) answered early, \(failedEarly) failed; "
                                     + "\(client.connectionsOpened) connections dialled in \(BenchmarkTable.format(rampSeconds)) s, 200 at a time)"))
        if let scrape = await client.metrics(token: population[0].token) {
            print(BenchmarkTable.row("  held at once (server's gauge)", scrape["hybrid_sync_long_polls"], unit: "pulls (hybrid_sync_long_polls)"))
        } else {
            print("  GET /v1/metrics: not answered (the server's own count of held pulls is not available)")
        }
        print(BenchmarkTable.row("  server RSS idle", idleMiB, unit: "MiB (\(pulls) devices registered, nothing held)"))
        print(BenchmarkTable.row("  server RSS holding them", heldMiB,
                                 unit: "MiB (+\(BenchmarkTable.format(heldMiB - idleMiB)) MiB, \(BenchmarkTable.format((heldMiB - idleMiB) * 1024 / Double(max(1, sent - answeredEarly)))) KiB a pull)"))

        // One write to the scope all of them see: how long until every held pull has it.
        let writer = population[0]
        let op: JSONValue = ["opId": "wake-all", "dataId": "wake-all", "table": "notes", "type": "insert", "scopeColumn": "owner",
                             "data": ["id": "wake-all", "owner": "team:all", "body": "for everyone"], "dependencyId": .null,
                             "timestamp": .number((Date().timeIntervalSince1970 * 1000).rounded())]
        let body = Array(JSONWriter.write(["deviceId": .string(writer.id), "packetId": "wake", "dependencyIdentifier": .null, "ops": [op]]).utf8)
        let written = MonotonicClock.now()
        let pushed = try await client.request(.POST, "/v1/push", token: writer.token, body: body, timeout: .seconds(30))
        let acknowledged = MonotonicClock.now()
        let deadline = written + 30_000_000_000
        while tally.state.withLock({ $0.answered + $0.failed }) < pulls, MonotonicClock.now() < deadline {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        let woken = tally.state.withLock { $0.woken }.map { Double($0 - min($0, written)) / 1e6 }
        let last = woken.max() ?? 0
        print(BenchmarkTable.row("  one write -> all received", last,
                                 unit: "ms, from just before the push (\(woken.count) of \(sent - answeredEarly) held pulls answered with it; "
                                     + "push answered \(pushed.status) in \(BenchmarkTable.format(Double(acknowledged - written) / 1e6)) ms; "
                                     + "p50 \(BenchmarkTable.format(BenchmarkTable.percentile(woken, 0.5))) ms, "
                                     + "p99 \(BenchmarkTable.format(BenchmarkTable.percentile(woken, 0.99))) ms)"))
        // Whatever is still held answers at shutdown.
        server.terminate()
        await held.value
    }
}
