import Dispatch
import CurlTransport
import Foundation
import HostTesting
import JSON
import SyncAuth
import SyncProtocol
import SyncServer
import SystemIO

/// `hybrid-bench sync-scopes`: sync for many users, against servers with auth on loopback:
/// - pull-and-apply through `sync.run` for a device holding 1 of 100 scopes, from a server whose
///   log holds 1M ops of the other 99 interleaved with its scope's ops, vs the same pull from a
///   server holding only that scope's ops (goal <= 1.5x: the scope filter is an index, not a scan);
/// - a new device's initial sync of a 100k-row scope from a compacted server (a snapshot, paged),
///   vs fetching the same snapshot pages raw without applying them (goal >= 50k rows/s).
struct SyncScopeBenchmark {
    let otherOps: Int
    let snapshotRows: Int

    init(iterations: Int?) {
        otherOps = iterations ?? 1_000_000
        snapshotRows = 100_000
    }

    static let secret = Array("the benchmark's shared secret".utf8)
    static let schema: JSONValue = [
        "version": 1,
        "tables": ["board": ["columns": ["id": "TEXT NOT NULL", "title": "TEXT", "n": "INTEGER", "owner": "TEXT NOT NULL"], "primaryKey": "id",
                             "sync": ["mode": "twoWay", "scope": "owner"]]],
    ]

    func run() {
        inScratchFolder("sync-scopes") { folder in try await measure(folder: folder) }
    }

    static func token(_ scopes: [String]) -> String {
        let now = Int64(Date().timeIntervalSince1970)
        return TokenSigner(secret: secret).sign(TokenClaims(subject: "bench", scopes: scopes, expiresAt: now + 3600))
    }

    func start(_ path: String) async throws -> (SyncServer, String) {
        let server = try await LocalSyncServer.start(database: path, rateLimit: .off, tokenVerifier: TokenVerifier(secret: Self.secret))
        return (server.server, server.base)
    }

    /// Pushes straight into the store, in packets of 10k: `scopeOf(i)` names op i's scope.
    /// `rowOf(i)` names its row within the scope.
    func seed(_ store: any SyncStore, ops count: Int, scopeOf: (Int) -> String, rowOf: (Int) -> Int) async throws {
        let all = (0..<100).map { "scope:\($0)" }
        let device = try await store.registerDevice(name: "seed", tokenDigest: "seed", user: "bench", scopes: all, now: SystemClock().wallTime)
        var previous: String?
        for start in stride(from: 0, to: count, by: 10_000) {
            let ops = (start..<min(count, start + 10_000)).map { i -> SyncOperation in
                let scope = scopeOf(i)
                let row = rowOf(i)
                return SyncOperation(opId: "op-\(i)", dataId: "\(scope)-r\(row)", table: "board", type: .insert,
                                     data: ["title": .string("row \(row) of \(scope)"), "n": .number(Double(i)), "owner": .string(scope)],
                                     timestamp: Double(1_700_000_000_000 + i), scopeColumn: "owner")
            }
            let packet = PushPacket(deviceId: device, packetId: "seed-\(start)", dependencyIdentifier: previous, ops: ops)
            previous = packet.packetId
            guard case .applied = try await store.push(packet, now: SystemClock().wallTime) else { throw BenchError("seeding was not applied") }
        }
        _ = try await store.pull(for: DeviceIdentity(deviceId: device, user: "bench", scopes: all), after: try await store.snapshot().cursor,
                                 limit: 1, now: SystemClock().wallTime)
    }

