import CJavaScriptCore
import Glibc
import HostTesting
import JSON
import SystemIO

/// `hybrid-bench web`: the web platform's figures (URL, encodings, structuredClone, storage,
/// WebCrypto, streams, Blob), each workload a JS file under
/// `Benchmarks/web/` run under the `hybrid` built beside this benchmark and under `node`, the two
/// alternating, several rounds; the median ops/s of each, the ratio (ours / node's) and the goal.
/// node has no localStorage: its figures are against absolute goals. Then `hybrid run hello.js`
/// start-up against a bare JavaScriptCore process evaluating the same file (this executable's
/// hidden `web --bare-jsc FILE`). Goals: the ratio each row shows (most ≥ 1.0×; digest and AES-GCM
/// ≥ 0.9×, ES256 ≥ 0.8×, the 100 MB pipe ≥ 0.8× with its peak RSS growing ≤ 16 MiB over a 1 MB
/// pipe's); getItem ≥ 1M/s, setItem ≥ 30k/s; start-up ≤ 2× the bare engine's.
public struct WebBenchmark {
    let rounds: Int
    let seconds: Double

    public init(iterations: Int?, seconds: Double?) {
        rounds = iterations ?? 3
        self.seconds = seconds ?? 2
    }

    /// What a workload's figure is held to.
    enum Goal {
        /// Ours / node's throughput at least this.
        case ratio(Double)
        /// Ours at least this many ops/s, node having no such global.
        case rate(Double)
        /// Measured and reported, no goal.
        case report

        var text: String {
            switch self {
            case .ratio(let least): ">= \(BenchmarkTable.format(least))x"
            case .rate(let least): ">= \(least >= 1_000_000 ? "\(BenchmarkTable.format(least / 1_000_000))M" : "\(Int(least / 1000))k")/s"
            case .report: "report"
            }
        }
    }

    struct Workload {
        let label: String
        let file: String
        let arguments: [String]
        let goal: Goal
        /// Whether node runs it too (node 20 has no localStorage or sessionStorage).
        var node = true
    }

    /// The workload files, in the checkout the benchmark was built from.
    static let folder = Repository.path("Benchmarks/web")

    func workloads(gb18030 fixture: String?) -> [Workload] {
        let s = String(seconds)
        var list = [Workload(label: "new URL(s).href (WPT urltestdata)", file: "url.js", arguments: [s], goal: .ratio(1))]
        for (label, name) in [("encode 1 KB ASCII", "encode-ascii-1k"), ("encode 1 KB CJK", "encode-cjk-1k"), ("encode 1 MB mixed", "encode-mixed-1m"),
                              ("decode 1 KB ASCII", "decode-ascii-1k"), ("decode 1 KB CJK", "decode-cjk-1k"), ("decode 1 MB mixed", "decode-mixed-1m")] {
            list.append(Workload(label: "TextEn/Decoder " + label, file: "encoding.js", arguments: [name, s], goal: .ratio(1)))
        }
        if let fixture {
            list.append(Workload(label: "TextDecoder 1 MB gb18030", file: "encoding.js", arguments: ["decode-gb18030-1m", s, fixture], goal: .report))
        }
        list.append(Workload(label: "structuredClone 1 MB JSON-shaped", file: "structured-clone.js", arguments: ["clone-json-1m", s], goal: .ratio(1)))
        list.append(Workload(label: "structuredClone 10 MB ArrayBuffer", file: "structured-clone.js", arguments: ["clone-arraybuffer-10m", s], goal: .ratio(1)))
        list.append(Workload(label: "localStorage.getItem (present)", file: "storage.js", arguments: ["getItem", s], goal: .rate(1_000_000), node: false))
        list.append(Workload(label: "localStorage.setItem (durable)", file: "storage.js", arguments: ["setItem", s], goal: .rate(30_000), node: false))
        list.append(Workload(label: "sessionStorage.setItem", file: "storage.js", arguments: ["session-setItem", s], goal: .report, node: false))
        list.append(Workload(label: "subtle.digest SHA-256 1 MB", file: "crypto.js", arguments: ["digest-sha256-1m", s], goal: .ratio(0.9)))
        list.append(Workload(label: "getRandomValues 64 bytes", file: "crypto.js", arguments: ["random-64", s], goal: .ratio(1)))
        list.append(Workload(label: "ES256 sign + verify 1 KB", file: "crypto.js", arguments: ["es256-sign-verify", s], goal: .ratio(0.8)))
        list.append(Workload(label: "AES-GCM encrypt 1 MB", file: "crypto.js", arguments: ["aes-gcm-1m", s], goal: .ratio(0.9)))
        list.append(Workload(label: "100 MB Transform+gzip pipe, MB/s", file: "streams.js", arguments: ["pipe-gzip", s, "100"], goal: .ratio(0.8)))
        list.append(Workload(label: "new Blob([1 MB]).arrayBuffer()", file: "blob.js", arguments: ["blob-1m-arraybuffer", s], goal: .ratio(1)))
        return list
    }

