import Bridge
import Foundation
import HostTesting
import JSON
@testable import Networking
import Testing

/// `network.enqueue` and the offline queue's actions, called as the bridge calls them, against a
/// server that is down when the requests are enqueued and comes up later.
@Suite("network: the offline queue sends what was enqueued, in order per queue, once the server is back", .serialized)
struct OfflineQueueTests {
    /// Follows `queueWatch` from `after` until `count` items have finished, or a minute passes.
    static func finished(_ call: NetworkCall, count: Int, queue: String? = nil, after: Int = 0) async throws -> (items: [JSONValue], cursor: Int) {
        var items: [JSONValue] = []
        var cursor = after
        let deadline = Date().addingTimeInterval(60)
        while items.count < count, Date() < deadline {
            var params: JSONObject = ["after": .number(Double(cursor)), "timeoutMs": 2_000]
            if let queue { params["queue"] = .string(queue) }
            let answer = try await call("queueWatch", .object(params))
            items += answer["items"]?.arrayValue ?? []
            cursor = answer["cursor"]?.intValue ?? cursor
        }
        return (items, cursor)
    }

    static func enqueue(_ call: NetworkCall, _ queue: String, _ request: JSONObject) async throws -> JSONValue {
        try await call("enqueue", ["queue": .string(queue), "request": .object(request)])
    }

