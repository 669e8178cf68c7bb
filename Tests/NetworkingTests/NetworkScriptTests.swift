import Foundation
import HybridHost
import Synchronization
import Testing

@Suite("network from JS: js/tests/network.test.js against the test server")
struct NetworkScriptTests {
    @Test("every JS network test passes through the real bridge")
    func scripts() async throws {
        let server = try await SharedServer.get()
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("js/tests/network.test.js").path
        let output = Mutex("")
        var runner = TestRunner()
        runner.arguments = [server.base]
        runner.write = { text in output.withLock { $0 += text } }
        // The runner blocks its thread while the engine runs; keep it off the cooperative pool.
        let configured = runner
        let totals = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: configured.run(files: [file])) }
        }
        let tap = output.withLock { $0 }
        #expect(totals.failed == 0 && totals.brokenFiles == 0, "\(tap)")
        #expect(totals.skipped == 0)
        #expect(totals.passed == 10)
    }
}
