import Foundation
import HostTesting
import JSON
import NIOCore
import NIOPosix
import SyncAuth
import SystemIO

/// `hybrid-bench write-ceiling`: how many pushes a second the sync server takes before its push
/// latency breaks, over SQLite (one instance, the baseline), PostgreSQL with one instance, and
/// PostgreSQL with two instances sharing the database, pushes alternating between them. Every
/// writing transaction over PostgreSQL holds one advisory lock (`ARCHITECTURE.md`, "Several
/// servers over PostgreSQL"), so the second instance adds HTTP and JSON capacity but no write
/// concurrency: this is the figure that lock sets.
///
/// Open loop, as devices are: packets (two inserts each, no dependency) are sent at a fixed rate
/// whatever the answers do, spread over 200 devices, and a push's latency runs from the moment it
/// was due, so time spent queued in the client counts (no coordinated omission). The rate rises by
/// √2 a step (`--seconds` each, default 4, after 1 s of warm-up) from 100 packets a second until a
/// step breaks: p99 over 100 ms, under 95% of the offered pushes answered 200 by the step's end
/// plus 2 s, or any failure. The ceiling is the last step that held. Beside each step, the CPU the
/// servers and the PostgreSQL cluster used, as a share of one core: on a small machine the
/// client, the servers and the cluster share the cores, and the column says which ran out first.
struct WriteCeilingBenchmark: Sendable {
    let stepSeconds: Double
    let devices = 200
    let opsPerPacket = 2
    let startRate = 100.0
    let maximumRate = 12_800.0
    let p99LimitMs = 100.0

    init(seconds: Double?) {
        stepSeconds = seconds ?? 4
    }

    func run() {
        inScratchFolder("write-ceiling") { folder in try await measure(folder: folder) }
    }

    struct Step {
        let offered: Double
        let answered: Int
        let due: Int
        let failures: Int
        let achieved: Double
        let p50: Double
        let p99: Double
        let serverCores: Double
        let postgresCores: Double?
        let failure: String?

        func holds(limit: Double) -> Bool {
            failure == nil && failures == 0 && Double(answered) >= 0.95 * Double(due) && p99 <= limit
        }
    }

    private func measure(folder: String) async throws {
        _ = ProcessStats.raiseOpenFileLimit()
        let secretFile = try SyncServerLoadBenchmark.writeSecret(in: folder)
        let signer = try TokenSigner(secretFile: secretFile)
        let hybrid = MeasuredProcess.builtHybrid
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        defer { group.shutdownGracefully { _ in } }
        print("bench write-ceiling: packets of \(opsPerPacket) inserts from \(devices) devices, open loop, rising by √2 from "
              + "\(BenchmarkTable.format(startRate))/s, \(BenchmarkTable.format(stepSeconds)) s a step; a step holds with p99 <= "
              + "\(BenchmarkTable.format(p99LimitMs)) ms and >= 95% answered; servers: \(hybrid) sync-server (rate limit off); "
              + "\(ProcessInfo.processInfo.activeProcessorCount) cores for client, servers and cluster")

        var ceilings: [(String, Double)] = []
        ceilings.append(("SQLite, one instance", try await ceiling(name: "SQLite, one instance", databases: [folder + "/ceiling.sqlite"],
                                                                 hybrid: hybrid, secretFile: secretFile, signer: signer, group: group, postmaster: nil)))
        if let text = ProcessInfo.processInfo.environment[PostgresTestDatabase.variable], let port = URLComponents(string: text)?.port {
            let postmaster = ProcessStats.postmaster(port: port)
            for instances in [1, 2] {
                let database = try await PostgresTestDatabase.create()
                let name = "PostgreSQL, \(instances == 1 ? "one instance" : "two instances")"
                let found = try await ceiling(name: name, databases: Array(repeating: database.url, count: instances), hybrid: hybrid,
                                              secretFile: secretFile, signer: signer, group: group, postmaster: postmaster)
                await database.drop()
                ceilings.append((name, found))
            }
        } else {
            print("  PostgreSQL setups skipped: no \(PostgresTestDatabase.variable); run under scripts/with-postgres")
        }
        print("[the ceilings: the highest offered rate that held]")
        let baseline = ceilings[0].1
        for (name, value) in ceilings {
            print(BenchmarkTable.row("  " + name, value, unit: "packets/s = \(BenchmarkTable.format(value * Double(opsPerPacket))) ops/s"
                                     + (name == ceilings[0].0 ? "  (baseline)" : "  (\(BenchmarkTable.format(value / max(baseline, 1)))x SQLite)")))
        }
    }

