// Benchmarks beside the code they measure: each prints our figure, its baseline, and the ratio.
import CJavaScriptCore
import Engine
import HostTesting
import HybridHost
import JSON
import SystemIO

/// `hybrid-bench bridge`: (a) a raw JSC native callback called from a JS loop, (b) `await
/// Hybrid.call("bridge", "echo", {i})` with 256 calls in flight, (c) the same with a 1 KB payload.
/// Prints ns/call for each and (b)/(a), (c)/(a). Goal (issue 2): (b) ≤ 10 × (a).
public struct BridgeBenchmark {
    let calls: Int

    public init(iterations: Int?) {
        calls = iterations ?? 200_000
    }

    static let script = """
        const N = Number(Hybrid.args[0]);
        const INFLIGHT = 256;
        function raw() {
          const f = globalThis.__rawCallback;
          let sum = 0;
          const t0 = __benchNow();
          for (let i = 0; i < N; i++) sum += f(i);
          const t1 = __benchNow();
          if (sum !== N * (N + 1) / 2) throw new Error("raw callback returned wrong values");
          return (t1 - t0) * 1e6 / N;
        }
        async function bridge(payload) {
          let next = 0;
          async function lane() {
            while (next < N) {
              const i = next++;
              const result = await Hybrid.call("bridge", "echo", payload === undefined ? { i } : { i, payload });
              if (result.i !== i) throw new Error("echo answered the wrong call");
            }
          }
          const t0 = __benchNow();
          await Promise.all(Array.from({ length: INFLIGHT }, lane));
          const t1 = __benchNow();
          return (t1 - t0) * 1e6 / N;
        }
        (async () => {
          const kb = "x".repeat(1000);
          raw(); await bridge(); await bridge(kb);          // warm-up: JIT tiers
          const rounds = [];
          for (let r = 0; r < 3; r++) rounds.push([raw(), await bridge(), await bridge(kb)]);
          const best = (k) => Math.min(...rounds.map((round) => round[k]));
          __benchReport(JSON.stringify({ raw: best(0), echo: best(1), echo1k: best(2) }));
        })();
        """

    public func run() {
        let result = BenchmarkApp.run(script: Self.script, arguments: [String(calls)]) { context in
            // The baseline: a bare C callback, one number converted each way.
            let name = JSStringCreateWithUTF8CString("__rawCallback")
            defer { JSStringRelease(name) }
            let function = JSObjectMakeFunctionWithCallback(context.ref, name) { ctx, _, _, count, arguments, _ in
                let value = count > 0 ? JSValueToNumber(ctx, arguments![0], nil) : 0
                return JSValueMakeNumber(ctx, value + 1)
            }
            context.set(context.global, "__rawCallback", function!)
        }
        guard let result, let raw = result["raw"]?.numberValue, let echo = result["echo"]?.numberValue,
              let echo1k = result["echo1k"]?.numberValue else {
            print("bench bridge: the benchmark script did not report")
            return
        }
        print("bench bridge: \(calls) calls per measurement, best of 3 rounds, 256 calls in flight")
        print(BenchmarkTable.row("(a) raw JSC native callback", raw, unit: "ns/call"))
        print(BenchmarkTable.row("(b) await Hybrid.call echo {i}", echo, unit: "ns/call"))
        print(BenchmarkTable.row("(c) await Hybrid.call echo 1 KB", echo1k, unit: "ns/call"))
        print("ratio (b)/(a): \(BenchmarkTable.format(echo / raw))x   (goal <= 10x)")
        print("ratio (c)/(a): \(BenchmarkTable.format(echo1k / raw))x")
    }
}

/// Runs a benchmark script as a single-file app with every grant (or, given `appJSON`, as an app
/// folder whose `app.json` that is, `"main": "bench.js"`), and returns what it reported through
/// `__benchReport(jsonText)`.
enum BenchmarkApp {
    static func run(script: String, arguments: [String], options: AppRunOptions = AppRunOptions(), appJSON: String? = nil,
                    prepare: @escaping (ScriptContext) -> Void) -> JSONValue? {
        let directory = TemporaryFolder(prefix: "hybrid-bench").path
        defer { FileSystem.removeTree(directory) }
        var path = directory + "/bench.js"
        do {
            try FileSystem.write(script, to: path)
            if let appJSON {
                try FileSystem.write(appJSON, to: directory + "/app.json")
                path = directory
            }
        } catch {
            print("bench: cannot write \(path): \(error)")
            return nil
        }
        var options = options
        options.dataDirectory = directory + "/data"
        options.grantFlags = ["all"]
        options.arguments = arguments
        let session: AppSession
        do {
            session = try AppSession(path: path, options: options)
        } catch {
            print("bench: \(error)")
            return nil
        }
        defer { session.shutdown() }
        final class Report: @unchecked Sendable { var value: JSONValue? }
        let report = Report()
        _ = try? session.engine.performAndWait { context in
            prepare(context)
            context.setFunction(context.global, "__benchNow") { args in
                args.context.number(Double(MonotonicClock.now()) / 1_000_000)
            }
            context.setFunction(context.global, "__benchReport") { args in
                report.value = try? JSONParser.parse(args.context.stringify(args[0]))
                return nil
            }
        }
        if case .failed(let error) = session.run() {
            print("bench: the script failed: \(error)")
        }
        return report.value
    }
}

enum BenchmarkTable {
    static func row(_ label: String, _ value: Double, unit: String) -> String {
        label.padding(to: 36) + format(value).leftPadding(to: 12) + " " + unit
    }

    /// The nearest-rank percentile (`p` in 0...1) of `values`; 0 for none.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * p).rounded(.up)) - 1))]
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return String(rounded)
    }
}

extension String {
    func padding(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadding(to width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
