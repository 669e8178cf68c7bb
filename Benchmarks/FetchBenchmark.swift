import Bridge
import CurlTransport
import HostTesting
import Networking
import SystemIO

/// The `fetch` part of `hybrid-bench network`: `Benchmarks/web/fetch.js` under `hybrid run` and
/// under node, against the bench's server in a process of its own, several rounds alternating.
/// - 1,000 small GETs, 64 in flight, read with `text()`: hybrid's `fetch` against node 20's (goal
///   ≥ 1.5×) and against `Hybrid.call("network", "request")` in the same app (goal: fetch's time
///   ≤ 1.15× request's). The app's `network.connectionsPerHost` is 64, as node's undici has no
///   per-origin limit.
/// - 100 MB read through `response.body`: throughput against node's, and peak resident memory
///   against a 1 MB read's (goal: grows ≤ 16 MiB).
struct FetchBenchmark {
    let rounds: Int
    let requests = 1000
    let inFlight = 64

    /// Whether every goal was met.
    @discardableResult
    func run() -> Bool {
        guard let server = BenchServerProcess.start() else {
            print("bench network fetch: cannot start the server in a child process")
            return false
        }
        defer { server.stop() }
        let scratch = TemporaryFolder(prefix: "hybrid-bench-fetch")
        defer { scratch.remove() }
        // An app folder around the workload file: hybrid run needs app.json for the grant and the
        // per-host limit.
        let app = scratch.path + "/app"
        do {
            try FileSystem.createDirectories(app)
            for file in ["fetch.js", "measure.js"] {
                try FileSystem.write(try FileSystem.text(atPath: WebBenchmark.folder + "/" + file), to: app + "/" + file)
            }
            try FileSystem.write(#"{"name": "bench-fetch", "main": "fetch.js", "grants": ["network:127.0.0.1"], "network": {"connectionsPerHost": \#(inFlight)}}"#,
                                 to: app + "/app.json")
        } catch {
            print("bench network fetch: cannot write the app: \(error)")
            return false
        }
        let nodeWorks = (try? ChildProcess.run("node", ["-e", "0"]))?.status == 0
        let hybrid = { (arguments: [String]) in [MeasuredProcess.builtHybrid, "run", app, "--data-dir", scratch.path + "/data", "--"] + arguments }
        let node = { (arguments: [String]) in ["node", WebBenchmark.folder + "/fetch.js"] + arguments }
        let small = ["fetch-small", server.base, "\(requests)", "\(inFlight)"]
        let viaRequest = ["request-small", server.base, "\(requests)", "\(inFlight)"]
        let body = ["fetch-body", server.base, "100"]
        var ours: [String: [Double]] = [:], theirs: [String: [Double]] = [:]
        var failures: [String] = []
        /// The run's rate, kept under `key`; nil when the run failed (kept in `failures`).
        @discardableResult
        func record(_ command: [String], into table: inout [String: [Double]], as key: String) -> Double? {
            switch WebBenchmark.measure(command[0], Array(command.dropFirst())) {
            case .success(let rate):
                table[key, default: []].append(rate)
                return rate
            case .failure(let failure):
                failures.append("\(command.joined(separator: " ")): \(failure.message)")
                return nil
            }
        }
        // fetch's time against request's, per round: the two runs follow each other, so a machine
        // whose speed drifts between rounds (a shared VM's does, by a third) moves both alike.
        var paired: [Double] = []
        for _ in 0..<rounds {
            let fetch = record(hybrid(small), into: &ours, as: "fetch")
            let request = record(hybrid(viaRequest), into: &ours, as: "request")
            if let fetch, let request { paired.append(request / fetch) }
            record(hybrid(body), into: &ours, as: "body")
            if nodeWorks {
                record(node(small), into: &theirs, as: "fetch")
                record(node(body), into: &theirs, as: "body")
            }
        }
        func median(_ key: String, _ table: [String: [Double]]) -> Double {
            let values = (table[key] ?? []).sorted()
            return values.isEmpty ? .nan : values[values.count / 2]
        }
        let (fetchRate, requestRate, nodeRate) = (median("fetch", ours), median("request", ours), median("fetch", theirs))
        let (bodyRate, nodeBodyRate) = (median("body", ours), median("body", theirs))
        print("bench network fetch: \(requests) GETs of a 2-byte answer, \(inFlight) in flight, read with text(), 3 timed bursts a run; "
              + "a 100 MB body through response.body; \(rounds) runs, alternating, median; server in a process of its own")
        print(BenchmarkTable.row("node 20 fetch (baseline)", nodeRate, unit: "requests/s"))
        print(BenchmarkTable.row("hybrid fetch", fetchRate, unit: "requests/s  (\(BenchmarkTable.format(fetchRate / nodeRate))x node; goal >= 1.5x)"))
        paired.sort()
        let pairedRatio = paired.isEmpty ? .nan : paired[paired.count / 2]
        let spread = paired.isEmpty ? "" : ", \(BenchmarkTable.format(paired.first!))-\(BenchmarkTable.format(paired.last!)) over \(paired.count) rounds"
        print(BenchmarkTable.row("hybrid Hybrid.call network.request", requestRate,
                                 unit: "requests/s  (fetch's time \(BenchmarkTable.format(pairedRatio))x request's, the median of each round's pair\(spread); goal <= 1.15x)"))
        print(BenchmarkTable.row("node 20, 100 MB through response.body", nodeBodyRate, unit: "MB/s"))
        print(BenchmarkTable.row("hybrid, 100 MB through response.body", bodyRate, unit: "MB/s  (\(BenchmarkTable.format(bodyRate / nodeBodyRate))x node)"))
        var met = fetchRate / nodeRate >= 1.5 && pairedRatio <= 1.15
        met = bodyMemory(hybrid, base: server.base) && met
        met = signing(in: scratch.path) && met
        for failure in failures.prefix(10) { print("failed: " + failure) }
        print(met && failures.isEmpty ? "fetch: every goal met" : "fetch: a goal was missed or a run failed")
        return met && failures.isEmpty
    }

