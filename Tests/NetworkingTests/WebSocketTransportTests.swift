import Testing
import WebSocketTransport

@Suite("WebSocketTransport: the client against a NIO echo server")
struct WebSocketTransportTests {
    private func target(_ server: WebSocketEchoServer, _ path: String) -> WebSocketClient.Target {
        WebSocketClient.Target(secure: false, host: "127.0.0.1", port: server.port, resource: path)
    }

    @Test("a client that does not read stops the server's sends: 1 MiB queued, then TCP backs up")
    func backpressure() async throws {
        let server = try await WebSocketEchoServer.start()
        defer { Task { await server.stop() } }
        let connection = try await WebSocketClient.connect(to: target(server, "/flood"), protocols: [], timeoutMs: 10_000)
        // 64 MiB offered in 64 KiB messages; nothing is received for a while.
        try await connection.send(text: "flood:1024")
        try await Task.sleep(for: .seconds(2))
        let stalled = server.flooded.withLock { $0 }
        #expect(stalled > 0)
        // Queued (1 MiB) plus what the kernel's buffers hold: far short of the 1,024 offered.
        #expect(stalled < 400, "the server wrote \(stalled) of 1,024 messages with nothing read")
        var received = 0
        while received < 1024 {
            for event in await connection.receive() {
                if case .binary(let bytes) = event {
                    #expect(bytes.count == 65536)
                    received += 1
                }
            }
        }
        #expect(server.flooded.withLock { $0 } == 1024)
        connection.close(code: 1000, reason: "")
        #expect(await connection.receive() == [.closed(code: 1000, reason: "", wasClean: true)])
    }

    @Test("a message past the limit closes the socket with 1009, unclean on this side")
    func messageTooLarge() async throws {
        let server = try await WebSocketEchoServer.start()
        defer { Task { await server.stop() } }
        let connection = try await WebSocketClient.connect(to: target(server, "/echo"), protocols: [], timeoutMs: 10_000, maximumMessageBytes: 1000)
        try await connection.send(binary: [UInt8](repeating: 1, count: 999))
        #expect(await connection.receive() == [.binary([UInt8](repeating: 1, count: 999))])
        try await connection.send(binary: [UInt8](repeating: 2, count: 1001))
        var events: [WebSocketEvent] = []
        while events.last.map({ if case .closed = $0 { false } else { true } }) ?? true { events += await connection.receive() }
        guard case .closed(let code, _, let wasClean) = events.last else { Issue.record("no close: \(events)"); return }
        #expect(code == 1006 && !wasClean)
    }

    @Test("nothing listening is a connect error; a refused upgrade a handshake error")
    func failures() async throws {
        let server = try await WebSocketEchoServer.start()
        let port = server.port
        await server.stop()
        await #expect(throws: WebSocketError.self) {
            try await WebSocketClient.connect(to: WebSocketClient.Target(secure: false, host: "127.0.0.1", port: port, resource: "/"), protocols: [], timeoutMs: 5000)
        }
        do {
            _ = try await WebSocketClient.connect(to: WebSocketClient.Target(secure: false, host: "127.0.0.1", port: port, resource: "/"), protocols: [], timeoutMs: 5000)
        } catch {
            #expect(error.reason == .connect)
        }
        let live = try await WebSocketEchoServer.start()
        defer { Task { await live.stop() } }
        do {
            _ = try await WebSocketClient.connect(to: target(live, "/refuse"), protocols: [], timeoutMs: 5000)
            Issue.record("a refused handshake opened")
        } catch {
            #expect(error.reason == .handshake)
            #expect(error.message.contains("403"))
        }
    }
}
