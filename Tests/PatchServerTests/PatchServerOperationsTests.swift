import HTTPServing
import HostTesting
import JSON
import PatchProtocol
import PatchServer
import Testing

/// What an operator reads off a running patch server: its metrics, its OpenAPI document, and
/// answers in the API's one error shape for a path or a method it has not.
@Suite struct PatchServerOperationsTests {
    /// The value of the sample `name{labels}` in a Prometheus text exposition, or nil.
    func sample(_ text: String, _ name: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }

    @Test("GET /v1/health names the store and times a round trip through it, without a token", arguments: TestStore.allCases)
    func health(store: TestStore) async throws {
        let harness = try await PatchServerHarness(store)
        defer { Task { await harness.stop() } }
        let reply = try await harness.request(.get, "/v1/health", token: nil)
        #expect(reply.status == 200, "\(reply)")
        #expect(reply.body["ok"] == true)
        #expect(reply.body["store"]?["kind"]?.stringValue == store.rawValue, "\(reply)")
        #expect((reply.body["store"]?["latencyMs"]?.numberValue ?? -1) >= 0, "\(reply)")
    }

    @Test("a PostgreSQL store whose database is gone makes GET /v1/health answer 503 with the reason, within the health timeout")
    func healthWithTheStoreGone() async throws {
        let harness = try await PatchServerHarness(.postgres) { $0.healthTimeout = .seconds(2) }
        defer { Task { await harness.stop() } }
        // Healthy first: on a loaded machine a check may pass the 2 s timeout, so ask until one answers.
        var healthy = false
        for _ in 0..<30 where !healthy {
            healthy = try await harness.request(.get, "/v1/health", token: nil).status == 200
        }
        #expect(healthy)
        // Dropped with its connections (WITH (FORCE)): the pool's connections die, new ones are refused.
        await harness.postgres?.drop()
        let started = ContinuousClock.now
        let reply = try await harness.request(.get, "/v1/health", token: nil)
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(reply.status == 503, "\(reply)")
        #expect(reply.body["ok"] == false)
        #expect(reply.body["store"]?["kind"] == "postgres")
        #expect(reply.body["store"]?["error"]?.stringValue?.isEmpty == false, "\(reply)")
    }

    @Test("GET /v1/metrics counts requests by endpoint, checks by outcome, reports by event and changes by whom", arguments: TestStore.allCases)
    func metrics(store: TestStore) async throws {
        let harness = try await PatchServerHarness(store)
        defer { Task { await harness.stop() } }
        try await harness.addApp()
        #expect(try await harness.publish(try PatchServerHarness.patch(version: 1, modules: ["a.js": "exports.a = 2\n"]), rollout: 100, minDevices: 1).status == 201)
        #expect(try await harness.check("device-a").body["patch"]?.objectValue != nil)
        #expect(try await harness.check("device-b", highest: 1).body["patch"] == .null)
        #expect(try await harness.report("device-a", version: 1, .applied).status == 200)
        #expect(try await harness.report("device-a", version: 1, .applied).body["counted"] == false)
        #expect(try await harness.report("device-a", version: 1, .rolledBack, reason: "boom").status == 200)
        let metrics = try await harness.request(.get, "/v1/metrics", token: nil)
        #expect(metrics.status == 200)
        #expect(metrics.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = metrics.text
        #expect(sample(text, #"hybrid_patch_checks_total{outcome="offered"}"#) == 1, "\(text)")
        #expect(sample(text, #"hybrid_patch_checks_total{outcome="none"}"#) == 1)
        #expect(sample(text, #"hybrid_patch_reports_total{event="applied",counted="true"}"#) == 1)
        #expect(sample(text, #"hybrid_patch_reports_total{event="applied",counted="false"}"#) == 1)
        #expect(sample(text, #"hybrid_patch_changes_total{action="publish",by="publisher"}"#) == 1)
        // One device of one rolled it back: the bound passes 2% and the server halts it itself.
        #expect(sample(text, #"hybrid_patch_changes_total{action="halt",by="server"}"#) == 1)
        #expect(sample(text, #"hybrid_patch_requests_total{endpoint="check",status="200"}"#) == 2)
        #expect(sample(text, #"hybrid_patch_request_duration_seconds_count{endpoint="reports"}"#) == 3)
        #expect(sample(text, "hybrid_patch_offers_cached") == 1)
    }

