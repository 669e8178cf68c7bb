import Foundation
import HostTesting
import HybridHost
import Testing

@Suite("network from JS: js/tests/network.test.js and grants.test.js against the test server")
struct NetworkScriptTests {
    @Test("every JS network test passes through the real bridge")
    func scripts() async throws {
        let server = try await SharedServer.get()
        let file = Repository.path("js/tests/network.test.js")
        var runner = TestRunner()
        runner.guardsMemory = false // this process runs every test: its RSS is theirs
        runner.arguments = [server.base]
        let (totals, tap) = await runner.runCapturing(files: [file])
        #expect(totals.failed == 0 && totals.brokenFiles == 0, "\(tap)")
        #expect(totals.skipped == 0)
        #expect(totals.passed == 12)
    }

    @Test("js/tests/network-queue.test.js: the offline queue's answers as JS sees them, delivered to the test server")
    func offlineQueue() async throws {
        let server = try await SharedServer.get()
        var runner = TestRunner()
        runner.guardsMemory = false // this process runs every test: its RSS is theirs
        runner.arguments = [server.base]
        let (totals, tap) = await runner.runCapturing(files: [Repository.path("js/tests/network-queue.test.js")])
        #expect(totals.failed == 0 && totals.brokenFiles == 0, "\(tap)")
        #expect(totals.skipped == 0)
        #expect(totals.passed == 4)
    }

    @Test("js/tests/api.test.js: declared APIs page, check their params and cancel with their owner")
    func declaredAPIs() async throws {
        let server = try await SharedServer.get()
        var runner = TestRunner()
        runner.guardsMemory = false // this process runs every test: its RSS is theirs
        runner.arguments = [server.base]
        let (totals, tap) = await runner.runCapturing(files: [Repository.path("js/tests/api.test.js")])
        #expect(totals.failed == 0 && totals.brokenFiles == 0, "\(tap)")
        #expect(totals.skipped == 0)
        #expect(totals.passed == 5)
    }

    @Test("js/tests/web-fetch.test.js: Headers, Request, Response and fetch() against the test server")
    func fetchFromJS() async throws {
        let server = try await SharedServer.get()
        var runner = TestRunner()
        runner.guardsMemory = false // this process runs every test: its RSS is theirs
        runner.arguments = [server.base]
        let (totals, tap) = await runner.runCapturing(files: [Repository.path("js/tests/web-fetch.test.js")])
        #expect(totals.failed == 0 && totals.brokenFiles == 0, "\(tap)")
        #expect(totals.skipped == 0)
        #expect(totals.passed >= 35)
    }

    @Test("js/tests/web-eventsource.test.js: server-sent events, and a reconnection that resumes after Last-Event-ID")
    func eventSource() async throws {
        let server = try await SharedServer.get()
        let name = "sse-" + UUID().uuidString
        var runner = TestRunner()
        runner.guardsMemory = false // this process runs every test: its RSS is theirs
        runner.arguments = [server.base, name]
        let (totals, tap) = await runner.runCapturing(files: [Repository.path("js/tests/web-eventsource.test.js")])
        #expect(totals.failed == 0 && totals.brokenFiles == 0, "\(tap)")
        #expect(totals.passed == 4)
        #expect(server.hits["sse/\(name)/last=none"] == 1)
        #expect(server.hits["sse/\(name)/last=2"] == 1)
    }

    @Test("js/tests/web-websocket.test.js: WebSocket against a NIO echo server, every close path and subprotocols")
    func webSocket() async throws {
        let server = try await WebSocketEchoServer.start()
        var runner = TestRunner()
        runner.guardsMemory = false // this process runs every test: its RSS is theirs
        runner.arguments = [server.base]
        let (totals, tap) = await runner.runCapturing(files: [Repository.path("js/tests/web-websocket.test.js")])
        await server.stop()
        #expect(totals.failed == 0 && totals.brokenFiles == 0, "\(tap)")
        #expect(totals.skipped == 0)
        #expect(totals.passed == 11)
        #expect(server.handshakes.withLock { $0.first { $0.path == "/echo" && $0.protocols == "chat, echo.v2" } } != nil)
    }

    @Test("js/tests/grants.test.js: bypass attempts from a script granted api.example.test never reach the server")
    func grants() async throws {
        let server = try await PinnedHosts.server()
        let denied = "js-denied-" + UUID().uuidString, granted = "js-granted-" + UUID().uuidString
        var runner = TestRunner()
        runner.guardsMemory = false // this process runs every test: its RSS is theirs
        runner.arguments = ["http://api.example.test:\(server.port)", denied, granted]
        let (totals, tap) = await runner.runCapturing(files: [Repository.path("js/tests/grants.test.js")])
        #expect(totals.failed == 0 && totals.brokenFiles == 0, "\(tap)")
        #expect(totals.skipped == 0)
        #expect(totals.passed == 4)
        #expect(server.hits["count/\(denied)"] == 0)
        #expect(server.hits["count/\(granted)"] == 1)
    }
}
