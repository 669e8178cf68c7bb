import Foundation
import HostTesting
import Hummingbird

/// The server behind the proxy: Hummingbird 2 on 127.0.0.1 and an ephemeral port, stopped by a
/// graceful shutdown rather than by cancelling its task: cancelling traps in NIO when a connection
/// has been accepted but not yet served (apple/swift-nio#3481).
///
/// - `POST /echo[?status=N]`: logs the body, answers it back with status N (200 by default).
/// - `GET /stream?n=N`: N numbered lines in separate writes and no length: a chunked response.
final class UpstreamServer: Sendable {
    let log: UpstreamLog
    private let server: LocalHTTPServer

    var port: Int { server.port }

    private init(server: LocalHTTPServer, log: UpstreamLog) {
        self.server = server
        self.log = log
    }

    static func start() async throws -> UpstreamServer {
        let log = UpstreamLog()
        let router = Router()
        router.post("/echo") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            log.record(String(buffer: body))
            let status = request.uri.queryParameters.get("status", as: Int.self) ?? 200
            return Response(status: .init(code: status), headers: [.contentType: "text/plain"], body: .init(byteBuffer: body))
        }
        router.get("/stream") { request, _ -> Response in
            let n = request.uri.queryParameters.get("n", as: Int.self) ?? 10
            return Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody { writer in
                for line in 0..<n { try await writer.write(ByteBuffer(string: "line \(line)\n")) }
                try await writer.finish(nil)
            })
        }
        return UpstreamServer(server: try await LocalHTTPServer.start(router: router, label: "fault-proxy-upstream"), log: log)
    }

    func stop() async { await server.stop() }

    /// The body `POST /stream?n=` sends, to compare with what came through.
    static func streamBody(lines n: Int) -> String {
        (0..<n).map { "line \($0)\n" }.joined()
    }
}