    public func run() {
        let scratch = TemporaryFolder(prefix: "hybrid-bench-web")
        defer { scratch.remove() }
        let hybrid = MeasuredProcess.builtHybrid
        let nodeWorks = (try? ChildProcess.run("node", ["-e", "0"]))?.status == 0
        let fixture = Self.writeGB18030(in: scratch.path)
        if fixture == nil { print("bench web: python3 could not write the gb18030 input; that decode is left out") }
        let list = workloads(gb18030: fixture)
        var ours = Array(repeating: [Double](), count: list.count)
        var node = Array(repeating: [Double](), count: list.count)
        var failures: [String] = []
        for round in 0..<rounds {
            for (index, workload) in list.enumerated() {
                let path = Self.folder + "/" + workload.file
                let data = scratch.path + "/data-\(round)-\(index)"
                switch Self.measure(hybrid, ["run", path, "--data-dir", data, "--"] + workload.arguments) {
                case .success(let rate): ours[index].append(rate)
                case .failure(let failure): failures.append("hybrid run \(workload.file) \(workload.arguments.joined(separator: " ")): \(failure.message)")
                }
                FileSystem.removeTree(data)
                guard nodeWorks && workload.node else { continue }
                switch Self.measure("node", [path] + workload.arguments) {
                case .success(let rate): node[index].append(rate)
                case .failure(let failure): failures.append("node \(workload.file) \(workload.arguments.joined(separator: " ")): \(failure.message)")
                }
            }
        }
        print("bench web: \(rounds) rounds of \(BenchmarkTable.format(seconds)) s per workload, hybrid run and node \(nodeWorks ? "alternating" : "(not installed)"); median ops/s")
        print("workload".padding(to: 36) + "ours ops/s".leftPadding(to: 14) + "node ops/s".leftPadding(to: 14) + "ratio".leftPadding(to: 9) + "  goal".padding(to: 12) + "  result")
        var missed = 0
        for (index, workload) in list.enumerated() {
            let ourRate = median(ours[index])
            let nodeRate = workload.node ? median(node[index]) : .nan
            let ratio = ourRate / nodeRate
            let result: String
            switch workload.goal {
            case _ where ourRate.isNaN: result = "failed"
            case .ratio(let least): result = ratio.isNaN ? "no node" : ratio >= least ? "pass" : "FAIL"
            case .rate(let least): result = ourRate >= least ? "pass" : "FAIL"
            case .report: result = "-"
            }
            if result == "FAIL" || result == "failed" { missed += 1 }
            print(workload.label.padding(to: 36) + Self.rate(ourRate).leftPadding(to: 14)
                  + (workload.node ? Self.rate(nodeRate) : "n/a").leftPadding(to: 14)
                  + (ratio.isNaN ? "" : BenchmarkTable.format(ratio) + "x").leftPadding(to: 9)
                  + ("  " + workload.goal.text).padding(to: 12) + "  " + result)
        }
        missed += streamMemory(in: scratch.path, nodeWorks: nodeWorks) ? 0 : 1
        missed += startup(in: scratch.path) ? 0 : 1
        for failure in failures.prefix(10) { print("failed: " + failure) }
        print(missed == 0 ? "every goal met" : "\(missed) figure\(missed == 1 ? "" : "s") under \(missed == 1 ? "its goal" : "their goals")")
    }

