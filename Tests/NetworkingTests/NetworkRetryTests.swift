import Bridge
import Foundation
import JSON
import Testing

/// `retry` on `network.request` and `network.fetch`, against a server that fails N times and then
/// answers, and against a port nobody listens on.
@Suite("network retries: 408/429/5xx and connect failures, backoff with jitter, Retry-After, idempotent requests only")
struct NetworkRetryTests {
    private func statuses(_ answer: JSONValue) -> [Int] {
        answer["timing"]?["attempts"]?.arrayValue?.compactMap { $0["status"]?.numberValue.map { Int($0) } } ?? []
    }

    @Test("a 503 twice, then an answer: three attempts, each in timing.attempts", arguments: ["request", "fetch"])
    func recovers(action: String) async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let name = "recovers-\(action)-\(UUID().uuidString)"
        let answer = try await call(action, ["url": .string(server.base + "/flaky/\(name)?fail=2"), "retry": ["attempts": 4, "backoffMs": 10]])
        #expect(answer["status"] == 200)
        #expect(statuses(answer) == [503, 503, 200])
        #expect(server.hits["flaky/\(name)"] == 3)
    }

    @Test("attempts run out: the last answer is the call's; a 404 is never retried")
    func runsOut() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let name = "runs-out-\(UUID().uuidString)"
        let answer = try await call("request", ["url": .string(server.base + "/flaky/\(name)?fail=9"), "retry": ["attempts": 3, "backoffMs": 5]])
        #expect(answer["status"] == 503 && statuses(answer) == [503, 503, 503])
        let missing = "missing-\(UUID().uuidString)"
        let notFound = try await call("request", ["url": .string(server.base + "/flaky/\(missing)?fail=9&status=404"), "retry": ["attempts": 3]])
        #expect(notFound["status"] == 404 && statuses(notFound) == [404])
        #expect(server.hits["flaky/\(missing)"] == 1)
    }

    @Test("Retry-After is waited for; one that would pass timeoutMs ends the retries with the answer in hand")
    func retryAfter() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let name = "after-\(UUID().uuidString)"
        let started = Date()
        let answer = try await call("request", ["url": .string(server.base + "/flaky/\(name)?fail=1&status=429&retryAfter=1"), "retry": ["attempts": 3]])
        #expect(answer["status"] == 200)
        #expect(Date().timeIntervalSince(started) >= 1)
        #expect(answer["timing"]?["attempts"]?[0]?["waitMs"] == 1000)

        let bounded = "bounded-\(UUID().uuidString)"
        let early = try await call("request", ["url": .string(server.base + "/flaky/\(bounded)?fail=1&status=429&retryAfter=5"),
                                               "retry": ["attempts": 3], "timeoutMs": 2000])
        #expect(early["status"] == 429 && statuses(early) == [429])
    }

    @Test("a POST retries only with an Idempotency-Key; without one the call is refused at /retry")
    func idempotency() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let name = "post-\(UUID().uuidString)"
        let url = JSONValue.string(server.base + "/flaky/\(name)?fail=1")
        let refused = await call.failure("request", ["url": url, "method": "POST", "body": "x", "retry": ["attempts": 2]])
        #expect(refused?.code == .badParams && refused?.path == "/retry", "\(String(describing: refused))")
        #expect(server.hits["flaky/\(name)"] == 0)
        let answer = try await call("request", ["url": url, "method": "POST", "body": "x", "headers": ["Idempotency-Key": "order-1"],
                                                "retry": ["attempts": 2, "backoffMs": 5]])
        #expect(answer["status"] == 200 && statuses(answer) == [503, 200])
    }

    @Test("a port nobody listens on: every attempt fails with connect, listed in the error's details")
    func connectFailures() async throws {
        let call = try NetworkCall(grants: ["network:127.0.0.1"])
        defer { call.remove() }
        let (listener, port) = try RawListener.open()
        close(listener)
        let failure = await call.failure("request", ["url": .string("http://127.0.0.1:\(port)/"), "retry": ["attempts": 3, "backoffMs": 5]])
        #expect(failure?.code == .failed && failure?.details?["reason"] == "connect")
        let reasons = failure?.details?["attempts"]?.arrayValue?.compactMap { $0["reason"]?.stringValue }
        #expect(reasons == ["connect", "connect", "connect"])
    }
}
