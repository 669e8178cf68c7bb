import Synchronization
import SystemIO

/// The token buckets of one server, in memory: one per key (a user, a device token, a peer's
/// address). A bucket starts full, and one whose device has been
/// quiet long enough to refill it is forgotten, so memory follows the devices active lately.
///
/// ```swift
/// let limiter = RequestRateLimiter(RateLimit(requestsPerSecond: 2, burst: 1))
/// limiter.admit("device:alice/d1", now: start)                       // nil: let through
/// limiter.admit("device:alice/d1", now: start + .milliseconds(100))  // 1: wait a second (0.4 s, rounded up)
/// ```
public final class RequestRateLimiter: Sendable {
    public let limit: RateLimit

    private struct Bucket {
        var tokens: Double
        var refilledAt: ContinuousClock.Instant

        /// The tokens it would have at `now`, uncapped.
        func tokens(at now: ContinuousClock.Instant, rate: Double) -> Double {
            tokens + max(0, (now - refilledAt).seconds) * rate
        }
    }

    private struct Buckets {
        // By the key's UTF-8 bytes: String's equality would give `user K` and `user \u{212A}` (KELVIN
        // SIGN), two users to the token verifier, one bucket.
        var byKey: [ByteString: Bucket] = [:]
        var prunedAt: ContinuousClock.Instant?
    }

    private let buckets = Mutex(Buckets())

    public init(_ limit: RateLimit) {
        self.limit = limit
    }

    /// Takes one request from `key`'s bucket at `now`: nil when it may go on, else the whole seconds
    /// (at least 1) until it would be let through.
    public func admit(_ key: String, now: ContinuousClock.Instant) -> Int? {
        guard !limit.isOff else { return nil }
        let (rate, burst) = (limit.requestsPerSecond, max(limit.burst, 1))
        return buckets.withLock { buckets in
            // Drop the buckets that are full again, at most once a refill's time.
            if buckets.prunedAt.map({ (now - $0).seconds >= max(burst / rate, 1) }) ?? true {
                buckets.byKey = buckets.byKey.filter { $0.value.tokens(at: now, rate: rate) < burst }
                buckets.prunedAt = now
            }
            let key = ByteString(key)
            var bucket = buckets.byKey[key] ?? Bucket(tokens: burst, refilledAt: now)
            bucket.tokens = min(burst, bucket.tokens(at: now, rate: rate))
            bucket.refilledAt = now
            defer { buckets.byKey[key] = bucket }
            guard bucket.tokens >= 1 else { return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up))) }
            bucket.tokens -= 1
            return nil
        }
    }

    /// The whole seconds (at least 1) until `key` would be let through, or nil when it would be
    /// now; takes nothing from its bucket.
    public func wait(_ key: String, now: ContinuousClock.Instant) -> Int? {
        guard !limit.isOff else { return nil }
        let (rate, burst) = (limit.requestsPerSecond, max(limit.burst, 1))
        return buckets.withLock { buckets in
            guard let bucket = buckets.byKey[ByteString(key)] else { return nil }
            let tokens = min(burst, bucket.tokens(at: now, rate: rate))
            return tokens >= 1 ? nil : max(1, Int(((1 - tokens) / rate).rounded(.up)))
        }
    }

    /// How many buckets are kept (full ones until the next prune): for tests.
    public var trackedKeys: Int { buckets.withLock { $0.byKey.count } }
}
