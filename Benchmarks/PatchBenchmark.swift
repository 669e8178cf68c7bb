import Engine
import Glibc
import HostTesting
import HybridHost
import JSON
import PatchProtocol
import Patches
import SystemIO

/// `hybrid-bench patch`: verify + compile + swap (`replace`) of a 200 KB module in a running app,
/// one patch after another; against the baseline, a plain `require` of the same module (read,
/// compile, evaluate) on the JS thread. Prints p50/p99 of the whole apply, the phases, and the
/// JS thread's pause per swap (the swap task's duration). Goals (issue 6): p99 ≤ 50 ms, pause ≤ 1 ms.
public struct PatchBenchmark {
    let patches: Int

    public init(iterations: Int?) {
        patches = iterations ?? 100
    }

    /// A module of about `bytes` bytes: many small functions, as bundled business code looks.
    static func bigModule(bytes: Int, tag: Int) -> String {
        var source = "// generated for hybrid bench patch, revision \(tag)\nmodule.hot.accept();\nlet calls = module.hot.data.calls ?? 0;\nmodule.hot.dispose((data) => { data.calls = calls; });\n"
        var i = 0
        while source.utf8.count < bytes {
            source += "exports.f\(i) = function f\(i)(order) { calls++; const total = order.items.reduce((sum, item) => sum + item.price * item.quantity, 0); return { id: order.id, total: total + \(i % 97), tag: \"r\(tag)\" }; };\n"
            i += 1
        }
        return source
    }

