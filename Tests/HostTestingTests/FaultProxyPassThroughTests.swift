import Foundation
import HostTesting
import Testing

@Suite("Fault proxy: forwarding faithfully")
struct FaultProxyPassThroughTests {
    @Test("with no faults, 200 requests, some concurrent, come back with the statuses and bodies the server sent")
    func passThrough() async throws {
        let server = try await UpstreamServer.start()
        let proxy = try FaultProxy(upstreamPort: server.port, seed: 1, plan: .none)
        let client = RawHTTPClient(port: proxy.port)
        // 8 clients side by side, 25 requests each, statuses and sizes varying (one in 25 large
        // enough to take several reads each way).
        let mismatches = await withTaskGroup(of: [String].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    await Blocking.run {
                        var mismatches: [String] = []
                        for i in 0..<25 {
                            let status = [200, 201, 404, 500, 409][i % 5]
                            let body = "worker \(worker) request \(i) " + String(repeating: "x", count: i == 7 ? 300_000 : i * 13)
                            do {
                                let response = try client.post("/echo?status=\(status)", body: body)
                                if response.status != status || response.text != body || !response.trailing.isEmpty {
                                    mismatches.append("worker \(worker) #\(i): \(response.status), \(response.body.count) bytes")
                                }
                            } catch {
                                mismatches.append("worker \(worker) #\(i): \(error)")
                            }
                        }
                        return mismatches
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(mismatches == [])
        #expect(server.log.hits == 200)
        #expect(proxy.counts == [.pass: 200])
        #expect(proxy.events.map(\.number) == Array(1...200))
        proxy.stop()
        await server.stop()
    }

    @Test("a chunked response passes through whole, with Connection: close for the client")
    func chunkedResponse() async throws {
        let server = try await UpstreamServer.start()
        let proxy = try FaultProxy(upstreamPort: server.port, seed: 1, plan: .none)
        let response = try await Blocking.run { try RawHTTPClient(port: proxy.port).get("/stream?n=500") }
        #expect(response.status == 200)
        #expect(response.headers["transfer-encoding"] == "chunked")
        #expect(response.headers["connection"] == "close")
        #expect(response.text == UpstreamServer.streamBody(lines: 500))
        proxy.stop()
        await server.stop()
    }

    @Test("libcurl's requests pass through, and one expecting 100-continue is not kept waiting for it")
    func curlAndExpectContinue() async throws {
        let server = try await UpstreamServer.start()
        let proxy = try FaultProxy(upstreamPort: server.port, seed: 1, plan: .none)
        let body = String(repeating: "0123456789", count: 5_000)
        // Told to wait 30 s for a 100 Continue before sending anyway, curl would take that long if
        // the proxy never answered one; the bound below is far from both, so a loaded machine
        // cannot fail it.
        let outcome = await Curl.post(proxy.base + "/echo", body: body, extra: ["-H", "Expect: 100-continue", "--expect100-timeout", "30"])
        #expect(outcome.exitCode == 0)
        #expect(outcome.body == body)
        #expect(outcome.seconds < 15)
        proxy.stop()
        await server.stop()
    }

    @Test("a chunked request body is refused with 411 and never forwarded")
    func chunkedRequestRefused() async throws {
        let server = try await UpstreamServer.start()
        let proxy = try FaultProxy(upstreamPort: server.port, seed: 1, plan: .none)
        let response = try await Blocking.run {
            try RawHTTPClient(port: proxy.port).send("POST", "/echo", body: Array("5\r\nhello\r\n0\r\n\r\n".utf8),
                                                     headers: ["Transfer-Encoding: chunked"])
        }
        #expect(response.status == 411)
        #expect(server.log.hits == 0)
        #expect(proxy.events == [])
        proxy.stop()
        await server.stop()
    }

    @Test("stop closes the listener, and stopping again does nothing")
    func stopIsIdempotent() async throws {
        let server = try await UpstreamServer.start()
        let proxy = try FaultProxy(upstreamPort: server.port, seed: 1, plan: .none)
        let client = RawHTTPClient(port: proxy.port)
        let before = await Blocking.run { (try? client.post("/echo", body: "before"))?.text }
        #expect(before == "before")
        proxy.stop()
        proxy.stop()
        await #expect(throws: RawHTTPError.refused) { try await Blocking.run { try client.post("/echo", body: "after") } }
        await server.stop()
    }
}
