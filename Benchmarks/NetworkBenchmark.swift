import CurlTransport
import Foundation
import HostTesting
import JSON
import SystemIO

/// `hybrid-bench network`: 2,000 small GETs against a local server with 64 in flight, from JS
/// through the bridge (the path apps use) and from Swift on the transport alone, against
/// `curl --parallel --parallel-max 64` fetching the same URLs from the same server in the same run.
/// Then single-request latency, p50/p99, against curl's own `time_total` for the same sequence.
/// All of it twice: with the server in this process, then in a child process of its own (where the
/// server no longer shares our process's CPU, and curl's client competes with it on equal terms).
/// Goal (issue 4): our requests/s ≥ 0.8× curl's. Each placement prints the ratio of the best rates
/// and the ratios of the rounds, each measured back to back.
public struct NetworkBenchmark {
    let requests: Int
    let inFlight = 64
    let rounds = 5

    public init(iterations: Int?) {
        requests = iterations ?? 2000
    }

    static let throughputScript = """
        const [base, n, inFlight, round] = [Hybrid.args[0], Number(Hybrid.args[1]), Number(Hybrid.args[2]), Hybrid.args[3]];
        (async () => {
          let next = 0;
          const worker = async () => {
            while (next < n) {
              const i = next++;
              const res = await Hybrid.call("network", "request", { url: `${base}/small?r=${round}&i=${i}`, responseType: "text" });
              if (res.status !== 200) throw new Error(`status ${res.status}`);
            }
          };
          const started = __benchNow();
          await Promise.all(Array.from({ length: inFlight }, worker));
          const elapsed = __benchNow() - started;
          // Latency: one request at a time.
          const latencies = [];
          for (let i = 0; i < 500; i++) {
            const t = __benchNow();
            await Hybrid.call("network", "request", { url: `${base}/small?latency=${round}-${i}`, responseType: "text" });
            latencies.push(__benchNow() - t);
          }
          __benchReport(JSON.stringify({ elapsed, latencies }));
        })();
        """

    public func run() {
        guard curlVersion() != nil else {
            print("bench network: curl is not installed (scripts/install-deps installs it)")
            return
        }
        print("bench network: \(requests) GETs of a 2-byte answer, \(inFlight) in flight, best of \(rounds) rounds, against the same Hummingbird server placed two ways")
        // 1. The server in this process: it shares the process's CPU with our client, not with curl.
        let server = BenchHTTPServer()
        do {
            try server.start()
        } catch {
            print("bench network: cannot start the server: \(error)")
            return
        }
        measure(base: "http://127.0.0.1:\(server.port)", placement: "server in the bench's process")
        server.stop()
        // 2. The server in a child process: ours and curl's client each run against it from outside.
        guard let child = BenchServerProcess.start() else {
            print("bench network: cannot start the server in a child process")
            return
        }
        measure(base: child.base, placement: "server in a process of its own")
        child.stop()
        FetchBenchmark(rounds: 3).run()
    }

    /// Serves the benchmark's HTTP server until stdin closes: `hybrid-bench network --serve`, the
    /// child process of the second placement. Prints its base URL on the first line.
    public static func serve() {
        let server = BenchHTTPServer()
        do {
            try server.start()
        } catch {
            print("bench network: cannot start the server: \(error)")
            return
        }
        // Written straight to fd 1: stdout is a pipe here, and print's buffer would hold the line.
        let line = Array("http://127.0.0.1:\(server.port)\n".utf8)
        _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        var byte: UInt8 = 0
        while read(0, &byte, 1) > 0 {}
        server.stop()
    }

