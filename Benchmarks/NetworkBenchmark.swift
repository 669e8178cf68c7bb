import CurlTransport
import Foundation
import JSON

/// `hybrid bench network`: 2,000 small GETs against a local server with 64 in flight, from JS
/// through the bridge (the path apps use) and from Swift on the transport alone, against
/// `curl --parallel --parallel-max 64` fetching the same URLs from the same server in the same run.
/// Then single-request latency, p50/p99, against curl's own `time_total` for the same sequence.
/// Goal (issue 4): our requests/s ≥ 0.8× curl's.
public struct NetworkBenchmark {
    let requests: Int
    let inFlight = 64
    let rounds = 3

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
        let server = BenchHTTPServer()
        do {
            try server.start()
        } catch {
            print("bench network: cannot start the server: \(error)")
            return
        }
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        print("bench network: \(requests) GETs of a 2-byte answer, \(inFlight) in flight, best of \(rounds) rounds; server: Hummingbird on \(base)")
        guard curlVersion() != nil else {
            print("bench network: curl is not installed (scripts/install-deps installs it)")
            return
        }
        var curlRates: [Double] = [], jsRates: [Double] = [], swiftRates: [Double] = []
        var jsLatencies: [Double] = [], curlLatencies: [Double] = []
        for round in 0..<rounds {
            if let seconds = curlParallel(base: base, round: "c\(round)") { curlRates.append(Double(requests) / seconds) }
            if let report = BenchmarkApp.run(script: Self.throughputScript, arguments: [base, "\(requests)", "\(inFlight)", "j\(round)"], prepare: { _ in }),
               let elapsed = report["elapsed"]?.numberValue {
                jsRates.append(Double(requests) / (elapsed / 1000))
                jsLatencies += report["latencies"]?.arrayValue?.compactMap(\.numberValue) ?? []
            }
            swiftRates.append(Double(requests) / swiftParallel(base: base, round: "s\(round)"))
            curlLatencies += curlSequential(base: base, round: "l\(round)")
        }
        guard let curlBest = curlRates.max(), let jsBest = jsRates.max(), let swiftBest = swiftRates.max() else {
            print("bench network: a measurement failed (curl \(curlRates.count), JS \(jsRates.count), Swift \(swiftRates.count) rounds measured)")
            return
        }
        print(BenchmarkTable.row("curl --parallel-max \(inFlight) (baseline)", curlBest, unit: "requests/s"))
        print(BenchmarkTable.row("JS Hybrid.call network.request", jsBest, unit: "requests/s  (\(BenchmarkTable.format(jsBest / curlBest))x curl)"))
        print(BenchmarkTable.row("Swift CurlClient (transport only)", swiftBest, unit: "requests/s  (\(BenchmarkTable.format(swiftBest / curlBest))x curl)"))
        print("single request, one at a time (\(jsLatencies.count) samples):")
        print(BenchmarkTable.row("  JS request p50", BenchmarkTable.percentile(jsLatencies, 0.5), unit: "ms"))
        print(BenchmarkTable.row("  JS request p99", BenchmarkTable.percentile(jsLatencies, 0.99), unit: "ms"))
        print(BenchmarkTable.row("  curl time_total p50 (baseline)", BenchmarkTable.percentile(curlLatencies, 0.5), unit: "ms"))
        print(BenchmarkTable.row("  curl time_total p99 (baseline)", BenchmarkTable.percentile(curlLatencies, 0.99), unit: "ms"))
        print("ratio JS / curl requests/s: \(BenchmarkTable.format(jsBest / curlBest))x (goal >= 0.8x: \(jsBest / curlBest >= 0.8 ? "met" : "NOT met"))")
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
            elapsed.set((CurlClient.nowMs() - started) / 1000)
        }
        return elapsed.get()
    }

    private func curlVersion() -> String? { runCurl(["--version"]) }

    private func runCurl(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            print("bench network: curl exited with \(process.terminationStatus)")
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }
}
