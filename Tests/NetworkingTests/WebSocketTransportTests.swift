import Foundation
import HostTesting
import SystemIO
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

    @Test("a burst flushed at once arrives whole and in order, then the close after it", arguments: [false, true])
    func burst(mixed: Bool) async throws {
        let server = try await WebSocketEchoServer.start()
        defer { Task { await server.stop() } }
        let connection = try await WebSocketClient.connect(to: target(server, "/echo"), protocols: [], timeoutMs: 10_000)
        let count = 500
        try await connection.send([.text((mixed ? "mixed-burst:" : "burst:") + "\(count)"), .text("close:4000")])
        var events: [WebSocketEvent] = []
        while events.count < count + 1 {
            let taken = await connection.receive()
            if taken.isEmpty { break }
            events += taken
        }
        let expected: [WebSocketEvent] = (0..<count).map { index in
            switch WebSocketEchoServer.burstMessage(index, mixed: mixed) {
            case .text(let text): .text(text)
            case .binary(let bytes): .binary(bytes)
            }
        }
        #expect(Array(events.prefix(count)) == expected)
        #expect(events.dropFirst(count).first == .closed(code: 4000, reason: "bye 4000", wasClean: true))
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

    @Test("wss: trusted through the host's caFile, refused without it, and pinned: the right key passes, a wrong one fails before the request")
    func secure() async throws {
        let folder = TemporaryFolder(prefix: "wss")
        defer { folder.remove() }
        let authority = try TestCertificateAuthority(in: folder.path, name: "wss-ca")
        let issued = try authority.issue(name: "wss-server", hosts: ["127.0.0.1"])
        let server = try await WebSocketEchoServer.start(tls: (issued.certificate, issued.key))
        defer { Task { await server.stop() } }
        let spki = try ChildProcess.run("openssl", ["pkey", "-in", issued.key, "-pubout", "-outform", "der"]).output
        let pin = "sha256//" + Data(try ChildProcess.run("openssl", ["dgst", "-sha256", "-binary"], input: spki).output).base64EncodedString()
        let target = WebSocketClient.Target(secure: true, host: "127.0.0.1", port: server.port, resource: "/echo")

        let trusted = try await WebSocketClient.connect(to: target, protocols: [], timeoutMs: 10_000, caFile: authority.certificate, pins: [pin])
        try await trusted.send(text: "over TLS")
        #expect(await trusted.receive() == [.text("over TLS")])
        trusted.close(code: 1000, reason: "")

        do {
            _ = try await WebSocketClient.connect(to: target, protocols: [], timeoutMs: 10_000)
            Issue.record("a certificate from an unknown CA was trusted")
        } catch {
            #expect(error.reason == .tls)
        }
        let before = server.handshakes.withLock { $0.count }
        do {
            _ = try await WebSocketClient.connect(to: target, protocols: [], timeoutMs: 10_000, caFile: authority.certificate,
                                                  pins: ["sha256//" + Data(repeating: 7, count: 32).base64EncodedString()])
            Issue.record("a key outside the pins was accepted")
        } catch {
            #expect(error.reason == .tls)
            #expect(error.message.contains("pins"))
        }
        // The pinned-out connection never sent its handshake.
        #expect(server.handshakes.withLock { $0.count } == before)
    }
}