    /// Raises the rate against fresh servers over `databases` (one instance each) until a step
    /// breaks; returns the last rate that held (0 when none did).
    private func ceiling(name: String, databases: [String], hybrid: String, secretFile: String, signer: TokenSigner,
                         group: any EventLoopGroup, postmaster: Int32?) async throws -> Double {
        var servers: [LocalSyncServer] = []
        defer { for server in servers { server.stopProcess() } }
        for database in databases {
            servers.append(try await LocalSyncServer.startChild(executable: hybrid, database: database, authSecretFile: secretFile,
                                                                rateLimit: .off, arguments: LocalSyncServer.unlimited))
        }
        let clients = servers.map { LoadHTTPClient(host: "127.0.0.1", port: $0.port, group: group) }
        defer { for client in clients { client.close() } }
        let population = try await SyncServerLoadBenchmark.register(
            LoadDevice.population(devices, signer: signer, now: Int64(Date().timeIntervalSince1970), prefix: "w"), clients: clients)
        for client in clients { try await client.prewarm(64) }
        print("[\(name)]")
        print("  offered/s".padding(to: 12) + "answered/s".leftPadding(to: 12) + "p50 ms".leftPadding(to: 10) + "p99 ms".leftPadding(to: 10)
              + "servers' cores".leftPadding(to: 16) + "cluster's cores".leftPadding(to: 17))
        var sent = 0
        let warmUp = try await step(rate: startRate, seconds: 1, population: population, clients: clients, servers: servers, postmaster: postmaster,
                                    firstPacket: sent)
        sent += warmUp.due
        var held = 0.0
        var rate = startRate
        while rate <= maximumRate {
            let result = try await step(rate: rate, seconds: stepSeconds, population: population, clients: clients, servers: servers,
                                        postmaster: postmaster, firstPacket: sent)
            sent += result.due
            let holds = result.holds(limit: p99LimitMs)
            print(row(result) + (holds ? "" : "  broke: " + why(result)))
            guard holds else { break }
            held = rate
            rate = (rate * 2.0.squareRoot()).rounded()
        }
        return held
    }

    private func row(_ result: Step) -> String {
        var line = "  " + BenchmarkTable.format(result.offered).padding(to: 10)
        line += BenchmarkTable.format(result.achieved).leftPadding(to: 12)
        line += BenchmarkTable.format(result.p50).leftPadding(to: 10) + BenchmarkTable.format(result.p99).leftPadding(to: 10)
        line += BenchmarkTable.format(result.serverCores).leftPadding(to: 16)
        return line + (result.postgresCores.map { BenchmarkTable.format($0) } ?? "-").leftPadding(to: 17)
    }

    private func why(_ result: Step) -> String {
        if let failure = result.failure { return "\(result.failures) failed, the first: \(failure)" }
        if result.p99 > p99LimitMs { return "p99 over \(BenchmarkTable.format(p99LimitMs)) ms" }
        return "\(result.answered) of \(result.due) answered"
    }

    /// Sends `rate` packets a second for `seconds`, each due at its own instant, and waits for the
    /// answers (at most 2 s past the step's end, then counts the rest as unanswered).
    private func step(rate: Double, seconds: Double, population: [LoadDevice], clients: [LoadHTTPClient], servers: [LocalSyncServer],
                      postmaster: Int32?, firstPacket: Int) async throws -> Step {
        let due = Int(rate * seconds)
        let latencies = Locked<[Double]>([])
        let failures = Locked<(count: Int, first: String?)>((0, nil))
        let serverCPU = servers.map(\.cpuSeconds).reduce(0, +)
        let clusterCPU = postmaster.map { ProcessStats.clusterCPUSeconds(postmaster: $0) }
        let started = MonotonicClock.now()
        let intervalNs = 1e9 / rate
        let (opsPerPacket, devices) = (opsPerPacket, population.count)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<due {
                let dueAt = started + UInt64(Double(index) * intervalNs)
                let now = MonotonicClock.now()
                if dueAt > now { try? await Task.sleep(nanoseconds: dueAt - now) }
                let packet = firstPacket + index
                let device = population[packet % devices]
                group.addTask {
                    let opIds = (0..<opsPerPacket).map { "w\(packet)-\($0)" }
                    let ops = opIds.map { opId -> JSONValue in
                        ["opId": .string(opId), "dataId": .string(opId), "table": "notes", "type": "insert", "scopeColumn": "owner",
                         "data": ["id": .string(opId), "owner": .string(device.teamScope), "body": "a short note, as a person types one"],
                         "dependencyId": .null, "timestamp": .number((Date().timeIntervalSince1970 * 1000).rounded())]
                    }
                    let body = Array(JSONWriter.write(["deviceId": .string(device.id), "packetId": .string("w\(packet)"),
                                                       "dependencyIdentifier": .null, "ops": .array(ops)]).utf8)
                    do {
                        let answer = try await clients[packet % clients.count].request(.POST, "/v1/push", token: device.token, body: body,
                                                                                       timeout: .seconds(Int64(seconds) + 2))
                        guard answer.status == 200 else {
                            failures.withLock { if $0.first == nil { $0.first = "push answered \(answer.status)" }; $0.count += 1 }
                            return
                        }
                        let latency = Double(MonotonicClock.now() - dueAt) / 1e6
                        latencies.withLock { $0.append(latency) }
                    } catch {
                        failures.withLock { if $0.first == nil { $0.first = "push: \(error)" }; $0.count += 1 }
                    }
                }
            }
        }
        let elapsed = Double(MonotonicClock.now() - started) / 1e9
        let values = latencies.withLock { $0 }
        let (failed, first) = failures.withLock { ($0.count, $0.first) }
        let answered = values.count
        return Step(offered: rate, answered: answered, due: due, failures: failed, achieved: Double(answered) / max(elapsed, seconds),
                    p50: BenchmarkTable.percentile(values, 0.5), p99: BenchmarkTable.percentile(values, 0.99),
                    serverCores: (servers.map(\.cpuSeconds).reduce(0, +) - serverCPU) / elapsed,
                    postgresCores: postmaster.flatMap { pid in clusterCPU.map { (ProcessStats.clusterCPUSeconds(postmaster: pid) - $0) / elapsed } },
                    failure: failed > 0 ? first : nil)
    }
}