    @Test("checks that ask at once for a patch being made wait for the one offer: it is made once", arguments: TestStore.allCases)
    func offerMadeOnce(store: TestStore) async throws {
        let harness = try await PatchServerHarness(store)
        defer { Task { await harness.stop() } }
        try await harness.addApp()
        let old = String(repeating: "exports.f = (x) => x * 2; // a line of the module\n", count: 4_000)
        #expect(try await harness.publish(try PatchServerHarness.patch(version: 1, modules: ["a.js": old])).status == 201)
        #expect(try await harness.publish(try PatchServerHarness.patch(version: 2, modules: ["a.js": old + "exports.g = 1;\n"])).status == 201)
        let modules = ["a.js": SignedPatch.sha256(old)]
        let offers = try await withThrowingTaskGroup(of: Int.self) { group in
            for device in 0..<32 {
                group.addTask { try await harness.check("device-\(device)", highest: 1, modules: modules).body["patch"]?["patchVersion"]?.intValue ?? 0 }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(offers == Array(repeating: 2, count: 32))
        let metrics = try await harness.request(.get, "/v1/metrics", token: nil)
        #expect(sample(metrics.text, "hybrid_patch_offers_made_total") == 1, "\(metrics.text)")
    }

    @Test("a caller past --rate-limit gets 429 with Retry-After, others do not; an address past --auth-failure-limit gets 429 before its token is read", arguments: TestStore.allCases)
    func limits(store: TestStore) async throws {
        let harness = try await PatchServerHarness(store) { configuration in
            // A token every 1,000 s: none comes back while the test runs, however slow the machine.
            configuration.rateLimit = RateLimit(requestsPerSecond: 0.001, burst: 3)
            configuration.authFailureLimit = RateLimit(requestsPerSecond: 0.001, burst: 2)
        }
        defer { Task { await harness.stop() } }
        var statuses: [Int] = []
        for _ in 0..<4 { statuses.append(try await harness.request(.get, "/v1/apps/demo/audit", token: harness.publisher).status) }
        #expect(statuses == [200, 200, 200, 429])
        let refused = try await harness.request(.get, "/v1/apps/demo/audit", token: harness.publisher)
        #expect(refused.headers[.retryAfter].flatMap(Int.init).map { $0 >= 1 } == true, "\(refused)")
        #expect(refused.body["error"]?["code"] == "rate_limited")
        // Another publisher has a bucket of its own.
        #expect(try await harness.request(.get, "/v1/apps/demo/audit", token: PatchServerHarness.token(sub: "bob", scopes: ["publish:demo"])).status == 200)

        var failures: [Int] = []
        for _ in 0..<3 { failures.append(try await harness.request(.get, "/v1/apps/demo/audit", token: "not.a.token").status) }
        #expect(failures == [401, 401, 429])
        // While the address is refused, even a good token waits.
        #expect(try await harness.request(.get, "/v1/apps/demo/status", token: PatchServerHarness.token(sub: "carol", scopes: ["publish:demo"])).status == 429)
        let metrics = try await harness.request(.get, "/v1/metrics", token: nil)
        #expect(sample(metrics.text, #"hybrid_patch_refusals_total{limit="rate"}"#) == 2, "\(metrics.text)")
        #expect(sample(metrics.text, #"hybrid_patch_refusals_total{limit="auth_failures"}"#) == 2)
    }

    @Test("GET /v1/openapi.json is the document; a route asked with another method is 405 with Allow, an unknown path 404, both in the error shape", arguments: TestStore.allCases)
    func document(store: TestStore) async throws {
        let harness = try await PatchServerHarness(store)
        defer { Task { await harness.stop() } }
        let document = try await harness.request(.get, "/v1/openapi.json", token: nil)
        #expect(document.status == 200)
        #expect(document.body["openapi"] == "3.1.0")
        let paths = try #require(document.body["paths"]?.objectValue)
        for path in ["/v1/apps/{app}/check", "/v1/apps/{app}/reports", "/v1/apps/{app}/patches/{version}/revoke", "/v1/metrics"] {
            #expect(paths[path] != nil, "\(path)")
        }
        let wrongMethod = try await harness.request(.delete, "/v1/apps/demo/check", token: nil)
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers[.allow] == "POST")
        #expect(wrongMethod.body["error"]?["code"] == "method_not_allowed", "\(wrongMethod)")
        let unknown = try await harness.request(.get, "/v1/nothing/here", token: nil)
        #expect(unknown.status == 404)
        #expect(unknown.body["error"]?["message"]?.stringValue?.contains("/v1/openapi.json") == true, "\(unknown)")
        // Hummingbird counts under no route: the metrics say `unknown`.
        let metrics = try await harness.request(.get, "/v1/metrics", token: nil)
        #expect(metrics.text.contains(#"hybrid_patch_requests_total{endpoint="unknown",status="404"}"#), "\(metrics.text)")
    }
}
