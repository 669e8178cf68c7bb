import Foundation
import HostTesting
import HybridHost
import Testing

@Suite("network from JS: js/tests/network.test.js against the test server")
struct NetworkScriptTests {
    @Test("every JS network test passes through the real bridge")
    func scripts() async throws {
        let server = try await SharedServer.get()
        let file = Repository.path("js/tests/network.test.js")
        var runner = TestRunner()
        runner.arguments = [server.base]
        let (totals, tap) = await runner.runCapturing(files: [file])
        #expect(totals.failed == 0 && totals.brokenFiles == 0, "\(tap)")
        #expect(totals.skipped == 0)
        #expect(totals.passed == 10)
    }
}
