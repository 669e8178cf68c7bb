import Foundation
import HostTesting
import JSON
import NIOCore
import NIOPosix
import Synchronization
import SyncAuth
import SystemIO

/// `hybrid-bench sync-server`: 1,000 simulated devices against release `hybrid sync-server serve`
/// processes, each device with a token of its own (HS256, minted here with the servers' secret; see
/// ``LoadDevice`` for the users, teams and scopes), pushing small packets on a schedule and
/// live-pulling (`waitMs`) all the while, over a NIO client of its own (``LoadHTTPClient``). Three
/// setups: SQLite, one server; PostgreSQL, one server; PostgreSQL, two servers, every request of a
/// device alternating between them. For each: ops applied a second; push and pull times; the time
/// from just before a push is sent to the moment another device's live pull returns the op (the
/// send time rides in the row); CPU seconds per 1,000 ops of the servers and of the PostgreSQL
/// cluster (from /proc, over the measured window); and whether every op reached every device that
/// may see it exactly once. Then the two-server/one-server CPU per op (issue 15: at most 1.2×), and
/// a capacity run: 3,000 pulls held at once by one server (over PostgreSQL when there is a
/// cluster, else SQLite), its memory idle and holding them, and the time one write takes to reach
/// them all.
///
/// The PostgreSQL setups need a cluster: run it under `scripts/with-postgres` (`make bench` does);
/// without one they are skipped. `--smoke` is 20 devices for 2 s against two PostgreSQL instances
/// (SQLite without a cluster), failing (exit 1) unless every op arrived exactly once: a check of
/// the load generator itself.
public struct SyncServerLoadBenchmark: Sendable {
    let devices: Int
    let seconds: Double
    /// Packets a second, all devices together; each device at most one push in flight.
    let rate: Double
    let capacity: Int
    let smoke: Bool
    let warmUpSeconds: Double
    /// Times the two PostgreSQL setups run, alternating which goes first: their CPU per op swings
    /// by a tenth from one 30 s window to the next on this shared machine, so the ratio is taken
    /// over all rounds pooled.
    let rounds: Int
    let waitMs = 25_000

    public init(devices: Int?, seconds: Double?, rate: Double?, capacity: Int?, rounds: Int?, smoke: Bool) {
        self.smoke = smoke
        self.rounds = max(1, rounds ?? (smoke ? 1 : 3))
        self.devices = max(2, devices ?? (smoke ? 20 : 1_000))
        self.seconds = seconds ?? (smoke ? 2 : 30)
        self.rate = rate ?? (smoke ? 10 : 50)
        self.capacity = capacity ?? (smoke ? 0 : 3_000)
        warmUpSeconds = smoke ? 0.5 : 3
    }

    /// Runs every setup and prints the figures; returns whether every op arrived exactly once.
    public func run() -> Bool {
        let passed = Locked(true)
        inScratchFolder("sync-server") { folder in
            passed.value = try await measure(folder: folder)
        }
        return passed.value
    }

    struct Setup {
        let name: String
        /// 1-based, for the PostgreSQL setups, which run once a round; nil for SQLite's one run.
        var round: Int?
        /// One entry per server instance.
        let databases: [String]
        let postgres: PostgresTestDatabase?
    }

    struct Figures {
        let name: String
        let round: Int?
        let instances: Int
        let seconds: Double
        let state: LoadRecorder.State
        let serverCPU: Double
        let postgresCPU: Double?
        let missing: Int
        /// False when the servers stopped answering during the run (and were killed).
        let answering: Bool
        /// Each server's counters moved over the window (``ServerCounters``), nil where a scrape failed.
        let counters: [ServerCounters?]

        var opsPerSecond: Double { Double(state.opsApplied) / seconds }
        var serverCPUPerThousand: Double { serverCPU / Double(max(1, state.opsApplied)) * 1_000 }
        var postgresCPUPerThousand: Double? { postgresCPU.map { $0 / Double(max(1, state.opsApplied)) * 1_000 } }
        var totalCPUPerThousand: Double { serverCPUPerThousand + (postgresCPUPerThousand ?? 0) }
    }

