import Foundation
import Glibc
import HostTesting
import JSON
import NIOCore
import NIOHTTP1
import NIOPosix
import PatchProtocol
import PatchServer
import SystemIO

/// `hybrid-bench patch-server`: 10,000 devices each check a patch server on loopback once over a
/// minute, open loop (each check sent at its due time, whatever the ones before it do, and its
/// latency counted from that time, so that a stall is not hidden by the checks it held back), for
/// a patch whose 250 KB module changed by one line since the patch they run: p50/p99 of a check
/// (goal p99 ≤ 10 ms) against the same number of `GET /v1/health` at the same rate (the HTTP
/// stack's floor: the ratio is what the check itself costs), CPU per check (this process: the
/// server and the load client together, so an upper bound), the answer's size against the whole
/// source (the delta's ratio), the server's capacity (checks a second with 64 in flight), and the
/// time from `halt` answering to the last check that was still offered the patch.
struct PatchServerBenchmark {
    let devices: Int
    let seconds: Double

    init(devices: Int?, seconds: Double?) {
        self.devices = devices ?? 10_000
        self.seconds = seconds ?? 60
    }

    func run() {
        let folder = TemporaryFolder(prefix: "hybrid-bench-patch-server")
        defer { folder.remove() }
        let done = DispatchSemaphore(value: 0)
        Task {
            defer { done.signal() }
            do {
                try await measure(folder.path)
            } catch {
                print("patch-server: failed: \(error)")
            }
        }
        done.wait()
    }

    func measure(_ folder: String) async throws {
        let server = try PatchServer(configuration: PatchServerConfiguration(database: folder + "/patches.sqlite"))
        let port = try await server.start()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let client = LoadHTTPClient(host: "127.0.0.1", port: port, group: group)
        do {
            try await measure(client)
        } catch {
            print("patch-server: failed: \(error)")
        }
        client.close()
        try? await group.shutdownGracefully()
        await server.stop()
    }

