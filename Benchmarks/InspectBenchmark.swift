import HostTesting
import JSON
import SystemIO

/// `hybrid-bench inspect` (issue 37's figures), on the release `hybrid` beside it:
/// - start-up of `hybrid run hello.js` against the same with `--inspect` (what the inspector costs
///   when asked for; without it nothing of it runs: `hybrid-bench startup` is the figure that must
///   not move);
/// - the time from starting `hybrid run --inspect-brk` to the debugger's first `Debugger.paused`
///   (connect, `Debugger.enable`, `Runtime.runIfWaitingForDebugger`, the entry pause);
/// - a compute workload (the JS times its own loop) with a debugger attached, `Debugger.enable`d,
///   breakpoints active and none set, against the same run with no debugger.
struct InspectBenchmark {
    let runs: Int

    init(iterations: Int?) {
        runs = iterations ?? 10
    }

    static let compute = """
        function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
        const started = performance.now();
        let total = 0;
        for (let round = 0; round < 5; round++) total += fib(27);
        console.log("elapsed " + (performance.now() - started).toFixed(3) + " " + total);
        """

    func run() {
        let scratch = TemporaryFolder(prefix: "hybrid-bench-inspect")
        defer { scratch.remove() }
        let hello = scratch.path + "/hello.js", compute = scratch.path + "/compute.js"
        try? FileSystem.write("console.log(\"hello\");\n", to: hello)
        try? FileSystem.write(Self.compute, to: compute)
        let data = scratch.path + "/data"
        let hybrid = MeasuredProcess.builtHybrid

        // Start-up, alternating.
        var plain: [Double] = [], inspected: [Double] = []
        for _ in 0..<runs * 3 {
            if let m = MeasuredProcess.measure([hybrid, "run", hello, "--data-dir", data]), m.status == 0 { plain.append(m.wallMs) }
            if let m = MeasuredProcess.measure([hybrid, "run", hello, "--data-dir", data, "--inspect"]), m.status == 0 { inspected.append(m.wallMs) }
        }
        print("bench inspect: start-up of hybrid run hello.js, \(runs * 3) runs each, alternating, median wall time")
        print(BenchmarkTable.row("hybrid run hello.js", Self.median(plain), unit: "ms"))
        print(BenchmarkTable.row("  with --inspect", Self.median(inspected), unit: "ms  (\(BenchmarkTable.format(Self.median(inspected) / Self.median(plain)))x)"))

        // --inspect-brk to the first stop.
        var toStop: [Double] = []
        var failures: [String] = []
        for _ in 0..<runs {
            do {
                let started = MonotonicClock.now()
                let process = try LiveProcess(hybrid, ["run", hello, "--data-dir", data, "--inspect-brk"])
                defer { process.stop() }
                guard process.waitBlocking(timeout: 30, until: { $0.standardError.contains("\n") }),
                      let url = process.output.standardError.split(separator: "\n").first?.split(separator: " ").last else {
                    failures.append("no URL: \(process.output.standardError)")
                    continue
                }
                try blocking {
                    let session = try await InspectorProbe.connect(String(url))
                    try await session.call("Debugger.enable")
                    try await session.call("Runtime.runIfWaitingForDebugger")
                    try await session.event("Debugger.paused")
                    session.close()
                }
                toStop.append(Double(MonotonicClock.now() - started) / 1e6)
            } catch {
                failures.append("\(error)")
            }
        }
        print("bench inspect: from starting hybrid run --inspect-brk to the first Debugger.paused, \(runs) runs, median")
        print(BenchmarkTable.row("to the first stop", Self.median(toStop), unit: "ms"))

        // Compute, with a debugger attached and no breakpoint, against none.
        var free: [Double] = [], attached: [Double] = []
        for _ in 0..<runs {
            if let elapsed = Self.elapsed(of: (try? ChildProcess.run(hybrid, ["run", compute, "--data-dir", data])).map { String(decoding: $0.output, as: UTF8.self) }) { free.append(elapsed) }
            do {
                let process = try LiveProcess(hybrid, ["run", compute, "--data-dir", data, "--inspect-brk"])
                defer { process.stop() }
                guard process.waitBlocking(timeout: 30, until: { $0.standardError.contains("\n") }),
                      let url = process.output.standardError.split(separator: "\n").first?.split(separator: " ").last else { continue }
                try blocking {
                    let session = try await InspectorProbe.connect(String(url))
                    try await session.call("Debugger.enable")
                    try await session.call("Debugger.setBreakpointsActive", ["active": true])
                    try await session.call("Runtime.runIfWaitingForDebugger")
                    try await session.event("Debugger.paused")
                    try await session.call("Debugger.resume")
                    _ = process.waitBlocking(timeout: 120) { $0.exitStatus != nil }
                    session.close()
                }
                if let elapsed = Self.elapsed(of: process.output.standardOutput) { attached.append(elapsed) }
            } catch {
                failures.append("\(error)")
            }
        }
        let (freeTime, attachedTime) = (Self.median(free), Self.median(attached))
        print("bench inspect: fib(27) five times, timed by the script, \(runs) runs each, median")
        print(BenchmarkTable.row("no debugger", freeTime, unit: "ms"))
        print(BenchmarkTable.row("debugger attached, no breakpoint", attachedTime, unit: "ms  (\(BenchmarkTable.format(attachedTime / freeTime))x)"))
        for failure in failures.prefix(5) { print("failed: " + failure) }
    }

    static func elapsed(of output: String?) -> Double? {
        output?.split(separator: "\n").first { $0.hasPrefix("elapsed ") }.flatMap { Double($0.split(separator: " ")[1]) }
    }

    static func median(_ values: [Double]) -> Double {
        values.isEmpty ? .nan : values.sorted()[values.count / 2]
    }
}