    private func measure(folder: String) async throws -> Bool {
        let limit = ProcessStats.raiseOpenFileLimit()
        let secretFile = try Self.writeSecret(in: folder)
        let signer = try TokenSigner(secretFile: secretFile)
        let hybrid = MeasuredProcess.builtHybrid
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        defer { group.shutdownGracefully { _ in } }

        let teams = max(1, devices / (LoadDevice.devicesPerUser * LoadDevice.usersPerTeam))
        print("bench sync-server: \(devices) devices of \(devices / LoadDevice.devicesPerUser) users (2 devices each) in \(teams) teams of up to "
              + "\(LoadDevice.devicesPerUser * LoadDevice.usersPerTeam) devices; a packet of 1-3 inserts to the team's scope 4 times in 5, to the user's "
              + "otherwise; \(BenchmarkTable.format(rate)) packets/s offered (one every \(BenchmarkTable.format(Double(devices) / rate)) s a device, "
              + "at most one in flight); every device live-pulling (waitMs \(waitMs)); \(BenchmarkTable.format(seconds)) s measured after "
              + "\(BenchmarkTable.format(warmUpSeconds)) s of warm-up; servers: \(hybrid) sync-server serve (rate limit off); open files \(limit)")

        // The smoke check runs one setup: two PostgreSQL instances when there is a cluster (every
        // path: NOTIFY across servers, requests alternating), else SQLite.
        let clusterPort = ProcessInfo.processInfo.environment[PostgresTestDatabase.variable].flatMap { URLComponents(string: $0)?.port }
        var setups: [Setup] = []
        if !smoke || clusterPort == nil {
            setups.append(Setup(name: "SQLite, one instance", databases: [folder + "/server.sqlite"], postgres: nil))
        }
        var postmaster: Int32?
        if let port = clusterPort {
            postmaster = ProcessStats.postmaster(port: port)
            for round in 1...rounds {
                let one = smoke ? nil : try await PostgresTestDatabase.create()
                let two = try await PostgresTestDatabase.create()
                let pair = (one.map { [Setup(name: "PostgreSQL, one instance", round: round, databases: [$0.url], postgres: $0)] } ?? [])
                    + [Setup(name: "PostgreSQL, two instances", round: round, databases: [two.url, two.url], postgres: two)]
                setups += round % 2 == 1 ? pair : pair.reversed()
            }
            if postmaster == nil { print("  (no postmaster found listening on port \(port): PostgreSQL's CPU is not measured)") }
        } else if !smoke {
            print("  PostgreSQL setups skipped: no \(PostgresTestDatabase.variable); run under scripts/with-postgres (make bench does)")
        }

        var all: [Figures] = []
        var exact = true
        for setup in setups {
            let figures = try await run(setup, hybrid: hybrid, secretFile: secretFile, signer: signer, group: group, postmaster: postmaster)
            await setup.postgres?.drop()
            report(figures)
            exact = exact && figures.answering && figures.missing == 0 && figures.state.duplicates == 0
            all.append(figures)
        }
        summarize(all)
        if capacity > 0 {
            // On PostgreSQL when there is a cluster: the SQLite store can stop answering under a burst
            // of requests (BENCHMARKS.md, "1,000 devices"), and thousands of pulls arriving at once are one.
            let database = clusterPort != nil ? try await PostgresTestDatabase.create() : nil
            try await LongPollCapacityRun(pulls: capacity, hybrid: hybrid, secretFile: secretFile, signer: signer, group: group)
                .run(database: database?.url ?? folder + "/capacity.sqlite", store: database == nil ? "SQLite" : "PostgreSQL")
            await database?.drop()
        }
        return exact
    }

    // MARK: One setup

