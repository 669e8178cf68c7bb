import Foundation
import HostTesting
import SystemIO

/// `hybrid-bench idle-connections`: an attacker's 20,000 TCP connections that send nothing or half
/// a request head, against a release `hybrid sync-server serve` with its default limits, while a
/// client asks `GET /v1/health` every 20 ms on a new connection each time.
///
/// Measured in one run: the health check's latency with no other connection (the baseline), and
/// while the 20,000 open (ours), with the ratio; the server's resident memory when idle, at its
/// peak, and a minute after the attacker closed everything, with its ratio to idle. The goals: p99
/// under the attack at most 50 ms, and memory back within 10% of idle a minute after.
struct IdleConnectionsBenchmark {
    var connections: Int

    init(connections: Int?) {
        self.connections = connections ?? 20_000
    }

    func run() {
        do {
            try measure()
        } catch {
            print("idle-connections: \(error)")
        }
    }

    /// Connections one attacker process holds: its own open-file limit (20,000 here, and no raising
    /// the hard one without CAP_SYS_RESOURCE) must not be what gives out.
    static let perAttacker = 5_000

    private func measure() throws {
        _ = ProcessStats.raiseOpenFileLimit()
        let hybrid = MeasuredProcess.builtHybrid
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bench-idle-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let secretFile = folder + "/secret"
        try "an idle-connections benchmark secret".write(toFile: secretFile, atomically: true, encoding: .utf8)
        let started = Locked<LocalSyncServer?>(nil)
        try blocking { started.value = try await LocalSyncServer.startChild(executable: hybrid, database: folder + "/sync.sqlite", authSecretFile: secretFile) }
        guard let server = started.value else { throw BenchError("the sync server did not start") }
        defer { server.stopProcess() }

        // Warm: the first requests fault in the code paths.
        _ = Self.healthLatencies(port: server.port, count: 50, interval: 0)
        Thread.sleep(forTimeInterval: 2)
        let idleRSS = server.residentMiB
        let baseline = Self.healthLatencies(port: server.port, count: 200, interval: 0.02)

        // The attack: processes of their own (`hybrid-bench idle-connections --serve`), each opening
        // its share as fast as the kernel takes them, and holding them until told to stop.
        let probe = HealthProbe(port: server.port)
        probe.start()
        let opening = Date()
        var attackers: [SpawnedProcess] = []
        var shares = Array(repeating: Self.perAttacker, count: connections / Self.perAttacker)
        if connections % Self.perAttacker > 0 { shares.append(connections % Self.perAttacker) }
        for share in shares {
            attackers.append(try SpawnedProcess(MeasuredProcess.ownExecutable,
                                                ["idle-connections", "--serve", "--devices", String(share), "--port", String(server.port)],
                                                input: .pipe, output: .pipe))
        }
        var failedConnects = 0
        for attacker in attackers {
            // "opened N of M"
            let line = attacker.readOutputLine() ?? ""
            let numbers = line.split(separator: " ").compactMap { Int($0) }
            if numbers.count == 2 { failedConnects += numbers[1] - numbers[0] }
        }
        let opened = Date().timeIntervalSince(opening)
        // Held open a while: the server's head timeout (10 s) passes for the first of them.
        var peakRSS = server.residentMiB
        for _ in 0..<24 {
            Thread.sleep(forTimeInterval: 0.5)
            peakRSS = max(peakRSS, server.residentMiB)
        }
        let underAttack = probe.stop()
        for attacker in attackers {
            attacker.closeInput()
            attacker.waitForExit()
        }
        let closedAt = Date()
        var afterRSS = server.residentMiB
        while Date().timeIntervalSince(closedAt) < 60 {
            Thread.sleep(forTimeInterval: 1)
            afterRSS = server.residentMiB
        }
        let after = Self.healthLatencies(port: server.port, count: 50, interval: 0.02)

        print("idle-connections: \(connections) connections opened by \(attackers.count) processes in \(Self.format(opened)) s (\(failedConnects) not connected), held 12 s, against release hybrid sync-server serve with its default limits")
        print("  GET /v1/health, a new connection each, every 20 ms:")
        print("    baseline (no other connection): p50 \(Self.ms(baseline.p50)) ms, p99 \(Self.ms(baseline.p99)) ms, \(baseline.failed) failed of \(baseline.count)")
        print("    under the attack:               p50 \(Self.ms(underAttack.p50)) ms, p99 \(Self.ms(underAttack.p99)) ms, \(underAttack.failed) failed of \(underAttack.count)"
              + "  -> p99 \(Self.format(underAttack.p99 / max(baseline.p99, 1e-6)))x the baseline (goal: p99 <= 50 ms: \(underAttack.p99 <= 0.050 && underAttack.failed == 0 ? "met" : "NOT met"))")
        print("    a minute after:                 p50 \(Self.ms(after.p50)) ms, p99 \(Self.ms(after.p99)) ms, \(after.failed) failed of \(after.count)")
        print("  resident memory: idle \(Self.format(idleRSS)) MiB, peak \(Self.format(peakRSS)) MiB, 60 s after the attacker closed \(Self.format(afterRSS)) MiB"
              + "  -> \(Self.format(afterRSS / idleRSS))x idle (goal: <= 1.10x: \(afterRSS <= idleRSS * 1.10 ? "met" : "NOT met"))")
    }

