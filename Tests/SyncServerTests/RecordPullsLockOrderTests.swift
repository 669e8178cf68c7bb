import PostgresStores
import HostTesting
import SystemIO
@testable import SyncServer
import Testing

/// Two instances write the cursors their pulls read in one statement a sweep each, over the same
/// devices (a device's requests go to either). Rows locked in each batch's own order deadlocked
/// now and then: PostgreSQL broke it after a second, and every push waited behind it, since a
/// push holds the write lock while it updates its device's row (BENCHMARKS.md, "the deadlock").
@Suite("cursor batches from several instances")
struct RecordPullsLockOrderTests {
    @Test("two instances writing overlapping batches at once, in opposite orders, never deadlock; each cursor ends at the highest")
    func noDeadlock() async throws {
        let database = try await PostgresTestDatabase.create()
        let address = try PostgresAddress(url: database.url)
        let first = try await PostgresSyncStore.open(address)
        let second = try await PostgresSyncStore.open(address)
        var ids: [String] = []
        for index in 0..<400 {
            ids.append(try await first.registerDevice(name: "d\(index)", tokenDigest: "t\(index)", user: "", scopes: nil, now: WallTime(secondsSince1970: 1)))
        }
        var failure: String?
        for round in 1...30 {
            // One batch in order, the other backwards, both over every device: as two instances'
            // dictionaries would order them, at their worst.
            let forward = Dictionary(uniqueKeysWithValues: ids.map { ($0, PulledCursor(cursor: round, at: WallTime(secondsSince1970: Double(round)))) })
            let backward = Dictionary(uniqueKeysWithValues: ids.map { ($0, PulledCursor(cursor: round + 1, at: WallTime(secondsSince1970: Double(round)))) })
            async let one: Void = first.recordPulls(forward, order: ids)
            async let other: Void = second.recordPulls(backward, order: ids.reversed())
            do {
                _ = try await (one, other)
            } catch {
                failure = "round \(round): \(PostgresSyncStore.describe(error))"
                break
            }
        }
        #expect(failure == nil)
        let cursors = try await database.rows("SELECT DISTINCT cursor::text FROM sync_device")
        #expect(cursors == [["31"]], "\(cursors)")
        await first.close()
        await second.close()
        await database.drop()
    }
}