    @Test("enqueued while the server is down, pending; once it is up, delivered in order, a 4xx failed with its answer and the queue moving on")
    func deliversInOrder() async throws {
        let server = try await InboxServer.down()
        let call = try NetworkCall(grants: ["network:127.0.0.1"])
        defer { call.service.runEnded(app: call.app); call.remove() }
        let first = try await Self.enqueue(call, "orders", ["url": .string(server.base + "/inbox/orders"), "json": ["n": 1]])
        #expect(first["position"]?.intValue == 1)
        #expect(first["idempotencyKey"]?.stringValue?.count == 36)
        _ = try await Self.enqueue(call, "orders", ["url": .string(server.base + "/reject"), "method": "POST", "body": "x", "responseType": "json"])
        let third = try await Self.enqueue(call, "orders", ["url": .string(server.base + "/inbox/orders"), "json": ["n": 3],
                                                            "headers": ["Idempotency-Key": "order-3"]])
        #expect(third["position"]?.intValue == 3)
        #expect(third["idempotencyKey"]?.stringValue == "order-3")

        // Down: the head is tried and stays in line with why; nothing finishes. (Polled: on a busy
        // machine the first attempt may take a while.)
        var status: JSONValue = .null
        for _ in 0..<600 {
            status = try await call("queueStatus", ["queue": "orders"])
            if status["items"]?[0]?["lastError"]?.stringValue != nil { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let counts = status["queues"]?["orders"]
        #expect((counts?["pending"]?.intValue ?? 0) + (counts?["sending"]?.intValue ?? 0) == 3, "\(status)")
        let head = status["items"]?[0]
        #expect(head?["attempts"]?.intValue ?? 0 >= 1, "\(status)")
        #expect(head?["lastError"]?.stringValue?.contains("connect") == true, "\(status)")
        #expect(try await call("queueWatch", ["timeoutMs": 0])["items"]?.arrayValue?.isEmpty == true)

        try await server.start()
        defer { Task { await server.stop() } }
        let (items, cursor) = try await Self.finished(call, count: 3)
        #expect(items.map { $0["state"]?.stringValue } == ["delivered", "failed", "delivered"], "\(items)")
        #expect(items.map { $0["status"]?.intValue } == [201, 422, 201])
        #expect(items[0]["body"]?["echo"] == ["n": 1])
        #expect(items[1]["body"] == ["error": "order closed"])
        #expect(items[1]["headers"]?["x-reason"] == "closed")
        #expect(server.applied("orders") == [#"{"n":1}"#, #"{"n":3}"#])
        #expect(server.all.first { $0.body == #"{"n":3}"# }?.key == "order-3")
        #expect(Set(server.all.map(\.key)).count == server.all.count, "no key twice: \(server.all.map(\.key))")

        // Retry puts the failed item back; it finishes again with a new seq.
        let failedId = items[1]["id"]!
        let retried = try await call("queueRetry", ["queue": "orders"])
        #expect(retried["retried"] == .array([failedId]))
        let again = try await Self.finished(call, count: 1, after: cursor)
        #expect(again.items.first?["id"] == failedId)
        #expect(again.items.first?["state"] == "failed")
        #expect((again.items.first?["seq"]?.intValue ?? 0) > cursor)

        // Cancel removes it for good.
        #expect(try await call("queueCancel", ["queue": "orders", "id": failedId])["cancelled"] == .array([failedId]))
        let after = try await call("queueStatus", [:])
        #expect(after["queues"]?["orders"] == ["pending": 0, "sending": 0, "delivered": 2, "failed": 0], "\(after)")
    }

    @Test("a queue waits for its head while another queue goes on")
    func queuesInParallel() async throws {
        let server = try await InboxServer.down()
        try await server.start()
        defer { Task { await server.stop() } }
        let call = try NetworkCall(grants: ["network:127.0.0.1"])
        defer { call.service.runEnded(app: call.app); call.remove() }
        // Port 9 (discard) refuses on loopback: this queue's head never gets through.
        _ = try await Self.enqueue(call, "stuck", ["url": "http://127.0.0.1:9/inbox/stuck", "body": "s1"])
        _ = try await Self.enqueue(call, "stuck", ["url": .string(server.base + "/inbox/stuck"), "body": "s2"])
        for n in 1...5 { _ = try await Self.enqueue(call, "free", ["url": .string(server.base + "/inbox/free"), "body": .string("f\(n)")]) }
        let (items, _) = try await Self.finished(call, count: 5, queue: "free")
        #expect(items.count == 5)
        #expect(server.applied("free") == ["f1", "f2", "f3", "f4", "f5"])
        #expect(server.applied("stuck").isEmpty, "the item behind a head that cannot be sent waits")
        // Cancelling the pending items of the stuck queue (its head is sent again and again; the
        // sender may hold it at the moment, so the cancel is asked until the head is taken too).
        var cancelled: [JSONValue] = []
        let deadline = Date().addingTimeInterval(20)
        while cancelled.count < 2, Date() < deadline {
            cancelled += try await call("queueCancel", ["queue": "stuck"])["cancelled"]?.arrayValue ?? []
            if cancelled.count < 2 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(cancelled.count == 2)
        #expect(try await call("queueStatus", ["queue": "stuck"])["queues"]?["stuck"] == ["pending": 0, "sending": 0, "delivered": 0, "failed": 0])
    }

    @Test("an attempt past its timeoutMs is a transient failure: the item stays at the head, and goes once the server answers in time")
    func attemptTimeout() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall(grants: ["network:127.0.0.1"])
        defer { call.service.runEnded(app: call.app); call.remove() }
        let slow = try await Self.enqueue(call, "slow", ["url": .string(server.base + "/slow?ms=2000"), "timeoutMs": 100])
        var head: JSONValue?
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            head = try await call("queueStatus", ["queue": "slow"])["items"]?[0]
            if head?["lastError"] != nil { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(head?["id"] == slow["id"])
        #expect(head?["lastError"]?.stringValue?.contains("timeout") == true, "\(String(describing: head))")
        #expect(try await call("queueWatch", ["queue": "slow", "timeoutMs": 0])["items"] == [])
        #expect(try await call("queueCancel", ["queue": "slow"])["cancelled"]?.arrayValue?.count ?? 0 <= 1)
    }

    @Test("a queued request naming no timeoutMs gets 60 s per attempt, so a server that accepts and never answers cannot hold its queue; one naming its own keeps it")
    func defaultAttemptTimeout() throws {
        let plain = try QueuedRequest(from: ParamsReader(["url": "http://127.0.0.1:9/x", "method": "POST", "body": "x"]))
        #expect(plain.stored["timeoutMs"] == nil, "the default is applied when sent, not stored: \(plain.stored)")
        #expect(try plain.networkRequest(idempotencyKey: "k").timeoutMs == QueuedRequest.defaultAttemptTimeoutMs)
        #expect(QueuedRequest.defaultAttemptTimeoutMs == 60_000)
        let own = try QueuedRequest(from: ParamsReader(["url": "http://127.0.0.1:9/x", "timeoutMs": 250]))
        #expect(try own.networkRequest(idempotencyKey: "k").timeoutMs == 250)
    }

    @Test("a request's problems are E_BAD_PARAMS at their path under /request", arguments: [
        (#"{"url": "http://127.0.0.1:9/x", "cache": true}"#, "/request/cache"),
        (#"{"url": "http://127.0.0.1:9/x", "retry": {"attempts": 2}}"#, "/request/retry"),
        (#"{"url": "http://127.0.0.1:9/x", "body": "a", "json": 1}"#, "/request/json"),
        (#"{"url": "http://127.0.0.1:9/x", "headers": {"X-A": "a\nb"}}"#, "/request/headers/X-A"),
        (#"{"url": "http://127.0.0.1:9/x", "sign": "nobody"}"#, "/request/sign"),
        (#"{"method": "POST"}"#, "/request/url"),
    ])
    func badParams(request: String, path: String) async throws {
        let call = try NetworkCall(grants: ["network:127.0.0.1"])
        defer { call.service.runEnded(app: call.app); call.remove() }
        let error = await call.failure("enqueue", ["queue": "q", "request": try JSONParser.parse(request)])
        #expect(error?.code == .badParams, "\(String(describing: error))")
        #expect(error?.path == path, "\(String(describing: error))")
    }

    @Test("an ungranted host is E_DENIED at enqueue; past queuedRequests it is E_TOO_MANY naming the quota")
    func refusals() async throws {
        var quotas = AppQuotas.defaults
        quotas.queuedRequests = 2
        let call = try NetworkCall(grants: ["network:127.0.0.1"], quotas: quotas)
        defer { call.service.runEnded(app: call.app); call.remove() }
        #expect(await call.failure("enqueue", ["queue": "q", "request": ["url": "http://example.com/x"]])?.code == .denied)
        #expect(await call.failure("enqueue", ["queue": "", "request": ["url": "http://127.0.0.1:9/x"]])?.path == "/queue")
        for _ in 0..<2 { _ = try await Self.enqueue(call, "q", ["url": "http://127.0.0.1:9/x", "body": "b"]) }
        let error = await call.failure("enqueue", ["queue": "other", "request": ["url": "http://127.0.0.1:9/x"]])
        #expect(error?.code == .tooMany)
        #expect(error?.details?["quota"] == "queuedRequests")
        #expect(error?.message.contains("queuedRequests: 2") == true)
    }
}
