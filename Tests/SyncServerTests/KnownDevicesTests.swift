@testable import SyncServer
import Synchronization
import Testing

/// The device lookups a server reuses for a few seconds: the same grant is not looked up again
/// while fresh; another grant, or a stale one, is.
@Suite("known devices")
struct KnownDevicesTests {
    @Test("a lookup is reused while fresh and made again once stale; another key is looked up on its own; a failed lookup is not kept")
    func reusesFreshLookups() async throws {
        let known = KnownDevices(lifetime: 10)
        let lookups = Mutex(0)
        let alice = DeviceIdentity(deviceId: "d1", user: "alice", scopes: ["team:t1"])
        let lookUp: () async throws -> DeviceIdentity? = {
            lookups.withLock { $0 += 1 }
            return alice
        }
        #expect(try await known.device("d1 alice team:t1", now: 100, lookUp: lookUp) == alice)
        #expect(try await known.device("d1 alice team:t1", now: 109, lookUp: lookUp) == alice)
        #expect(lookups.withLock { $0 } == 1)
        _ = try await known.device("d1 alice team:t2", now: 109, lookUp: lookUp)
        #expect(lookups.withLock { $0 } == 2)
        _ = try await known.device("d1 alice team:t1", now: 111, lookUp: lookUp)
        #expect(lookups.withLock { $0 } == 3)
        // A clock that went back does not make an old lookup fresh.
        _ = try await known.device("d1 alice team:t1", now: 50, lookUp: lookUp)
        #expect(lookups.withLock { $0 } == 4)

        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await known.device("d2", now: 100) { throw Refused() } }
        #expect(try await known.device("d2", now: 100, lookUp: { nil }) == nil)
        #expect(try await known.device("d2", now: 101, lookUp: lookUp) == alice)
    }

    @Test("past its capacity it forgets the oldest half and goes on")
    func boundedMemory() async throws {
        let known = KnownDevices(lifetime: 10, capacity: 4)
        let lookups = Mutex(0)
        for index in 0..<10 {
            _ = try await known.device("d\(index)", now: Double(index) * 0.1) {
                lookups.withLock { $0 += 1 }
                return DeviceIdentity(deviceId: "d\(index)", user: "", scopes: nil)
            }
        }
        // d9 is among the newest kept; d0 was forgotten.
        _ = try await known.device("d9", now: 1) { lookups.withLock { $0 += 1 }; return nil }
        _ = try await known.device("d0", now: 1) { lookups.withLock { $0 += 1 }; return nil }
        #expect(lookups.withLock { $0 } == 11)
    }
}
