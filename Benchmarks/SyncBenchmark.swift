import Bridge
import CurlTransport
import Dispatch
import Foundation
import HostTesting
import JSON
import Persistence
import Storage
import Sync
import SyncAuth
import SyncClient
import SyncServer
import SystemIO

/// `hybrid-bench sync`: against the reference server on loopback, in one run:
/// - a sync-tracked write (the row plus its operation, in one transaction) vs the same write to an
///   untracked table (goal ≤ 1.6×);
/// - pushing 10k operations through `sync.run` vs POSTing the same packets raw to a server of its
///   own (goal ≥ 10k ops/s);
/// - pulling and applying those 10k operations on a second device through `sync.run` vs fetching
///   the same pages raw without applying them (goal ≥ 20k ops/s);
/// - the time 4 devices × 1,000 operations take to converge once a faulty network heals.
public struct SyncBenchmark: Sendable {
    let operations: Int

    public init(iterations: Int?) {
        operations = iterations ?? 10_000
    }

    static let schema: JSONValue = [
        "version": 1,
        "tables": [
            "tracked": ["columns": columns, "primaryKey": "id", "sync": ["mode": "twoWay"]],
            "plain": ["columns": columns, "primaryKey": "id"],
        ],
    ]
    static let columns: JSONValue = ["id": "TEXT NOT NULL", "title": "TEXT", "done": "BOOLEAN NOT NULL DEFAULT 0", "due": "INTEGER",
                                     "priority": "INTEGER", "note": "TEXT", "owner": "TEXT", "score": "REAL"]

    static func record(_ i: Int, prefix: String) -> JSONValue {
        ["id": .string("\(prefix)-\(i)"), "title": .string("task number \(i)"), "done": .bool(i % 3 == 0), "due": .number(Double(1_700_000_000 + i)),
         "priority": .number(Double(i % 5)), "note": "a note of a few words", "owner": .string("user\(i % 17)"), "score": .number(Double(i) * 0.5)]
    }

    public func run() {
        inScratchFolder("sync") { folder in try await measure(folder: folder) }
    }

    private func measure(folder: String) async throws {
        // The rate limit off: a benchmark's one device pushes and pulls as fast as the server
        // answers, and it is the server being measured.
        let server = try await LocalSyncServer.start(database: folder + "/server.sqlite", rateLimit: .off)
        let rawServer = try await LocalSyncServer.start(database: folder + "/raw-server.sqlite", rateLimit: .off)
        let rawPort = rawServer.port
        defer { Task { await server.stop(); await rawServer.stop() } }
        let base = server.base
        print("bench sync: \(operations) operations, 8 columns each; reference server on loopback (\(base)); writes best of 5")

        // 1. Tracked vs untracked writes, 100 rows per transaction, alternating, best of 5 each
        //    (a round takes ~50 ms; this machine's noise between rounds is larger than that).
        let writer = try BenchDevice(folder: folder + "/writer")
        _ = try await writer.storage("open", ["schema": Self.schema])
        var tracked: [Double] = [], plain: [Double] = []
        for round in 0..<5 {
            plain.append(try await timed { try await writer.insertAll(table: "plain", count: operations, prefix: "p\(round)") })
            tracked.append(try await timed { try await writer.insertAll(table: "tracked", count: operations, prefix: "t\(round)") })
        }
        let trackedBest = tracked.min()!, plainBest = plain.min()!
        print(BenchmarkTable.row("untracked insert (baseline)", Double(operations) / plainBest, unit: "rows/s"))
        print(BenchmarkTable.row("sync-tracked insert", Double(operations) / trackedBest, unit: "rows/s  (\(BenchmarkTable.format(trackedBest / plainBest))x the time; goal <= 1.6x)"))

        // 2. Push: a device with `operations` pending ops (the last round's), through sync.run.
        let pusher = try BenchDevice(folder: folder + "/pusher")
        _ = try await pusher.storage("open", ["schema": Self.schema])
        try await pusher.insertAll(table: "tracked", count: operations, prefix: "push")
        _ = try await pusher.sync("connect", ["server": .string(base)])
        // Baseline first: the same number of ops, in packets of 1000, POSTed raw to a server of its own.
        let rawSeconds = try await rawPush(port: rawPort)
        let pushSeconds = try await timed { _ = try await pusher.sync("run") }
        print(BenchmarkTable.row("raw POST /v1/push (baseline)", Double(operations) / rawSeconds, unit: "ops/s"))
        print(BenchmarkTable.row("sync.run push", Double(operations) / pushSeconds,
                                 unit: "ops/s  (\(BenchmarkTable.format(rawSeconds / pushSeconds))x raw; goal >= 10k ops/s)"))

        // 3. Pull and apply on a second device.
        let rawPull = try await timed { try await rawPullAll(base: base) }
        let puller = try BenchDevice(folder: folder + "/puller")
        _ = try await puller.storage("open", ["schema": Self.schema])
        _ = try await puller.sync("connect", ["server": .string(base)])
        var pulled = JSONValue.null
        let pullSeconds = try await timed { pulled = try await puller.sync("run") }
        let count = pulled["pulled"]?.intValue ?? 0
        print(BenchmarkTable.row("raw GET /v1/pull pages (baseline)", Double(count) / rawPull, unit: "ops/s"))
        print(BenchmarkTable.row("sync.run pull + execute + apply", Double(count) / pullSeconds,
                                 unit: "ops/s  (\(BenchmarkTable.format(rawPull / pullSeconds))x raw; goal >= 20k ops/s)"))
        let rows = try await puller.storage("count", ["table": "tracked"])["count"]?.intValue ?? 0
        print("check: the second device holds \(rows) rows after pulling \(count) operations")

        // 4. Convergence after healing, 4 devices × 1,000 operations under faults.
        try await SyncConvergenceBenchmark().run(folder: folder)
    }

