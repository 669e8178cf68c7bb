import Bridge
import HostTesting
import Hummingbird
import JSON
import Testing

/// A server that answers registration as the sync server does, and every pull with `pull`.
private func withServer(pull: String, _ body: (SyncDevice) async throws -> Void) async throws {
    let router = Router()
    router.post("/v1/devices") { _, _ -> Response in
        Response(status: .created, headers: [.contentType: "application/json"],
                 body: .init(byteBuffer: ByteBuffer(string: #"{"deviceId":"d1","token":"t1"}"#)))
    }
    router.get("/v1/pull") { _, _ -> Response in
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: pull)))
    }
    let server = try await LocalHTTPServer.start(router: router, label: "sync-answers")
    let device = try SyncDevice("answers")
    do {
        try await device.start(server: server.base)
        try await body(device)
    } catch {
        device.remove()
        await server.stop()
        throw error
    }
    device.remove()
    await server.stop()
}

@Suite("sync: answers that do not read")
struct SyncServerAnswerTests {
    @Test("a pull answered 200 with a body that is not JSON fails the run naming the pull page, not as an empty answer",
          arguments: ["<html>bad gateway</html>", ""])
    func notJSON(_ pull: String) async throws {
        try await withServer(pull: pull) { device in
            await #expect { try await device.run() } throws: { error in
                let error = error as? BridgeError
                return error?.details?["reason"] == "server" && error?.details?["status"] == 200
                    && error?.message.contains("answered 200: pull page: body: expected JSON, got ") == true
            }
        }
    }

    @Test("a pull page missing its cursor fails the run naming the field")
    func missingCursor() async throws {
        try await withServer(pull: #"{"ops":[],"more":false}"#) { device in
            await #expect { try await device.run() } throws: { error in
                (error as? BridgeError)?.message.hasSuffix("answered 200: pull page: cursor: expected integer, missing") == true
            }
        }
    }
}