    /// What `sign` adds to a request: the signature headers of a POST with a 1 KB body, HMAC-SHA256
    /// and Ed25519, made 20,000 times in this process (goal: ≤ 10 µs a request).
    private func signing(in directory: String) -> Bool {
        let hmac = directory + "/hmac.key", ed25519 = directory + "/ed25519.pem"
        guard (try? FileSystem.write(String(repeating: "k", count: 32), to: hmac)) != nil,
              (try? ChildProcess.run("openssl", ["genpkey", "-algorithm", "ed25519", "-out", ed25519]))?.status == 0,
              let settings = try? AppNetworkSettings.parse(["signers": ["hmac": ["algorithm": "hmac-sha256", "keyFile": .string(hmac)],
                                                                        "ed": ["algorithm": "ed25519", "keyFile": .string(ed25519)]]], source: "bench")
        else {
            print("bench network fetch: cannot write the signing keys")
            return false
        }
        let app = AppContext(name: "bench", version: "1", dataDirectory: directory, grants: .all, network: settings)
        let request = TransferRequest(url: "https://api.example.test/orders?id=7", method: "POST",
                                      headers: [("Content-Type", "application/json")], body: [UInt8](repeating: 0x61, count: 1024))
        var met = true
        for name in ["hmac", "ed"] {
            guard let signer = try? RequestSigner(name, app: app) else { return false }
            _ = try? signer.headers(for: request)
            let count = 20_000
            let started = MonotonicClock.now()
            var bytes = 0
            for _ in 0..<count { bytes += (try? signer.headers(for: request))?.count ?? 0 }
            let micros = Double(MonotonicClock.now() - started) / 1000 / Double(count)
            let goal = name == "hmac" ? (micros <= 10 ? "pass" : "FAIL") : "report"
            if name == "hmac" && micros > 10 { met = false }
            print(BenchmarkTable.row("sign, \(name == "hmac" ? "HMAC-SHA256" : "Ed25519"), POST with 1 KB", micros,
                                     unit: "µs a request (goal <= 10 µs for HMAC) \(goal)") + (bytes == 0 ? " (no headers made)" : ""))
        }
        return met
    }

    /// Peak resident memory of a 100 MB read through `response.body` against a 1 MB read's.
    private func bodyMemory(_ hybrid: ([String]) -> [String], base: String) -> Bool {
        var one: [Double] = [], hundred: [Double] = []
        for _ in 0..<4 {
            guard let small = MeasuredProcess.measure(hybrid(["fetch-body", base, "1"])), small.status == 0,
                  let large = MeasuredProcess.measure(hybrid(["fetch-body", base, "100"])), large.status == 0 else {
                print("bench network fetch: the response.body read failed")
                return false
            }
            one.append(Double(small.maxRSSKiB) / 1024)
            hundred.append(Double(large.maxRSSKiB) / 1024)
        }
        let (oneMB, hundredMB) = (one.sorted()[one.count / 2], hundred.sorted()[hundred.count / 2])
        let growth = hundredMB - oneMB
        print("peak RSS reading response.body (4 runs each, median): 1 MB \(BenchmarkTable.format(oneMB)) MiB, "
              + "100 MB \(BenchmarkTable.format(hundredMB)) MiB, grows \(BenchmarkTable.format(growth)) MiB (goal <= 16 MiB) \(growth <= 16 ? "pass" : "FAIL")")
        return growth <= 16
    }
}
