import Foundation
import HTTPServing
import HostTesting
import JSON
import SyncAuth
@testable import SyncServer
import Testing

@Suite("rate limit")
struct RateLimitTests {
    typealias Server = LocalSyncServer

    @Test("a bucket lets its burst through at once, then one request per 1/rate seconds")
    func bucket() {
        let limiter = RequestRateLimiter(RateLimit(requestsPerSecond: 2, burst: 3))
        #expect((0..<3).map { _ in limiter.admit("a", now: at(10)) } == [nil, nil, nil])
        #expect(limiter.admit("a", now: at(10)) == 1)
        #expect(limiter.admit("b", now: at(10)) == nil, "another key has its own bucket")
        #expect(limiter.admit("a", now: at(10.49)) == 1, "half a request refilled: not yet")
        #expect(limiter.admit("a", now: at(10.5)) == nil)
        #expect(limiter.admit("a", now: at(100)) == nil, "a quiet key is full again")
    }

    @Test("Retry-After is the whole seconds until one request has refilled, at least 1")
    func retryAfter() {
        let slow = RequestRateLimiter(RateLimit(requestsPerSecond: 0.25, burst: 1))
        #expect(slow.admit("a", now: at(0)) == nil)
        #expect(slow.admit("a", now: at(0)) == 4)
        #expect(slow.admit("a", now: at(2.5)) == 2)
        let fast = RequestRateLimiter(RateLimit(requestsPerSecond: 1000, burst: 1))
        #expect(fast.admit("a", now: at(0)) == nil)
        #expect(fast.admit("a", now: at(0)) == 1)
    }

    @Test("a rate of 0 lets everything through")
    func off() {
        let limiter = RequestRateLimiter(.off)
        #expect((0..<10_000).allSatisfy { _ in limiter.admit("a", now: at(0)) == nil })
        #expect(limiter.trackedKeys == 0)
    }

    @Test("buckets that are full again are forgotten")
    func pruned() {
        let limiter = RequestRateLimiter(RateLimit(requestsPerSecond: 10, burst: 10))
        for key in 0..<1000 { _ = limiter.admit("device \(key)", now: at(0)) }
        #expect(limiter.trackedKeys == 1000)
        _ = limiter.admit("late", now: at(5))
        #expect(limiter.trackedKeys == 1)
    }

    // The tests over loopback run on a manual clock where they need the buckets to refill, so
    // that a loaded machine (make test runs every suite at once) refills nothing behind their
    // back; the others use a bucket that refills in 1000 s.

    @Test("a device sending many requests at once gets 429 with Retry-After past its burst, another device does not, and it is let through once that time has passed", arguments: TestStore.allCases)
    func overLoopback(store: TestStore) async throws {
        let clock = ManualClock()
        try await Server.with(store: store, rateLimit: RateLimit(requestsPerSecond: 0.5, burst: 4), configure: { $0.clock = clock }) { server in
            let busy = try await server.register(name: "busy")
            let quiet = try await server.register(name: "quiet")
            let replies = try await withThrowingTaskGroup(of: HTTPReply.self) { group in
                for _ in 0..<16 { group.addTask { try await server.pull(busy) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let statuses = replies.map(\.status)
            #expect(statuses.filter { $0 == 200 }.count == 4, "the burst goes through, and no more while the clock stands: \(statuses)")
            #expect(Set(statuses) == [200, 429], "\(statuses)")
            for refused in replies where refused.status == 429 {
                #expect(refused.errorCode == "rate_limited", "\(refused)")
                #expect(refused.headers[.contentType]?.hasPrefix("application/json") == true)
                #expect(refused.headers[.retryAfter] == "2", "one request refills in 2 s at 0.5/s: \(refused.headers)")
            }
            #expect(try await server.pull(quiet).status == 200, "the bucket is the device's")

            clock.advance(by: .seconds(1))
            #expect(try await server.pull(busy).status == 429, "half a request refilled: not before its Retry-After")
            clock.advance(by: .seconds(1))
            #expect(try await server.pull(busy).status == 200)
            #expect(try await server.pull(busy).status == 429, "one request refilled, one taken")
        }
    }

    @Test("a request refused for the rate changes nothing", arguments: TestStore.allCases)
    func refusedChangesNothing(store: TestStore) async throws {
        try await Server.with(store: store, rateLimit: RateLimit(requestsPerSecond: 0.001, burst: 1)) { server in
            let busy = try await server.register(name: "busy")
            let quiet = try await server.register(name: "quiet")
            #expect(try await server.pull(busy).status == 200)
            let push = try await server.push(busy, packetId: "p1", dependency: nil, ops: [Server.insert("op-1", "t1", ["a": 1], at: 1)])
            #expect(push.status == 429, "\(push)")
            #expect(push.headers[.retryAfter].flatMap { Int($0) }.map { $0 > 900 } == true, "a request refills in 1000 s: \(push.headers)")
            let seen = try await server.pull(quiet)
            #expect(seen.status == 200 && seen.body["ops"]?.arrayValue?.isEmpty == true, "\(seen)")
        }
    }

    @Test("with tokens, a user's devices and registrations share one bucket: more devices buy no more requests", arguments: TestStore.allCases)
    func byUser(store: TestStore) async throws {
        let secret = Array("a secret of the app's auth server".utf8)
        let signer = TokenSigner(secret: secret)
        let alice = signer.sign(TokenClaims(subject: "alice", scopes: ["user:alice"], expiresAt: 9_999_999_999))
        let bob = signer.sign(TokenClaims(subject: "bob", scopes: ["user:bob"], expiresAt: 9_999_999_999))
        try await Server.with(store: store, rateLimit: RateLimit(requestsPerSecond: 0.001, burst: 4), tokenVerifier: TokenVerifier(secret: secret)) { server in
            let register = { (token: String) in try await server.post("/v1/devices", token: token, json: [:]) }
            let phone = try #require(try await register(alice).body["deviceId"]?.stringValue)
            let laptop = try #require(try await register(alice).body["deviceId"]?.stringValue)
            let pull = { (device: String) in try await server.get("/v1/pull?deviceId=\(device)", token: alice) }
            #expect([try await pull(phone).status, try await pull(laptop).status] == [200, 200])
            let refused = try await pull(laptop)
            #expect(refused.status == 429, "\(refused)")
            #expect(refused.errorMessage?.contains("alice") == true, "\(refused)")
            #expect(try await register(alice).status == 429, "a new device brings no new allowance")
            #expect(try await register(bob).status == 201, "another user, another bucket")
        }
    }

    @Test("the default lets a sync run's bursts through: 200 requests at once")
    func defaultBurst() {
        let limiter = RequestRateLimiter(.standard)
        #expect((0..<200).allSatisfy { _ in limiter.admit("a", now: at(0)) == nil })
        #expect(limiter.admit("a", now: at(0)) == 1)
        #expect(RateLimit.standard.description == "100/s, burst 200")
    }

    /// `seconds` after a fixed instant, as the buckets compare them.
    private static let start = ContinuousClock.now
    private func at(_ seconds: Double) -> ContinuousClock.Instant { Self.start + .seconds(seconds) }
}
