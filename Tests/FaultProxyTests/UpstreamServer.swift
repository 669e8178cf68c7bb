import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// The server behind the proxy: Hummingbird 2 on 127.0.0.1 and an ephemeral port, stopped by a
/// graceful shutdown rather than by cancelling its task: cancelling traps in NIO when a connection
/// has been accepted but not yet served (apple/swift-nio#3481).
///
/// - `POST /echo[?status=N]`: logs the body, answers it back with status N (200 by default).
/// - `GET /stream?n=N`: N numbered lines in separate writes and no length: a chunked response.
final class UpstreamServer: Sendable {
    let port: Int
    let log: UpstreamLog
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(port: Int, log: UpstreamLog, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.log = log
        self.group = group
        self.task = task
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
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "fault-proxy-upstream")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task { try await group.run() }
        var port = 0
        for await bound in portStream { port = bound }
        return UpstreamServer(port: port, log: log, group: group, task: task)
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }

    /// The body `POST /stream?n=` sends, to compare with what came through.
    static func streamBody(lines n: Int) -> String {
        (0..<n).map { "line \($0)\n" }.joined()
    }
}
