import Bridge
import HybridHost
import JSON
import SystemIO

/// `hybrid-bench schema`: `await Hybrid.call("bridge", "echo", params)`, 256 calls in flight, with
/// the params `{i, kind: "task", code: "AB-12"}` checked (a) against today's echo contract
/// (`{"type": "object"}`) and (b) against a params schema using `if`/`then`/`else`,
/// `unevaluatedProperties` and a `pattern`, in two runs side by side. Prints ns/call for each and
/// (b)/(a). Goal (issue 18): (b) ≤ 1.1 × (a).
public struct SchemaEchoBenchmark {
    let calls: Int

    public init(iterations: Int?) {
        calls = iterations ?? 200_000
    }

    /// What the richer contract checks, in the words a service author would write it.
    static let richParams = """
        {"type": "object",
         "properties": {"i": {"type": "integer", "minimum": 0}, "kind": {"enum": ["task", "note"]}},
         "required": ["i"],
         "if": {"properties": {"kind": {"const": "task"}}, "required": ["kind"]},
         "then": {"properties": {"code": {"type": "string", "pattern": "^[A-Z]{2}-[0-9]+$"}}, "required": ["code"]},
         "else": {"properties": {"text": {"type": "string"}}},
         "unevaluatedProperties": false}
        """

    static let script = """
        const N = Number(Hybrid.args[0]);
        const INFLIGHT = 256;
        async function bridge() {
          let next = 0;
          async function lane() {
            while (next < N) {
              const i = next++;
              const result = await Hybrid.call("bridge", "echo", { i, kind: "task", code: "AB-12" });
              if (result.i !== i) throw new Error("echo answered the wrong call");
            }
          }
          const t0 = __benchNow();
          await Promise.all(Array.from({ length: INFLIGHT }, lane));
          return (t1 => (t1 - t0) * 1e6 / N)(__benchNow());
        }
        (async () => {
          await bridge();                                   // warm-up: JIT tiers
          const rounds = [];
          for (let r = 0; r < 5; r++) rounds.push(await bridge());
          __benchReport(JSON.stringify({ echo: Math.min(...rounds) }));
        })();
        """

    public func run() {
        guard let rich = Self.richContract() else { return }
        // Alternated, twice each, so that a drift in the machine's load hits both alike.
        var plain: [Double] = []
        var schema: [Double] = []
        for _ in 0..<2 {
            if let ns = measure(overrides: [:]) { plain.append(ns) }
            if let ns = measure(overrides: ["bridge": rich]) { schema.append(ns) }
        }
        guard let a = plain.min(), let b = schema.min() else {
            print("bench schema: the benchmark script did not report")
            return
        }
        print("bench schema: \(calls) calls per measurement, best of 5 rounds in each of 2 runs, 256 calls in flight")
        print(BenchmarkTable.row("(a) echo, params {\"type\": \"object\"}", a, unit: "ns/call"))
        print(BenchmarkTable.row("(b) echo, if/then/else + unevaluatedProperties + pattern", b, unit: "ns/call"))
        print("ratio (b)/(a): \(BenchmarkTable.format(b / a))x   (goal <= 1.1x)")
        validatorAlone(rich)
    }

    /// The validators alone on the same params, in Swift: what of (b) - (a) is the schema's.
    private func validatorAlone(_ rich: Contract) {
        guard let plain = try? HostServices.contracts()["bridge"]?.validator(.params, of: "echo"),
              let richValidator = try? rich.validator(.params, of: "echo"),
              let patternOnly = try? SchemaValidator(schema: ["type": "string", "pattern": "^[A-Z]{2}-[0-9]+$"]) else { return }
        let params: JSONValue = ["i": 7, "kind": "task", "code": "AB-12"]
        func time(_ validator: SchemaValidator, _ value: JSONValue) -> Double {
            var best = Double.infinity
            for _ in 0..<5 {
                let start = MonotonicClock.now()
                for _ in 0..<calls where !validator.isValid(value) { print("bench schema: params refused") }
                best = min(best, Double(MonotonicClock.now() - start) / Double(calls))
            }
            return best
        }
        print(BenchmarkTable.row("    validator alone, (a)'s schema", time(plain, params), unit: "ns/check"))
        print(BenchmarkTable.row("    validator alone, (b)'s schema", time(richValidator, params), unit: "ns/check"))
        print(BenchmarkTable.row("    of which the pattern alone on \"AB-12\"", time(patternOnly, "AB-12"), unit: "ns/check"))
    }

    private func measure(overrides: [String: Contract]) -> Double? {
        var options = AppRunOptions()
        options.contractOverrides = overrides
        return BenchmarkApp.run(script: Self.script, arguments: [String(calls)], options: options) { _ in }?["echo"]?.numberValue
    }

    /// The embedded bridge contract with echo's params replaced by `richParams`.
    static func richContract() -> Contract? {
        do {
            guard let bridge = try HostServices.contracts()["bridge"], case .object(var root) = bridge.json,
                  case .object(var actions)? = root["actions"], case .object(var echo)? = actions["echo"] else {
                print("bench schema: the bridge contract has no echo action")
                return nil
            }
            echo["params"] = try JSONParser.parse(richParams)
            actions["echo"] = .object(echo)
            root["actions"] = .object(actions)
            let contract = try Contract(json: .object(root), file: "services/bridge.json (bench)")
            try contract.compileAll()
            return contract
        } catch {
            print("bench schema: \(error)")
            return nil
        }
    }
}