    func measure(folder: String) async throws {
        let mine = "scope:0"
        let total = otherOps + otherOps / 99
        print("bench sync-scopes: a device with 1 of 100 scopes; \(otherOps) ops of the other 99 interleaved with \(total - otherOps) of its own")
        let (crowded, crowdedBase) = try await start(folder + "/crowded.sqlite")
        // One op in 100 is the device's scope, spread across the whole log.
        try await seed(crowded.store, ops: total, scopeOf: { "scope:\($0 % 100)" }, rowOf: { ($0 / 100) % 1_000 })
        let (alone, aloneBase) = try await start(folder + "/alone.sqlite")
        // The same ops of its scope, in the same order, and nothing else.
        try await seed(alone.store, ops: total / 100, scopeOf: { _ in mine }, rowOf: { $0 % 1_000 })

        var seconds: [String: Double] = [:]
        var pulled: [String: Int] = [:]
        for (name, base) in [("alone", aloneBase), ("crowded", crowdedBase)] {
            let device = try BenchDevice(folder: folder + "/device-\(name)")
            _ = try await device.storage("open", ["schema": Self.schema])
            _ = try await device.sync("connect", ["server": .string(base), "token": .string(Self.token([mine]))])
            var answer = JSONValue.null
            seconds[name] = try await timed { answer = try await device.sync("run") }
            pulled[name] = answer["pulled"]?.intValue ?? 0
        }
        print(BenchmarkTable.row("pull + apply, server with only its scope (baseline)", Double(pulled["alone"]!) / seconds["alone"]!, unit: "ops/s"))
        print(BenchmarkTable.row("pull + apply, server with \(otherOps) ops of 99 other scopes", Double(pulled["crowded"]!) / seconds["crowded"]!,
                                 unit: "ops/s  (\(BenchmarkTable.format(seconds["crowded"]! / seconds["alone"]!))x the time; goal <= 1.5x)"))
        print("check: both devices pulled \(pulled["alone"]!) and \(pulled["crowded"]!) ops of their scope")
        await crowded.stop()
        await alone.stop()

        // Initial sync from a compacted snapshot.
        let (compacted, compactedBase) = try await start(folder + "/compacted.sqlite")
        try await seed(compacted.store, ops: snapshotRows, scopeOf: { _ in mine }, rowOf: { $0 })
        let compaction = try await compacted.store.compact(now: SystemClock().wallTime + .seconds(1), retain: .zero)
        let token = Self.token([mine])
        let rawDevice = try BenchDevice(folder: folder + "/raw")
        _ = try await rawDevice.storage("open", ["schema": Self.schema])
        _ = try await rawDevice.sync("connect", ["server": .string(compactedBase), "token": .string(token)])
        let rawId = try await rawDevice.sync("status")["deviceId"]?.stringValue ?? ""
        var rawRows = 0
        let rawSeconds = try await timed {
            var after = ""
            while true {
                let answer = try await CurlClient.shared.perform(TransferRequest(
                    url: compactedBase + "/v1/snapshot?deviceId=\(rawId)&part=all&limit=5000\(after)", headers: [("Authorization", "Bearer \(token)")]))
                let page = try JSONParser.parse(answer.body)
                rawRows += page["tables"]?["board"]?.arrayValue?.count ?? 0
                guard page["more"]?.boolValue == true, let next = page["next"], let table = next["table"]?.stringValue,
                      let dataId = next["dataId"]?.stringValue else { break }
                after = "&afterTable=\(table)&afterDataId=\(dataId.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? dataId)"
            }
        }
        let device = try BenchDevice(folder: folder + "/new-device")
        _ = try await device.storage("open", ["schema": Self.schema])
        _ = try await device.sync("connect", ["server": .string(compactedBase), "token": .string(token)])
        var answer = JSONValue.null
        let syncSeconds = try await timed { answer = try await device.sync("run") }
        let rows = answer["backfilled"]?.intValue ?? 0
        print("bench sync-scopes: a new device of a server whose log is compacted through seq \(compaction.compactedThrough) (\(compaction.removed) entries removed)")
        print(BenchmarkTable.row("raw GET /v1/snapshot pages (baseline)", Double(rawRows) / rawSeconds, unit: "rows/s"))
        print(BenchmarkTable.row("sync.run initial sync from the snapshot", Double(rows) / syncSeconds,
                                 unit: "rows/s  (\(BenchmarkTable.format(syncSeconds / rawSeconds))x the raw time; goal >= 50k rows/s)"))
        let count = try await device.storage("count", ["table": "board"])["count"]?.intValue ?? 0
        print("check: the new device holds \(count) rows (\(rows) backfilled)")
        await compacted.stop()
    }

    private func timed(_ body: () async throws -> Void) async throws -> Double {
        let started = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    }
}