    public func run() {
        let directory = TemporaryFolder(prefix: "hybrid-bench").path
        defer { FileSystem.removeTree(directory) }
        let key = PatchSigner.generateKey()
        let app = directory + "/app"
        let module = Self.bigModule(bytes: 200 * 1024, tag: 0)
        do {
            guard mkdir(app, 0o755) == 0 else { throw FileSystemError(path: app, reason: "mkdir failed") }
            try FileSystem.write(#"{"name": "bench", "version": "1.0.0", "main": "main.js", "patchKeys": ["\#(key.publicKey)"]}"#, to: app + "/app.json")
            try FileSystem.write(module, to: app + "/big.js")
            try FileSystem.write("globalThis.big = () => require(\"./big\");\nbig();\n", to: app + "/main.js")
        } catch {
            print("bench patch: cannot write the app: \(error)")
            return
        }
        let session: AppSession
        do {
            session = try AppSession(path: app, options: AppRunOptions(dataDirectory: directory + "/data"))
        } catch {
            print("bench patch: \(error)")
            return
        }
        defer { session.shutdown() }
        let main = app + "/main.js"
        do {
            try session.engine.performAndWait { context in _ = try context.runMain(main) }
        } catch {
            print("bench patch: main.js failed: \(error)")
            return
        }

        // Baseline: a plain require of the same module, on the JS thread. JavaScriptCore caches the
        // code of a source it has seen, so each require is of a copy with a comment of its own, as
        // each patch is: a first require, compile included.
        var baseline: [Double] = [], cachedRequire: [Double] = []
        for copy in 0..<(patches + 10) {
            let path = app + "/copy\(copy).js"
            try? FileSystem.write(module + "\n// copy \(copy)\n", to: path)
            let (fresh, cached) = (try? session.engine.performAndWait { context -> (UInt64, UInt64) in
                let started = MonotonicClock.now()
                try context.runMain(path)
                let first = MonotonicClock.now() - started
                _ = try context.evaluate("__hybridModules.cache.delete(\(JSONValue.string(path)))", url: "bench:evict")
                let again = MonotonicClock.now()
                try context.runMain(path)
                return (first, MonotonicClock.now() - again)
            }) ?? (0, 0)
            if copy >= 10 {
                baseline.append(Double(fresh) / 1e6)
                cachedRequire.append(Double(cached) / 1e6)
            }
        }

        var big = Samples()
        for version in 1...(patches + 10) {
            let source = Self.bigModule(bytes: 200 * 1024, tag: version)
            guard apply(version, ["big.js": (.replace, source)], key: key.privateKey, session: session) else { return }
            if version > 10 { big.add(session.patches.lastTimings) }
        }
        // A small amend, the usual fix: one function of the 200 KB module.
        var small = Samples()
        for version in (patches + 11)...(2 * patches + 20) {
            let source = "exports.f1 = function f1(order) { return { id: order.id, total: 0, tag: \"amend \(version)\" }; };\n"
            guard apply(version, ["big.js": (.amend, source)], key: key.privateKey, session: session) else { return }
            if version > patches + 20 { small.add(session.patches.lastTimings) }
        }
        let state = (try? session.engine.performAndWait { context in
            try context.jsonValue(from: try context.evaluate("[big().f1({id: 1, items: [{price: 2, quantity: 3}]}).tag, __hybridModules.epoch]", url: "bench:check"))
        }) ?? .null

        print("bench patch: \(patches) patches of each kind, one after another, in a running app (after 10 warm-up); ends on \(state)")
        print(Self.header)
        print("replace of a \(module.utf8.count / 1024) KB module")
        print(Self.row("  apply: verify+compile+swap+ledger", big.total))
        print(Self.row("    verify (sha256 + Ed25519)", big.verify))
        print(Self.row("    compile in the scratch context", big.compile))
        print(Self.row("    swap (posted, run on the JS thread)", big.swap))
        print(Self.row("    ledger (files written, fsync)", big.ledger))
        print(Self.row("  JS thread pause (the swap task)", big.pause))
        print(Self.row("baseline: first require of the module", baseline))
        print(Self.row("  (require again, code cached by JSC)", cachedRequire))
        print("amend of one function (\(small.total.count) patches)")
        print(Self.row("  apply: verify+compile+swap+ledger", small.total))
        print(Self.row("  JS thread pause (the swap task)", small.pause))
        let p50 = { (values: [Double]) in BenchmarkTable.percentile(values, 0.5) }
        print("ratio replace apply / first require (p50): \(BenchmarkTable.format(p50(big.total) / p50(baseline)))x; "
              + "replace pause / first require (p50): \(BenchmarkTable.format(p50(big.pause) / p50(baseline)))x")
        print("goals: 200 KB apply p99 <= 50 ms: \(BenchmarkTable.percentile(big.total, 0.99) <= 50 ? "met" : "NOT met"); "
              + "longest pause <= 1 ms: replace \(big.pause.max()! <= 1 ? "met" : "NOT met") (\(BenchmarkTable.format(big.pause.max()!)) ms), "
              + "amend \(small.pause.max()! <= 1 ? "met" : "NOT met") (\(BenchmarkTable.format(small.pause.max()!)) ms)")
    }

    struct Samples {
        var total: [Double] = [], verify: [Double] = [], compile: [Double] = [], swap: [Double] = [], ledger: [Double] = [], pause: [Double] = []
        mutating func add(_ t: PatchTimings) {
            total.append(Double(t.total) / 1e6)
            verify.append(Double(t.verify) / 1e6)
            compile.append(Double(t.compile) / 1e6)
            swap.append(Double(t.swap) / 1e6)
            ledger.append(Double(t.ledger) / 1e6)
            pause.append(Double(t.pause) / 1e6)
        }
    }

    private func apply(_ version: Int, _ modules: [String: (PatchManifest.Mode, String)], key: String, session: AppSession) -> Bool {
        do {
            var entries: [String: PatchManifest.Module] = [:]
            for (name, (mode, source)) in modules { entries[name] = .init(mode: mode, sha256: SignedPatch.sha256(source)) }
            let manifest = PatchManifest(app: "bench", patchVersion: version, baseVersion: "1.0.0", modules: entries)
            let patch = try PatchSigner.sign(manifest, sources: modules.mapValues(\.1), privateKey: key)
            try session.patches.apply(patch)
            return true
        } catch {
            print("bench patch: patch \(version) failed: \(error)")
            return false
        }
    }

    static let header = "".padding(to: 42) + "p50 ms".leftPadding(to: 10) + "p99 ms".leftPadding(to: 10) + "max ms".leftPadding(to: 10)

    static func row(_ label: String, _ values: [Double]) -> String {
        label.padding(to: 42) + BenchmarkTable.format(BenchmarkTable.percentile(values, 0.5)).leftPadding(to: 10)
            + BenchmarkTable.format(BenchmarkTable.percentile(values, 0.99)).leftPadding(to: 10)
            + BenchmarkTable.format(values.max() ?? 0).leftPadding(to: 10)
    }
}