    private func rawPush(port: Int) async throws -> Double {
        let base = "http://127.0.0.1:\(port)"
        let device = try await CurlClient.shared.perform(TransferRequest(url: base + "/v1/devices", method: "POST", body: Array("{}".utf8)))
        let registered = try JSONParser.parse(device.body)
        let deviceId = registered["deviceId"]?.stringValue ?? "", token = registered["token"]?.stringValue ?? ""
        var bodies: [String] = []
        var previous: String? = nil
        for packet in stride(from: 0, to: operations, by: 1000) {
            let packetId = "raw-\(packet)"
            let ops = (packet..<min(operations, packet + 1000)).map { i -> JSONValue in
                ["opId": .string("raw-op-\(i)"), "dataId": .string("raw-\(i)"), "table": "tracked", "type": "insert",
                 "data": Self.record(i, prefix: "raw"), "dependencyId": .null, "timestamp": .number(Double(1_700_000_000_000 + i))]
            }
            bodies.append(JSONWriter.write(["deviceId": .string(deviceId), "packetId": .string(packetId),
                                            "dependencyIdentifier": previous.map(JSONValue.string) ?? .null, "ops": .array(ops)]))
            previous = packetId
        }
        return try await timed {
            for body in bodies {
                let answer = try await CurlClient.shared.perform(TransferRequest(url: base + "/v1/push", method: "POST",
                    headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")], body: Array(body.utf8)))
                guard answer.status == 200 else { throw BenchError("raw push answered \(answer.status)") }
            }
        }
    }

    private func rawPullAll(base: String) async throws {
        let device = try await CurlClient.shared.perform(TransferRequest(url: base + "/v1/devices", method: "POST", body: Array("{}".utf8)))
        let registered = try JSONParser.parse(device.body)
        let deviceId = registered["deviceId"]?.stringValue ?? "", token = registered["token"]?.stringValue ?? ""
        var cursor = 0
        while true {
            let answer = try await CurlClient.shared.perform(TransferRequest(url: base + "/v1/pull?deviceId=\(deviceId)&after=\(cursor)&limit=1000",
                                                                             headers: [("Authorization", "Bearer \(token)")]))
            let page = try JSONParser.parse(answer.body)
            cursor = page["cursor"]?.intValue ?? cursor
            if page["more"]?.boolValue != true { return }
        }
    }

    private func timed(_ body: () async throws -> Void) async throws -> Double {
        let started = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    }
}

/// One device of the benchmark: a data folder, and the storage and sync services as the bridge
/// calls them.
struct BenchDevice: Sendable {
    let app: AppContext
    let registry = DataCenterRegistry(journal: SyncDatabaseJournal.self)

    init(folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        app = AppContext(name: "bench", version: "1.0.0", dataDirectory: folder, grants: .all)
    }

    func storage(_ action: String, _ params: JSONObject) async throws -> JSONValue {
        try await call(StorageService(registry: registry), action, params)
    }

    func sync(_ action: String, _ params: JSONObject = [:]) async throws -> JSONValue {
        try await call(SyncService(registry: registry), action, params)
    }

    func insertAll(table: String, count: Int, prefix: String) async throws {
        for start in stride(from: 0, to: count, by: 100) {
            let records = (start..<min(count, start + 100)).map { SyncBenchmark.record($0, prefix: prefix) }
            _ = try await storage("insert", ["table": .string(table), "records": .array(records)])
        }
    }

    private func call(_ service: some BridgeService, _ action: String, _ params: JSONObject) async throws -> JSONValue {
        var params = params
        if params["database"] == nil { params["database"] = "bench" }
        let call = ServiceCall(target: service.target, action: action, params: .object(params), app: app)
        return try await service.actions[action]!.perform(call)
    }
}

/// Runs a benchmark's measurement in a scratch folder, removed afterwards; a failure is printed as
/// `bench NAME: error`.
func inScratchFolder(_ name: String, _ measure: @escaping @Sendable (String) async throws -> Void) {
    let folder = TemporaryFolder(prefix: "hybrid-bench").path
    defer { FileSystem.removeTree(folder) }
    do {
        try blocking { try await measure(folder) }
    } catch {
        print("bench \(name): \(error)")
    }
}

/// Runs async work to completion from synchronous code (the benchmark commands are synchronous).
func blocking(_ body: @escaping @Sendable () async throws -> Void) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = Locked<String?>(nil)
    Task {
        do { try await body() } catch { failure.value = "\(error)" }
        done.signal()
    }
    done.wait()
    if let message = failure.value { throw BenchError(message) }
}