    /// The attacker (`--serve`): opens `count` connections to `port`, every other one sending half
    /// a request head and the rest nothing, prints "opened N of COUNT", and holds them until its
    /// standard input closes.
    static func attack(port: Int, count: Int) {
        var held: [Int32] = []
        for index in 0..<count {
            guard let fd = connect(port: port) else { continue }
            if index % 2 == 1 {
                let partial = Array("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)
                _ = partial.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            }
            held.append(fd)
        }
        FileHandle.standardOutput.write(Data("opened \(held.count) of \(count)\n".utf8))
        while (try? FileHandle.standardInput.read(upToCount: 1))??.isEmpty == false {}
        for fd in held { close(fd) }
    }

    /// Latencies of `count` health checks, each on a new connection, `interval` apart.
    static func healthLatencies(port: Int, count: Int, interval: Double) -> LatencySummary {
        var summary = LatencySummary()
        for _ in 0..<count {
            summary.add(healthCheck(port: port))
            if interval > 0 { Thread.sleep(forTimeInterval: interval) }
        }
        return summary
    }

    /// One `GET /v1/health` on a new connection: its latency, or nil when it failed or took 5 s.
    static func healthCheck(port: Int) -> Double? {
        let started = Date()
        guard let fd = connect(port: port) else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else { return nil }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[..<count]
            if String(decoding: received, as: UTF8.self).contains("\"ok\":true") { break }
        }
        guard String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 200") else { return nil }
        return Date().timeIntervalSince(started)
    }

    static func connect(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    static func ms(_ seconds: Double) -> String { format(seconds * 1000) }

    static func format(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }
}

/// Health checks every 20 ms on a thread of their own while the attack runs.
final class HealthProbe: @unchecked Sendable {
    let port: Int
    private let lock = NSLock()
    private var summary = LatencySummary()
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    init(port: Int) {
        self.port = port
    }

    func start() {
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                let latency = IdleConnectionsBenchmark.healthCheck(port: port)
                lock.withLock { summary.add(latency) }
                Thread.sleep(forTimeInterval: 0.02)
            }
            done.signal()
        }
    }

    func stop() -> LatencySummary {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { summary }
    }
}

/// Latencies in seconds, with failures (nil) counted apart.
struct LatencySummary {
    private(set) var samples: [Double] = []
    private(set) var failed = 0

    var count: Int { samples.count + failed }

    mutating func add(_ latency: Double?) {
        if let latency { samples.append(latency) } else { failed += 1 }
    }

    var p50: Double { BenchmarkTable.percentile(samples, 0.50) }
    var p99: Double { BenchmarkTable.percentile(samples, 0.99) }
}
