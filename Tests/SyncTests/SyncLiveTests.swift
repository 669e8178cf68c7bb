import Foundation
import HostTesting
import HybridHost
import SyncServer
import Testing

// One store at a time: the latency the JS test prints is each one's own.
@Suite("sync.live from JS: js/tests/sync-live.test.js against real servers", .serialized)
struct SyncLiveTests {
    /// Writes measured from device A's insert to the row being readable on device B.
    static let writes = 100

    @Test("a write on device A reaches device B through sync.live: B on another instance (PostgreSQL), or the same server (SQLite)",
          arguments: TestStore.allCases)
    func writeReachesOtherDevice(store: TestStore) async throws {
        // Writes back to back, each waiting for the last to arrive, are 50 to 100 a second: past
        // the standard per-device limit (100 requests/s), whose 429s sync.live would wait out.
        let first = try await LocalSyncServer.start(store: store, rateLimit: .off)
        // SQLite is one server per file; over PostgreSQL, B's held pulls wake through NOTIFY from A's instance.
        let second: LocalSyncServer
        do {
            second = store == .postgres ? try await first.anotherInstance() : first
        } catch {
            await first.finish()
            throw error
        }
        var runner = TestRunner()
        runner.guardsMemory = false // this process runs every test: its RSS is theirs
        runner.arguments = [first.base, second.base, String(Self.writes), store == .postgres ? "PostgreSQL, two instances" : "SQLite, one server"]
        let (totals, tap) = await runner.runCapturing(files: [Repository.path("js/tests/sync-live.test.js")])
        if store == .postgres { await second.server.stop() }
        await first.finish()
        #expect(totals.failed == 0 && totals.brokenFiles == 0, "\(tap)")
        #expect(totals.skipped == 0)
        #expect(totals.passed == 1)
    }
}

@Suite("sync.live when the server is away")
struct SyncLiveBackoffTests {
    @Test("a live turn against a stopped server answers online: false, and a later turn pushes once it is back on the same address")
    func serverAwayThenBack() async throws {
        let server = try await LocalSyncServer.start()
        let device = try SyncDevice("live-away")
        defer { device.remove() }
        try await device.start(server: server.base)
        try await device.insert("tasks", [["id": "t1", "title": "written while away"]])
        await server.server.stop()

        let away = try await device.sync("live", ["waitMs": 1000])
        #expect(away["online"] == false, "\(away)")
        #expect(away["pushed"] == 0)
        #expect(away["reason"]?.stringValue?.isEmpty == false)
        let delay = away["retryInMs"]?.intValue ?? 0
        // The first delay: 250 ms, drawn from its upper half.
        #expect(delay >= 125 && delay <= 250, "\(away)")

        // Back on the same file and port: the device's address is unchanged.
        var configuration = server.server.configuration
        configuration.port = server.port
        let restarted = try await SyncServer.open(configuration: configuration)
        _ = try await restarted.start()
        var pushed = 0
        for _ in 0..<20 where pushed == 0 {
            let turn = try await device.sync("live", ["waitMs": 1000])
            pushed += turn["online"] == true ? turn["pushed"]?.intValue ?? 0 : 0
        }
        await restarted.stop()
        await server.finish()
        #expect(pushed == 1)
    }

    @Test("cancelling a live turn (the subscription stopped) ends its held pull at once")
    func cancelledTurnEnds() async throws {
        let server = try await LocalSyncServer.start()
        let device = try SyncDevice("live-cancel")
        defer { device.remove() }
        try await device.start(server: server.base)
        let turn = Task { try await device.sync("live", ["waitMs": 60_000]) }
        // As long as a loaded machine takes to start the device's turn (10 s was not enough in CI).
        #expect(try await eventually { server.server.heldPulls > 0 })
        #expect(server.server.heldPulls == 1)
        let cancelled = ContinuousClock.now
        turn.cancel()
        _ = await turn.result
        // Well before the 60 s the server would have held it.
        #expect(ContinuousClock.now - cancelled < .seconds(40))
        await server.finish()
    }
}