    private func measure(base: String, placement: String) {
        var curlRates: [Double] = [], jsRates: [Double] = [], swiftRates: [Double] = []
        var jsLatencies: [Double] = [], curlLatencies: [Double] = [], pairedRatios: [Double] = []
        for round in 0..<rounds {
            let curlRate = curlParallel(base: base, round: "c\(round)").map { Double(requests) / $0 }
            if let curlRate { curlRates.append(curlRate) }
            // As many connections to the server as curl's --parallel-max: the app's per-host limit
            // (network.connectionsPerHost, 6 by default, as a browser's) raised to the calls in flight.
            let appJSON = #"{"name": "bench", "main": "bench.js", "network": {"connectionsPerHost": \#(inFlight)}}"#
            if let report = BenchmarkApp.run(script: Self.throughputScript, arguments: [base, "\(requests)", "\(inFlight)", "j\(round)"],
                                             appJSON: appJSON, prepare: { _ in }),
               let elapsed = report["elapsed"]?.numberValue {
                let jsRate = Double(requests) / (elapsed / 1000)
                jsRates.append(jsRate)
                // Curl and ours measured back to back: the ratio of one round is less exposed to
                // the machine's drift between rounds than the ratio of two best rates.
                if let curlRate { pairedRatios.append(jsRate / curlRate) }
                jsLatencies += report["latencies"]?.arrayValue?.compactMap(\.numberValue) ?? []
            }
            swiftRates.append(Double(requests) / swiftParallel(base: base, round: "s\(round)"))
            curlLatencies += curlSequential(base: base, round: "l\(round)")
        }
        guard let curlBest = curlRates.max(), let jsBest = jsRates.max(), let swiftBest = swiftRates.max() else {
            print("bench network: a measurement failed (curl \(curlRates.count), JS \(jsRates.count), Swift \(swiftRates.count) rounds measured)")
            return
        }
        print("\(placement) (\(base)):")
        print(BenchmarkTable.row("curl --parallel-max \(inFlight) (baseline)", curlBest, unit: "requests/s"))
        print(BenchmarkTable.row("JS Hybrid.call network.request", jsBest, unit: "requests/s  (\(BenchmarkTable.format(jsBest / curlBest))x curl)"))
        print(BenchmarkTable.row("Swift CurlClient (transport only)", swiftBest, unit: "requests/s  (\(BenchmarkTable.format(swiftBest / curlBest))x curl)"))
        print("single request, one at a time (\(jsLatencies.count) samples):")
        print(BenchmarkTable.row("  JS request p50", BenchmarkTable.percentile(jsLatencies, 0.5), unit: "ms"))
        print(BenchmarkTable.row("  JS request p99", BenchmarkTable.percentile(jsLatencies, 0.99), unit: "ms"))
        print(BenchmarkTable.row("  curl time_total p50 (baseline)", BenchmarkTable.percentile(curlLatencies, 0.5), unit: "ms"))
        print(BenchmarkTable.row("  curl time_total p99 (baseline)", BenchmarkTable.percentile(curlLatencies, 0.99), unit: "ms"))
        print("JS / curl, round by round: " + pairedRatios.map { BenchmarkTable.format($0) + "x" }.joined(separator: ", ")
              + " (median \(BenchmarkTable.format(BenchmarkTable.percentile(pairedRatios, 0.5)))x)")
        print("ratio JS / curl requests/s (best of each), \(placement): \(BenchmarkTable.format(jsBest / curlBest))x (goal >= 0.8x: \(jsBest / curlBest >= 0.8 ? "met" : "NOT met"))")
    }

    private func urls(base: String, round: String) -> [String] {
        (0..<requests).map { "\(base)/small?r=\(round)&i=\($0)" }
    }

    /// Wall time of one `curl --parallel` process fetching every URL, start-up included (a few ms).
    private func curlParallel(base: String, round: String) -> Double? {
        let config = NSTemporaryDirectory() + "bench-network-\(getpid()).curl"
        let lines = urls(base: base, round: round).map { "url = \"\($0)\"\noutput = \"/dev/null\"\n" }.joined()
        guard FileManager.default.createFile(atPath: config, contents: Data(lines.utf8)) else { return nil }
        defer { try? FileManager.default.removeItem(atPath: config) }
        let started = DispatchTime.now().uptimeNanoseconds
        guard runCurl(["--silent", "--fail", "--parallel", "--parallel-max", "\(inFlight)", "--config", config]) != nil else { return nil }
        return Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    }

    /// curl's own time_total for 500 requests made one after another on a kept-alive connection.
    private func curlSequential(base: String, round: String) -> [Double] {
        let arguments = ["--silent", "--output", "/dev/null", "--write-out", "%{time_total}\\n"]
            + (0..<500).flatMap { ["\(base)/small?latency=\(round)-\($0)"] }
        guard let output = runCurl(arguments) else { return [] }
        return output.split(separator: "\n").compactMap { Double($0).map { $0 * 1000 } }
    }

    private func swiftParallel(base: String, round: String) -> Double {
        let urls = self.urls(base: base, round: round)
        let inFlight = self.inFlight
        let elapsed = Locked(0.0)
        try? blocking {
            let started = CurlClient.nowMs()
            await withTaskGroup(of: Void.self) { group in
                for (index, url) in urls.enumerated() {
                    // Keep `inFlight` transfers running: start the next as one ends.
                    if index >= inFlight { await group.next() }
                    group.addTask { _ = try? await CurlClient.shared.perform(TransferRequest(url: url)) }
                }
            }
            elapsed.value = (CurlClient.nowMs() - started) / 1000
        }
        return elapsed.value
    }

    private func curlVersion() -> String? { runCurl(["--version"]) }

    private func runCurl(_ arguments: [String]) -> String? {
        guard let result = try? ChildProcess.run("curl", arguments) else { return nil }
        guard result.status == 0 else {
            print("bench network: curl exited with \(result.status)")
            return nil
        }
        return String(decoding: result.output, as: UTF8.self)
    }
}

/// `hybrid-bench network --serve` as a child: its base URL, and stdin, whose closing stops it.
struct BenchServerProcess {
    let process: SpawnedProcess
    let base: String

    static func start() -> BenchServerProcess? {
        guard let process = try? SpawnedProcess(MeasuredProcess.ownExecutable, ["network", "--serve"], input: .pipe, output: .pipe, error: .null)
        else { return nil }
        let base = process.readOutputLine() ?? ""
        guard base.hasPrefix("http://") else {
            process.signal(SIGTERM)
            return nil
        }
        return BenchServerProcess(process: process, base: base)
    }

    func stop() {
        process.closeInput()
        process.waitForExit()
    }
}
