import Bridge
import Engine
import JSON
import Testing

@Suite("bridge bad inputs")
struct BridgeBadInputTests {
    struct BadInput: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let action: String
        /// A JS expression for the params.
        let params: String
        let code: String
        let path: String?
        let message: String

        init(_ description: String, action: String = "echo", params: String, code: String = "E_BAD_PARAMS", path: String?, message: String) {
            testDescription = description
            self.action = action
            self.params = params
            self.code = code
            self.path = path
            self.message = message
        }
    }

    static let nested257 = "(() => { const root = {}; let c = root; for (let i = 1; i < 257; i++) { c.x = {}; c = c.x; } return root; })()"

    static let inputs: [BadInput] = [
        .init("params that are an array", params: "[1, 2]", path: "", message: "params: expected an object, got array"),
        .init("params that are a string", params: #""text""#, path: "", message: "params: expected an object, got string"),
        .init("params that are a number", params: "42", path: "", message: "params: expected an object, got number"),
        .init("params that are null", params: "null", path: "", message: "params: expected an object, got null"),
        .init("params that are a boolean", params: "true", path: "", message: "params: expected an object, got boolean"),
        .init("params that are bytes", params: "new Uint8Array(2)", path: "", message: "params: expected an object, got bytes"),
        .init("nesting deeper than 256", params: nested257, path: String(repeating: "/x", count: 256),
              message: "nested deeper than 256 levels"),
        .init("a cycle", params: "(() => { const a = {}; a.self = a; return a; })()", path: String(repeating: "/self", count: 256),
              message: "(or circular)"),
        .init("a lone high surrogate", params: #"{name: "\uD800"}"#, path: "/name", message: "params/name: string holds a lone UTF-16 surrogate"),
        .init("a lone low surrogate deep down", params: #"{items: [{sku: "ok"}, {sku: "a\uDC00"}]}"#, path: "/items/1/sku",
              message: "lone UTF-16 surrogate"),
        .init("a lone surrogate in a key", params: #"{nested: {"\uDBFF": 1}}"#, path: "/nested", message: "lone UTF-16 surrogate"),
        .init("a __proto__ key against a closed contract", action: "order",
              params: #"JSON.parse('{"__proto__": {"polluted": true}, "items": []}')"#, path: "/__proto__",
              message: "params/__proto__: unexpected property"),
        .init("a BigInt", params: "{n: 10n}", path: "/n", message: "a BigInt cannot cross the bridge"),
        .init("a typed array other than bytes", params: "{v: new Float32Array(1)}", path: "/v", message: "cannot cross the bridge"),
        .init("params over 16 MiB", params: #"{blob: "x".repeat(16 * 1024 * 1024 + 1)}"#, code: "E_TOO_LARGE", path: nil,
              message: "larger than 16 MiB"),
        .init("many small params over 16 MiB", params: #"{list: Array.from({length: 17}, () => "y".repeat(1024 * 1024))}"#,
              code: "E_TOO_LARGE", path: nil, message: "larger than 16 MiB"),
    ]

    @Test("each bad input gets a clear error, and the host serves the next call", arguments: inputs)
    func badInput(_ input: BadInput) async throws {
        try await withBridge { (host) async throws in
            let answer = try await host.run("""
                const bad = await outcome(Hybrid.call("probe", "\(input.action)", \(input.params)));
                const next = await Hybrid.call("probe", "work", {i: 2});
                const polluted = ({}).polluted !== undefined || Object.prototype.polluted !== undefined;
                return {bad, next, polluted};
                """)
            let bad = try #require(answer["bad"])
            #expect(bad["code"] == .string(input.code), "\(bad)")
            #expect(bad["path"] == input.path.map(JSONValue.string), "\(bad)")
            #expect(bad["message"]?.stringValue?.contains(input.message) == true, "\(bad)")
            #expect(bad["target"] == "probe")
            #expect(bad["action"] == .string(input.action))
            #expect(answer["next"] == ["i": 2])
            #expect(answer["polluted"] == false)
        }
    }

    @Test("a __proto__ key crosses as plain data both ways, and pollutes no prototype")
    func protoAsData() async throws {
        try await withBridge { (host) async throws in
            let answer = try await host.run("""
                const sent = JSON.parse('{"__proto__": {"polluted": true}, "nested": {"__proto__": {"isAdmin": true}}}');
                const back = await Hybrid.call("probe", "echo", sent);
                return {
                    keys: Object.keys(back),
                    nestedKeys: Object.keys(back.nested),
                    ownData: back["__proto__"],
                    prototypeKept: Object.getPrototypeOf(back) === Object.prototype && Object.getPrototypeOf(back.nested) === Object.prototype,
                    backPolluted: back.polluted !== undefined || back.nested.isAdmin !== undefined,
                    globalPolluted: ({}).polluted !== undefined || ({}).isAdmin !== undefined,
                };
                """)
            #expect(answer["keys"] == ["__proto__", "nested"])
            #expect(answer["nestedKeys"] == ["__proto__"])
            #expect(answer["ownData"] == ["polluted": true])
            #expect(answer["prototypeKept"] == true)
            #expect(answer["backPolluted"] == false)
            #expect(answer["globalPolluted"] == false)
        }
    }

    @Test("nesting exactly 256 deep is accepted")
    func depthAtTheLimit() async throws {
        try await withBridge { (host) async throws in
            let answer = try await host.run("""
                const root = {}; let c = root; for (let i = 1; i < 256; i++) { c.x = {}; c = c.x; }
                let back = await Hybrid.call("probe", "echo", root);
                let depth = 1; while (back.x) { back = back.x; depth++; }
                return depth;
                """)
            #expect(answer == 256)
        }
    }

    @Test("target and action names that are not strings are refused, not crashed on", arguments: [
        "Hybrid.call(undefined, \"echo\", {})",
        "Hybrid.call(\"probe\", 42, {})",
        "Hybrid.call({}, [], {})",
    ])
    func oddNames(call: String) async throws {
        try await withBridge { (host) async throws in
            let answer = try await host.run("const odd = await outcome(\(call)); return {odd, next: await Hybrid.call(\"probe\", \"work\", {i: 3})};")
            #expect(answer["odd"]?["ok"] == false)
            let code = answer["odd"]?["code"]?.stringValue
            #expect(code == "E_UNKNOWN_TARGET" || code == "E_UNKNOWN_ACTION")
            #expect(answer["next"] == ["i": 3])
        }
    }
}
