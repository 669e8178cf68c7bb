import Foundation
import HostTesting
import HybridHost
import Testing

// One store at a time: the latency the JS test prints is each one's own.
@Suite("sync.live from JS: js/tests/sync-live.test.js against real servers", .serialized)
struct SyncLiveTests {
    /// Writes measured from device A's insert to the row being readable on device B.
    static let writes = 200

    @Test("a write on device A reaches device B through sync.live: B on another instance (PostgreSQL), or the same server (SQLite)",
          arguments: TestStore.allCases)
    func writeReachesOtherDevice(store: TestStore) async throws {
        // Writes back to back, each waiting for the last to arrive, are 50 to 100 a second: past
        // the standard per-device limit (100 requests/s), whose 429s sync.live would wait out.
        let first = try await RunningSyncServer.start(store: store, rateLimit: .off)
        // SQLite is one server per file; over PostgreSQL, B's held pulls wake through NOTIFY from A's instance.
        let second: RunningSyncServer
        do {
            second = store == .postgres ? try await first.anotherInstance() : first
        } catch {
            await first.stop()
            throw error
        }
        var runner = TestRunner()
        runner.arguments = [first.base, second.base, String(Self.writes), store == .postgres ? "PostgreSQL, two instances" : "SQLite, one server"]
        let (totals, tap) = await runner.runCapturing(files: [Repository.path("js/tests/sync-live.test.js")])
        if store == .postgres { await second.server.stop() }
        await first.stop()
        #expect(totals.failed == 0 && totals.brokenFiles == 0, "\(tap)")
        #expect(totals.skipped == 0)
        #expect(totals.passed == 1)
    }
}