    func measure(_ client: LoadHTTPClient) async throws {
        let key = "nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A="
        var lines = (0..<4000).map { "exports.f\($0) = (x) => x * \($0) + \($0 % 7); // line \($0) of the module" }
        let old = lines.joined(separator: "\n") + "\n"
        lines[2000] = "exports.f2000 = (x) => x * 2000 + 1; // fixed"
        let new = lines.joined(separator: "\n") + "\n"
        func patch(_ version: Int, _ source: String) throws -> SignedPatch {
            try SignedPatch.sign(PatchManifest(app: "bench", patchVersion: version, baseVersion: "1.0.0",
                                               modules: ["big.js": .init(mode: .amend, sha256: SignedPatch.sha256(source))]),
                                 sources: ["big.js": source], privateKey: key)
        }
        let first = try patch(1, old), second = try patch(2, new)
        _ = try await client.request(.PUT, "/v1/apps/bench", body: Array(JSONWriter.write(["keys": [.string(first.key)]]).utf8))
        for signed in [first, second] {
            let answer = try await client.request(.POST, "/v1/apps/bench/patches",
                                                  body: Array(JSONWriter.write(["patch": signed.jsonValue, "channel": "production"]).utf8))
            guard answer.status == 201 else { throw PatchServerError(answer.status, "bench", "publish: \(String(buffer: answer.body))") }
        }
        let modules = ["big.js": SignedPatch.sha256(old)]
        let checkBody: @Sendable (Int) -> [UInt8] = { device in
            Array(JSONWriter.write(PatchCheck(baseVersion: "1.0.0", channel: "production", deviceId: "device-\(device)", highestVersion: 1,
                                              modules: modules).jsonValue).utf8)
        }
        try await client.prewarm(64)
        // Warm-up (the offer is made once, then cached), then the measured run.
        _ = try await checks(client, range: 0..<200, body: checkBody)
        let cpuBefore = ProcessStats.cpuSeconds(getpid())
        let (latencies, bytes) = try await openLoop(count: devices) { device in
            try await client.request(.POST, "/v1/apps/bench/check", body: checkBody(device))
        }
        let cpu = ProcessStats.cpuSeconds(getpid()) - cpuBefore
        let (health, _) = try await openLoop(count: devices) { _ in try await client.request(.GET, "/v1/health") }
        let (p50, p99) = Self.percentiles(latencies), (floor50, floor99) = Self.percentiles(health)
        let rate = Double(devices) / seconds
        print("patch-server check, \(devices) devices over \(format(seconds)) s (\(format(rate)) checks/s, open loop): "
              + "p50 \(format(p50)) ms, p99 \(format(p99)) ms (goal <= 10 ms); GET /v1/health at the same rate: p50 \(format(floor50)) ms, "
              + "p99 \(format(floor99)) ms; check/health p99 \(format(p99 / floor99))x; CPU \(format(cpu / Double(devices) * 1e6)) us per check (server and client)")
        print("patch-server delta: answer \(bytes) bytes for a one-line change of a \(new.utf8.count)-byte module: "
              + "\(format(Double(new.utf8.count) / Double(bytes)))x smaller than the source")
        let started = Self.now()
        let (closed, _) = try await checks(client, range: devices..<(devices + 5_000), body: checkBody)
        let capacity = Double(closed.count) / (Self.now() - started)
        let (saturated50, _) = Self.percentiles(closed)
        print("patch-server capacity: \(format(capacity)) checks/s with 64 in flight (p50 \(format(saturated50)) ms, queueing)")
        // Halt while 64 devices keep checking: the time from halt's answer to the last offer received.
        let halted = SharedInstant()
        let lastOffer = SharedInstant()
        let load = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<64 {
                    group.addTask {
                        var device = 100_000 + worker
                        while halted.seconds == nil || PatchServerBenchmark.now() < halted.seconds! + 0.5 {
                            let answer = try await client.request(.POST, "/v1/apps/bench/check", body: checkBody(device))
                            if String(buffer: answer.body).contains("\"patchVersion\"") { lastOffer.set(PatchServerBenchmark.now()) }
                            device += 64
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        _ = try await client.request(.POST, "/v1/apps/bench/patches/2/halt", body: Array(#"{"reason": "bench"}"#.utf8))
        halted.set(PatchServerBenchmark.now())
        try await load.value
        let tail = max(0, (lastOffer.seconds ?? 0) - (halted.seconds ?? 0)) * 1000
        print("patch-server halt: last offer \(format(tail)) ms after halt answered (checks already in flight)")
    }

    /// Sends `count` requests spread evenly over `seconds`, each at its due time; returns each
    /// one's latency from its due time, and the largest answer's size.
    func openLoop(count: Int, _ send: @escaping @Sendable (Int) async throws -> LoadResponse) async throws -> ([Double], Int) {
        let interval = seconds / Double(count)
        let start = Self.now() + 0.05
        return try await withThrowingTaskGroup(of: (Double, Int).self) { group in
            for index in 0..<count {
                let due = start + Double(index) * interval
                let wait = due - Self.now()
                if wait > 0 { try await Task.sleep(for: .nanoseconds(Int(wait * 1e9))) }
                group.addTask {
                    let answer = try await send(index)
                    return (PatchServerBenchmark.now() - due, answer.body.readableBytes)
                }
            }
            var latencies: [Double] = []
            var bytes = 0
            for try await (latency, size) in group {
                latencies.append(latency)
                bytes = max(bytes, size)
            }
            return (latencies, bytes)
        }
    }

    /// p50 and p99 in milliseconds.
    static func percentiles(_ seconds: [Double]) -> (Double, Double) {
        let sorted = seconds.sorted()
        return (sorted[sorted.count / 2] * 1000, sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))] * 1000)
    }

    func checks(_ client: LoadHTTPClient, range: Range<Int>, body: @escaping @Sendable (Int) -> [UInt8]) async throws -> ([Double], Int) {
        try await withThrowingTaskGroup(of: ([Double], Int).self) { group in
            for worker in 0..<64 {
                group.addTask {
                    var latencies: [Double] = []
                    var bytes = 0
                    for device in stride(from: range.lowerBound + worker, to: range.upperBound, by: 64) {
                        let started = PatchServerBenchmark.now()
                        let answer = try await client.request(.POST, "/v1/apps/bench/check", body: body(device))
                        latencies.append(PatchServerBenchmark.now() - started)
                        bytes = answer.body.readableBytes
                    }
                    return (latencies, bytes)
                }
            }
            var all: [Double] = []
            var bytes = 0
            for try await (latencies, size) in group {
                all += latencies
                bytes = max(bytes, size)
            }
            return (all, bytes)
        }
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    func format(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.0f", value) }
}

/// A time several tasks set and read.
final class SharedInstant: Sendable {
    private let value = Locked<Double?>(nil)
    var seconds: Double? { value.value }
    func set(_ seconds: Double) { value.value = seconds }
}
