import HostTesting
import SystemIO

/// `hybrid-bench modules`: start-up of an app of 200 modules written in TypeScript (ES modules)
/// against the same app in CommonJS JavaScript, both under `hybrid run`, and the JavaScript app
/// under node. TypeScript cold: an empty transform cache (every module through esbuild); warm: the
/// cache filled by an earlier run, which is what every start after the first costs. Goal (issue
/// 16): warm TypeScript ≤ 1.2 × the plain JavaScript app.
public struct ModulesBenchmark {
    let runs: Int
    let modules = 200

    public init(iterations: Int?) {
        runs = iterations ?? 10
    }

    public func run() {
        let folder = TemporaryFolder(prefix: "hybrid-bench-modules")
        defer { folder.remove() }
        do {
            try writeApps(in: folder)
        } catch {
            print("bench modules: cannot write the apps: \(error)")
            return
        }
        let hybrid = MeasuredProcess.builtHybrid
        let cache = folder.path + "/cache"
        let data = folder.path + "/data"
        func ours(_ main: String, cache: String) -> [String] {
            ["env", "HYBRID_CACHE_DIR=" + cache, hybrid, "run", main, "--data-dir", data]
        }
        let typeScript = ours(folder.path + "/ts/main.ts", cache: cache)
        let commonJS = ours(folder.path + "/cjs/main.js", cache: cache)
        let node = ["node", folder.path + "/cjs/main.js"]
        for (label, command) in [("TypeScript", typeScript), ("CommonJS", commonJS)] where MeasuredProcess.measure(command)?.status != 0 {
            print("bench modules: the \(label) app failed: \(command.joined(separator: " "))")
            return
        }
        let nodeWorks = MeasuredProcess.measure(node)?.status == 0

        var cold: [Double] = [], warm: [Double] = [], plain: [Double] = [], nodeRuns: [Double] = []
        for run in 0..<runs {
            let fresh = "\(folder.path)/cold-\(run)"
            if let m = MeasuredProcess.measure(ours(folder.path + "/ts/main.ts", cache: fresh)), m.status == 0 { cold.append(m.wallMs) }
            FileSystem.removeTree(fresh)
            if let m = MeasuredProcess.measure(typeScript), m.status == 0 { warm.append(m.wallMs) }
            if let m = MeasuredProcess.measure(commonJS), m.status == 0 { plain.append(m.wallMs) }
            if nodeWorks, let m = MeasuredProcess.measure(node), m.status == 0 { nodeRuns.append(m.wallMs) }
        }
        print("bench modules: an app of \(modules) modules (+ main), \(runs) runs each, alternating; median wall time")
        let plainMs = BenchmarkTable.percentile(plain, 0.5)
        let warmMs = BenchmarkTable.percentile(warm, 0.5)
        print(BenchmarkTable.row("CommonJS JS, hybrid run (baseline)", plainMs, unit: "ms"))
        print(BenchmarkTable.row("TypeScript ESM, warm cache", warmMs, unit: "ms  (\(BenchmarkTable.format(warmMs / plainMs))x the JS app; goal <= 1.2x)"))
        let coldMs = BenchmarkTable.percentile(cold, 0.5)
        print(BenchmarkTable.row("TypeScript ESM, cold (empty cache)", coldMs, unit: "ms  (\(BenchmarkTable.format(coldMs / plainMs))x; \(BenchmarkTable.format(coldMs / Double(modules + 1))) ms per module)"))
        if nodeWorks {
            let nodeMs = BenchmarkTable.percentile(nodeRuns, 0.5)
            print(BenchmarkTable.row("node, the CommonJS JS app", nodeMs, unit: "ms  (warm TypeScript \(BenchmarkTable.format(warmMs / nodeMs))x node)"))
        } else {
            print("node is not installed: no node baseline")
        }
    }

    /// The same app twice: `ts/` (ES modules in TypeScript, interfaces, classes, an enum) and
    /// `cjs/` (the same code as CommonJS JavaScript). Module i imports module i+1 of its group of
    /// ten, so the graph has depth; main imports each group's first and sums their results. The
    /// class's field is a field in both (TypeScript's `lines: Line[] = []` is defined, not
    /// assigned, as JavaScript's `lines = []` is), so that both apps are the same program.
    func writeApps(in folder: TemporaryFolder) throws {
        let groups = modules / 10
        for index in 0..<modules {
            let next = index % 10 == 9 ? nil : index + 1
            try folder.write("ts/m\(index).ts", typeScriptModule(index, next: next))
            try folder.write("cjs/m\(index).js", commonJSModule(index, next: next))
        }
        let heads = (0..<groups).map { $0 * 10 }
        try folder.write("ts/main.ts", heads.map { "import { total as t\($0) } from \"./m\($0)\";" }.joined(separator: "\n")
            + "\nconst sum: number = " + heads.map { "t\($0)()" }.joined(separator: " + ") + ";\nif (sum <= 0) throw new Error(\"bad sum\");\n")
        try folder.write("cjs/main.js", heads.map { "const { total: t\($0) } = require(\"./m\($0)\");" }.joined(separator: "\n")
            + "\nconst sum = " + heads.map { "t\($0)()" }.joined(separator: " + ") + ";\nif (sum <= 0) throw new Error(\"bad sum\");\n")
    }

    func typeScriptModule(_ index: Int, next: Int?) -> String {
        """
        \(next.map { "import { total as nextTotal } from \"./m\($0)\";" } ?? "const nextTotal = (): number => 0;")

        export enum Kind { Plain, Discounted }

        export interface Line { sku: string; price: number; quantity: number; kind: Kind }

        export class Cart\(index) {
          private readonly lines: Line[] = [];
          add(line: Line): this { this.lines.push(line); return this; }
          total(): number {
            return this.lines.reduce((sum, line) => sum + line.price * line.quantity * (line.kind === Kind.Discounted ? 0.9 : 1), 0);
          }
        }

        export function total(): number {
          const cart = new Cart\(index)().add({ sku: "a\(index)", price: \(index + 1), quantity: 2, kind: Kind.Plain });
          return cart.total() + nextTotal();
        }

        """
    }

    func commonJSModule(_ index: Int, next: Int?) -> String {
        """
        \(next.map { "const { total: nextTotal } = require(\"./m\($0)\");" } ?? "const nextTotal = () => 0;")

        const Kind = { Plain: 0, Discounted: 1, 0: "Plain", 1: "Discounted" };

        class Cart\(index) {
          lines = [];
          add(line) { this.lines.push(line); return this; }
          total() {
            return this.lines.reduce((sum, line) => sum + line.price * line.quantity * (line.kind === Kind.Discounted ? 0.9 : 1), 0);
          }
        }

        function total() {
          const cart = new Cart\(index)().add({ sku: "a\(index)", price: \(index + 1), quantity: 2, kind: Kind.Plain });
          return cart.total() + nextTotal();
        }

        module.exports = { Kind, Cart\(index), total };

        """
    }
}
