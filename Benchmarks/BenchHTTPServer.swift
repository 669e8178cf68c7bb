import Dispatch
import HostTesting
import Hummingbird
import SystemIO

/// The server `hybrid-bench network` measures against: Hummingbird on 127.0.0.1, an ephemeral
/// port, one small answer per URL. Ours and curl's requests go to the same server in the same run.
final class BenchHTTPServer: @unchecked Sendable {
    private var server: LocalHTTPServer?

    var port: Int { server?.port ?? 0 }

    /// Starts the server and waits until it listens.
    func start() throws {
        let started = Locked<LocalHTTPServer?>(nil)
        try blocking {
            let router = Router()
            router.get("/small") { request, _ -> Response in
                Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "ok \(request.uri.query ?? "")")))
            }
            started.value = try await LocalHTTPServer.start(router: router, label: "bench-http-server")
        }
        server = started.value
    }

    func stop() {
        guard let server else { return }
        try? blocking { await server.stop() }
    }
}