    private func run(_ setup: Setup, hybrid: String, secretFile: String, signer: TokenSigner, group: any EventLoopGroup,
                     postmaster: Int32?) async throws -> Figures {
        var servers: [LocalSyncServer] = []
        defer { servers.forEach { $0.stopProcess() } }
        for database in setup.databases {
            servers.append(try await LocalSyncServer.startChild(executable: hybrid, database: database, authSecretFile: secretFile, rateLimit: .off,
                                                          arguments: LocalSyncServer.unlimited))
        }
        let clients = servers.map { LoadHTTPClient(host: "127.0.0.1", port: $0.port, group: group) }
        defer { clients.forEach { $0.close() } }
        let population = try await Self.register(LoadDevice.population(devices, signer: signer, now: Int64(Date().timeIntervalSince1970)),
                                                 clients: clients)
        // Every device's live pull may sit on either server: a connection each, dialled 200 at a time
        // (the servers listen with a backlog of 256).
        for client in clients { try await client.prewarm(devices) }
        var receivers: [String: Int] = [:]
        for device in population {
            receivers[device.userScope, default: 0] += 1
            receivers[device.teamScope, default: 0] += 1
        }

        let recorder = LoadRecorder()
        recorder.markAnswered(at: MonotonicClock.now())
        let switches = LoadSwitches()
        let (rate, waitMs, receiversByScope) = (rate, waitMs, receivers)
        let pulls = Task {
            await withTaskGroup(of: Void.self) { group in
                for device in population {
                    group.addTask { await Self.pullLoop(device, clients: clients, recorder: recorder, switches: switches, waitMs: waitMs) }
                }
            }
        }
        let pushes = Task {
            await withTaskGroup(of: Void.self) { group in
                for device in population {
                    group.addTask {
                        await Self.pushLoop(device, clients: clients, recorder: recorder, switches: switches,
                                            period: Double(population.count) / rate, receivers: receiversByScope)
                    }
                }
            }
        }

        // A server that stops answering (nothing for stallSeconds) is killed, which fails every
        // request in flight at once, and the run reports what it had until then.
        let pids = servers.compactMap(\.processIdentifier)
        let watchdog = Task {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 250_000_000)
                let now = MonotonicClock.now()
                if Double(now - min(now, recorder.lastAnswer)) / 1e9 > Self.stallSeconds {
                    switches.stall()
                    for pid in pids { kill(pid, SIGKILL) }
                    return
                }
            }
        }
        _ = try await Self.sleep(warmUpSeconds, unlessStalled: switches)
        let serverCPU0 = servers.reduce(0) { $0 + $1.cpuSeconds }
        let postgresCPU0 = setup.postgres == nil ? nil : postmaster.map(ProcessStats.clusterCPUSeconds)
        let counters0 = await ServerCounters.scrape(clients)
        let started = MonotonicClock.now()
        recorder.startWindow(at: started)
        _ = try await Self.sleep(seconds, unlessStalled: switches)
        let ended = MonotonicClock.now()
        recorder.endWindow(at: ended)
        let serverCPU = servers.reduce(0) { $0 + $1.cpuSeconds } - serverCPU0
        let postgresCPU = postgresCPU0.flatMap { before in postmaster.map { ProcessStats.clusterCPUSeconds(postmaster: $0) - before } }
        let counters = zip(await ServerCounters.scrape(clients), counters0).map { after, before in
            after.flatMap { after in before.map { after.since($0) } }
        }

        // Drain: no new pushes; wait (10 s at most) until every acknowledged op has reached every
        // device that may see it.
        switches.stopPushing()
        await pushes.value
        let drainStart = MonotonicClock.now()
        while !switches.stalled, recorder.missing > 0, MonotonicClock.now() - drainStart < 10_000_000_000 {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        let missing = recorder.missing
        watchdog.cancel()
        let answering = !switches.stalled
        if !answering { print("  the server\(servers.count > 1 ? "s" : "") stopped answering (nothing for \(Int(Self.stallSeconds)) s): killed") }
        switches.stopPulling()
        // SIGTERM answers held pulls at once; the loops see the switch and end.
        for server in servers { server.terminate() }
        await pulls.value
        return Figures(name: setup.name, round: setup.round, instances: servers.count, seconds: Double(ended - started) / 1e9, state: recorder.snapshot,
                       serverCPU: serverCPU, postgresCPU: postgresCPU, missing: missing, answering: answering, counters: counters)
    }

    static let stallSeconds = 10.0

    /// Sleeps `seconds`, or less once the watchdog has found the servers stalled; false then.
    static func sleep(_ seconds: Double, unlessStalled switches: LoadSwitches) async throws -> Bool {
        let end = MonotonicClock.now() + UInt64(seconds * 1e9)
        while MonotonicClock.now() < end {
            if switches.stalled { return false }
            try await Task.sleep(nanoseconds: min(250_000_000, end - min(end, MonotonicClock.now())))
        }
        return !switches.stalled
    }

    /// Registers every device (`POST /v1/devices` with its token), 100 at a time, round-robin over
    /// the servers.
    /// A fresh HS256 secret for the servers, 32 random characters, in `folder/sync-secret`; its path.
    static func writeSecret(in folder: String) throws -> String {
        let secretFile = folder + "/sync-secret"
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        try String((0..<32).map { _ in alphabet.randomElement()! }).write(toFile: secretFile, atomically: true, encoding: .utf8)
        return secretFile
    }

    static func register(_ population: [LoadDevice], clients: [LoadHTTPClient]) async throws -> [LoadDevice] {
        var registered = population
        for start in stride(from: 0, to: population.count, by: 100) {
            let ids = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for device in population[start..<min(population.count, start + 100)] {
                    group.addTask {
                        let answer = try await clients[device.index % clients.count].request(
                            .POST, "/v1/devices", token: device.token, body: Array("{\"name\":\"bench-\(device.index)\"}".utf8), timeout: .seconds(30))
                        let body = try JSONParser.parse(Array(answer.body.readableBytesView))
                        guard answer.status == 201, let id = body["deviceId"]?.stringValue else {
                            throw BenchError("POST /v1/devices answered \(answer.status): \(JSONWriter.write(body))")
                        }
                        return (device.index, id)
                    }
                }
                var ids: [(Int, String)] = []
                for try await id in group { ids.append(id) }
                return ids
            }
            for (index, id) in ids { registered[index].id = id }
        }
        return registered
    }

    /// A device's pushes: one packet every `period` seconds (the first at a random phase), sent to
    /// the servers in turn; a device late on its schedule pushes at once, never two at a time.
    static func pushLoop(_ device: LoadDevice, clients: [LoadHTTPClient], recorder: LoadRecorder, switches: LoadSwitches,
                         period: Double, receivers: [String: Int]) async {
        let periodNs = UInt64(period * 1e9)
        var next = MonotonicClock.now() + UInt64(Double.random(in: 0..<period) * 1e9)
        var previous: String?
        var packet = 0
        while switches.pushing {
            let now = MonotonicClock.now()
            if next > now {
                try? await Task.sleep(nanoseconds: min(next - now, 200_000_000))
                continue
            }
            next = max(next + periodNs, now)
            let scope = Int.random(in: 0..<5) == 0 ? device.userScope : device.teamScope
            let instance = (device.index + packet) % clients.count
            let packetId = "p\(packet)"
            let sent = MonotonicClock.now()
            let opIds = (0..<Int.random(in: 1...3)).map { "\(device.index)-\(packet)-\($0)" }
            let ops = opIds.map { opId -> JSONValue in
                ["opId": .string(opId), "dataId": .string(opId), "table": "notes", "type": "insert", "scopeColumn": "owner",
                 "data": ["id": .string(opId), "owner": .string(scope), "body": "a short note, as a person types one",
                          "sentNs": .number(Double(sent)), "via": .number(Double(instance))],
                 "dependencyId": .null, "timestamp": .number((Date().timeIntervalSince1970 * 1000).rounded())]
            }
            let body = Array(JSONWriter.write(["deviceId": .string(device.id), "packetId": .string(packetId),
                                               "dependencyIdentifier": previous.map(JSONValue.string) ?? .null, "ops": .array(ops)]).utf8)
            // A failure is retried with the same packet (the server applies a packet once) until it
            // is answered, at most 5 times.
            for attempt in 1...5 {
                do {
                    let answer = try await clients[instance].request(.POST, "/v1/push", token: device.token, body: body, timeout: .seconds(30))
                    if answer.status == 200 {
                        let seq = (try? JSONParser.parse(Array(answer.body.readableBytesView)))?["cursor"]?.intValue
                        recorder.pushed(opIds: opIds, scope: scope, receivers: receivers[scope] ?? 1, seq: seq, instance: instance, sent: sent, answered: MonotonicClock.now())
                        break
                    }
                    recorder.failed("push answered \(answer.status)")
                    if answer.status < 500 { break }
                } catch {
                    recorder.failed("push: \(error)")
                }
                if attempt < 5 { try? await Task.sleep(nanoseconds: 100_000_000) }
            }
            previous = packetId
            packet += 1
        }
    }

    /// A device's live pulls, back to back from its cursor, alternating between the servers.
    static func pullLoop(_ device: LoadDevice, clients: [LoadHTTPClient], recorder: LoadRecorder, switches: LoadSwitches, waitMs: Int) async {
        var cursor = 0
        var turn = 0
        while switches.pulling {
            let instance = (device.index + turn) % clients.count
            turn += 1
            let ready = recorder.hasReady(scopes: device.scopes, after: cursor)
            let sent = MonotonicClock.now()
            let answer: LoadResponse
            do {
                answer = try await clients[instance].request(.GET, "/v1/pull?deviceId=\(device.id)&after=\(cursor)&limit=1000&waitMs=\(waitMs)",
                                                             token: device.token, timeout: .milliseconds(Int64(waitMs) + 30_000))
            } catch {
                guard switches.pulling else { return }
                recorder.failed("pull: \(error)")
                try? await Task.sleep(nanoseconds: 50_000_000)
                continue
            }
            let answered = MonotonicClock.now()
            guard answer.status == 200, let page = try? JSONParser.parse(Array(answer.body.readableBytesView)) else {
                guard switches.pulling else { return }
                recorder.failed("pull answered \(answer.status)")
                try? await Task.sleep(nanoseconds: 50_000_000)
                continue
            }
            let received = (page["ops"]?.arrayValue ?? []).map { op in
                (opId: op["opId"]?.stringValue ?? "", sentAt: UInt64(op["data"]?["sentNs"]?.numberValue ?? 0),
                 via: op["data"]?["via"]?.intValue ?? -1, own: op["deviceId"]?.stringValue == device.id)
            }
            cursor = page["cursor"]?.intValue ?? cursor
            recorder.pulled(device: device.index, instance: instance, ready: ready, sent: sent, answered: answered, received: received)
        }
    }

    // MARK: Report

    static let goalP50 = 20.0, goalP99 = 100.0, maximumCPURatio = 1.2

    private func report(_ figures: Figures) {
        let state = figures.state
        let p = { (values: [Double], q: Double) in BenchmarkTable.format(BenchmarkTable.percentile(values, q)) }
        print("[\(figures.name)\(roundLabel(figures))]" + (figures.answering ? "" : "  STOPPED ANSWERING during the run: figures up to then"))
        print(BenchmarkTable.row("  ops applied", figures.opsPerSecond,
                                 unit: "ops/s (\(state.packetsApplied) packets, \(state.opsApplied) ops in \(BenchmarkTable.format(figures.seconds)) s; offered ~\(BenchmarkTable.format(rate * 2)) ops/s)"))
        print("  push acknowledged p50 / p99".padding(to: 36) + "\(p(state.pushMs, 0.5)) / \(p(state.pushMs, 0.99)) ms".leftPadding(to: 20))
        if !state.slowPushes.isEmpty {
            // By second of the window: a burst is one moment when everything waited, spread ones are load.
            let bySecond = Dictionary(grouping: state.slowPushes) { Int($0.second) }.sorted { $0.key < $1.key }
            let shown = bySecond.prefix(6).map { second, pushes in
                "s\(second): \(pushes.count) (\(Set(pushes.map { $0.instance + 1 }).sorted().map(String.init).joined(separator: "+")), max \(Int(pushes.map(\.ms).max() ?? 0)) ms)"
            }
            print("    slow (over \(Int(LoadRecorder.slowPushMs)) ms)".padding(to: 36) + "\(state.slowPushes.count) pushes, by second of the window (instances): "
                  + shown.joined(separator: "; ") + (bySecond.count > 6 ? "; ..." : ""))
        }
        print("  pull, ops waiting, p50 / p99".padding(to: 36) + "\(p(state.readyPullMs, 0.5)) / \(p(state.readyPullMs, 0.99)) ms".leftPadding(to: 20)
              + "  (\(state.readyPullMs.count) such pulls; \(state.heldPulls) held until a write, \(state.emptyPulls) ended empty)")
        let deliveryP50 = BenchmarkTable.percentile(state.deliveryMs, 0.5), deliveryP99 = BenchmarkTable.percentile(state.deliveryMs, 0.99)
        print("  write -> other device p50 / p99".padding(to: 36) + "\(p(state.deliveryMs, 0.5)) / \(p(state.deliveryMs, 0.99)) ms".leftPadding(to: 20)
              + "  (\(state.deliveryMs.count) deliveries; goal p50 <= \(Int(Self.goalP50)) ms: \(Self.verdict(deliveryP50 <= Self.goalP50, state.deliveryMs, "met", "MISSED")), "
              + "p99 <= \(Int(Self.goalP99)) ms: \(Self.verdict(deliveryP99 <= Self.goalP99, state.deliveryMs, "met", "MISSED")))")
        if figures.instances > 1 {
            print("    of which across instances".padding(to: 36)
                  + "\(p(state.crossInstanceMs, 0.5)) / \(p(state.crossInstanceMs, 0.99)) ms".leftPadding(to: 20) + "  (\(state.crossInstanceMs.count) deliveries)")
        }
        print(BenchmarkTable.row("  servers' CPU per 1,000 ops", figures.serverCPUPerThousand,
                                 unit: "s (\(BenchmarkTable.format(figures.serverCPU)) s over \(figures.instances) process\(figures.instances > 1 ? "es" : ""))"))
        if let postgres = figures.postgresCPUPerThousand, let total = figures.postgresCPU {
            print(BenchmarkTable.row("  PostgreSQL's CPU per 1,000 ops", postgres, unit: "s (\(BenchmarkTable.format(total)) s, the whole cluster)"))
        }
        for (index, counters) in figures.counters.enumerated() {
            let label = figures.instances > 1 ? "  instance \(index + 1)" : "  server"
            print(label.padding(to: 36) + (counters?.summary ?? "its metrics could not be read"))
        }
        let receipts = state.receipts.count
        let failures = state.failures.sorted { $0.value > $1.value }.prefix(3).map { "\($0.value)x \($0.key)" }.joined(separator: "; ")
        print("  check: \(state.expected.count) ops acknowledged, \(receipts) receipts, \(figures.missing) missing, \(state.duplicates) duplicates"
              + (!figures.answering ? " (the server stopped answering)" : figures.missing == 0 && state.duplicates == 0
                 ? " (every op reached every device of its scope exactly once)" : " (NOT exactly once)")
              + (failures.isEmpty ? "" : "; failures: " + failures))
    }

    /// ", round N" when the PostgreSQL setups run more than once.
    private func roundLabel(_ figures: Figures) -> String {
        guard rounds > 1, let round = figures.round else { return "" }
        return ", round \(round)"
    }

    /// `pass` or `fail` by `met`; no verdict without samples.
    static func verdict(_ met: Bool, _ samples: [Double], _ pass: String, _ fail: String) -> String {
        samples.isEmpty ? "no figure" : met ? pass : fail
    }

    private func summarize(_ all: [Figures]) {
        let ones = all.filter { $0.name == "PostgreSQL, one instance" }, twos = all.filter { $0.name == "PostgreSQL, two instances" }
        guard !ones.isEmpty, !twos.isEmpty else { return }
        guard (ones + twos).allSatisfy({ $0.state.opsApplied > 0 }) else {
            print("verdict: two-instance CPU per op <= \(Self.maximumCPURatio)x one-instance: no figure (no ops applied in a setup)")
            return
        }
        // Each round's ratio, then all rounds pooled: CPU seconds over ops applied, summed.
        let byRound = zip(ones, twos).map { one, two in BenchmarkTable.format(two.totalCPUPerThousand / one.totalCPUPerThousand) + "x" }
        let pooled = { (setups: [Figures], cpu: (Figures) -> Double) in
            setups.reduce(0) { $0 + cpu($1) } / Double(setups.reduce(0) { $0 + $1.state.opsApplied }) * 1_000
        }
        let total = pooled(twos) { $0.serverCPU + ($0.postgresCPU ?? 0) } / pooled(ones) { $0.serverCPU + ($0.postgresCPU ?? 0) }
        let servers = pooled(twos, \.serverCPU) / pooled(ones, \.serverCPU)
        let label = rounds > 1 ? "\(rounds) rounds pooled (by round: \(byRound.joined(separator: ", ")))" : "one round"
        print("CPU per op, two instances / one (PostgreSQL), \(label): servers + PostgreSQL \(BenchmarkTable.format(total))x, "
              + "servers alone \(BenchmarkTable.format(servers))x")
        print("verdict: two-instance CPU per op <= \(Self.maximumCPURatio)x one-instance (servers + PostgreSQL): "
              + (total <= Self.maximumCPURatio ? "PASS" : "FAIL") + " (\(BenchmarkTable.format(total))x)")
        for figures in all {
            let p50 = BenchmarkTable.percentile(figures.state.deliveryMs, 0.5), p99 = BenchmarkTable.percentile(figures.state.deliveryMs, 0.99)
            let samples = figures.state.deliveryMs
            print("verdict: \(figures.name)\(roundLabel(figures)): write -> other device p50 \(BenchmarkTable.format(p50)) ms (goal <= \(Int(Self.goalP50))): "
                  + Self.verdict(p50 <= Self.goalP50, samples, "PASS", "FAIL") + ", p99 \(BenchmarkTable.format(p99)) ms (goal <= \(Int(Self.goalP99))): "
                  + Self.verdict(p99 <= Self.goalP99, samples, "PASS", "FAIL") + (figures.answering ? "" : " (the server stopped answering)"))
        }
    }
}

/// Tells the device loops to stop: pushes first (the run then drains), pulls last; and says whether
/// the watchdog found the servers stalled.
final class LoadSwitches: Sendable {
    private let pushOn = Atomic(true)
    private let pullOn = Atomic(true)
    private let stallSeen = Atomic(false)

    var stalled: Bool { stallSeen.load(ordering: .relaxed) }
    func stall() { stallSeen.store(true, ordering: .relaxed) }

    var pushing: Bool { pushOn.load(ordering: .relaxed) }
    var pulling: Bool { pullOn.load(ordering: .relaxed) }
    func stopPushing() { pushOn.store(false, ordering: .relaxed) }
    func stopPulling() { pullOn.store(false, ordering: .relaxed) }
}
