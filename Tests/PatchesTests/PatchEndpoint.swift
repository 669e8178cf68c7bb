import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// An HTTP patch endpoint on 127.0.0.1 for `patch.check`: answers 204 until a test gives it a
/// patch file to serve, and remembers the headers of the last request.
final class PatchEndpoint: @unchecked Sendable {
    private let lock = NSLock()
    private var served: (status: Int, body: String)?
    private var lastHeaders: [String: String] = [:]
    private(set) var port = 0
    private var task: Task<Void, any Error>?
    private var group: ServiceGroup?

    var url: String { "http://127.0.0.1:\(port)/patches/latest" }

    func serve(status: Int = 200, _ body: String) { lock.withLock { served = (status, body) } }
    var headers: [String: String] { lock.withLock { lastHeaders } }

    func start() async throws {
        let router = Router()
        router.get("/patches/latest") { [self] request, _ -> Response in
            let answer = lock.withLock { () -> (Int, String)? in
                lastHeaders = Dictionary(request.headers.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { $1 })
                return served
            }
            guard let (status, body) = answer else { return Response(status: .noContent) }
            return Response(status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        var logger = Logger(label: "patch-endpoint")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0); continuation.finish() },
                              logger: logger)
        // Stopped by a graceful shutdown, not by cancelling: cancelling traps in NIO when a
        // connection was accepted but not yet served (apple/swift-nio#3481).
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        self.group = group
        task = Task { try await group.run() }
        for await bound in ports { port = bound }
    }

    func stop() async {
        await group?.triggerGracefulShutdown()
        _ = await task?.result
    }
}
