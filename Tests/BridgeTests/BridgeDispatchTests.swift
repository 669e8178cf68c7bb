import Bridge
import Engine
import Foundation
import HostTesting
import JSON
import SystemIO
import Testing
import WebPlatform

// Every E_* code reached from JS through a real engine, a real BridgeDispatcher and a test
// service ("probe") registered with a contract written here.

@Suite("bridge dispatch")
struct BridgeDispatchTests {
    @Test("a call reaches its service and answers with the result")
    func roundTrip() async throws {
        try await withBridge { (host) async throws in
            let answer = try await host.run(#"return await Hybrid.call("probe", "echo", {title: "milk", qty: 2, tags: ["a"], blob: new Uint8Array([1, 2])});"#)
            #expect(answer == ["title": "milk", "qty": 2, "tags": ["a"], "blob": .bytes([1, 2])])
            let worker = try await host.run(#"return await Hybrid.call("probe", "work", {i: 7});"#)
            #expect(worker == ["i": 7])
        }
    }

    @Test("a non-blocking action starts and resumes on the JS thread, and each call gets its own answer")
    func nonBlocking() async throws {
        try await withBridge { (host) async throws in
            let answer = try await host.run("""
                const answers = await Promise.all([30, 0, 10].map((ms, i) => Hybrid.call("probe", "onLoop", {i, ms})));
                const immediate = await Hybrid.call("probe", "onLoop", {i: 9, ms: -1});
                return {answers, immediate};
                """)
            #expect(answer["answers"] == [["i": 0, "sameThread": true], ["i": 1, "sameThread": true], ["i": 2, "sameThread": true]])
            #expect(answer["immediate"] == ["i": 9, "sameThread": true])
            #expect(try await host.pendingCount() == 0)
        }
    }

    @Test("bytes in a long array stay bytes even when a getter in it crosses the bridge first")
    func reentrantLongArray() async throws {
        try await withBridge { (host) async throws in
            let answer = try await host.run("""
                const list = Array.from({length: 20}, (_, i) => i);
                let inner;
                Object.defineProperty(list, 3, { enumerable: true, get() {
                  inner = Hybrid.call("probe", "echo", {list: Array.from({length: 16}, (_, i) => i)});
                  return 3;
                } });
                list[10] = new Uint8Array([7]);
                const outer = await Hybrid.call("probe", "echo", {list});
                return {outer: outer.list[10], inner: (await inner).list.length};
                """)
            #expect(answer["outer"] == .bytes([7]))
            #expect(answer["inner"] == 16)
        }
    }

    @Test("an unknown target is E_UNKNOWN_TARGET, naming the registered targets")
    func unknownTarget() async throws {
        try await withBridge { (host) async throws in
            let error = try await host.run(#"return await outcome(Hybrid.call("nowhere", "find", {}));"#)
            #expect(error["code"] == "E_UNKNOWN_TARGET")
            #expect(error["target"] == "nowhere")
            #expect(error["action"] == "find")
            #expect(error["isError"] == true)
            #expect(error["message"]?.stringValue?.contains("bridge, probe, secret") == true)
        }
    }

    @Test("an unknown action is E_UNKNOWN_ACTION, naming the target's actions")
    func unknownAction() async throws {
        try await withBridge { (host) async throws in
            let error = try await host.run(#"return await outcome(Hybrid.call("probe", "teleport", {}));"#)
            #expect(error["code"] == "E_UNKNOWN_ACTION")
            #expect(error["target"] == "probe")
            #expect(error["action"] == "teleport")
            #expect(error["message"]?.stringValue?.contains("echo") == true)
        }
    }

    @Test("params that break the contract are E_BAD_PARAMS with a JSON Pointer path", arguments: [
        (#"{items: [{sku: "a", qty: 1}, {sku: "b", qty: "2"}]}"#, "/items/1/qty", "expected integer, got string"),
        (#"{items: [{sku: "a"}]}"#, "/items/0/qty", "missing required property \"qty\""),
        (#"{items: [{sku: "a", qty: 0}]}"#, "/items/0/qty", "must be at least 1"),
        (#"{items: [], coupon: "FREE"}"#, "/coupon", "unexpected property"),
        (#"{}"#, "/items", "missing required property \"items\""),
        (#"{items: [], "we~ird/key": 1}"#, "/we~0ird~1key", "unexpected property"),
    ])
    func badParams(params: String, path: String, message: String) async throws {
        try await withBridge { (host) async throws in
            let error = try await host.run("return await outcome(Hybrid.call(\"probe\", \"order\", \(params)));")
            #expect(error["code"] == "E_BAD_PARAMS")
            #expect(error["path"] == .string(path))
            #expect(error["message"]?.stringValue?.contains(message) == true, "\(error)")
            #expect(error["message"]?.stringValue?.hasPrefix("params\(path)") == true, "\(error)")
        }
    }

    @Test("a target without a grant is E_DENIED, checked before the action")
    func denied() async throws {
        try await withBridge { (host) async throws in
            let error = try await host.run(#"return await outcome(Hybrid.call("secret", "peek", {}));"#)
            #expect(error["code"] == "E_DENIED")
            #expect(error["target"] == "secret")
            #expect(error["message"]?.stringValue?.contains("no grant for \"secret\"") == true)
            let unknownAction = try await host.run(#"return await outcome(Hybrid.call("secret", "nope", {}));"#)
            #expect(unknownAction["code"] == "E_DENIED")
            #expect(host.observer.started(of: "peek") == 0)
        }
    }

    @Test("a service that throws is E_FAILED with details.reason, and the host serves the next call", arguments: [
        ("fail", "bridge", "out_of_stock"),
        ("fail", "swift", "internal"),
        ("failLater", "bridge", "out_of_stock"),
        ("failLater", "swift", "internal"),
        ("failAtOnce", "bridge", "out_of_stock"),
        ("failAtOnce", "swift", "internal"),
    ])
    func failed(action: String, kind: String, reason: String) async throws {
        try await withBridge { (host) async throws in
            let answer = try await host.run("""
                const failed = await outcome(Hybrid.call("probe", "\(action)", {kind: "\(kind)"}));
                const next = await Hybrid.call("probe", "work", {i: 1});
                return {failed, next};
                """)
            let error = try #require(answer["failed"])
            #expect(error["code"] == "E_FAILED")
            #expect(error["action"] == .string(action))
            #expect(error["details"]?["reason"] == .string(reason))
            if kind == "bridge" {
                #expect(error["details"]?["item"] == "milk")
                #expect(error["message"] == "no milk left")
            } else {
                #expect(error["message"]?.stringValue?.contains("probe.\(action) failed") == true)
            }
            #expect(answer["next"] == ["i": 1])
        }
    }

    @Test("a call that outlives timeoutMs is E_TIMEOUT, and the service sees the cancellation", arguments: ["hang", "hangOnLoop"])
    func timeout(action: String) async throws {
        try await withBridge { (host) async throws in
            let error = try await host.run("return await outcome(Hybrid.call(\"probe\", \"\(action)\", {}, {timeoutMs: 50}));")
            #expect(error["code"] == "E_TIMEOUT")
            #expect(error["target"] == "probe")
            #expect(error["action"] == .string(action))
            #expect(error["message"]?.stringValue?.contains("50 ms") == true)
            #expect(await host.observer.waitForCancellations(1))
            #expect(try await host.pendingCount() == 0)
        }
    }

    @Test("clearing every timer id from JS cannot disarm a call's timeout")
    func clearTimeoutCannotDisarmTimeout() async throws {
        try await withBridge { (host) async throws in
            let error = try await host.run("""
                const answer = outcome(Hybrid.call("probe", "hang", {}, {timeoutMs: 50}));
                for (let id = -1; id < 1000; id++) { clearTimeout(id); clearInterval(id); }
                return await answer;
                """)
            #expect(error["code"] == "E_TIMEOUT")
        }
    }

    @Test("a call that answers within timeoutMs resolves normally, however large the timeout", arguments: ["60000", "2147483648", "1e300"])
    func timeoutNotReached(timeout: String) async throws {
        try await withBridge { (host) async throws in
            let answer = try await host.run("return await Hybrid.call(\"probe\", \"work\", {i: 3}, {timeoutMs: \(timeout)});")
            #expect(answer == ["i": 3])
        }
    }

    @Test("a timeoutMs that is not a positive number is E_BAD_PARAMS", arguments: ["-1", "0", "'soon'", "NaN", "Infinity"])
    func badTimeout(timeout: String) async throws {
        try await withBridge { (host) async throws in
            let error = try await host.run("return await outcome(Hybrid.call(\"probe\", \"work\", {i: 1}, {timeoutMs: \(timeout)}));")
            #expect(error["code"] == "E_BAD_PARAMS")
            #expect(error["message"]?.stringValue?.contains("timeoutMs") == true)
        }
    }

    @Test("aborting the signal of a pending call is E_CANCELLED, and the service sees the cancellation", arguments: ["hang", "hangOnLoop"])
    func cancelled(action: String) async throws {
        try await withBridge { (host) async throws in
            let error = try await host.run("""
                const controller = new AbortController();
                const answer = outcome(Hybrid.call("probe", "\(action)", {}, {signal: controller.signal}));
                setTimeout(() => controller.abort(), 5);
                return await answer;
                """)
            #expect(error["code"] == "E_CANCELLED")
            #expect(error["target"] == "probe")
            #expect(error["action"] == .string(action))
            #expect(await host.observer.waitForCancellations(1))
            #expect(try await host.pendingCount() == 0)
        }
    }

    @Test("a signal aborted before the call is E_CANCELLED without reaching the service")
    func cancelledBeforeStart() async throws {
        try await withBridge { (host) async throws in
            let error = try await host.run("""
                const controller = new AbortController();
                controller.abort();
                return await outcome(Hybrid.call("probe", "hang", {}, {signal: controller.signal}));
                """)
            #expect(error["code"] == "E_CANCELLED")
            #expect(host.observer.started(of: "hang") == 0)
        }
    }

    @Test("params over 16 MiB are E_TOO_LARGE, and the host serves the next call")
    func tooLarge() async throws {
        try await withBridge { (host) async throws in
            let answer = try await host.run("""
                const big = await outcome(Hybrid.call("probe", "echo", {blob: "x".repeat(16 * 1024 * 1024 + 1)}));
                const bytes = await outcome(Hybrid.call("probe", "work", {i: 1, bytes: new Uint8Array(17 * 1024 * 1024)}));
                const next = await Hybrid.call("probe", "echo", {small: true});
                return {big, bytes, next};
                """)
            #expect(answer["big"]?["code"] == "E_TOO_LARGE")
            #expect(answer["big"]?["message"]?.stringValue?.contains("16 MiB") == true)
            #expect(answer["bytes"]?["code"] == "E_TOO_LARGE")
            #expect(answer["next"] == ["small": true])
        }
    }

    @Test("a call pending at shutdown is E_SHUTDOWN, and the service sees the cancellation")
    func shutdown() async throws {
        let host = try await BridgeTestHost()
        host.start(#"outcome(Hybrid.call("probe", "hang", {})).then(__report);"#)
        #expect(await host.observer.waitForStarts(1))
        host.engine.shutdown()
        let reports = host.reports.read { $0 }
        #expect(reports.count == 1)
        #expect(reports.first?["code"] == "E_SHUTDOWN")
        #expect(reports.first?["action"] == "hang")
        #expect(await host.observer.waitForCancellations(1))
    }

    @Test("results are checked against the contract in test mode: a wrong shape is E_FAILED, reason contract", arguments: ["wrongShape", "wrongShapeLater"])
    func resultValidation(action: String) async throws {
        try await withBridge { (host) async throws in
            let error = try await host.run("return await outcome(Hybrid.call(\"probe\", \"\(action)\", {}));")
            #expect(error["code"] == "E_FAILED")
            #expect(error["details"]?["reason"] == "contract")
            #expect(error["message"]?.stringValue?.contains("result/count: expected integer, got string") == true, "\(error)")
        }
    }

    @Test("without result checking, a wrong shape is answered as the service gave it")
    func resultValidationOff() async throws {
        try await withBridge(validatesResults: false) { (host) async throws in
            let answer = try await host.run(#"return await Hybrid.call("probe", "wrongShapeLater", {});"#)
            #expect(answer == ["count": "three"])
        }
    }

    @Test("an answer given as JSON text reaches JS as the value it spells, a __proto__ key as data")
    func textAnswer() async throws {
        try await withBridge { (host) async throws in
            let answer = try await host.run(#"""
                const text = '{"count":3,"__proto__":{"x":1},"s":"caf\u00e9 \ud83d\ude00 ✓","list":[1.5,null,true]}';
                const value = await Hybrid.call("probe", "text", {text});
                return {value, keys: Object.keys(value), plain: Object.getPrototypeOf(value) === Object.prototype};
                """#)
            #expect(answer["value"] == ["count": 3, "__proto__": ["x": 1], "s": "café 😀 ✓", "list": [1.5, .null, true]])
            #expect(answer["keys"] == ["count", "__proto__", "s", "list"])
            #expect(answer["plain"] == true)
        }
    }

    @Test("an answer given as text that is not JSON is E_FAILED, reason corrupt, and the bridge goes on", arguments: [true, false])
    func corruptTextAnswer(validatesResults: Bool) async throws {
        try await withBridge(validatesResults: validatesResults) { (host) async throws in
            let answer = try await host.run(#"""
                const failed = await outcome(Hybrid.call("probe", "text", {text: '{"count": 3'}));
                const next = await Hybrid.call("probe", "text", {text: '{"count": 4}'});
                return {failed, next};
                """#)
            #expect(answer["failed"]?["code"] == "E_FAILED")
            #expect(answer["failed"]?["details"]?["reason"] == "corrupt")
            #expect(answer["failed"]?["message"]?.stringValue?.contains("probe.text") == true)
            #expect(answer["next"] == ["count": 4])
        }
    }

    @Test("an answer given as text is checked against the contract in test mode, and answered as it is without")
    func textAnswerValidation() async throws {
        try await withBridge { (host) async throws in
            let error = try await host.run(#"return await outcome(Hybrid.call("probe", "text", {text: '{"count":"three"}'}));"#)
            #expect(error["details"]?["reason"] == "contract")
            #expect(error["message"]?.stringValue?.contains("result/count: expected integer, got string") == true, "\(error)")
        }
        try await withBridge(validatesResults: false) { (host) async throws in
            let answer = try await host.run(#"return await Hybrid.call("probe", "text", {text: '{"count":"three"}'});"#)
            #expect(answer == ["count": "three"])
        }
    }

    @Test("an action registered without a contract fails with E_FAILED, reason no_contract")
    func noContract() async throws {
        try await withBridge { (host) async throws in
            let error = try await host.run(#"return await outcome(Hybrid.call("probe", "uncontracted", {}));"#)
            #expect(error["code"] == "E_FAILED")
            #expect(error["details"]?["reason"] == "no_contract")
        }
    }

    @Test("Hybrid.targets lists every contract with whether the app is granted it")
    func targets() async throws {
        try await withBridge { (host) async throws in
            let answer = try await host.run("""
                const targets = await Hybrid.targets();
                return Object.fromEntries(Object.entries(targets).map(([name, t]) => [name, {granted: t.granted, actions: Object.keys(t.actions)}]));
                """)
            #expect(answer["bridge"]?["granted"] == true)
            #expect(answer["probe"]?["granted"] == true)
            #expect(answer["secret"]?["granted"] == false)
            #expect(answer["probe"]?["actions"]?.arrayValue?.contains("hang") == true)
        }
    }

    @Test("Hybrid.subscribe hands each answer to onEvent until stop() cancels the call in flight")
    func subscribeStop() async throws {
        try await withBridge { (host) async throws in
            let answer = try await host.run("""
                const events = [];
                let subscription;
                await new Promise((resolve) => {
                    subscription = Hybrid.subscribe("probe", "work", {i: 5}, (event) => {
                        events.push(event.i);
                        if (events.length === 3) resolve();
                    });
                });
                subscription.stop();
                const stopped = events.length;
                // A hanging subscription is cancelled by stop().
                const hanging = Hybrid.subscribe("probe", "hang", {}, () => events.push("never"));
                await new Promise((resolve) => setTimeout(resolve, 5));
                hanging.stop();
                await new Promise((resolve) => setTimeout(resolve, 5));
                return {stopped, events};
                """)
            #expect(answer["stopped"] == 3)
            #expect(answer["events"] == [5, 5, 5])
            #expect(await host.observer.waitForCancellations(1))
            #expect(try await host.pendingCount() == 0)
        }
    }
}

// MARK: - The test service and its host

/// The contract of the test service, written here as services/probe.json would be.
let probeContract: JSONValue = [
    "target": "probe", "version": "1.0.0", "description": "A service made for the bridge's tests.",
    "actions": [
        "echo": action(params: ["type": "object"], result: ["type": "object"]),
        "work": action(params: ["type": "object", "required": ["i"], "properties": ["i": ["type": "integer"]]],
                       result: ["type": "object", "required": ["i"]]),
        "delayed": action(params: ["type": "object", "required": ["i", "ms"]], result: ["type": "object", "required": ["i"]]),
        "order": action(params: [
            "type": "object", "additionalProperties": false, "required": ["items"],
            "properties": ["items": ["type": "array", "items": [
                "type": "object", "required": ["sku", "qty"],
                "properties": ["sku": ["type": "string"], "qty": ["type": "integer", "minimum": 1]],
            ]]],
        ], result: ["type": "object"]),
        "fail": action(params: ["type": "object", "properties": ["kind": ["enum": ["bridge", "swift"]]]], result: ["type": "object"]),
        "failLater": action(params: ["type": "object", "properties": ["kind": ["enum": ["bridge", "swift"]]]], result: ["type": "object"]),
        "hang": action(params: ["type": "object"], result: ["type": "object"]),
        "onLoop": action(params: ["type": "object", "required": ["i", "ms"]], result: ["type": "object", "required": ["i", "sameThread"]]),
        "failAtOnce": action(params: ["type": "object", "properties": ["kind": ["enum": ["bridge", "swift"]]]], result: ["type": "object"]),
        "hangOnLoop": action(params: ["type": "object"], result: ["type": "object"]),
        "wrongShape": action(params: ["type": "object"], result: ["type": "object", "required": ["count"], "properties": ["count": ["type": "integer"]]]),
        "wrongShapeLater": action(params: ["type": "object"], result: ["type": "object", "required": ["count"], "properties": ["count": ["type": "integer"]]]),
        "text": action(params: ["type": "object", "required": ["text"], "properties": ["text": ["type": "string"]]],
                       result: ["type": "object", "required": ["count"], "properties": ["count": ["type": "integer"]]]),
        "typed": typedOrderAction,
        "typedAnswer": typedOrderAction,
        "typedLater": typedOrderAction,
        "typedOnLoop": typedOrderAction,
    ],
]

/// The typed actions' contract: looser than their params type on purpose (qty any number, where
/// the type wants an integer), to show the type's own check.
private let typedOrderAction = action(params: [
    "type": "object", "additionalProperties": false, "required": ["items"],
    "properties": ["items": ["type": "array", "items": [
        "type": "object", "required": ["sku", "qty"], "properties": ["sku": ["type": "string"], "qty": ["type": "number"]],
    ]]],
], result: ["type": "object", "required": ["skus", "total"]])

let secretContract: JSONValue = [
    "target": "secret", "version": "1.0.0", "description": "A target no test app is granted.",
    "actions": ["peek": action(params: ["type": "object"], result: ["type": "object"])],
]

private func action(params: JSONValue, result: JSONValue) -> JSONValue {
    ["description": "A test action.", "params": params, "result": result, "errors": []]
}

/// The repository's own services/bridge.json: the built-in target needs its contract.
func bridgeContract() throws -> Contract {
    let path = Repository.path("services/bridge.json")
    return try Contract(text: try String(contentsOfFile: path, encoding: .utf8), file: path)
}

struct ProbeFailure: Error, CustomStringConvertible {
    var description: String { "the probe's disk caught fire" }
}

/// A service whose actions exercise every way a call can end.
struct ProbeService: BridgeService {
    let target = "probe"
    let observer: ServiceObserver

    var actions: [String: ServiceAction] {
        let observer = self.observer
        return [
            "echo": .inline { $0.params },
            "work": .worker { call in
                observer.didStart("work")
                return ["i": call.params["i"] ?? .null]
            },
            "delayed": .worker { call in
                try await Task.sleep(for: .milliseconds(call.params["ms"]?.intValue ?? 0))
                return ["i": call.params["i"] ?? .null, "tag": call.params["tag"] ?? .null]
            },
            "order": .inline { $0.params },
            "fail": .inline { try Self.fail($0) },
            "failLater": .worker { try Self.fail($0) },
            "hang": .worker { _ in
                observer.didStart("hang")
                return try await Self.hang(observer)
            },
            // Non-blocking: on the JS thread's executor. `ms` < 0 answers without suspending.
            "onLoop": .nonBlocking { call in
                let before = pthread_self()
                let ms = call.params["ms"]?.intValue ?? 0
                if ms >= 0 { try await Task.sleep(for: .milliseconds(ms)) }
                return ["i": call.params["i"] ?? .null, "sameThread": .bool(pthread_equal(before, pthread_self()) != 0)]
            },
            "failAtOnce": .nonBlocking { try Self.fail($0) },
            "hangOnLoop": .nonBlocking { _ in try await Self.hang(observer) },
            "wrongShape": .inline { _ in ["count": "three"] },
            "wrongShapeLater": .worker { _ in ["count": "three"] },
            "uncontracted": .inline { _ in [:] },
            // Answers with the JSON text it is given, unparsed, as kv.get answers a stored row.
            "text": .inlineAnswer { call in .jsonText(Array((call.params["text"]?.stringValue ?? "").utf8)) },
            // Typed: the params decoded as a ProbeOrder before the body runs, by each placement.
            "typed": .inline(ProbeOrder.self) { _, order in
                observer.didStart("typed")
                return order.summary
            },
            "typedAnswer": .inlineAnswer(ProbeOrder.self) { _, order in
                observer.didStart("typedAnswer")
                return .value(order.summary)
            },
            "typedLater": .worker(ProbeOrder.self) { _, order in
                observer.didStart("typedLater")
                return order.summary
            },
            "typedOnLoop": .nonBlocking(ProbeOrder.self) { _, order in
                observer.didStart("typedOnLoop")
                return order.summary
            },
        ]
    }
}

extension ProbeService {
    /// Waits until cancelled, and tells `observer` it saw the cancellation.
    static func hang(_ observer: ServiceObserver) async throws -> JSONValue {
        let gate = OneShotGate()
        await withTaskCancellationHandler {
            await gate.wait()
        } onCancel: {
            gate.open()
        }
        if Task.isCancelled { observer.didSeeCancellation() }
        throw CancellationError()
    }

    static func fail(_ call: ServiceCall) throws -> JSONValue {
        if call.params["kind"] == "swift" { throw ProbeFailure() }
        throw BridgeError.failed(reason: "out_of_stock", "no milk left", details: ["item": "milk"])
    }
}

struct SecretService: BridgeService {
    let target = "secret"
    let observer: ServiceObserver
    var actions: [String: ServiceAction] {
        let observer = self.observer
        return ["peek": .inline { _ in observer.didStart("peek"); return [:] }]
    }
}

/// What the test services saw: calls started, cancellations noticed. Tests wait on it with an
/// upper bound only, never for a fixed time.
final class ServiceObserver: Sendable {
    private struct State {
        var starts: [String: Int] = [:]
        var cancellations = 0
        var waiters: [(condition: @Sendable (State) -> Bool, gate: OneShotGate)] = []
    }
    private let state = Locked(State())

    func didStart(_ action: String) { change { $0.starts[action, default: 0] += 1 } }
    func didSeeCancellation() { change { $0.cancellations += 1 } }
    func started(of action: String) -> Int { state.withLock { $0.starts[action] ?? 0 } }

    /// True once `count` cancellations were seen; false after 30 s.
    func waitForCancellations(_ count: Int) async -> Bool { await wait { $0.cancellations >= count } }
    /// True once `count` calls of `hang` started; false after 30 s.
    func waitForStarts(_ count: Int) async -> Bool { await wait { ($0.starts["hang"] ?? 0) >= count } }

    private func change(_ body: (inout State) -> Void) {
        let ready: [OneShotGate] = state.withLock { state in
            body(&state)
            let current = state
            let ready = state.waiters.filter { $0.condition(current) }.map(\.gate)
            state.waiters.removeAll { $0.condition(current) }
            return ready
        }
        for gate in ready { gate.open() }
    }

    private func wait(until condition: @escaping @Sendable (State) -> Bool) async -> Bool {
        let gate = OneShotGate()
        let already = state.withLock { state -> Bool in
            if condition(state) { return true }
            state.waiters.append((condition, gate))
            return false
        }
        if already { return true }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { await gate.wait(); return true }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                gate.open()
                return false
            }
            let first = await group.next()!
            group.cancelAll()
            return first && condition(state.withLock { $0 })
        }
    }
}

/// Opens once; every waiter, earlier or later, then goes on.
final class OneShotGate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if open { continuation.resume() }
        }
    }
}


/// An engine with a bridge installed over the probe and secret services, granted probe only.
final class BridgeTestHost: Sendable {
    let engine: JSEngine
    let bridge: BridgeDispatcher
    let observer = ServiceObserver()
    /// Values JS handed to `__report`, in order.
    let reports = Locked<[JSONValue]>([])

    init(validatesResults: Bool = true) async throws {
        var contracts: [String: Contract] = ["bridge": try bridgeContract()]
        contracts["probe"] = try Contract(json: probeContract, file: "probe.json")
        contracts["secret"] = try Contract(json: secretContract, file: "secret.json")
        let registry = ServiceRegistry([ProbeService(observer: observer), SecretService(observer: observer)])
        let grants = try Grants.parse(["probe"], knownTargets: ["bridge", "probe", "secret"], source: "test")
        let app = AppContext(name: "bridge-tests", version: "1.0.0", dataDirectory: "/nonexistent", grants: grants)
        let engine = JSEngine(options: EngineOptions(output: { _, _ in }))
        let bridge = BridgeDispatcher(registry: registry, contracts: contracts, app: app,
                                      options: BridgeOptions(validatesResults: validatesResults))
        let reports = self.reports
        try await engine.perform { context in
            // AbortController and AbortSignal, for `{signal}`, as an app run has them.
            try WebPlatform().install(into: context)
            try bridge.install(into: context, engine: engine)
            context.setFunction(context.global, "__report") { args in
                let value = try args.context.jsonValue(from: args[0])
                reports.withLock { $0.append(value) }
                return nil
            }
            // A settled call as plain data: its result, or its error's fields.
            try context.evaluate("""
                globalThis.outcome = async (promise) => {
                  try { return {ok: true, value: await promise}; }
                  catch (e) {
                    return {ok: false, isError: e instanceof Error, name: e.name, code: e.code, message: e.message,
                            target: e.target, action: e.action, path: e.path, details: e.details};
                  }
                };
                """, url: "/virtual/bridge-test-prelude.js")
        }
        self.engine = engine
        self.bridge = bridge
    }

    /// Evaluates `source` as a task; an exception ends the run.
    func start(_ source: String) {
        let engine = self.engine
        engine.post { context in
            do throws(ScriptError) {
                try context.evaluate(source, url: "/virtual/bridge-test.js")
            } catch {
                engine.fail(error)
            }
        }
    }

    /// Runs `body` as the body of an async function, waits until the loop is idle, and returns
    /// what the function returned.
    func run(_ body: String) async throws -> JSONValue {
        let before = reports.read { $0.count }
        start("(async () => {\n\(body)\n})().then((value) => __report({value}), (error) => __report({thrown: String(error && error.stack || error)}));")
        guard let outcome = await idle(withinSeconds: 60) else {
            throw BridgeTestFailure(description: "the loop never went idle: a call was left unanswered")
        }
        guard outcome == .idle else { throw BridgeTestFailure(description: "the run failed: \(outcome)") }
        let report: JSONValue? = reports.read { $0.count > before ? $0[before] : nil }
        guard let reported = report else { throw BridgeTestFailure(description: "the script never finished") }
        if let thrown = reported["thrown"] { throw BridgeTestFailure(description: "the script threw: \(thrown)") }
        return reported["value"] ?? .null
    }

    /// The loop's outcome once idle; nil if it is still busy after `seconds` (an upper bound only).
    func idle(withinSeconds seconds: Int) async -> EngineOutcome? {
        let gate = OneShotGate()
        let outcome = Locked<EngineOutcome?>(nil)
        let engine = self.engine
        Task {
            let result = await engine.idle()
            outcome.withLock { $0 = result }
            gate.open()
        }
        let deadline = Task {
            try await Task.sleep(for: .seconds(seconds))
            gate.open()
        }
        await gate.wait()
        deadline.cancel()
        return outcome.read { $0 }
    }

    func pendingCount() async throws -> Int {
        let bridge = self.bridge
        return try await engine.perform { _ in bridge.pendingCount }
    }
}

struct BridgeTestFailure: Error, CustomStringConvertible {
    let description: String
}

/// Runs `body` with a fresh bridge host, shut down however `body` ends.
func withBridge(validatesResults: Bool = true, _ body: (BridgeTestHost) async throws -> Void) async throws {
    let host = try await BridgeTestHost(validatesResults: validatesResults)
    defer { host.engine.shutdown() }
    try await body(host)
}
