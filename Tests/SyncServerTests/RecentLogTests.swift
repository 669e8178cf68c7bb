import HostTesting
import Logging
import SyncProtocol
import SystemIO
@testable import SyncServer
import Testing

/// Memory of the log's newest entries stays current while held pulls ask for pages, even at a
/// moment when none of them is waiting: dropping it then sent one instance of two into a state
/// where every pull read PostgreSQL (BENCHMARKS.md, "the storm").
@Suite("recent log")
struct RecentLogTests {
    @Test("a held pull that asked keeps memory read at the next news, though no pull is waiting at that moment; without one asking it is dropped")
    func keptWhileAsked() async throws {
        let folder = TemporaryFolder(prefix: "recent-log")
        defer { folder.remove() }
        let store = try SQLiteSyncStore(path: folder.path + "/sync.sqlite")
        let id = try await store.registerDevice(name: "writer", tokenDigest: "digest", user: "", scopes: nil, now: WallTime(secondsSince1970: 1))
        let device = DeviceIdentity(deviceId: id, user: "", scopes: nil)
        let op = SyncOperation(opId: "op-1", dataId: "r1", table: "notes", type: .insert, data: ["body": "one"], timestamp: 1)
        _ = try await store.push(PushPacket(deviceId: id, packetId: "p1", dependencyIdentifier: nil, ops: [op]), now: WallTime(secondsSince1970: 1))

        let held = HeldPulls()
        let unasked = RecentLog(store: store, held: held, logger: Logger(label: "test"))
        unasked.heard(.anywhere)
        let asked = RecentLog(store: store, held: held, logger: Logger(label: "test"))
        // A held pull asks before memory has read anything (the store answers it), then reads
        // the store, so that none is waiting when the news comes.
        #expect(try asked.page(for: device, after: 0, limit: 10) == nil)
        #expect(held.count == 0)
        asked.heard(.anywhere)
        let answered = try await eventually { try asked.page(for: device, after: 0, limit: 10) != nil }
        #expect(answered, "memory answers the next pull")
        #expect(try asked.page(for: device, after: 0, limit: 10)?.ops.map(\.operation.opId) == ["op-1"])
        #expect(try await eventually { !unasked.isReading })
        #expect(unasked.count == 0, "nobody asked: memory was dropped, not read")
    }

    @Test("a pull whose read overlapped a wake for other keys waits; one for its keys, or for anywhere, sends it back at once")
    func waitsThroughOtherWakes() async throws {
        let held = HeldPulls()
        let deadline = ContinuousClock.now + .seconds(600)  // never reached: every pull here is woken
        let generation = held.generation
        held.wake(keys: ["s:team:t2"])
        let waiting = Task { await held.wait(after: generation, keys: ["s:team:t1", "u:alice"], until: deadline) }
        #expect(try await eventually { held.count == 1 }, "a wake for another team does not send it back")
        held.wake(keys: ["u:alice"])
        await waiting.value
        #expect(held.count == 0)

        let before = held.generation
        held.wake(keys: ["s:team:t2"])
        held.wake(keys: ["s:team:t1"])
        await held.wait(after: before, keys: ["s:team:t1"], until: deadline)   // at once: its key was woken
        let beforeAnywhere = held.generation
        held.wake(keys: nil)
        await held.wait(after: beforeAnywhere, keys: ["s:team:t1"], until: deadline)
        // However many wakes for other keys came since, it can tell.
        let beforeMany = held.generation
        for _ in 0...HeldPulls.recentWakes * 2 { held.wake(keys: ["s:team:t9"]) }
        let throughMany = Task { await held.wait(after: beforeMany, keys: ["s:team:t1"], until: deadline) }
        #expect(try await eventually { held.count == 1 }, "600 wakes of another team do not send it back")
        held.wake(keys: ["s:team:t1"])
        await throughMany.value
        // More keys woken than remembered: it cannot tell, so it reads again.
        let longAgo = held.generation
        for key in 0...HeldPulls.rememberedKeys { held.wake(keys: ["s:team:k\(key)"]) }
        for _ in 0...HeldPulls.recentWakes { held.wake(keys: ["s:team:t9"]) }
        await held.wait(after: longAgo, keys: ["s:team:t1"], until: deadline)
        #expect(held.count == 0)
    }
}
