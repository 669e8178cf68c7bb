import CurlTransport
import Dispatch
import Foundation
import HostTesting
import JSON
import SyncServer

/// `hybrid-bench sync-postgres`: the push rate of the reference server over PostgreSQL, one
/// instance and two sharing the database (pushes round-robin over both), against the same pushes
/// to a server over SQLite (the baseline). 16 devices push at once, each a chain of packets of 10
/// inserts, raw over HTTP. Needs a cluster: run it under `scripts/with-postgres` (it reads
/// HYBRID_TEST_POSTGRES_URL and creates a database of its own there).
///
/// Every writing transaction over PostgreSQL holds one advisory lock (see PostgresSyncStore), so a
/// second instance adds HTTP and JSON capacity but not write concurrency: the figure says what the
/// lock costs, and the later 1,000-device benchmark starts from it.
public struct SyncPostgresBenchmark: Sendable {
    let packetsPerDevice: Int
    let devices = 16
    let opsPerPacket = 10

    public init(iterations: Int?) {
        packetsPerDevice = iterations ?? 50
    }

    public func run() {
        inScratchFolder("sync-postgres") { folder in try await measure(folder: folder) }
    }

    private func measure(folder: String) async throws {
        let total = devices * packetsPerDevice * opsPerPacket
        print("bench sync-postgres: \(devices) devices x \(packetsPerDevice) packets x \(opsPerPacket) inserts = \(total) ops, pushed raw, \(devices) in flight")
        let sqlite = try await pushRate(databases: [folder + "/server.sqlite"])
        print(BenchmarkTable.row("SQLite, one server (baseline)", sqlite, unit: "ops/s"))
        let database = try await PostgresTestDatabase.create()
        let single = try await pushRate(databases: [database.url])
        await database.drop()
        print(BenchmarkTable.row("PostgreSQL, one server", single, unit: "ops/s  (\(BenchmarkTable.format(single / sqlite))x SQLite)"))
        let shared = try await PostgresTestDatabase.create()
        let two = try await pushRate(databases: [shared.url, shared.url])
        await shared.drop()
        print(BenchmarkTable.row("PostgreSQL, two servers round-robin", two, unit: "ops/s  (\(BenchmarkTable.format(two / sqlite))x SQLite)"))
    }

    /// Starts one server per entry of `databases`, pushes every device's packets round-robin over
    /// them, and returns ops per second.
    private func pushRate(databases: [String]) async throws -> Double {
        var servers: [LocalSyncServer] = []
        for database in databases { servers.append(try await LocalSyncServer.start(database: database, rateLimit: .off)) }
        let bases = servers.map(\.base)
        var registered: [(id: String, token: String)] = []
        for d in 0..<devices {
            let answer = try await CurlClient.shared.perform(TransferRequest(url: bases[d % bases.count] + "/v1/devices", method: "POST", body: Array("{}".utf8)))
            let device = try JSONParser.parse(answer.body)
            registered.append((device["deviceId"]?.stringValue ?? "", device["token"]?.stringValue ?? ""))
        }
        let (devices, packets, size, targets) = (registered, packetsPerDevice, opsPerPacket, bases)
        let started = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (d, device) in devices.enumerated() {
                group.addTask {
                    for p in 0..<packets {
                        let ops = (0..<size).map { i -> JSONValue in
                            ["opId": .string("\(d)-\(p)-\(i)"), "dataId": .string("\(d)-\(p)-\(i)"), "table": "tracked", "type": "insert",
                             "data": SyncBenchmark.record(i, prefix: "\(d)-\(p)"), "dependencyId": .null, "timestamp": .number(Double(1_700_000_000_000 + p))]
                        }
                        let body = JSONWriter.write(["deviceId": .string(device.id), "packetId": .string("p\(p)"),
                                                     "dependencyIdentifier": p == 0 ? .null : .string("p\(p - 1)"), "ops": .array(ops)])
                        let answer = try await CurlClient.shared.perform(TransferRequest(
                            url: targets[(d + p) % targets.count] + "/v1/push", method: "POST",
                            headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(device.token)")], body: Array(body.utf8)))
                        guard answer.status == 200 else { throw BenchError("push answered \(answer.status)") }
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        for server in servers { await server.stop() }
        return Double(devices.count * packets * size) / seconds
    }
}