    /// `hybrid run hello.js` against a bare JavaScriptCore process evaluating the same file, the two
    /// alternating: the web platform installs lazily, so it should cost start-up nothing. Whether the
    /// ratio met its goal (≤ 2×).
    func startup(in directory: String) -> Bool {
        let hello = directory + "/hello.js"
        try? FileSystem.write("console.log(\"hello\");\n", to: hello)
        let ours = [MeasuredProcess.builtHybrid, "run", hello, "--data-dir", directory + "/hello-data"]
        let bare = [MeasuredProcess.ownExecutable, "web", "--bare-jsc", hello]
        for command in [ours, bare] where MeasuredProcess.measure(command)?.status != 0 {
            print("bench web: \(command.joined(separator: " ")) failed")
            return false
        }
        var ourRuns: [MeasuredProcess.Measurement] = [], bareRuns: [MeasuredProcess.Measurement] = []
        for _ in 0..<max(10, rounds * 10) {
            if let m = MeasuredProcess.measure(ours) { ourRuns.append(m) }
            if let m = MeasuredProcess.measure(bare) { bareRuns.append(m) }
        }
        let ourWall = median(ourRuns.map(\.wallMs)), bareWall = median(bareRuns.map(\.wallMs))
        let ratio = ourWall / bareWall
        print("start-up, \(ourRuns.count) runs each, alternating; median wall time, median peak RSS")
        print(BenchmarkTable.row("hybrid run hello.js", ourWall, unit: "ms") + "   "
              + BenchmarkTable.format(median(ourRuns.map { Double($0.maxRSSKiB) }) / 1024) + " MiB")
        print(BenchmarkTable.row("bare JavaScriptCore, hello.js", bareWall, unit: "ms") + "   "
              + BenchmarkTable.format(median(bareRuns.map { Double($0.maxRSSKiB) }) / 1024) + " MiB")
        print("ratio wall: \(BenchmarkTable.format(ratio))x   (goal <= 2x)   \(ratio <= 2 ? "pass" : "FAIL")")
        return ratio <= 2
    }

    /// The 100 MB pipe's memory: its peak resident memory against the same pipe of 1 MB, the same
    /// number of rounds, under each runtime. Flat means the 100 MB run grows by no more than its
    /// queues hold, whatever the size. Whether ours stayed within 16 MiB.
    func streamMemory(in directory: String, nodeWorks: Bool) -> Bool {
        let script = Self.folder + "/streams.js"
        let ours = { (megabytes: String) in
            [MeasuredProcess.builtHybrid, "run", script, "--data-dir", directory + "/streams-data", "--", "pipe-gzip", "0.01", megabytes]
        }
        let node = { (megabytes: String) in ["node", script, "pipe-gzip", "0.01", megabytes] }
        print("the Transform+gzip pipe's peak RSS, 100 MB against 1 MB (4 rounds each, median; goal: grows <= 16 MiB)")
        var met = true
        for (name, command) in [("hybrid run", ours), ("node", node)] where name != "node" || nodeWorks {
            var small: [Double] = [], large: [Double] = []
            for _ in 0..<4 {
                guard let one = MeasuredProcess.measure(command("1")), one.status == 0,
                      let hundred = MeasuredProcess.measure(command("100")), hundred.status == 0 else {
                    print("bench web: \(command("100").joined(separator: " ")) failed")
                    if name == "hybrid run" { met = false }
                    break
                }
                small.append(Double(one.maxRSSKiB) / 1024)
                large.append(Double(hundred.maxRSSKiB) / 1024)
            }
            guard !small.isEmpty else { continue }
            let growth = median(large) - median(small)
            let verdict = name == "node" ? "" : growth <= 16 ? "   pass" : "   FAIL"
            if name != "node" && growth > 16 { met = false }
            print(name.padding(to: 12) + "1 MB: \(BenchmarkTable.format(median(small))) MiB   100 MB: \(BenchmarkTable.format(median(large))) MiB"
                  + "   grows \(BenchmarkTable.format(growth)) MiB" + verdict)
        }
        return met
    }

