import Dispatch
import HostTesting
import Hummingbird
import SystemIO

/// The server `hybrid-bench network` measures against: Hummingbird on 127.0.0.1, an ephemeral
/// port, one small answer per URL (`/small`), and bodies of any size (`/big?n=`). Ours and curl's requests go to the same server in the same run.
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
            // ?n= bytes in 64 KiB writes: fetch's streamed bodies.
            router.get("/big") { request, _ -> Response in
                let n = request.uri.queryParameters.get("n", as: Int.self) ?? 1 << 20
                let piece = ByteBuffer(bytes: [UInt8](repeating: 0x61, count: 1 << 16))
                return Response(status: .ok, headers: [.contentType: "application/octet-stream"],
                                body: ResponseBody(contentLength: n) { writer in
                                    var written = 0
                                    while written < n {
                                        let size = min(1 << 16, n - written)
                                        try await writer.write(piece.getSlice(at: 0, length: size)!)
                                        written += size
                                    }
                                    try await writer.finish(nil)
                                })
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
