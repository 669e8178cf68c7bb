import HostTesting
import SystemIO

/// `hybrid-bench websocket`: `Benchmarks/web/websocket.js` under `hybrid run` and under node (with
/// Debian's `ws` client: node 20 has no global WebSocket), both against one echo server, node's
/// `ws` server in a process of its own (`Benchmarks/web/websocket-echo.js`), several rounds
/// alternating: 20,000 text messages of 32 bytes, 64 sent ahead of their echoes, 3 timed bursts a
/// run (goal: ≥ 1.0× node's messages a second).
struct WebSocketBenchmark {
    let rounds: Int
    let messages = 20_000
    let inFlight = 64
    let bytes = 32

    @discardableResult
    func run() -> Bool {
        guard (try? ChildProcess.run("node", ["-e", "require('/usr/share/nodejs/ws')"]))?.status == 0 else {
            print("bench websocket: needs node and Debian's node-ws (scripts/install-deps installs them)")
            return false
        }
        guard let server = try? LiveProcess("node", [WebBenchmark.folder + "/websocket-echo.js"]),
              server.waitBlocking(timeout: 20, until: { $0.standardOutput.contains("listening ") }),
              let port = server.output.standardOutput.split(separator: " ").last.flatMap({ Int($0.prefix(while: \.isNumber)) }) else {
            print("bench websocket: the echo server did not start")
            return false
        }
        defer { server.stop() }
        let scratch = TemporaryFolder(prefix: "hybrid-bench-websocket")
        defer { scratch.remove() }
        let app = scratch.path + "/app"
        do {
            try FileSystem.createDirectories(app)
            for file in ["websocket.js", "measure.js"] {
                try FileSystem.write(try FileSystem.text(atPath: WebBenchmark.folder + "/" + file), to: app + "/" + file)
            }
            try FileSystem.write(#"{"name": "bench-websocket", "main": "websocket.js", "grants": ["network:127.0.0.1"]}"#, to: app + "/app.json")
        } catch {
            print("bench websocket: cannot write the app: \(error)")
            return false
        }
        let workload = ["echo", "ws://127.0.0.1:\(port)", "\(messages)", "\(inFlight)", "\(bytes)"]
        let hybrid = [MeasuredProcess.builtHybrid, "run", app, "--data-dir", scratch.path + "/data", "--"] + workload
        let node = ["node", WebBenchmark.folder + "/websocket.js"] + workload
        var ours: [Double] = [], theirs: [Double] = []
        var failures: [String] = []
        for _ in 0..<rounds {
            for (command, into) in [(hybrid, 0), (node, 1)] {
                switch WebBenchmark.measure(command[0], Array(command.dropFirst())) {
                case .success(let rate): if into == 0 { ours.append(rate) } else { theirs.append(rate) }
                case .failure(let failure): failures.append("\(command.joined(separator: " ")): \(failure.message)")
                }
            }
        }
        let median = { (values: [Double]) in values.isEmpty ? Double.nan : values.sorted()[values.count / 2] }
        let (ourRate, nodeRate) = (median(ours), median(theirs))
        print("bench websocket: \(messages) text messages of \(bytes) bytes, \(inFlight) ahead of their echoes, 3 timed bursts a run; "
              + "\(rounds) runs, alternating, median; node's ws echo server in a process of its own")
        print(BenchmarkTable.row("node 20 + ws (baseline)", nodeRate, unit: "messages/s"))
        print(BenchmarkTable.row("hybrid WebSocket", ourRate, unit: "messages/s  (\(BenchmarkTable.format(ourRate / nodeRate))x node; goal >= 1.0x)"))
        for failure in failures.prefix(10) { print("failed: " + failure) }
        let met = ourRate / nodeRate >= 1.0 && failures.isEmpty
        print(met ? "websocket: every goal met" : "websocket: a goal was missed or a run failed")
        return met
    }
}
