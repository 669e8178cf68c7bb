@testable import SyncServer
import Synchronization
import Testing

/// The device lookups a server reuses for a few seconds: the same grant is not looked up again
/// while fresh; another grant, or a stale one, is.
@Suite("known devices")
struct KnownDevicesTests {
    @Test("a lookup is reused while fresh and made again once stale; another key is looked up on its own; a failed lookup is not kept")
    func reusesFreshLookups() async throws {
        let known = KnownDevices(lifetime: .seconds(10))
        let lookups = Mutex(0)
        let alice = DeviceIdentity(deviceId: "d1", user: "alice", scopes: ["team:t1"])
        let lookUp: () async throws -> DeviceIdentity? = {
            lookups.withLock { $0 += 1 }
            return alice
        }
        #expect(try await known.device(KnownDevices.Key(deviceId: "d1", user: "alice", scopes: ["team:t1"]), now: at(100), lookUp: lookUp) == alice)
        #expect(try await known.device(KnownDevices.Key(deviceId: "d1", user: "alice", scopes: ["team:t1"]), now: at(109), lookUp: lookUp) == alice)
        #expect(lookups.withLock { $0 } == 1)
        _ = try await known.device(KnownDevices.Key(deviceId: "d1", user: "alice", scopes: ["team:t2"]), now: at(109), lookUp: lookUp)
        #expect(lookups.withLock { $0 } == 2)
        _ = try await known.device(KnownDevices.Key(deviceId: "d1", user: "alice", scopes: ["team:t1"]), now: at(111), lookUp: lookUp)
        #expect(lookups.withLock { $0 } == 3)
        // A clock that went back does not make an old lookup fresh.
        _ = try await known.device(KnownDevices.Key(deviceId: "d1", user: "alice", scopes: ["team:t1"]), now: at(50), lookUp: lookUp)
        #expect(lookups.withLock { $0 } == 4)

        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await known.device(.token(digest: "d2"), now: at(100)) { throw Refused() } }
        #expect(try await known.device(.token(digest: "d2"), now: at(100), lookUp: { nil }) == nil)
        #expect(try await known.device(.token(digest: "d2"), now: at(101), lookUp: lookUp) == alice)
    }

    @Test("past its capacity it forgets the oldest half and goes on")
    func boundedMemory() async throws {
        let known = KnownDevices(lifetime: .seconds(10), capacity: 4)
        let lookups = Mutex(0)
        for index in 0..<10 {
            _ = try await known.device(.token(digest: "d\(index)"), now: at(Double(index) * 0.1)) {
                lookups.withLock { $0 += 1 }
                return DeviceIdentity(deviceId: "d\(index)", user: "", scopes: nil)
            }
        }
        // d9 is among the newest kept; d0 was forgotten.
        _ = try await known.device(.token(digest: "d9"), now: at(1)) { lookups.withLock { $0 += 1 }; return nil }
        _ = try await known.device(.token(digest: "d0"), now: at(1)) { lookups.withLock { $0 += 1 }; return nil }
        #expect(lookups.withLock { $0 } == 11)
    }

    @Test("a grant is a value: a sub holding a newline, or scopes that differ only by Unicode normalisation, is another key")
    func keysAreValues() {
        let bob = KnownDevices.Key(deviceId: "d1", user: "bob", scopes: ["user:bob", "team:t2"])
        // Joined with newlines, both were "d1\nbob\nuser:bob\nteam:t2".
        #expect(KnownDevices.Key(deviceId: "d1", user: "bob\nuser:bob", scopes: ["team:t2"]) != bob)
        #expect(KnownDevices.Key(deviceId: "d1", user: "bob", scopes: ["user:bob\nteam:t2"]) != bob)
        // Swift's String equality takes these for one; the database holds two.
        #expect(KnownDevices.Key(deviceId: "d1", user: "bob", scopes: ["team:caf\u{E9}"])
                != KnownDevices.Key(deviceId: "d1", user: "bob", scopes: ["team:cafe\u{301}"]))
        #expect(KnownDevices.Key(deviceId: "d1", user: "Kate", scopes: []) != KnownDevices.Key(deviceId: "d1", user: "\u{212A}ate", scopes: []))
    }

    /// `seconds` after a fixed instant, as the cache compares them.
    private static let start = ContinuousClock.now
    private func at(_ seconds: Double) -> ContinuousClock.Instant { Self.start + .seconds(seconds) }
}
