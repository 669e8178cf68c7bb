import Bridge
import Engine
import JSON
import Testing

@Suite("bridge under load")
struct BridgeConcurrencyTests {
    @Test("10,000 concurrent calls are all answered, each with its own result", arguments: [
        ("bridge", "echo"),
        ("probe", "work"),
    ])
    func tenThousandCalls(target: String, action: String) async throws {
        try await withBridge { (host) async throws in
            let answer = try await host.run("""
                const calls = [];
                for (let i = 0; i < 10000; i++) calls.push(Hybrid.call("\(target)", "\(action)", {i}));
                const results = await Promise.all(calls);
                return {count: results.length, wrong: results.filter((r, i) => r.i !== i).length};
                """)
            #expect(answer == ["count": 10000, "wrong": 0])
            #expect(try await host.pendingCount() == 0)
        }
    }

    @Test("call ids never collide: answers arriving out of order, among cancellations and timeouts, reach their own callers")
    func outOfOrderAnswers() async throws {
        try await withBridge { (host) async throws in
            let answer = try await host.run("""
                const calls = [];
                for (let i = 0; i < 300; i++) {
                    switch (i % 5) {
                    case 0: calls.push(outcome(Hybrid.call("probe", "delayed", {i, ms: (300 - i) % 17})));
                            break;
                    case 1: calls.push(outcome(Hybrid.call("probe", "echo", {i})));
                            break;
                    case 2: {
                            const controller = new AbortController();
                            calls.push(outcome(Hybrid.call("probe", "hang", {i}, {signal: controller.signal})));
                            setTimeout(() => controller.abort(), i % 7);
                            break;
                        }
                    case 3: calls.push(outcome(Hybrid.call("probe", "hang", {i}, {timeoutMs: 1 + (i % 11)})));
                            break;
                    case 4: calls.push(outcome(Hybrid.call("probe", "work", {i})));
                            break;
                    }
                }
                const results = await Promise.all(calls);
                const expected = ["ok", "ok", "E_CANCELLED", "E_TIMEOUT", "ok"];
                const wrong = results.filter((r, i) => {
                    const want = expected[i % 5];
                    return want === "ok" ? !(r.ok && r.value.i === i) : r.code !== want;
                });
                return {count: results.length, wrong: wrong.length};
                """)
            #expect(answer == ["count": 300, "wrong": 0])
            #expect(try await host.pendingCount() == 0)
        }
    }

    static func taggedCalls(_ tag: String) -> String {
        """
        const calls = [];
        for (let i = 0; i < 2000; i++) calls.push(Hybrid.call("probe", "delayed", {i, ms: i % 3, tag: "\(tag)"}));
        const results = await Promise.all(calls);
        return results.filter((r, i) => r.i !== i || r.tag !== "\(tag)").length;
        """
    }

    @Test("two apps calling at once each get only their own answers")
    func twoEngines() async throws {
        try await withBridge { (first) async throws in
            try await withBridge { (second) async throws in
                async let a = first.run(Self.taggedCalls("first"))
                async let b = second.run(Self.taggedCalls("second"))
                let (wrongA, wrongB) = try await (a, b)
                #expect(wrongA == 0)
                #expect(wrongB == 0)
            }
        }
    }
}
