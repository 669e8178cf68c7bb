import Foundation
import HybridHost
import Synchronization
import Testing

@Suite("sync from JS: js/tests/sync.test.js against a reference server")
struct SyncScriptTests {
    @Test("every JS sync test passes through the real bridge")
    func scripts() async throws {
        let server = try await RunningSyncServer.start()
        defer { Task { await server.stop() } }
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("js/tests/sync.test.js").path
        let output = Mutex("")
        var runner = TestRunner()
        runner.arguments = [server.base]
        runner.write = { text in output.withLock { $0 += text } }
        let configured = runner
        let totals = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: configured.run(files: [file])) }
        }
        let tap = output.withLock { $0 }
        #expect(totals.failed == 0 && totals.brokenFiles == 0, "\(tap)")
        #expect(totals.skipped == 0)
        #expect(totals.passed == 4)
    }
}
