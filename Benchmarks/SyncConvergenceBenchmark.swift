import Foundation
import HostTesting
import JSON
import SyncServer

/// The convergence part of `hybrid-bench sync`: 4 devices × 1,000 operations each (inserts,
/// updates, deletes) while a seeded fault-injecting proxy in front of each drops, duplicates,
/// delays, reorders and cuts; then the network heals and the clock runs until every device equals
/// the server and has nothing left to send.
struct SyncConvergenceBenchmark {
    let devices = 4
    let operations = 1000
    let seed: UInt64 = 7

    func run(folder: String) async throws {
        let server = try await LocalSyncServer.start(database: folder + "/converge-server.sqlite", rateLimit: .off)
        let port = server.port
        defer { Task { await server.stop() } }
        var proxies: [FaultProxy] = []
        var clients: [BenchDevice] = []
        defer { proxies.forEach { $0.stop() } }
        for index in 0..<devices {
            let proxy = try FaultProxy(upstreamPort: port, seed: seed &+ UInt64(index), plan: .none)
            proxies.append(proxy)
            let client = try BenchDevice(folder: folder + "/converge-\(index)")
            _ = try await client.storage("open", ["schema": SyncBenchmark.schema])
            _ = try await client.sync("connect", ["server": .string(proxy.base)])
            proxy.setPlan(.chaos(rate: 0.2))
            clients.append(client)
        }
        var random = SplitMix64(seed: seed)
        let started = DispatchTime.now().uptimeNanoseconds
        for index in 0..<devices {
            var ids: [String] = []
            for n in 0..<operations {
                let roll = random.next() % 10
                if ids.isEmpty || roll < 6 {
                    let id = "d\(index)-\(n)"
                    ids.append(id)
                    _ = try await clients[index].storage("insert", ["table": "tracked", "records": [SyncBenchmark.record(n, prefix: "d\(index)")]])
                } else if roll < 9 {
                    let id = ids[Int(random.next() % UInt64(ids.count))]
                    _ = try await clients[index].storage("update", ["table": "tracked", "where": ["id": .string(id)], "set": ["title": .string("edit \(n)")]])
                } else {
                    let id = ids.remove(at: Int(random.next() % UInt64(ids.count)))
                    _ = try await clients[index].storage("delete", ["table": "tracked", "where": ["id": .string(id)]])
                }
                if n % 100 == 99 { _ = try? await clients[index].sync("run") }
            }
        }
        let written = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let faults = proxies.reduce(0) { $0 + $1.counts.filter { $0.key != .pass }.values.reduce(0, +) }
        proxies.forEach { $0.heal() }
        let healed = DispatchTime.now().uptimeNanoseconds
        var rounds = 0
        while true {
            rounds += 1
            for client in clients {
                for attempt in 0..<20 {
                    do { _ = try await client.sync("run"); break } catch { if attempt == 19 { throw error } }
                }
            }
            var settled = true
            for client in clients {
                let status = try await client.sync("status")
                if status["pending"] != 0 || status["sending"] != 0 || status["acknowledged"] != 0 { settled = false }
            }
            if settled || rounds == 10 { break }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - healed) / 1e9
        var counts: [Int] = []
        for client in clients { counts.append(try await client.storage("count", ["table": "tracked"])["count"]?.intValue ?? -1) }
        let remote = try await server.server.store.snapshot().tables["tracked"]?.filter { !$0.deleted }.count ?? 0
        let agree = counts.allSatisfy { $0 == remote }
        print("convergence: \(devices) devices x \(operations) operations under faults (\(faults) injected while writing, \(BenchmarkTable.format(written)) s)")
        print(BenchmarkTable.row("  time from healing to converged", seconds * 1000, unit: "ms (\(rounds) rounds of runs; every device \(agree ? "equals" : "DIFFERS FROM") the server's \(remote) rows)"))
    }
}