    /// Runs one workload and reads its result line, `{"name", "ops", "seconds"}`: ops per second,
    /// or why there is none.
    static func measure(_ executable: String, _ arguments: [String]) -> Result<Double, WorkloadFailure> {
        let result: ChildProcess.Result
        do {
            result = try ChildProcess.run(executable, arguments)
        } catch {
            return .failure(WorkloadFailure(error.description))
        }
        let output = String(decoding: result.output, as: UTF8.self)
        guard result.status == 0 else {
            let errors = String(decoding: result.errorOutput, as: UTF8.self).split(separator: "\n")
            return .failure(WorkloadFailure("exit status \(result.status): \(errors.first ?? "")"))
        }
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
              let value = try? JSONParser.parse(String(line)),
              let ops = value["ops"]?.numberValue, let seconds = value["seconds"]?.numberValue, seconds > 0 else {
            return .failure(WorkloadFailure("no result line {\"name\", \"ops\", \"seconds\"} in its output: \(output.prefix(200))"))
        }
        return .success(ops / seconds)
    }

    struct WorkloadFailure: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// About 1 MB of Chinese text with ASCII, Latin and emoji (gb18030's four-byte sequences)
    /// encoded as gb18030 by python3, as base64 in `{"base64": ...}` (a file both runtimes can
    /// `require`); its path, or nil without python3.
    static func writeGB18030(in directory: String) -> String? {
        let path = directory + "/gb18030.json"
        let script = """
            import base64, json, sys
            unit = "HybridHost 你好，世界！中文编码测试：简体与繁體、標點符號。 déjà € 😀 ㄅㄆ ".encode("gb18030")
            data = unit * ((1 << 20) // len(unit))
            json.dump({"base64": base64.b64encode(data).decode()}, open(sys.argv[1], "w"))
            """
        guard (try? ChildProcess.run("python3", ["-c", script, path]))?.status == 0 else { return nil }
        return path
    }

    static func rate(_ value: Double) -> String {
        switch value {
        case _ where value.isNaN: "-"
        case 1_000_000...: BenchmarkTable.format(value / 1_000_000) + "M"
        case 10_000...: BenchmarkTable.format(value / 1000) + "k"
        default: BenchmarkTable.format(value)
        }
    }

    func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}

/// The start-up baseline: a process that makes a JavaScriptCore context, gives it a `console.log`
/// that writes its arguments to stdout, evaluates one file and exits, and nothing else.
enum BareJavaScriptCore {
    static func run(_ path: String) -> Int32 {
        guard let source = try? FileSystem.text(atPath: path) else {
            print("bench web --bare-jsc: cannot read \(path)")
            return 1
        }
        let context = JSGlobalContextCreate(nil)!
        defer { JSGlobalContextRelease(context) }
        let log = JSObjectMakeFunctionWithCallback(context, nil) { ctx, _, _, count, arguments, _ in
            var line = ""
            for index in 0..<count {
                guard let text = JSValueToStringCopy(ctx, arguments![index], nil) else { continue }
                defer { JSStringRelease(text) }
                var bytes = [CChar](repeating: 0, count: JSStringGetMaximumUTF8CStringSize(text))
                JSStringGetUTF8CString(text, &bytes, bytes.count)
                line += (index > 0 ? " " : "") + String(cString: bytes)
            }
            print(line)
            return JSValueMakeUndefined(ctx)
        }
        let console = JSObjectMake(context, nil, nil)
        set(context, console, "log", log)
        set(context, JSContextGetGlobalObject(context), "console", console)
        let script = JSStringCreateWithUTF8CString(source)
        let url = JSStringCreateWithUTF8CString(path)
        defer { JSStringRelease(script); JSStringRelease(url) }
        var exception: JSValueRef?
        JSEvaluateScript(context, script, nil, url, 1, &exception)
        return exception == nil ? 0 : 1
    }

    static func set(_ context: JSGlobalContextRef, _ object: JSObjectRef?, _ name: String, _ value: JSValueRef?) {
        let key = JSStringCreateWithUTF8CString(name)
        defer { JSStringRelease(key) }
        JSObjectSetProperty(context, object, key, value, JSPropertyAttributes(kJSPropertyAttributeNone), nil)
    }
}
