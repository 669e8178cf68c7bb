import Foundation
import HostTesting
import HybridHost
import Testing

@Suite("sync from JS: js/tests/sync.test.js against a reference server")
struct SyncScriptTests {
    @Test("every JS sync test passes through the real bridge")
    func scripts() async throws {
        let server = try await LocalSyncServer.start()
        defer { Task { await server.finish() } }
        let file = Repository.path("js/tests/sync.test.js")
        var runner = TestRunner()
        runner.guardsMemory = false // this process runs every test: its RSS is theirs
        runner.arguments = [server.base]
        let (totals, tap) = await runner.runCapturing(files: [file])
        #expect(totals.failed == 0 && totals.brokenFiles == 0, "\(tap)")
        #expect(totals.skipped == 0)
        #expect(totals.passed == 4)
    }
}
