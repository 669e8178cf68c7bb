import Glibc
import HostTesting
import SystemIO

/// `hybrid-bench watch`: how long an edit takes to show in an app running under
/// `hybrid run --watch`, from the write (a temporary file renamed over the module, as an editor
/// saves) to the new code's first line on the app's stdout. Ours: the TypeScript module called
/// `module.hot.accept()`, so each edit is swapped in place (inotify, 20 ms of quiet, esbuild's
/// transform, the swap on the JS thread). Baseline: the same edits to the same app whose module
/// does not accept, so each one restarts the app in the same process. Goal (issue): p50 ≤ 50 ms.
struct WatchBenchmark {
    let edits: Int

    init(iterations: Int?) {
        edits = iterations ?? 50
    }

    func run() {
        guard let (swapped, swapTask) = measure(accepts: true), let (restarted, _) = measure(accepts: false) else { return }
        print("bench watch: \(edits) edits of a TypeScript module each, write -> the new code's first line on stdout")
        print(BenchmarkTable.row("swapped in place p50", BenchmarkTable.percentile(swapped, 0.5), unit: "ms"))
        print(BenchmarkTable.row("swapped in place p99", BenchmarkTable.percentile(swapped, 0.99), unit: "ms"))
        // What the `[watch] swapped ... (N ms)` lines say: the task on the JS thread (transform,
        // compile, swap), without the watcher's 20 ms of quiet.
        print(BenchmarkTable.row("  of which the JS thread's task p50", BenchmarkTable.percentile(swapTask, 0.5), unit: "ms"))
        print(BenchmarkTable.row("restarted (baseline) p50", BenchmarkTable.percentile(restarted, 0.5), unit: "ms"))
        print(BenchmarkTable.row("restarted (baseline) p99", BenchmarkTable.percentile(restarted, 0.99), unit: "ms"))
        let ratio = BenchmarkTable.percentile(swapped, 0.5) / BenchmarkTable.percentile(restarted, 0.5)
        print("ratio p50: \(BenchmarkTable.format(ratio))x   (goal: swapped p50 <= 50 ms)")
    }

    static func module(revision: Int, accepts: Bool) -> String {
        """
        declare const module: any;
        \(accepts ? "module.hot.accept();" : "")
        export const revision: number = \(revision);
        console.log(`revision ${revision}`);
        """
    }

    /// Latencies in ms and the swap tasks' durations the watch lines report, or nil when the app
    /// did not start or an edit never showed.
    private func measure(accepts: Bool) -> ([Double], [Double])? {
        let folder = TemporaryFolder(prefix: "hybrid-bench-watch")
        defer { folder.remove() }
        do {
            try folder.write("app/app.json", #"{"name": "bench-watch", "main": "main.ts"}"#)
            try folder.write("app/main.ts", "import { revision } from \"./revision\";\nsetInterval(() => {}, 1000);\nexport const first = revision;\n")
            try folder.write("app/revision.ts", Self.module(revision: 0, accepts: accepts))
        } catch {
            print("bench watch: cannot write the app: \(error)")
            return nil
        }
        let child: LiveProcess
        do {
            child = try LiveProcess(MeasuredProcess.builtHybrid, ["run", folder.path + "/app", "--watch", "--data-dir", folder.path + "/data"],
                                    environment: ["HYBRID_CACHE_DIR": folder.path + "/cache"])
        } catch {
            print("bench watch: cannot start \(MeasuredProcess.builtHybrid): \(error)")
            return nil
        }
        defer { child.stop() }
        guard child.waitBlocking(until: { $0.outputLines.contains { $0.text == "revision 0" } }) else {
            print("bench watch: the app did not start\n\(child.output.standardError)")
            return nil
        }
        var latencies: [Double] = []
        for revision in 1...edits {
            let expected = "revision \(revision)"
            let written = MonotonicClock.now()
            do {
                try FileSystem.write(Self.module(revision: revision, accepts: accepts), to: folder.path + "/app/revision.ts")
            } catch {
                print("bench watch: cannot write revision \(revision): \(error)")
                return nil
            }
            guard child.waitBlocking(until: { $0.outputLines.contains { $0.text == expected } }),
                  let line = child.output.outputLines.last(where: { $0.text == expected }) else {
                print("bench watch: revision \(revision) never showed (\(accepts ? "swap" : "restart"))\n\(child.output.standardError)")
                return nil
            }
            latencies.append(Double(line.at - written) / 1_000_000)
            // Between edits, as between two saves: the next write is a burst of its own.
            usleep(50_000)
        }
        let lines = child.output.errorLines.map(\.text)
        let expectedWord = accepts ? "[watch] swapped" : "[watch] restarted"
        if lines.filter({ $0.hasPrefix(expectedWord) }).count < edits {
            print("bench watch: expected \(edits) lines \"\(expectedWord) ...\", got:\n\(lines.joined(separator: "\n"))")
        }
        let tasks = lines.compactMap { line -> Double? in
            guard line.hasPrefix("[watch] swapped"), let open = line.lastIndex(of: "("), line.hasSuffix(" ms)") else { return nil }
            return Double(line[line.index(after: open)...].dropLast(4))
        }
        return (latencies, tasks)
    }
}
