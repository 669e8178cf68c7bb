import HTTPServing
import Synchronization
import SystemIO

/// The devices requests spoke for in the last minute, so that a device long-polling at a
/// thousand devices' pace is not looked up in the store at every request: a token's device is
/// taken from here while the token names the same user and scopes as the lookup that put it here,
/// for ``lifetime``; then, or for any other grant, the store is asked again (and records a
/// changed grant, as ``SyncStore/device(id:user:scopes:now:)`` does). A device's user never changes,
/// a device is never removed, and the store refreshes its `lastSeen` once a minute at most anyway
/// (its pulls' cursors refresh it too), so a minute's memory loses nothing but lookups. Each
/// instance remembers apart: with a device's requests spread over two instances, each looks it up
/// once a lifetime, and at 10 s that was about one lookup per op applied at 1,000 devices
/// (BENCHMARKS.md, "the storm").
final class KnownDevices: Sendable {
    private struct Known {
        var identity: DeviceIdentity
        var checkedAt: ContinuousClock.Instant
    }

    /// How long a lookup is reused.
    let lifetime: Duration
    /// The most devices remembered: past it, the oldest half is forgotten.
    let capacity: Int
    private let known = Mutex<[Key: Known]>([:])

    /// What a lookup was for: a device id with the whole grant of the token that named it, or a
    /// device token's digest. A value of ``ByteString``s, not a joined string: a `sub` of
    /// `"bob\nuser:bob"` must not meet bob's entry, and Swift's String equality would take
    /// `team:caf\u{E9}` and `team:cafe\u{301}` for one scope where the database holds two.
    enum Key: Hashable, Sendable {
        case grant(deviceId: ByteString, user: ByteString, scopes: [ByteString])
        case token(digest: String)

        init(deviceId: String, user: String, scopes: [String]) {
            self = .grant(deviceId: ByteString(deviceId), user: ByteString(user), scopes: scopes.map(ByteString.init))
        }
    }

    init(lifetime: Duration = .seconds(60), capacity: Int = 100_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The device `key` names, as `lookUp` gives it, reused while fresh.
    func device(_ key: Key, now: ContinuousClock.Instant, lookUp: () async throws -> DeviceIdentity?) async throws -> DeviceIdentity? {
        if let found = known.withLock({ $0[key] }), now - found.checkedAt < lifetime, now >= found.checkedAt {
            return found.identity
        }
        guard let identity = try await lookUp() else { return nil }
        known.withLock { known in
            if known.count >= capacity {
                let oldest = known.sorted { $0.value.checkedAt < $1.value.checkedAt }.prefix(capacity / 2).map(\.key)
                for key in oldest { known.removeValue(forKey: key) }
            }
            known[key] = Known(identity: identity, checkedAt: now)
        }
        return identity
    }
}
